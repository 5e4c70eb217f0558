"""Lengths: numbers are inches; strings may carry a unit (cm, mm, in, pt, twip, emu, px)."""
from __future__ import annotations

import math
import re

from ooxml.xml.errors import ValidationError

EMU_PER_INCH = 914_400
TWIPS_PER_INCH = 1440
_UNITS = {"in": 1.0, "inch": 1.0, "inches": 1.0, '"': 1.0, "cm": 1 / 2.54, "mm": 1 / 25.4,
          "pt": 1 / 72, "twip": 1 / 1440, "twips": 1 / 1440, "dxa": 1 / 1440, "emu": 1 / 914_400,
          "px": 1 / 96}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*([a-zA-Z\"]*)\s*$")


_HINT = "Use a number of inches or a string with a unit: '2.54cm', '25mm', '1in', '72pt'."
MAX_INCHES = 1000.0  # far beyond any page (22 in): larger numbers are mistakes, and 1e308 would overflow


def inches(value: float | int | str, arg: str = "length") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValidationError(f"{arg} must be a length (a number or a string with a unit), not "
                              f"{type_name(value)}.", hint=_HINT)
    if isinstance(value, (int, float)):
        number = float(value) if abs(value) < 1e300 else math.inf
    else:
        m = _LENGTH.match(value[:100])
        unit = m.group(2).lower() if m else ""
        if not m or (unit and unit not in _UNITS):
            raise ValidationError(f"{arg}: '{value[:40]}' is not a length.", hint=_HINT)
        number = float(m.group(1)) * _UNITS.get(unit or "in")
    if not math.isfinite(number) or abs(number) > MAX_INCHES:
        raise ValidationError(f"{arg}: {str(value)[:40]} is not a usable length (at most {MAX_INCHES:g} inches "
                              "either way).", hint=_HINT)
    return number


def type_name(value: object) -> str:
    """How JSON calls the type of ``value``: a boolean, null, a list ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def twips(value, arg: str = "length") -> int:
    return round(inches(value, arg) * TWIPS_PER_INCH)


def emu(value, arg: str = "length") -> int:
    return round(inches(value, arg) * EMU_PER_INCH)


def points(value, arg: str = "size") -> float:
    """Font sizes: numbers are points; strings may carry a unit."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not math.isfinite(value) or abs(value) > MAX_INCHES * 72:
            raise ValidationError(f"{arg}: {value} is not a usable size.", hint="Use points, e.g. 12 or '10.5pt'.")
        return float(value)
    return inches(value, arg) * 72
