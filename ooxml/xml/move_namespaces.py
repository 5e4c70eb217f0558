"""Which namespace declarations survive a move between lxml trees. Moving an element (append,
addprevious ...) walks its subtree and drops each declaration of a namespace URI already in
scope at the new place (an ancestor's, the root's), the element then written with the prefix in
scope: bytes that differ from a parse of the same XML. Read on bytes, before any move."""
from __future__ import annotations

import re

import numpy as np

_DECLARED = re.compile(rb' xmlns(?::[\w.-]+)?="([^"]*)"')


def kept_on_move(data: bytes, root_uris) -> bool:
    """Whether the body's elements (``data``: a main part's bytes as lxml wrote them) keep every
    namespace declaration when moved into another tree under a root declaring ``root_uris``."""
    body = data.find(b"<w:body>")
    if body < 0:
        return False
    found = [(m.start(), m.group(1)) for m in _DECLARED.finditer(data, body)]
    if not found:
        return True
    uris = [uri for _, uri in found]
    if set(uris) & {u.encode() for u in root_uris}:
        return False
    if len(set(uris)) == len(uris):
        return True
    return not _nested_twice(data, body, found)


def _nested_twice(data: bytes, start: int, found: list) -> bool:
    """Whether a namespace is declared inside an element that declares it already. lxml writes
    every '<' and '>' of text and attributes escaped, so each '<' starts a tag its next '>' ends."""
    arr = np.frombuffer(data, np.uint8)
    lt = np.flatnonzero(arr[start:] == 60) + start
    gt = np.flatnonzero(arr[start:] == 62) + start
    if len(lt) != len(gt):
        return True
    step = np.where(arr[lt + 1] == 47, -1, np.where(arr[gt - 1] == 47, 0, 1))
    after = np.cumsum(step)  # the depth after each tag
    tag = np.searchsorted(lt, [at for at, _ in found], "right") - 1
    for i, (_, uri) in enumerate(found):
        for j in range(i):
            t0, t1 = tag[j], tag[i]
            if found[j][1] == uri and t0 < t1 and step[t0] == 1 and after[t0:t1].min() >= after[t0]:
                return True  # the element declaring it first is still open
    return False
