"""Display width: East Asian wide characters take two columns (wcwidth)."""
from __future__ import annotations

import re

from wcwidth import wcswidth, wcwidth


def plain(text: str) -> bool:
    # Printable ASCII is one column a character: skip wcwidth's per-character lookups.
    return text.isascii() and text.isprintable()


def width(text: str) -> int:
    if plain(text):
        return len(text)
    w = wcswidth(text)
    if w >= 0:
        return w
    return sum(max(wcwidth(ch), 0) for ch in text)  # control characters count as zero


# Characters that would start a new line (or worse) in an answer: a document may hold them in
# any text or attribute value, and an answer line must stay one line.
_BREAKING = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")
_SHOWN = {"\n": "\u21b5", "\r": "\u21b5", "\t": "\u2192"}


def one_line(text: str) -> str:
    """``text`` with line breaks shown as ↵, tabs as →, other control characters as spaces."""
    if plain(text):
        return text
    return _BREAKING.sub(lambda m: _SHOWN.get(m.group(), " "), text)


def cut(text: str, columns: int, ellipsis: str = "...") -> str:
    """Cut ``text`` to at most ``columns`` display columns, marking the cut with ``...``; one line."""
    text = one_line(text)
    if plain(text):
        return text if len(text) <= columns else text[:columns - len(ellipsis)] + ellipsis
    if 2 * len(text) <= columns:  # no character is wider than two columns: it fits, no wcwidth needed
        return text
    head = text[:8 * columns + 8]  # columns are reached within it unless most characters are zero-width
    if len(head) < len(text) and width(head) > columns:
        text = head  # the cut falls inside it: no width of a million characters for one box line
    elif width(text) <= columns:
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
    text = one_line(text)
    return text + " " * max(0, columns - width(text))
