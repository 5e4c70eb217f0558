"""Changes the boxes cannot show: text past a box's cut, cells outside a table's excerpt.

A box cuts a paragraph at 80 columns and a table at 20 rows, 10 columns and 14 characters a cell,
so an edit there looked like "(no visible change)". While a call draws its before/after boxes,
``record`` keeps each element's whole text next to the lines drawn; ``hidden_changes`` then gives,
for each element whose text changed while its box did not, a window around the change with ``…``
marking the cuts. Reads only.
"""
from __future__ import annotations


from lxml import etree

from ooxml.text import body as B
from ooxml.tabular.grid import TableGrid

SIDE = 30  # characters of unchanged text each side of a change
MAX_CHANGED = 60  # characters of the changed text itself
MAX_ELEMENTS = 64  # elements remembered in one call
MAX_CELLS = 5  # changed cells listed per table

_KEY = "text_changes"  # doc.caches[_KEY]: {id: [(lines, texts)]}


def forget(doc) -> None:
    """A new call starts: what earlier calls drew does not count."""
    doc.caches.pop(_KEY, None)


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
    memo = doc.caches.setdefault(_KEY, {})
    if eid not in memo and len(memo) >= MAX_ELEMENTS:
        return
    memo.setdefault(eid, []).append((tuple(lines), texts(doc, el) if known is None else known))


def window(old: str, new: str) -> tuple[str, str]:
    """The two texts around where they differ, cut with … (``SIDE`` characters of context)."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return _cut(old, start, len(old) - end), _cut(new, start, len(new) - end)


def _cut(text: str, a: int, b: int) -> str:
    lo, hi = max(0, a - SIDE), min(len(text), min(b, a + MAX_CHANGED) + SIDE)
    middle = text[lo:hi].replace("\n", "↵").replace("\t", "→")
    return ("…" if lo else "") + middle + ("…" if hi < len(text) else "")


def hidden_changes(doc) -> list[str]:
    """Diff lines for the changes this call's boxes did not show (and forget the records)."""
    memo = doc.caches.pop(_KEY, {})
    out: list[str] = []
    for eid, records in memo.items():
        (lines_before, before), (lines_after, after) = records[0], records[-1]
        if len(records) < 2 or lines_before != lines_after or before == after:
            continue
        changed = [k for k in before if k in after and before[k] != after[k]]
        for key in changed[:MAX_CELLS]:
            old, new = window(before[key], after[key])
            out += [f"@@ {eid}{' ' + key if key else ''}", f"-{old}", f"+{new}"]
        if len(changed) > MAX_CELLS:
            out.append(f"@@ ({len(changed) - MAX_CELLS} more changed cells not shown)")
    return out
