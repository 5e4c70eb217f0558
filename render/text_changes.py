"""Changes the boxes cannot show: text past a box's cut, cells outside a table's excerpt.

A box cuts a paragraph at 80 columns and a table at 20 rows, 10 columns and 14 characters a cell
(a compact answer squeezes each box to one line of 120), so an edit there looked like "(no visible
change)", or like two cut boxes differing before the change. While a call draws its before/after
boxes, ``record`` keeps each element's whole text next to the lines drawn; ``hidden_changes`` then
gives, for each change of text the boxes did not show whole, a window around it with ``…``
marking the cuts. Reads only.
"""
from __future__ import annotations

import difflib
import re

from lxml import etree

from ooxml.text import body as B
from ooxml.tabular.grid import TableGrid

SIDE = 30  # characters of unchanged text each side of a change
MAX_CHANGED = 60  # characters of the changed text itself
MAX_ELEMENTS = 64  # elements remembered in one call
MAX_CELLS = 5  # changed cells listed per table
MAX_HUNKS = 3  # windows per paragraph
MAX_TOKENS = 2000  # words of both sides diffed word by word (about 70 ms at worst); more: one window
CELL_SHOWN = 10  # characters of a cell's text a table's box surely shows (it cuts at 14)
SHOWN = 60  # characters of a cut box's text surely shown (its line holds a title, a label, marks)
_TOKENS = re.compile(r"\w+\s*|[^\w\s]\s*|\s+")  # a word with the spaces after it

KEY = "text_changes"  # doc.caches[KEY]: {id: [(lines, texts)]}; a call starts by dropping it
# (tools/docx/common.py session_of): what earlier calls drew does not count


def texts(doc, el: etree._Element) -> dict:
    """What the element says, in pieces a change can be placed in: a paragraph whole, a table by cell."""
    if el.tag == B.W_P:  # plain text: drawing a long paragraph's marks costs a draw per run
        return {"": B.paragraph_text(el)}
    if el.tag == B.W_TBL:
        matrix = TableGrid(el).text_matrix()
        return {f"row {r}, col {c}": text for r, row in enumerate(matrix) for c, text in enumerate(row)}
    return {}


def record(doc, el: etree._Element, eid: str, lines: list[str], known: dict | None = None) -> None:
    """Keep ``lines`` drawn of ``el`` with its text (``known``: its ``texts``, already read)."""
    if el.tag not in (B.W_P, B.W_TBL):
        return
    memo = doc.caches.setdefault(KEY, {})
    if eid not in memo and len(memo) >= MAX_ELEMENTS:
        return
    memo.setdefault(eid, []).append((tuple(lines), texts(doc, el) if known is None else known))


def window(old: str, new: str) -> tuple[str, str]:
    """The two texts around where they differ, cut with … (``SIDE`` characters of context)."""
    a0, a1, b0, b1 = _span(old, new)
    return _cut(old, a0, a1), _cut(new, b0, b1)


def _span(old: str, new: str) -> tuple[int, int, int, int]:
    """From the first to the last character that differ: (old start, old end, new start, new end)."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return start, len(old) - end, start, len(new) - end


def hunks(old: str, new: str) -> list[tuple[int, int, int, int]]:
    """Where the texts differ, word by word, as (old start, old end, new start, new end); changes
    closer than two windows' context are one hunk. Only the part between the common start and end
    is diffed, and only up to MAX_TOKENS words (difflib grows fast on repeated words): past that,
    the first difference and the last."""
    a0, a1, b0, b1 = _span(old, new)
    cut = min(_word_start(old, a0), _word_start(new, b0))  # whole words: the same cut on both sides
    a, b = _TOKENS.findall(old[cut:a1]), _TOKENS.findall(new[cut:b1])
    if len(a) + len(b) > MAX_TOKENS:
        return [(a0, a1, b0, b1), (max(a0, a1 - MAX_CHANGED), a1, max(b0, b1 - MAX_CHANGED), b1)]
    at_a, at_b = _offsets(a, cut), _offsets(b, cut)
    out: list[list[int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if out and at_a[i1] - out[-1][1] <= 2 * SIDE:
            out[-1][1], out[-1][3] = at_a[i2], at_b[j2]
        else:
            out.append([at_a[i1], at_a[i2], at_b[j1], at_b[j2]])
    return [tuple(h) for h in out] or [(a0, a1, b0, b1)]


def _word_start(text: str, i: int) -> int:
    while i > 0 and not text[i - 1].isspace():
        i -= 1
    return i


def _offsets(tokens: list[str], start: int) -> list[int]:
    out = [start]
    for t in tokens:
        out.append(out[-1] + len(t))
    return out


def _cut(text: str, a: int, b: int) -> str:
    lo, hi = max(0, a - SIDE), min(len(text), min(b, a + MAX_CHANGED) + SIDE)
    middle = text[lo:hi].replace("\n", "↵").replace("\t", "→")
    return ("…" if lo else "") + middle + ("…" if hi < len(text) else "")


def _cut_box(lines) -> bool:
    """A line of the box (framed or squeezed) ends cut (render/width.py cut)."""
    return any(line.rstrip().rstrip("│").rstrip().endswith("...") for line in lines)


def hidden_changes(doc, squeeze=None) -> list[str]:
    """Diff lines for the changes this call's boxes did not show (and forget the records).
    ``squeeze``: how the answer shows a box's lines (a compact answer's one line per box)."""
    memo = doc.caches.pop(KEY, {})
    out: list[str] = []
    for eid, records in memo.items():
        (lines_before, before), (lines_after, after) = records[0], records[-1]
        if len(records) < 2 or before == after:
            continue
        if squeeze is not None:
            lines_before, lines_after = squeeze(list(lines_before)), squeeze(list(lines_after))
        shown = lines_before != lines_after  # the boxes differ: what they show is not repeated
        if "" in before:
            out += _paragraph_windows(eid, before[""], after[""], shown and _cut_box(lines_before + lines_after),
                                      shown)
        else:
            out += _cell_windows(eid, before, after, shown and squeeze is None)
    return out


def _paragraph_windows(eid: str, old: str, new: str, cut: bool, shown: bool) -> list[str]:
    """Windows around a paragraph's changes; with boxes that differ, only those past their cut."""
    if shown and not cut:
        return []  # the boxes show the whole paragraph
    found = [h for h in hunks(old, new) if not shown or max(h[1], h[3]) > SHOWN]
    out: list[str] = []
    for a0, a1, b0, b1 in found[:MAX_HUNKS]:
        out += [f"@@ {eid}", f"-{_cut(old, a0, a1)}", f"+{_cut(new, b0, b1)}"]
    if len(found) > MAX_HUNKS:
        out.append(f"@@ ({len(found) - MAX_HUNKS} more changes in {eid} not shown)")
    return out


def _cell_windows(eid: str, before: dict, after: dict, shown: bool) -> list[str]:
    """Changed cells; with boxes that differ, only those whose text a cell's box cuts."""
    changed = [k for k in before if k in after and before[k] != after[k]]
    if shown:
        changed = [k for k in changed if max(len(before[k]), len(after[k])) > CELL_SHOWN]
    out: list[str] = []
    for key in changed[:MAX_CELLS]:
        old, new = window(before[key], after[key])
        out += [f"@@ {eid} {key}", f"-{old}", f"+{new}"]
    if len(changed) > MAX_CELLS:
        out.append(f"@@ ({len(changed) - MAX_CELLS} more changed cells not shown)")
    return out
