"""Hyperlink relationships that no longer serve: dropped at the end of the call that removed their links.

A link goes in many ways (docx_delete of the link, of its paragraph or table, a text update, a
replace, a range delete ...). Rather than teach each of them, the end of a call looks at the
blocks the undo recorder saw change or go (``History.gone_and_changed``): a hyperlink
relationship whose ``r:id`` stood in the old state of such a block and that nothing in the part
refers to any longer is removed from the part's rels. The rels part is touched, so undo puts its
bytes back. A link moved (removed, then put back) keeps its relationship; relationships of other
types (images, headers ...) are left alone.
"""
from __future__ import annotations

from lxml import etree

from ooxml.text.doc_order import tracked
from ooxml.opc.types import RT
from ooxml.refs.links import W_LINK
from ooxml.xml.namespaces import R

R_ID = f"{{{R}}}id"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
# What may refer to a hyperlink relationship: text links and DrawingML links on pictures and shapes.
LINK_TAGS = (W_LINK, _A + "hlinkClick", _A + "hlinkHover")


def _rids(el: etree._Element | None) -> set[str]:
    if el is None:
        return set()
    return {v for link in el.iter(*LINK_TAGS) if (v := link.get(R_ID))}


def _in_use(doc, part) -> set[str]:
    """The r:ids links in ``part`` refer to (the body's links kept as a tracked list: a rescan of a
    large body by tag costs tens of milliseconds, an attribute XPath hundreds)."""
    if part is doc.main:
        links = tracked(doc, "link_rels", LINK_TAGS)
    else:
        links = part.tree.getroot().iter(*LINK_TAGS)
    return {v for link in links if (v := link.get(R_ID))}


def _candidates(doc) -> dict:
    """part -> the r:ids of links gone from the blocks this call changed or removed."""
    out: dict = {}
    linkable: dict = {}  # part -> whether its rels hold any hyperlink (most calls stop here)
    for old, live, container in doc.history.gone_and_changed():
        part = doc.part_of(container)
        if part not in linkable:
            linkable[part] = any(r.get("Type") == RT.HYPERLINK for r in doc.package.rels(part.name))
        if not linkable[part]:
            continue
        before = _rids(old)
        if not before:
            continue
        gone = before - (_rids(live) if live is not None and live.getparent() is not None else set())
        if gone:
            out.setdefault(part, set()).update(gone)
    return out


def drop_unused(doc) -> int:
    """Remove the hyperlink relationships the current call left unreferenced; how many went."""
    removed = 0
    for part, rids in _candidates(doc).items():
        in_use = None
        unused = set()
        for rel in doc.package.rels(part.name):
            rid = rel.get("Id")
            if rid not in rids or rel.get("Type") != RT.HYPERLINK:
                continue
            in_use = _in_use(doc, part) if in_use is None else in_use
            if rid not in in_use:
                unused.add(rid)
        if unused:
            doc.package.unrelate(part.name, unused)
            removed += len(unused)
    return removed
