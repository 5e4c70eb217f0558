"""A container's children as strings, in one serialization of the container.

Serializing each block alone repeats the root's namespace declarations in every call (about 3x
the time of one pass over the container). Instead the container's text and every child's tail
are set for a moment to a separator, the container is serialized once and cut there. The tree
is left as it was; a container whose content already holds the separator is not cut (None).
"""
from __future__ import annotations

import re

from lxml import etree

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
