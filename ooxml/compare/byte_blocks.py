"""A main part's top-level body blocks found in its bytes, without building a tree.

docx_compare's fast path (``spliced.py``): blocks the same byte for byte on both sides are never
parsed. The scanner says "not sure" (None) wherever bytes could mean something it does not model:
comments, CDATA or processing instructions in the body, the ``w`` prefix bound elsewhere, a
top-level element it cannot delimit. Then the whole comparison runs on trees, as it always did.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from lxml import etree

from ooxml.xml import bytewords
from ooxml.text import body as B
from ooxml.xml.namespaces import OX, OX_PREFIX, W

_BODY_OPEN, _BODY_CLOSE = b"<w:body>", b"</w:body>"
# Blocks that may nest (text boxes hold paragraphs, cells hold tables): depth counts them all. The
# same pass finds what makes bytes unsure: revision marks (a comparison reads the accepted view),
# comments, CDATA and processing instructions (which could hide tags).
_NESTING = re.compile(rb"(<(?:/?w:(?:p|tbl|sdt|ins|del|cellIns|cellDel|cellMerge|moveFrom\w*|moveTo\w*|customXml\w*)"
                      rb"(?=[\s/>])[^>]*>|[!?]))")
_CHANGE = re.compile(rb"<w:\w+Change[\s/>]")  # w:rPrChange ...
_CHANGE_END = re.compile(rb"Change[\s/>]")
_LT, _GT, _SLASH = 60, 62, 47
_BANG, _QUESTION = ord("!"), ord("?")  # after '<': comments, CDATA, PIs
_DELIM = np.zeros(256, bool)  # what ends a tag's name ((?=[\s/>])), by byte
_DELIM[[*b" \t\n\r\f\v/>"]] = True


def _word(x: bytes) -> int:
    return int.from_bytes(x, "little")


_P = _word(b"w:p")
_TBL, _SDT = _word(b"w:tbl"), _word(b"w:sdt")
_ODD = np.array([_word(b"w:" + x) for x in (b"ins", b"del", b"cel", b"mov", b"cus")], np.uint64)
# Start tags whose block may bring more than its XML (``byte_align.with_context``): section
# properties, note references, drawings (pictures, charts): their first 8 name bytes.
_CONTEXT = np.array([_word(x) for x in (b"w:sectPr", b"w:footno", b"w:endnot", b"w:drawin")], np.uint64)
_TAG = re.compile(rb"<(/?)([\w.:-]+)[^<>]*?(/?)>")
_MARKERS = {etree.QName(t).localname.encode() for t in B.MARKERS}
# What the body may not hold for bytes to stand for their XML: a prefix bound again to Word's
# namespace or to our IDs' (or our prefix bound again: spliced.py cuts ``oxm:id`` from bytes), our
# own separators (serial.py's cut: the whole body's would not serialize in one).
_UNSURE = (f'"{W}"'.encode(), f'"{OX}"'.encode(), f"xmlns:{OX_PREFIX}=".encode())
_OURS = "\ue000".encode()  # (its first byte, a private use character's, is rare: found by memchr)
_BOD = _word(b"w:bod")  # what a second '<w:body>' starts with


@dataclass
class Body:
    data: bytes
    start: int  # where the body's content starts (after <w:body>)
    end: int  # where </w:body> starts
    spans: list[tuple[int, int]]  # every block (what compare aligns: not markers), in order
    bounds: np.ndarray  # the same as numpy rows (start, end)
    tags: tuple | None  # where each '<' and each '>' of the body is (numpy), for byte_plain
    context: np.ndarray  # where each start tag named as one of ``_CONTEXT`` is (its '<')

    def key(self, k: int) -> bytes:
        s, e = self.spans[k]
        return self.data[s:e]


def scan(data: bytes) -> Body | None:
    """The body's blocks, or None when the bytes are not plain enough to be sure."""
    start = data.find(_BODY_OPEN)
    end = data.rfind(_BODY_CLOSE)
    if start < 0 or end < start or data.find(_BODY_OPEN, end) >= 0:  # (in the body: ``_tags``)
        return None
    start += len(_BODY_OPEN)
    if any(data.find(x, start, end) >= 0 for x in _UNSURE) or _holds(data, _OURS, start, end) or \
            _changes(data, start, end):
        return None
    found = _blocks(data, start, end)
    return None if found is None else Body(data, start, end, *found)


def _holds(data: bytes, x: bytes, start: int, end: int, tries: int = 64) -> bool:
    """Whether ``x`` is in ``data[start:end]``, looked for from its first byte (memchr: 10x faster
    than ``bytes.find`` of a short ``x``), after ``tries`` of those by ``bytes.find``."""
    at = data.find(x[:1], start, end)
    for _ in range(tries):
        if at < 0 or data.startswith(x, at, end):
            return at >= 0
        at = data.find(x[:1], at + 1, end)
    return data.find(x, at, end) >= 0


