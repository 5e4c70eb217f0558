"""The screens: each proves on a part's tags (``screen.Markup``) that one Word rule finds nothing there,
so its tree rule is skipped; False means "not proven" (a hit, or anything unsure), never "found": the
tree rule then runs and says what and where."""
from __future__ import annotations

import re

import numpy as np

from ooxml.xml import bytewords
from ooxml.check import screen_access
from ooxml.check.screen import markup, member, part_bytes
from ooxml.check.word_order import ORDERED, misplaced
from ooxml.xml.namespaces import W
from ooxml.xml.order import LEADING

_NL, _CR, _AMP, _HASH, _QUOTE = 10, 13, 38, 35, 34
_I = ord("I")


def cleared(doc, name: str, word: bool = True, access: bool = False) -> set[str]:
    """The rules proven to find nothing in the story part ``name``: the Word rules' (``clear``) with
    ``word``, the body's "empty-paragraphs" and "looks-like-heading" (``screen_access``) with ``access``."""
    data = part_bytes(doc, doc.package.part(name))
    found = markup(data) if data is not None else None
    if found is None:
        return set()
    out = clear(found) if word else set()
    body = screen_access.body(found) if access and name == doc.main_name else None
    if body is not None:
        out |= {code for code, proven in (("empty-paragraphs", screen_access.spacing_clear),
                                          ("looks-like-heading", screen_access.bold_clear)) if proven(body)}
    return out


def clear(m) -> set[str]:
    """The rules proven to find nothing in the part: "newline", "para-id", "order", "cell-end"."""
    found = {"newline": newline_clear, "para-id": para_ids_clear, "order": order_clear, "cell-end": cells_clear}
    return {name for name, proven in found.items() if proven(m)}


def newline_clear(m) -> bool:
    """No line break in a w:t's text: no line feed, carriage return or character reference (&#...)
    after a w:t start tag and before the next tag."""
    arr = m.arr
    low = np.flatnonzero(arr < 14)  # tabs too: one compare, then the few kept are sorted out
    amp = np.flatnonzero(arr == _AMP)
    pos = np.concatenate((low[arr[low] >= _NL], amp[arr[np.minimum(amp + 1, len(arr) - 1)] == _HASH]))
    if not len(pos):
        return True
    tag = np.searchsorted(m.lt, pos, side="right") - 1  # the tag each one is in, or follows
    return not member(tag[tag >= 0], m.tagged(b"w:t")).any()


def para_ids_clear(m) -> bool:
    """Every w14:paraId and w14:textId (of any element: more than the rule reads) 8 upper-case hex
    digits between 1 and 7FFFFFFF, written as Word writes them; the paraIds all different."""
    data, arr = m.data, m.arr
    wide = bytewords.words(data)
    at = np.flatnonzero(arr[4:len(data) - 16] == _I)  # 'I' of "paraId" / "textId": at + 4
    if not len(at):
        return True
    key = wide[at]
    values = {}
    for name in (b"paraId", b"textId"):
        loose = at[(key & 0xFFFFFFFFFFFF) == int.from_bytes(name, "little")]
        strict = loose[(wide[loose] == int.from_bytes(name + b'="', "little")) & (loose >= 5)]
        strict = strict[((wide[strict - 5] >> 8) & 0xFFFFFFFF) == int.from_bytes(b"w14:", "little")]
        blank = arr[strict - 5]
        strict = strict[((blank == 32) | (blank == 9) | (blank == 10) | (blank == 13)) & (arr[strict + 16] == _QUOTE)]
        if len(strict) != len(loose):
            return False  # another prefix, quote or spacing: not read here
        values[name] = wide[strict + 8]
    if not all(_valid(v) for v in values.values()):
        return False
    ordered = np.sort(values[b"paraId"])  # a sort: np.unique costs 4x more
    return not (ordered[1:] == ordered[:-1]).any()


