"""WCAG 2.1 contrast (1.4.3): relative luminance of sRGB colours and the ratio of two of them."""
from __future__ import annotations

import functools
import re

_HEX = re.compile(r"^[0-9A-Fa-f]{6}$")


def rgb(value: str | None) -> tuple[int, int, int] | None:
    """An RRGGBB value as Word writes it; None for 'auto' or anything else."""
    if not value or not _HEX.match(value):
        return None
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def luminance(c: tuple[int, int, int]) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@functools.lru_cache(maxsize=1024)  # a document has few colour pairs and many runs
def ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
