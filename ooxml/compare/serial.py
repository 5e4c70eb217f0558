"""A container's children as strings, in one serialization of the container.

Serializing each block alone repeats the root's namespace declarations in every call (about 3x
the time of one pass over the container). Instead the container's text and every child's tail
are set for a moment to a separator, the container is serialized once and cut there. The tree
is left as it was; a container whose content already holds the separator is not cut (None).
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.namespaces import W, W14

_CUT = "\ue000"  # a private-use character: between children, only ever there for the moment


def child_strings(parent: etree._Element, method: str = "xml", kids: list | None = None) -> list[str] | None:
    """Each child of ``parent`` serialized (``method``: "xml" or "text"), without its tail
    (``kids``: ``list(parent)``, when the caller has it)."""
    kids = list(parent) if kids is None else kids
    text, tails = parent.text, [k.tail for k in kids]
    parent.text = _CUT
    try:
        for k in kids:
            k.tail = _CUT
        whole = etree.tostring(parent, encoding=str, method=method)
    finally:
        parent.text = text
        for k, tail in zip(kids, tails):
            k.tail = tail
    pieces = whole.split(_CUT)
    return pieces[1:-1] if len(pieces) == len(kids) + 2 else None


# Save marks: revision-session IDs and Word's paragraph IDs, new on every save by another program;
# never content or formatting. Only inside a tag (the next '<' or '>' is a '>': text escapes '>').
# Two patterns, each with a longer literal start, cost less than one that starts ' w'.
_RSIDS = re.compile(r' w:rsid\w*="[^"]*"(?=[^<>]*>)')
_PARA_IDS = re.compile(r' w14:(?:paraId|textId)="[^"]*"(?=[^<>]*>)')


def without_save_marks(xml: str) -> str:
    """A block's XML (as ``child_strings`` gives it) without its save marks: two blocks equal so
    are the same content, formatting and all, written again by another program."""
    return _PARA_IDS.sub("", _RSIDS.sub("", xml))


class Plain(list):
    """A container's blocks' XML, and (made when first asked) the same without save marks."""
    _plain: list | None = None  # by index; None: not made yet

    def one(self, k: int) -> str:
        if self._plain is None:
            self._plain = [None] * len(self)
        x = self._plain[k]
        if x is None:
            x = self._plain[k] = without_save_marks(self[k])
        return x

    def plain(self, lo: int, hi: int) -> list[str]:
        if self._plain is None:
            self._plain = [None] * len(self)
        got = self._plain[lo:hi]
        if got.count(None) == len(got):  # a range none of which was asked for (a rewritten file: all of it)
            got = self._plain[lo:hi] = list(map(without_save_marks, self[lo:hi]))
            return got
        return [self.one(k) for k in range(lo, hi)]


def word_prefixes(el: etree._Element) -> bool:
    """Whether the save marks' prefixes (w, w14) name Word's namespaces where ``el`` is."""
    ns = el.nsmap
    return ns.get("w") == W and ns.get("w14", W14) == W14


_SERIALIZE_FROM = 8  # children: below this, one serialization per block costs no more


def blocks_of(container: etree._Element, always: bool = False) -> tuple[list, list[str] | None]:
    """The container's blocks, and their XML when the container is long or ``always`` (one serialization)."""
    kids = list(container)
    # what is no block (B.is_block), found in C: usually nothing, and every child is kept as it is
    odd = set(container.iterchildren(*_NOT_BLOCKS))
    pieces = child_strings(container, kids=kids) if always or len(kids) >= _SERIALIZE_FROM else None
    if not odd:
        return kids, pieces
    keep = [n for n, el in enumerate(kids) if el not in odd]
    return [kids[n] for n in keep], None if pieces is None else [pieces[n] for n in keep]


_NOT_BLOCKS = (*B.MARKERS, etree.Comment, etree.ProcessingInstruction, etree.Entity)