def _changes(data: bytes, start: int, end: int) -> bool:
    """Whether ``_CHANGE`` is found in the body: its ends are looked for first (a literal start,
    found fast), then the tag each stands in (``noChangeAspect``, in every picture, is none)."""
    for m in _CHANGE_END.finditer(data, start, end):
        lt = data.rfind(b"<", start, m.start())
        if lt >= 0 and _CHANGE.match(data, lt):
            return True
    return False


def _blocks(data: bytes, start: int, end: int) -> tuple[list, np.ndarray, tuple] | None:
    found = _tags(data, start, end)
    if found is None:
        return None
    at, ends, steps, tags, context = found  # the block tags: where each starts, where it ends, its depth step
    depth = np.cumsum(steps)
    if len(depth) and (depth[-1] != 0 or depth.min() < 0):
        return None
    last = np.flatnonzero(depth == 0)  # a block ends where the depth is back at 0
    first = np.concatenate(([0], last[:-1] + 1))[:len(last)]  # ... and starts at the first tag after the last end
    s, e = at[first], ends[last]
    lo, hi = np.concatenate(([start], e)), np.concatenate((s, [end]))
    blocks = list(zip(s.tolist(), e.tolist()))
    spans, done, extra = [], 0, []
    for g in np.flatnonzero(hi > lo).tolist():  # what lies between two blocks (rarely anything)
        spans += blocks[done:g]
        done = g
        had = len(spans)
        if not _gap(data, int(lo[g]), int(hi[g]), spans):
            return None
        extra += [(g, x) for x in spans[had:]]  # blocks of other kinds (the last w:sectPr)
    spans += blocks[done:]
    bounds = np.column_stack((s, e))
    if extra:
        bounds = np.insert(bounds, [g for g, _ in extra], [x for _, x in extra], axis=0)
    return spans, bounds, tags, context


def _tags(data: bytes, start: int, end: int):
    """The body's tags that nest (p, tbl, sdt): their starts, ends and depth steps (and every '<'
    and '>'), found in C
    (numpy) as ``_NESTING.split`` finds them (one pass of Python's re visits every '<': 2x the
    time). None where that split would find a tag that makes the bytes unsure, or where a '<'
    lies inside a block tag (no such XML: the split would have skipped it)."""
    arr = np.frombuffer(data, np.uint8)
    lt = np.flatnonzero(arr[start:end] == _LT) + start
    after = arr[lt + 1]
    if ((after == _BANG) | (after == _QUESTION)).any():
        return None
    opening = after != _SLASH
    name = lt + 2 - opening
    # 8 bytes from each name as one number (</w:body> follows the body: never past the end)
    words = bytewords.words(data)[name]
    five = words & 0xFFFFFFFFFF
    if any(_NESTING.match(data, x) for x in lt[np.isin(five, _ODD)].tolist()):
        return None  # a revision mark, custom XML (what a match of these five bytes may start)
    if any(data.startswith(_BODY_OPEN, x) for x in lt[five == _BOD].tolist()):
        return None
    kept = np.zeros(len(lt), bool)
    for found, shift in ((np.flatnonzero((words & 0xFFFFFF) == _P), 24),
                         (np.flatnonzero((five == _TBL) | (five == _SDT)), 40)):
        kept[found[_DELIM[(words[found] >> shift) & 0xFF]]] = True  # the name ends there
    kept = np.flatnonzero(kept)
    gt = np.flatnonzero(arr[start:end] == _GT) + start
    closes = _closes(lt, gt, kept, end)
    if closes is None:
        return None
    at = lt[kept]
    steps = np.where(after[kept] == _SLASH, -1, np.where(arr[closes - 1] == _SLASH, 0, 1))
    context = lt[np.isin(words, _CONTEXT) & opening]
    return at, closes + 1, steps, (lt, gt), context


def _closes(lt: np.ndarray, gt: np.ndarray, kept: np.ndarray, end: int) -> np.ndarray | None:
    """The first '>' after each of the '<' ``kept``: None where another '<' comes before it."""
    if len(lt) == len(gt) and (lt < gt).all() and (gt[:-1] < lt[1:]).all():
        return gt[kept]  # '<' and '>' alternate (as lxml writes): each '>' is its '<''s
    k = np.searchsorted(gt, lt[kept])
    if len(k) and k[-1] >= len(gt):
        return None
    closes = gt[k]
    return None if (closes > np.append(lt, end)[kept + 1]).any() else closes


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
