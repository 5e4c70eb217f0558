"""A main part's top-level body blocks found in its bytes, without building a tree.

docx_compare's fast path (``spliced.py``): blocks the same byte for byte on both sides are never
parsed. The scanner says "not sure" (None) wherever bytes could mean something it does not model:
comments, CDATA or processing instructions in the body, the ``w`` prefix bound elsewhere, a
top-level element it cannot delimit. Then the whole comparison runs on trees, as it always did.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import accumulate

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.namespaces import OX, OX_PREFIX, W

_BODY_OPEN, _BODY_CLOSE = b"<w:body>", b"</w:body>"
# Blocks that may nest (text boxes hold paragraphs, cells hold tables): depth counts them all. The
# same pass finds what makes bytes unsure: revision marks (a comparison reads the accepted view),
# comments, CDATA and processing instructions (which could hide tags).
_NESTING = re.compile(rb"(<(?:/?w:(?:p|tbl|sdt|ins|del|cellIns|cellDel|cellMerge|moveFrom\w*|moveTo\w*|customXml\w*)"
                      rb"(?=[\s/>])[^>]*>|[!?]))")
_CHANGE = re.compile(rb"<w:\w+Change[\s/>]")  # w:rPrChange ... (looked for where "Change" occurs at all)
_BLOCK_TAGS = {b"<w:p ", b"<w:p>", b"<w:p/", b"</w:p", b"<w:tb", b"</w:t", b"<w:sd", b"</w:s"}  # 5 bytes of each
_SLASH = 47
_TAG = re.compile(rb"<(/?)([\w.:-]+)[^<>]*?(/?)>")
_MARKERS = {etree.QName(t).localname.encode() for t in B.MARKERS}
# What the body may not hold for bytes to stand for their XML: a prefix bound again to Word's
# namespace or to our IDs' (or our prefix bound again: spliced.py cuts ``oxm:id`` from bytes), our
# own separators (serial.py's cut: the whole body's would not serialize in one).
_UNSURE = (f'"{W}"'.encode(), f'"{OX}"'.encode(), f"xmlns:{OX_PREFIX}=".encode(), "\ue000".encode())


@dataclass
class Body:
    data: bytes
    start: int  # where the body's content starts (after <w:body>)
    end: int  # where </w:body> starts
    spans: list[tuple[int, int]]  # every block (what compare aligns: not markers), in order

    def key(self, k: int) -> bytes:
        s, e = self.spans[k]
        return self.data[s:e]


def scan(data: bytes) -> Body | None:
    """The body's blocks, or None when the bytes are not plain enough to be sure."""
    start = data.find(_BODY_OPEN)
    end = data.rfind(_BODY_CLOSE)
    if start < 0 or end < start or data.find(_BODY_OPEN, start + 1) >= 0:
        return None
    start += len(_BODY_OPEN)
    if any(data.find(x, start, end) >= 0 for x in _UNSURE) or _changes(data, start, end):
        return None
    spans = _blocks(data, start, end)
    return None if spans is None else Body(data, start, end, spans)


def _changes(data: bytes, start: int, end: int) -> bool:
    at = data.find(b"Change", start, end)
    return at >= 0 and _CHANGE.search(data, start, end) is not None


def _blocks(data: bytes, start: int, end: int) -> list[tuple[int, int]] | None:
    # One split in C: text, tag, text, tag ...; where each piece ends gives every tag's place.
    pieces = _NESTING.split(data[start:end])
    tags = pieces[1::2]
    if not {t[:5] for t in tags} <= _BLOCK_TAGS:
        return None
    ends = list(accumulate(map(len, pieces), initial=start))
    steps = [-1 if t[1] == _SLASH else 0 if t[-2] == _SLASH else 1 for t in tags]  # self-closed: no depth
    depth = list(accumulate(steps))
    if depth and (depth[-1] != 0 or min(depth) < 0):
        return None
    spans, gap, first = [], start, 0
    for k in [k for k, d in enumerate(depth) if not d]:  # a block ends where the depth is back at 0
        s, e = ends[2 * first + 1], ends[2 * k + 2]  # tag k spans pieces[2k + 1]
        if s != gap and not _gap(data, gap, s, spans):
            return None
        spans.append((s, e))
        gap, first = e, k + 1
    return spans if _gap(data, gap, end, spans) else None


def _gap(data: bytes, lo: int, hi: int, spans: list) -> bool:
    """Between two blocks: blanks and range markers; a top-level element of another kind (the
    last w:sectPr, w:customXml ...) is a block too. False when the gap cannot be delimited."""
    if lo >= hi or not data[lo:hi].strip():
        return True
    depth, at = 0, None
    pos = lo
    for m in _TAG.finditer(data, lo, hi):
        if depth == 0 and data[pos:m.start()].strip():
            return False  # text outside any element
        closing, name, selfc = m.group(1), m.group(2), m.group(3)
        if not closing and depth == 0:
            at = m.start()
        depth += 0 if selfc else -1 if closing else 1
        if depth < 0:
            return False
        if depth == 0:
            if not name.startswith(b"w:") or name[2:] in (b"p", b"tbl", b"sdt"):
                return False
            if name[2:] not in _MARKERS:
                spans.append((at, m.end()))
        pos = m.end()
    return depth == 0 and not data[pos:hi].strip()
