"""Moved paragraphs: a paragraph deleted in one place and inserted in another with the same text.

Word's markup: the old place holds the paragraph as ``w:moveFrom`` (runs and paragraph mark), the
new place as ``w:moveTo``, each inside a named range (``w:moveFromRangeStart``/``End``,
``w:moveToRangeStart``/``End``) whose names pair them; every ``w:id`` is unique.
"""
from __future__ import annotations

from collections import Counter

from lxml import etree

from ooxml.text import body as B
from ooxml.compare.marks import Marks
from ooxml.xml.namespaces import w
from ooxml.xml.order import get_or_add

W_MOVE_FROM, W_MOVE_TO = w("moveFrom"), w("moveTo")
MIN_CHARS = 12  # shorter paragraphs ("Yes.", blank ones) are not worth calling moves


def find(pairs: list, blocks_a: list, blocks_b: list, key) -> set:
    """The (i, j) of paragraphs that moved: the same key deleted once and inserted once."""
    gone = [i for i, j in pairs if j is None and blocks_a[i].tag == B.W_P]
    new = [j for i, j in pairs if i is None and blocks_b[j].tag == B.W_P]
    count_a = Counter(key(blocks_a[i]) for i in gone)
    count_b = Counter(key(blocks_b[j]) for j in new)
    where_b = {key(blocks_b[j]): j for j in new if count_b[key(blocks_b[j])] == 1}
    out = set()
    for i in gone:
        k = key(blocks_a[i])
        if count_a[k] == 1 and k in where_b and len(k.strip()) >= MIN_CHARS:
            out.add((i, where_b[k]))
    return out


class MoveWriter:
    def __init__(self, marks: Marks):
        self.marks = marks

    def name(self) -> str:
        """A range name unique in the document (the counter lives with the comparison's marks)."""
        self.marks.moves_named += 1
        return f"move{self.marks.moves_named}"

    def mark(self, p: etree._Element, tag: str, name: str) -> None:
        """``p`` (a paragraph) as moved from or to, inside its named range."""
        marks = self.marks
        marks.wrap(list(B.iter_runs(p)), tag)
        marks.mark_paragraph(p, tag)
        kind = "moveFrom" if tag == W_MOVE_FROM else "moveTo"
        start = marks.stamp(w(kind + "RangeStart"), p)
        start.set(w("name"), name)
        end = etree.Element(w(kind + "RangeEnd"), {w("id"): start.get(w("id"))})
        ppr = get_or_add(p, "pPr")
        ppr.addnext(start)
        p.append(end)
        if tag == W_MOVE_TO:
            marks.note("moves", p)
