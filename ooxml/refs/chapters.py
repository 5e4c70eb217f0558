"""Chapter numbers of captions: ``STYLEREF N \\s`` before a caption's ``SEQ … \\s N``.

A STYLEREF whose first word is a digit N reads the nearest heading of outline level N (Word's
heading N), searching back from the field, then forward; ``\\s``/``\\n``/``\\r`` read the heading's
list number without its trailing punctuation ('2.' -> '2').
"""
from __future__ import annotations

import bisect
import re

from lxml import etree

from ooxml.lists import numbering
from ooxml.text import body as B

_TRAILING = re.compile(r"[^0-9A-Za-z\u00c0-\uffff]+$")  # the '.' or ')' after a list number


def level_of(doc, p: etree._Element) -> int | None:
    """A paragraph's 1-based heading level (outline level + 1), None for body text."""
    level = B.direct_outline_level(p)
    sid = B.style_id(p)
    level = level if level is not None else (doc.styles.outline_level(sid) if sid else None)
    return level + 1 if level is not None and level < 9 else None


def number_of(doc, p: etree._Element) -> str | None:
    """The list number of a heading as ``\\s`` shows it, None when it has none."""
    return _TRAILING.sub("", numbering.label_of(doc, p) or "") or None


class Headings:
    """The body's paragraphs in order, and its headings by level: one walk, then bisects."""

    def __init__(self, doc):
        self.doc = doc
        self.index: dict = {}
        self.by_level: dict[int, list[int]] = {}
        self.paras: list[etree._Element] = []
        for i, p in enumerate(doc.body.iter(B.W_P)):
            self.index[p] = i
            self.paras.append(p)
            level = level_of(doc, p)
            if level is not None:
                self.by_level.setdefault(level, []).append(i)

    def near(self, p: etree._Element, level: int, include: bool = False,
             forward: bool = True) -> etree._Element | None:
        """The nearest heading of ``level`` before paragraph ``p`` (``p`` too if ``include``), else
        the first after it when ``forward`` (Word's search)."""
        at, found = self.index.get(p), self.by_level.get(level, [])
        if at is None:
            return None
        k = bisect.bisect_right(found, at) if include else bisect.bisect_left(found, at)
        if k:
            return self.paras[found[k - 1]]
        return self.paras[found[k]] if forward and k < len(found) else None


def chapter_of(doc, at: etree._Element, level: int, include: bool = False) -> str | None:
    """The number of the level-``level`` heading before ``at``: what a new caption there shows."""
    first = at if at.tag == B.W_P else next(at.iter(B.W_P), None)
    if first is None:  # a block holding no paragraph: the one before it decides
        first, include = next(at.itersiblings(B.W_P, preceding=True), None), True
    heading = Headings(doc).near(first, level, include, forward=False) if first is not None else None
    return number_of(doc, heading) if heading is not None else None
