"""Screens of two accessibility rules on the main part's tags (``screen.Markup``), as ``screen_rules`` does
for the Word rules: True proves the rule finds nothing in the body, False runs it as before.

Why: on a 50,000-paragraph body, the search for bold paragraphs (one XPath, ~80 ms) and the walk's visit
of every paragraph for empty ones (~25 ms) cost more than these passes (~15 ms)."""
from __future__ import annotations

import numpy as np

from ooxml.check.screen import member

_ENDS = np.zeros(256, dtype=bool)
_ENDS[list(b".,:")] = True  # text ending so is no heading (';' could end an entity: not read)


class Body:
    """The body's paragraphs (tags at depth 2 under w:document/w:body): their start and end tags, and
    whether each holds a w:t; None (``body``) when paragraphs nest (text boxes) or the root is no document."""

    def __init__(self, m, starts: np.ndarray, ends: np.ndarray):
        self.m, self.starts, self.ends = m, starts, ends
        texts = m.tagged(b"w:t")
        self.texts = texts
        self.first_t = np.searchsorted(texts, starts)
        self.has_t = np.searchsorted(texts, ends) > self.first_t


def body(m) -> Body | None:
    if m.data[m.lt[0] + 1:m.lt[0] + 12] not in (b"w:document ", b"w:document>") or \
            m.data[m.lt[1]:m.gt[1] + 1] != b"<w:body>":
        return None
    opened = m.tagged(b"w:p")
    empty = m.empty[opened]
    closed = m.tagged(b"w:p", end=True)
    full = opened[~empty]
    if len(full) != len(closed) or (len(full) and not (np.all(full < closed) and np.all(closed[:-1] < full[1:]))):
        return None  # a paragraph in a paragraph (a text box): not read here
    ends = opened.copy()
    ends[~empty] = closed
    top = m.depth()[opened] == 2
    return Body(m, opened[top], ends[top])


def spacing_clear(b: Body) -> bool:
    """No two paragraphs without a w:t side by side in the body (the rule wants two empty ones in a row)."""
    bare = ~b.has_t
    side_by_side = b.ends[:-1] + 1 == b.starts[1:]
    return not (bare[:-1] & bare[1:] & side_by_side).any()


def bold_clear(b: Body) -> bool:
    """No body paragraph can look like a heading: each has no w:t, or a first run without w:b, or text
    ending with '.', ',' or ':' (its last w:t's text, nothing after it)."""
    m = b.m
    maybe = b.has_t & _first_run_bold(b)
    if not maybe.any():
        return True
    last = b.texts[np.searchsorted(b.texts, b.ends[maybe]) - 1]  # each one's last w:t
    if m.empty[last].any() or not member(last + 1, m.tagged(b"w:t", end=True)).all():
        return False
    closing = m.lt[last + 1]
    tail_free = m.gt[last + 1] + 1 == m.lt[np.minimum(last + 2, len(m.lt) - 1)]
    has_text = m.gt[last] + 1 < closing
    if not (tail_free & has_text).all():
        return False
    return bool(_ENDS[m.arr[closing - 1]].all())


def _first_run_bold(b: Body) -> np.ndarray:
    """Whether each paragraph's first run (a child w:r) may be bold: a w:b anywhere in it."""
    m = b.m
    runs = m.tagged(b"w:r")
    runs = runs[m.depth()[runs] == 3]
    at = np.searchsorted(runs, b.starts)
    inside = at < len(runs)
    inside[inside] = runs[at[inside]] < b.ends[inside]
    out = np.zeros(len(b.starts), dtype=bool)
    if not inside.any():
        return out
    first = runs[at[inside]]
    closed = m.tagged(b"w:r", end=True)
    opened = m.tagged(b"w:r")
    opened = opened[~m.empty[opened]]
    if len(opened) != len(closed) or not (np.all(opened < closed) and np.all(closed[:-1] < opened[1:])):
        return np.ones(len(b.starts), dtype=bool)  # a run in a run (ruby): each may be bold
    run_end = np.where(m.empty[first], first, closed[np.minimum(np.searchsorted(closed, first), len(closed) - 1)])
    bolds = m.tagged(b"w:b")
    out[inside] = np.searchsorted(bolds, run_end) > np.searchsorted(bolds, first)
    return out
