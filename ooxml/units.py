"""Lengths: numbers are inches; strings may carry a unit (cm, mm, in, pt, twip, emu, px)."""
from __future__ import annotations

import re

from ooxml.errors import ValidationError

EMU_PER_INCH = 914_400
TWIPS_PER_INCH = 1440
_UNITS = {"in": 1.0, "inch": 1.0, "inches": 1.0, '"': 1.0, "cm": 1 / 2.54, "mm": 1 / 25.4,
          "pt": 1 / 72, "twip": 1 / 1440, "twips": 1 / 1440, "dxa": 1 / 1440, "emu": 1 / 914_400,
          "px": 1 / 96}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*([a-zA-Z\"]*)\s*$")


def inches(value: float | int | str, arg: str = "length") -> float:
    if isinstance(value, bool):
        raise ValidationError(f"{arg} must be a length, not a boolean.")
    if isinstance(value, (int, float)):
        return float(value)
    m = _LENGTH.match(str(value))
    unit = m.group(2).lower() if m else ""
    if not m or (unit and unit not in _UNITS):
        raise ValidationError(f"{arg}: '{value}' is not a length.",
                              hint="Use a number of inches or a string with a unit: '2.54cm', '25mm', '1in', '72pt'.")
    return float(m.group(1)) * _UNITS.get(unit or "in")


def twips(value, arg: str = "length") -> int:
    return round(inches(value, arg) * TWIPS_PER_INCH)


def emu(value, arg: str = "length") -> int:
    return round(inches(value, arg) * EMU_PER_INCH)


def points(value, arg: str = "size") -> float:
    """Font sizes: numbers are points; strings may carry a unit."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return inches(value, arg) * 72
