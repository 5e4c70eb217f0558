"""Two bodies' blocks aligned on their bytes, as ``Comparer.pairs`` aligns them on their XML.

Blocks the same byte for byte are the same XML (both roots declare the same prefixes); the
stretches left between go through the same second pass on the bytes without save marks
(rsids, paragraph IDs). What is still unmatched stays so: the engine aligns it on its text.
"""
from __future__ import annotations

import re
from bisect import bisect_right

from ooxml.compare.align import Pair, align, refine
from ooxml.compare.byte_blocks import Body

_RSIDS = re.compile(rb' w:rsid\w*="[^"]*"(?=[^<>]*>)')  # serial.without_save_marks, on bytes
_PARA_IDS = re.compile(rb' w14:(?:paraId|textId)="[^"]*"(?=[^<>]*>)')
# What a block equal on both sides still brings to the comparison: pictures and charts (their
# parts may differ), note references (the notes are compared), section breaks (headers, footers).
_CONTEXT = (b"blip", b"drawingml/2006/chart", b"noteReference", b"<w:sectPr")


def _plain(xml: bytes) -> bytes:
    return _PARA_IDS.sub(b"", _RSIDS.sub(b"", xml))


def _plains(keys: list[bytes]) -> list[bytes]:
    if len(keys) < 64:
        return [_plain(x) for x in keys]
    return _plain(b"\0".join(keys)).split(b"\0")  # one pass (NUL is in no XML)


def pairs(a: Body, b: Body, plain: bool) -> list[Pair]:
    """The alignment of the blocks of ``a`` and ``b`` (``plain``: the save marks' prefixes are
    Word's, so blocks equal without them are equal)."""
    keys_a = [a.key(k) for k in range(len(a.spans))]
    keys_b = [b.key(k) for k in range(len(b.spans))]
    found = align(keys_a, keys_b)
    if not plain:
        return found

    def by_plain(lo_a, hi_a, lo_b, hi_b) -> list[Pair]:
        if hi_a - lo_a == 1 == hi_b - lo_b:  # the engine pairs it on its text
            return [(lo_a, None), (None, lo_b)]
        got = align(_plains(keys_a[lo_a:hi_a]), _plains(keys_b[lo_b:hi_b]))
        return [(None if i is None else i + lo_a, None if j is None else j + lo_b) for i, j in got]
    return refine(found, by_plain)


def with_context(body: Body) -> set[int]:
    """The blocks that bring more than their XML to a comparison (``_CONTEXT``), found in C (a hit
    between blocks is in markers or the last section's properties: none)."""
    starts = [s for s, _ in body.spans]
    out = set()
    for x in _CONTEXT:
        at = body.data.find(x, body.start, body.end)
        while at >= 0:
            k = bisect_right(starts, at) - 1
            if k >= 0 and at < body.spans[k][1]:
                out.add(k)
                at = body.spans[k][1]
            at = body.data.find(x, at + 1, body.end)
    return out
