"""Numbers read from a document: parsed defensively and clamped to what the format allows.

A file may say anything (``w:gridSpan="99999999999999999999"``, ``w:id="²"``, ``w:w="1e400"``);
nothing may be built or sized by such a number unchecked. Every count, size or id the product
reads from XML goes through ``file_int`` with the range the format (or Word) allows.
"""
from __future__ import annotations

import math

INT32_MAX = 0x7FFF_FFFF
MAX_TWIPS = 31_680  # 22 inches: Word's largest page side, so no length in a document exceeds it
_MAX_DIGITS = 40  # longer numbers are garbage, and int() of thousands of digits is slow


def file_int(value: str | None, default: int, lo: int, hi: int) -> int:
    """``value`` as an int clamped to ``lo..hi``; ``default`` when it is missing or not a number.

    Accepts what Word writes ("12", "-3") and decimals some producers write ("12.0", "1e3").
    """
    if value is None:
        return default
    text = value.strip()
    digits = text.lstrip("+-")
    if digits.isascii() and digits.isdigit():
        if len(digits) > _MAX_DIGITS:
            return lo if text.startswith("-") else hi
        number = int(text)
    elif not text or len(text) > _MAX_DIGITS:
        return default
    else:
        try:
            real = float(text)
        except ValueError:
            return default
        if math.isnan(real):
            return default
        if math.isinf(real):
            return hi if real > 0 else lo
        number = int(real)
    return min(hi, max(lo, number))


def file_id(value: str | None) -> int | None:
    """A decimal id of Word's (bookmark, revision, drawing): None unless it is 0..INT32_MAX."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) > 10:
        return None
    number = int(value)
    return number if number <= INT32_MAX else None
