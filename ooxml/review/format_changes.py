"""Tracked formatting changes: ``w:rPrChange``/``w:pPrChange``/``w:sectPrChange``/``w:tblPrChange``
holding the properties from before a formatting edit (ooxml/review/revisions.py writes the marks)."""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.review.revisions import W_DEL, W_INS, W_PPR, W_RPR, is_ours, stamp, tracker
from ooxml.xml.namespaces import w
from ooxml.xml.order import get_or_add, insert_child


RPR_NOT_FORMAT = {W_INS, W_DEL, w("moveFrom"), w("moveTo"), w("rPrChange")}
PPR_NOT_FORMAT = {W_RPR, w("sectPr"), w("pPrChange")}
_SECT_NOT_FORMAT = {w("headerReference"), w("footerReference"), w("sectPrChange")}
_TBL_PR_NOT_FORMAT = {w("tblPrChange")}


def snapshot(props: etree._Element | None, skip: set[str], tag: str) -> etree._Element:
    old = etree.Element(tag)
    if props is not None:
        for child in props:
            if isinstance(child.tag, str) and child.tag not in skip:
                old.append(copy.deepcopy(child))
    return old


class PropertyChanges:
    """``with PropertyChanges(doc, runs, paragraphs):`` around a formatting edit records it as
    ``w:rPrChange``/``w:pPrChange`` (``w:sectPrChange``, ``w:tblPrChange``) holding the properties
    from before (when tracking is on)."""

    def __init__(self, doc, runs=(), paragraphs=(), sections=(), tables=()):
        self.doc = doc
        self.on = tracker(doc) is not None
        self.runs, self.paragraphs, self.sections = list(runs), list(paragraphs), list(sections)
        self.tables = list(tables)

    def __enter__(self):
        if self.on:
            self.before = [(r, snapshot(r.find(W_RPR), RPR_NOT_FORMAT, W_RPR),
                            _existing(r.find(W_RPR), "rPrChange")) for r in self.runs]
            self.before_p = [(p, snapshot(p.find(W_PPR), PPR_NOT_FORMAT, W_PPR),
                              _existing(p.find(W_PPR), "pPrChange")) for p in self.paragraphs]
            self.before_s = [(s, snapshot(s, _SECT_NOT_FORMAT, w("sectPr")), _existing(s, "sectPrChange"))
                             for s in self.sections]
            self.before_t = [(t, snapshot(t.find(w("tblPr")), _TBL_PR_NOT_FORMAT, w("tblPr")),
                              _existing(t.find(w("tblPr")), "tblPrChange")) for t in self.tables]
        return self

    def __exit__(self, exc_type, *_):
        if not self.on or exc_type is not None:
            return False
        for r, old, existing in self.before:
            now_props = snapshot(r.find(W_RPR), RPR_NOT_FORMAT, W_RPR)
            if _same(old, now_props) and existing is None:
                continue
            self._record(get_or_add(r, "rPr"), "rPrChange", old, existing, r)
        for p, old, existing in self.before_p:
            now_props = snapshot(p.find(W_PPR), PPR_NOT_FORMAT, W_PPR)
            if _same(old, now_props) and existing is None:
                continue
            self._record(get_or_add(p, "pPr"), "pPrChange", old, existing, p)
        for sect, old, existing in self.before_s:
            if _same(old, snapshot(sect, _SECT_NOT_FORMAT, w("sectPr"))) and existing is None:
                continue
            self._record(sect, "sectPrChange", old, existing, sect)
        for t, old, existing in self.before_t:
            if _same(old, snapshot(t.find(w("tblPr")), _TBL_PR_NOT_FORMAT, w("tblPr"))) and existing is None:
                continue
            self._record(get_or_add(t, "tblPr"), "tblPrChange", old, existing, t)
        return False

    def _record(self, props: etree._Element, name: str, old: etree._Element,
                existing: etree._Element | None, near: etree._Element) -> None:
        for stale in props.findall(w(name)):
            props.remove(stale)
        if existing is not None and is_ours(self.doc, existing):
            change = existing  # keep the first snapshot: rejecting goes back to before all our changes
        else:
            change = stamp(self.doc, w(name), near)
            change.append(existing[0] if existing is not None and len(existing) else old)
        insert_child(props, change)


def _existing(props: etree._Element | None, name: str) -> etree._Element | None:
    found = props.find(w(name)) if props is not None else None
    return copy.deepcopy(found) if found is not None else None


def _same(a: etree._Element, b: etree._Element) -> bool:
    return etree.tostring(a, method="c14n") == etree.tostring(b, method="c14n")
