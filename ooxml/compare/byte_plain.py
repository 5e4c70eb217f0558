"""Blocks' bytes without their save marks (rsids, paragraph IDs), found by numpy.

``byte_align`` strips save marks with two regex passes; on a body another program wrote again
(every block's marks new) they cost ~0.2 s a 50,000-paragraph body, most of it per match
(400,000 of them). Here every mark is found at once in C and the kept bytes copied in one pass.
The result is the regexes' own, or None (the caller runs them) wherever that is not certain:
every occurrence of a mark's start is a whole mark inside one tag, none overlaps another, the
body's '<' and '>' are tags' only, and cutting them joins no new paragraph ID's start. Under these
the regexes' two passes remove exactly the marks found here (tests/ooxml/compare/test_byte_plain.py).
"""
from __future__ import annotations

import numpy as np

from ooxml.xml import bytewords
from ooxml.compare.byte_blocks import Body


def _word(x: bytes) -> int:
    return int.from_bytes(x.ljust(8, b"\0"), "little")


_RSID, _LOW6 = _word(b"w:rsid"), (1 << 48) - 1  # ' w:rsid' (after the space)
_PARA, _TEXT, _ID = _word(b"w14:para"), _word(b"w14:text"), _word(b"Id")  # ' w14:paraId', ' w14:textId'
_NOT_WORD = np.ones(256, bool)  # what ends \w* (bytes patterns: ASCII)
_NOT_WORD[[*b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"]] = False
_SPACE, _QUOTE, _EQUALS = 32, 34, 61
_QUOTES, _ONES, _HIGHS = (np.uint64(x * 0x0101010101010101) for x in (34, 1, 0x80))
_REACH = 64  # bytes past a mark's start read at most (two 8-byte windows past the name)


def plain_keys(body: Body, lo: int, hi: int) -> list[bytes] | None:
    """Blocks ``lo`` to ``hi - 1`` of ``body`` without save marks, or None when not sure."""
    if not _tags_alternate(body):
        return None
    data = body.data
    spans = body.bounds[lo:hi]
    s0, e0 = int(spans[0, 0]), int(spans[-1, 1])
    marks = _marks(body, s0, e0)
    if marks is None:
        return None
    c, e = marks
    bs, be = spans[:, 0], spans[:, 1]
    if not (bs[1:] == be[:-1]).all():  # marks of markers between blocks are no block's
        k = np.searchsorted(bs, c, "right") - 1
        inside = (k >= 0) & (c < be[np.maximum(k, 0)])
        c, e = c[inside], e[inside]
    removed = np.concatenate(([0], np.cumsum(e - c)))
    lens = (be - bs) - (removed[np.searchsorted(c, be)] - removed[np.searchsorted(c, bs)])
    kept = _kept(np.frombuffer(data, np.uint8)[s0:e0], s0, bs, be, c, e)
    if b" w14:paraId" in kept or b" w14:textId" in kept:  # one made by a cut (or across blocks): unsure
        return None
    at = np.concatenate(([0], np.cumsum(lens))).tolist()
    return [kept[x:y] for x, y in zip(at, at[1:])]


def _tags_alternate(body: Body) -> bool:
    """Whether every '<' of the body is closed by a '>' before the next '<' (no raw '>' in text or
    attribute values, as lxml writes): then a '>' is the first of the two after a place in a tag."""
    if body.tags is None:
        return False
    lt, gt = body.tags
    return len(lt) == len(gt) and bool((lt < gt).all()) and bool((gt[:-1] < lt[1:]).all())


def _marks(body: Body, s0: int, e0: int):
    """Every save mark between ``s0`` and ``e0``: (starts, ends), or None when one start is not a
    whole mark in a tag or two overlap."""
    data = body.data
    arr = np.frombuffer(data, np.uint8)
    words = bytewords.words(data)
    sp = np.flatnonzero(arr[s0:e0] == _SPACE) + s0
    w = words[sp + 1]
    rsid = (w & _LOW6) == _RSID
    found = np.flatnonzero(rsid | (w == _PARA) | (w == _TEXT))
    c, rsid = sp[found], rsid[found]
    para = np.flatnonzero(~rsid)
    drop = para[(words[c[para] + 9] & 0xFFFF) != _ID]  # ' w14:para' not followed by 'Id': no mark's start
    if len(drop):
        c, rsid = np.delete(c, drop), np.delete(rsid, drop)
    if len(c) and c[-1] + _REACH > len(data):  # (a mark's bytes are read up to 48 bytes on)
        return None
    q = c + 11  # where each '=' is: ' w14:paraId' then '="'
    r = c[rsid] + 7  # ' w:rsid' then \w*
    name = _NOT_WORD[_window(words, r)]
    first = name.argmax(axis=1)
    if not name[np.arange(len(r)), first].all():
        return None
    q[rsid] = r + first
    if not ((arr[q] == _EQUALS) & (arr[q + 1] == _QUOTE)).all():
        return None
    e = _value_ends(words, q + 2)
    if e is None:
        return None
    lt, gt = body.tags
    t = np.searchsorted(lt, c, "right") - 1  # the tag each start is in: the first '<' or '>' after it is
    if len(c) and ((t < 0).any() or (gt[t] < e).any()):  # its '>', past the mark (the lookahead holds)
        return None
    if (c[1:] < e[:-1]).any():
        return None
    return c, e


def _value_ends(words: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    """Past the first '"' from each of ``v`` ([^"]*"): 8 bytes on (Word's IDs) found at once, others
    within 16 bytes; None past that."""
    x = words[v] ^ _QUOTES  # a zero byte where a quote is (SWAR: no quote among the 8)
    clear = ((x - _ONES) & ~x & _HIGHS) == 0
    if clear.all() and ((words[v + 8] & 0xFF) == 34).all():
        return v + 9
    found = _window(words, v) == _QUOTE
    at = found.argmax(axis=1)
    return v + at + 1 if found[np.arange(len(v)), at].all() else None


def _window(words: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The 16 bytes from each of ``at``, one row each."""
    out = np.empty((len(at), 2), np.uint64)
    out[:, 0] = words[at]  # (np.take into a column: 10x the time)
    out[:, 1] = words[at + 8]
    return out.view(np.uint8)


def _kept(arr: np.ndarray, s0: int, bs, be, c, e) -> bytes:
    """The blocks' bytes without the marks ``c``-``e`` (and without what lies between blocks)."""
    gap = np.flatnonzero(be[:-1] < bs[1:])
    if len(gap):
        c, e = np.concatenate((c, be[gap])), np.concatenate((e, bs[gap + 1]))
        order = np.argsort(c, kind="stable")
        c, e = c[order], e[order]
    lengths = np.empty(2 * len(c) + 1, np.int64)  # kept, cut, kept, ... (np.repeat: one pass in C)
    lengths[0:-1:2] = np.diff(c, prepend=s0) - np.concatenate(([0], e[:-1] - c[:-1]))
    lengths[1::2] = e - c
    lengths[-1] = s0 + len(arr) - (e[-1] if len(e) else s0)
    keep = np.zeros(len(lengths), bool)
    keep[0::2] = True
    return arr[np.repeat(keep, lengths)].tobytes()
