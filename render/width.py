"""Display width: East Asian wide characters take two columns (wcwidth)."""
from __future__ import annotations

from wcwidth import wcswidth, wcwidth


def _plain(text: str) -> bool:
    # Printable ASCII is one column a character: skip wcwidth's per-character lookups.
    return text.isascii() and text.isprintable()


def width(text: str) -> int:
    if _plain(text):
        return len(text)
    w = wcswidth(text)
    if w >= 0:
        return w
    return sum(max(wcwidth(ch), 0) for ch in text)  # control characters count as zero


def cut(text: str, columns: int, ellipsis: str = "...") -> str:
    """Cut ``text`` to at most ``columns`` display columns, marking the cut with ``...``."""
    if _plain(text):
        return text if len(text) <= columns else text[:columns - len(ellipsis)] + ellipsis
    if width(text) <= columns:
        return text
    out, used, room = [], 0, columns - len(ellipsis)
    for ch in text:
        cw = max(wcwidth(ch), 0)
        if used + cw > room:
            break
        out.append(ch)
        used += cw
    return "".join(out) + ellipsis


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))