def _valid(values: np.ndarray) -> bool:
    digits = values.view(np.uint8).reshape(-1, 8)  # the value's characters, first to last
    hexed = ((digits >= 48) & (digits <= 57)) | ((digits >= 65) & (digits <= 70))
    return bool(hexed.all() and (digits[:, 0] <= 55).all()
                and not (values == int.from_bytes(b"00000000", "little")).any())


_CHILD = re.compile(rb"<(/?)([^\s/>]+)[^>]*?(/?)>")


def order_clear(m) -> bool:
    """Property children in schema order (``word_order``): each distinct content of an ordered
    container judged once, and every leading child first in its parent (a second one after the first)."""
    return _containers_clear(m) and _leading_clear(m) and _tables_clear(m)


def _containers_clear(m) -> bool:
    data = m.data
    for qname, name in ORDERED.items():
        tag = f"w:{name}".encode()
        opened = m.tagged(tag)
        opened = opened[~m.empty[opened]]
        if not len(opened):
            continue
        closed = m.tagged(tag, end=True)
        if len(opened) != len(closed):
            return False
        if not (np.all(opened < closed) and np.all(closed[:-1] < opened[1:])):
            return False  # nested (a pPr in a pPrChange): not cut here
        for content in set(map(data.__getitem__, map(slice, (m.gt[opened] + 1).tolist(), m.lt[closed].tolist()))):
            children = _children(content)
            if children is None or misplaced(name, children):
                return False
    return True


def _children(content: bytes) -> tuple | None:
    """The child tags of an element's content, as lxml names them; None if another prefix than w:."""
    out, depth = [], 0
    for end, qname, empty in _CHILD.findall(content):
        if end:
            depth -= 1
            continue
        if depth == 0:
            prefix, _, local = qname.partition(b":")
            if prefix != b"w" or not local:
                return None
            out.append(f"{{{W}}}{local.decode()}")
        if not empty:
            depth += 1
    return tuple(out) if depth == 0 else None


def _leading_clear(m) -> bool:
    """Each leading child (w:pPr in w:p, ...) is its parent's first child, or the second leading
    child right after the first; found elsewhere (a w:rPr in a w:pPr), its parent is no such parent."""
    for parent, leading in LEADING.items():
        first = f"w:{next(iter(leading))}".encode()
        for child, rank in leading.items():
            idx = m.tagged(f"w:{child}".encode())
            idx = idx[idx > 0]
            later = idx[m.end[idx - 1] | m.empty[idx - 1]]  # a sibling before it
            if rank and len(later):  # right after the first leading child: in place
                firsts = m.tagged(first)
                later = later[~(member(later - 1, m.tagged(first, end=True)) |
                                member(later - 1, firsts[m.empty[firsts]]))]
            if len(later) and member(_parents(m, later), m.tagged(f"w:{parent}".encode())).any():
                return False
    return True


def _parents(m, idx: np.ndarray) -> np.ndarray:
    """The start tag of each tag's parent, found level by level (depths are few)."""
    depth = m.depth()
    opens = np.flatnonzero(~m.end & ~m.empty)
    out = np.empty(len(idx), dtype=np.int64)
    for level in np.unique(depth[idx]):
        here = depth[idx] == level
        above = opens[depth[opens] == level - 1]
        out[here] = above[np.searchsorted(above, idx[here]) - 1] if len(above) else -1
    return out


def _tables_clear(m) -> bool:
    """Every w:tbl starts with its w:tblPr (the rule judges a table without one)."""
    tables = m.tagged(b"w:tbl")
    if not len(tables):
        return True
    return bool((~m.empty[tables]).all() and member(tables + 1, m.tagged(b"w:tblPr")).all())


def cells_clear(m) -> bool:
    """Every table cell ends with a paragraph: the tag before each w:tc's end tag closes a w:p."""
    cells = m.tagged(b"w:tc")
    if not len(cells):
        return True
    if m.empty[cells].any():
        return False
    before = m.tagged(b"w:tc", end=True) - 1
    paragraphs = m.tagged(b"w:p")
    return bool((member(before, m.tagged(b"w:p", end=True)) | member(before, paragraphs[m.empty[paragraphs]])).all())
