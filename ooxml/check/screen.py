"""docx_check's screen: a story part's bytes cut at every tag in C-level passes (numpy over each '<' and
'>'), so the screens (``screen_rules``) can prove a tree rule has nothing to find and its walk is
skipped. ``markup`` gives None whenever the bytes cannot be trusted to say what the tree holds: the
tree rules then run as before.

Why: on a 50,000-paragraph body the Word rules' element visits cost ~300 ms; the bytes are inflated
and cut in ~70 ms (issue 34, docs/performance.md)."""
from __future__ import annotations

import re

import numpy as np

from ooxml.xml import bytewords
from ooxml.xml.namespaces import W, W14

# Smaller parts: their tree rules cost less than inflating and cutting their bytes again.
MIN_BYTES = 256 * 1024
# The prefixes the screens read by name: bound on the root only, nowhere else, to these URIs alone.
BOUND = {b"w": W.encode(), b"w14": W14.encode()}
_DECL = re.compile(rb'xmlns(?::([^\s=]+))?\s*=\s*(?:"([^"]*)"|\'([^\']*)\')')
_LT, _GT, _SLASH, _BANG, _QUERY = 60, 62, 47, 33, 63


def part_bytes(doc, part) -> bytes | None:
    """The part's bytes as its tree holds them: its original bytes while only our IDs were added
    (``content_changed`` False); None for a changed, new, small or Strict part (serialising a
    50,000-paragraph tree again costs 140 ms, more than the screens save)."""
    if part.content_changed or doc.package.strict or part.info is None or part.info.file_size < MIN_BYTES:
        return None
    return part.original()


class Markup:
    """The tags of a part: ``lt``/``gt`` each tag's '<' and '>' positions, ``key`` the 8 bytes after
    each '<' (little-endian), ``end``/``empty`` end tags and empty-element tags."""

    def __init__(self, data: bytes, arr, lt, gt):
        self.data, self.arr, self.lt, self.gt = data, arr, lt, gt
        self.key = bytewords.words(data)[lt + 1]
        self.end = arr[lt + 1] == _SLASH
        self.empty = arr[gt - 1] == _SLASH
        self._depth = None
        self._heads: dict[int, np.ndarray] = {}  # the keys cut to n bytes, by n
        self._tagged: dict[bytes, np.ndarray] = {}

    def tagged(self, name: bytes, end: bool = False) -> np.ndarray:
        """The indexes (ascending) of the tags (start and empty, or end) named ``name`` (b"w:pPr")."""
        full = (b"/" if end else b"") + name
        if full not in self._tagged:
            self._tagged[full] = self._find(full)
        return self._tagged[full]

    def _find(self, full: bytes) -> np.ndarray:
        head = full[:8]
        if len(head) not in self._heads:
            self._heads[len(head)] = self.key & ((1 << 8 * len(head)) - 1) if len(head) < 8 else self.key
        idx = np.flatnonzero(self._heads[len(head)] == int.from_bytes(head, "little"))
        at = self.lt[idx] + 1
        for k, byte in enumerate(full[8:], start=8):
            keep = self.arr[at + k] == byte
            idx, at = idx[keep], at[keep]
        after = self.arr[at + len(full)]  # the name ends: '>', '/', or a blank before attributes
        return idx[(after == _GT) | (after == _SLASH) | (after == 32) | (after == 9) | (after == 10) | (after == 13)]

    def depth(self) -> np.ndarray:
        """Each tag's depth: the number of elements open around it (the root's tag: 0)."""
        if self._depth is None:
            step = np.ones(len(self.lt), dtype=np.int32)
            step[self.end] = -1
            step[self.empty] = 0
            after = np.cumsum(step, dtype=np.int32)
            after[step > 0] -= 1  # a start tag's depth is before it opens
            self._depth = after
        return self._depth


def member(values: np.ndarray, ascending: np.ndarray) -> np.ndarray:
    """Which of ``values`` are in ``ascending`` (a sorted array: a binary search, no sort)."""
    at = np.searchsorted(ascending, values)
    found = at < len(ascending)
    found[found] = ascending[at[found]] == values[found]
    return found


def markup(data: bytes) -> Markup | None:
    """The part's tags, or None when they cannot be cut by '<' and '>' alone (a comment, CDATA, a
    processing instruction, '>' in text or an attribute) or a prefix the screens read is bound other
    than on the root as Word binds it."""
    arr = np.frombuffer(data, np.uint8)
    marks = np.flatnonzero((arr == _LT) | (arr == _GT))  # one pass: '<' and '>' must alternate
    lt, gt = marks[0::2], marks[1::2]
    if len(marks) < 4 or len(marks) % 2 or not ((arr[lt] == _LT).all() and (arr[gt] == _GT).all()):
        return None
    second = arr[lt + 1]
    root = 1 if second[0] == _QUERY and not data[:lt[0]].strip(b"\xef\xbb\xbf \t\r\n") else 0
    if np.any(second[root:] == _BANG) or np.any(second[root:] == _QUERY) or len(data) - lt[-1] < 9:
        return None
    if not _bound_on_root(data, data[lt[root]:gt[root] + 1], int(gt[root])):
        return None
    return Markup(data, arr, lt[root:], gt[root:])  # the declaration is no tag of the tree


def _bound_on_root(data: bytes, root_tag: bytes, after: int) -> bool:
    found = {m.group(1): m.group(2) if m.group(2) is not None else m.group(3) for m in _DECL.finditer(root_tag)}
    if found.get(b"w") != BOUND[b"w"] or found.get(b"w14", BOUND[b"w14"]) != BOUND[b"w14"]:
        return False
    if any(uri in BOUND.values() and BOUND.get(prefix) != uri for prefix, uri in found.items()):
        return False  # Word's namespace under a second prefix (or as the default) on the root
    for m in _DECL.finditer(data, after):  # below the root: none may bind our prefixes or their URIs
        uri = m.group(2) if m.group(2) is not None else m.group(3)
        if m.group(1) in BOUND or uri in BOUND.values():
            return False
    return True
