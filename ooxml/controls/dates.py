"""Dates of date controls: ISO input, Word's ``w:dateFormat`` pictures for the shown text."""
from __future__ import annotations

import re
from datetime import date, datetime

from ooxml.xml.errors import ValidationError

DEFAULT_FORMAT = "M/d/yyyy"
_TOKEN = re.compile(r"'[^']*'|yyyy|yy|MMMM|MMM|MM|M|dddd|ddd|dd|d|HH|H|hh|h|mm|m|ss|s|AM/PM|am/pm|.", re.S)
_MONTHS = ("January February March April May June July August September October November December").split()
_DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()


def parse_iso(value) -> datetime:
    """An ISO date (``2026-03-01``) or date-time; ValidationError otherwise."""
    if isinstance(value, str) and 8 <= len(value.strip()) <= 40:
        text = value.strip().replace("Z", "+00:00")
        try:
            if len(text) == 10:
                return datetime.combine(date.fromisoformat(text), datetime.min.time())
            return datetime.fromisoformat(text).replace(tzinfo=None)
        except ValueError:
            pass
    raise ValidationError(f"'{str(value)[:60]}' is not an ISO date.",
                          hint="Pass a date as YYYY-MM-DD, e.g. '2026-03-01' (or an ISO date-time).")


def shown(when: datetime, picture: str | None) -> str:
    """The date as Word shows it with the control's date format (its picture tokens)."""
    out = []
    for tok in _TOKEN.findall(picture or DEFAULT_FORMAT):
        out.append(_piece(when, tok))
    return "".join(out)


def _piece(d: datetime, tok: str) -> str:
    if tok.startswith("'") and tok.endswith("'") and len(tok) >= 2:
        return tok[1:-1]
    hour12 = d.hour % 12 or 12
    table = {"yyyy": f"{d.year:04d}", "yy": f"{d.year % 100:02d}", "MMMM": _MONTHS[d.month - 1],
             "MMM": _MONTHS[d.month - 1][:3], "MM": f"{d.month:02d}", "M": str(d.month),
             "dddd": _DAYS[d.weekday()], "ddd": _DAYS[d.weekday()][:3], "dd": f"{d.day:02d}", "d": str(d.day),
             "HH": f"{d.hour:02d}", "H": str(d.hour), "hh": f"{hour12:02d}", "h": str(hour12),
             "mm": f"{d.minute:02d}", "m": str(d.minute), "ss": f"{d.second:02d}", "s": str(d.second),
             "AM/PM": "AM" if d.hour < 12 else "PM", "am/pm": "am" if d.hour < 12 else "pm"}
    return table.get(tok, tok)


def full_date(d: datetime) -> str:
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def stored(d: datetime, mode: str | None, display: str) -> str:
    """The bound node's text, as ``w:storeMappedDataAs`` asks (Word's default: dateTime)."""
    if mode == "text":
        return display
    if mode == "date":
        return d.strftime("%Y-%m-%d")
    return d.strftime("%Y-%m-%dT%H:%M:%S")
