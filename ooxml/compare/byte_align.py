"""Two bodies' blocks aligned on their bytes, as ``Comparer.pairs`` aligns them on their XML.

Blocks the same byte for byte are the same XML (both roots declare the same prefixes); the
stretches left between go through the same second pass on the bytes without save marks
(rsids, paragraph IDs). What is still unmatched stays so: the engine aligns it on its text.
"""
from __future__ import annotations

import re
from itertools import count

import numpy as np

from ooxml.compare import byte_plain
from ooxml.compare.byte_numbers import numbers, signatures
from ooxml.compare.align import Pair, align, align_numbers, refine
from ooxml.compare.byte_blocks import Body

_RSIDS = re.compile(rb' w:rsid\w*="[^"\0]*"(?=[^<>\0]*>)')  # serial.without_save_marks, on bytes
_PARA_IDS = re.compile(rb' w14:(?:paraId|textId)="[^"\0]*"(?=[^<>\0]*>)')
# What a block equal on both sides still brings to the comparison: pictures and charts (their
# parts may differ; in a drawing's bytes), note references (the notes are compared), section
# breaks (headers, footers).
_CONTEXT = (b"blip", b"drawingml/2006/chart")
_BY_NUMPY = 256  # blocks in a stretch from which byte_plain strips their marks (below: the regexes)
_FEW = 8  # at most 1/8 of the blocks alike across the sides: the first pass on numbers
_HEAD = 256  # first blocks a side whose likeness is looked at first


def _plain(xml: bytes) -> bytes:
    return _PARA_IDS.sub(b"", _RSIDS.sub(b"", xml))


def _plains(keys: list[bytes]) -> list[bytes]:
    if len(keys) < 64:
        return [_plain(x) for x in keys]
    return _plain(b"\0".join(keys)).split(b"\0")  # one pass (NUL is in no XML)


def pairs(a: Body, b: Body, plain: bool) -> list[Pair]:
    """The alignment of the blocks of ``a`` and ``b`` (``plain``: the save marks' prefixes are
    Word's, so blocks equal without them are equal)."""
    n, m = len(a.spans), len(b.spans)
    numbered = _numbered(a, b) if plain else None
    if numbered == ():  # a file written again, no block as it was: the first pass leaves all apart
        if n * m <= 1:
            return [(i, None) for i in range(n)] + [(None, j) for j in range(m)]
        return _by_plain(_Plains(a, True), _Plains(b, True), 0, n, 0, m)
    # numbers: equal where the bytes are (a file written again: few blocks as they were)
    found = align_numbers(*numbers(a, b)) if numbered is None else align(*numbered)
    if not plain:
        return found
    apart = 2 * len(found) - n - m  # (each block once: matched pairs hold two)
    whole = apart >= _BY_NUMPY and 2 * apart >= n + m  # most blocks left: cut all marks at once
    plains = [_Plains(body, whole) for body in (a, b)]

    def by_plain(lo_a, hi_a, lo_b, hi_b) -> list[Pair]:
        if hi_a - lo_a == 1 == hi_b - lo_b:  # the engine pairs it on its text
            return [(lo_a, None), (None, lo_b)]
        return _by_plain(*plains, lo_a, hi_a, lo_b, hi_b)
    return refine(found, by_plain)


class _Plains:
    """A body's blocks without save marks, by stretch: from ``byte_plain`` (all blocks at once when
    ``whole``, else long stretches), or from the regexes."""

    def __init__(self, body: Body, whole: bool):
        self.body = body
        self.all = byte_plain.plain_keys(body, 0, len(body.spans)) if whole and body.spans else None

    def of(self, lo: int, hi: int) -> list[bytes]:
        if self.all is not None:  # (the same: the marks of each block are in its own tags)
            return self.all[lo:hi]
        got = byte_plain.plain_keys(self.body, lo, hi) if hi - lo >= _BY_NUMPY else None
        if got is not None:
            return got
        return _plains([self.body.key(k) for k in range(lo, hi)])


def _by_plain(plain_a: _Plains, plain_b: _Plains, lo_a, hi_a, lo_b, hi_b) -> list[Pair]:
    """Blocks ``lo``-``hi`` of each side aligned on their bytes without save marks (numbered: equal
    numbers for equal bytes, which ``align`` compares faster than long bytes)."""
    xs, ys = plain_a.of(lo_a, hi_a), plain_b.of(lo_b, hi_b)
    number: dict = {}
    got = align(list(map(number.setdefault, xs, count())), list(map(number.setdefault, ys, count(len(xs)))))
    if lo_a == lo_b == 0:
        return got
    return [(None if i is None else i + lo_a, None if j is None else j + lo_b) for i, j in got]


def _numbered(a: Body, b: Body) -> tuple | None:
    """Keys for the first pass that ``align`` takes as it takes the blocks' bytes, when few blocks
    could be equal across the sides (their lengths and first 24 bytes), else None; () when none is.
    Only equality across the sides counts there: a block with no equal on the other side gets a
    number of its own."""
    head = _found_in(signatures(a, _HEAD), signatures(b, _HEAD))
    if head.sum() * _FEW > len(head):
        return None  # (the first blocks already alike: a copy edited in places)
    sig_a, sig_b = signatures(a), signatures(b)
    in_a, in_b = _found_in(sig_a, sig_b), _found_in(sig_b, sig_a)
    if int(in_a.sum() + in_b.sum()) > (len(sig_a) + len(sig_b)) // _FEW:
        return None
    n = len(sig_a)
    keys_a, keys_b = np.arange(-1, -n - 1, -1), np.arange(-n - 1, -n - len(sig_b) - 1, -1)
    number: dict = {}
    at_a, at_b = np.flatnonzero(in_a).tolist(), np.flatnonzero(in_b).tolist()
    keys_a[at_a] = [number.setdefault(a.key(k), len(number)) for k in at_a]
    from_a = len(number)
    keys_b[at_b] = got = [number.setdefault(b.key(k), len(number)) for k in at_b]
    if all(x >= from_a for x in got):
        return ()
    return keys_a.tolist(), keys_b.tolist()


def _found_in(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Which of ``x`` are in ``y`` (np.isin sorts both sides together: 3x the time)."""
    if not len(y):
        return np.zeros(len(x), bool)
    y = np.sort(y)
    return y[np.minimum(np.searchsorted(y, x), len(y) - 1)] == x


def with_context(body: Body) -> set[int]:
    """The blocks that bring more than their XML to a comparison: those with a section's
    properties, a note reference, a drawing holding a picture or a chart (``_CONTEXT`` in its
    bytes), found from the start tags ``byte_blocks`` noted (a tag between blocks is in markers or
    the last section's properties: none)."""
    data, at = body.data, body.context
    if not body.spans:
        return set()
    k = np.searchsorted(body.bounds[:, 0], at, "right") - 1
    inside = (k >= 0) & (at < body.bounds[np.maximum(k, 0), 1])
    out: set[int] = set()
    for x, block in zip(at[inside].tolist(), k[inside].tolist()):
        if block in out:
            continue
        if data.startswith(b"w:drawin", x + 1):
            s, e = body.spans[block]
            if all(data.find(y, s, e) < 0 for y in _CONTEXT):
                continue
        elif not data.startswith((b"w:sectPr", b"w:footnoteReference", b"w:endnoteReference"), x + 1):
            continue  # (w:footnotePr ...)
        out.add(block)
    return out
