"""The little of Word numbering that Markdown needs: is a paragraph a list item, at which level,
bulleted or numbered; and a numbering definition for a new Markdown list (the part itself and
the order of definitions in it: ooxml/lists/lists_edit.py).

Kept in one module on purpose: when the lists model (ooxml/lists/numbering.py) lands, these functions
are the ones to replace by it (labels as Word computes them, reuse of fitting definitions).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from lxml import etree

from ooxml.text import body as B
from ooxml.lists.lists_edit import numbering_root, place_abstract, place_num
from ooxml.xml.namespaces import w
from ooxml.opc.types import RT

W_VAL = w("val")


@dataclass(frozen=True)
class ListItem:
    num_id: str
    level: int
    ordered: bool


class ListFormats:
    """numId/ilvl -> number format, read once from numbering.xml (for one export)."""

    def __init__(self, doc):
        self.doc = doc
        self._fmt: dict[tuple[str, int], str] = {}
        part = doc.related_part(RT.NUMBERING)
        root = part.tree.getroot() if part is not None else None
        self.abstract = {a.get(w("abstractNumId")): a for a in root.iter(w("abstractNum"))} if root is not None else {}
        self.nums = {n.get(w("numId")): n for n in root.iter(w("num"))} if root is not None else {}

    def fmt(self, num_id: str, level: int) -> str:
        key = (num_id, level)
        if key not in self._fmt:
            self._fmt[key] = self._lookup(num_id, level)
        return self._fmt[key]

    def _lookup(self, num_id: str, level: int) -> str:
        num = self.nums.get(num_id)
        if num is None:
            return "bullet"
        for override in num.iter(w("lvlOverride")):
            lvl = override.find(w("lvl"))
            if override.get(w("ilvl")) == str(level) and lvl is not None and lvl.find(w("numFmt")) is not None:
                return lvl.find(w("numFmt")).get(W_VAL, "decimal")
        ref = num.find(w("abstractNumId"))
        abstract = self.abstract.get(ref.get(W_VAL)) if ref is not None else None
        if abstract is None:
            return "bullet"
        for lvl in abstract.iter(w("lvl")):
            if lvl.get(w("ilvl")) == str(level):
                fmt = lvl.find(w("numFmt"))
                return fmt.get(W_VAL, "decimal") if fmt is not None else "decimal"
        return "bullet"


def _num_pr(doc, p: etree._Element) -> etree._Element | None:
    ppr = p.find(w("pPr"))
    found = ppr.find(w("numPr")) if ppr is not None else None
    if found is not None:
        return found
    sid = B.style_id(p)
    style = doc.styles.by_id.get(sid) if sid else None
    spr = style.find(w("pPr")) if style is not None else None
    return spr.find(w("numPr")) if spr is not None else None


def list_item(doc, formats: ListFormats, p: etree._Element) -> ListItem | None:
    """The paragraph's place in a list, or None when it is no list item."""
    num_pr = _num_pr(doc, p)
    if num_pr is None:
        return None
    num = num_pr.find(w("numId"))
    num_id = num.get(W_VAL) if num is not None else None
    if not num_id or num_id == "0":
        return None
    ilvl = num_pr.find(w("ilvl"))
    try:
        level = int(ilvl.get(W_VAL, "0")) if ilvl is not None else 0
    except ValueError:
        level = 0
    fmt = formats.fmt(num_id, level)
    return ListItem(num_id, level, fmt not in ("bullet", "none"))


# ---- writing: one numbering definition per Markdown list ------------------------------------------

class ListWriter:
    """Adds numbering definitions for the lists of one insert (the part is read once)."""

    def __init__(self, doc):
        self.doc = doc
        self.root: etree._Element | None = None
        self.next_ids = (0, 1)

    def add(self, ordered_by_level: dict[int, bool], start: int = 1) -> str:
        if self.root is None:
            self.root = numbering_root(self.doc)
            abstract_ids = [int(a.get(w("abstractNumId"))) for a in self.root.iter(w("abstractNum"))
                            if (a.get(w("abstractNumId")) or "").isdigit()]
            num_ids = [int(n.get(w("numId"))) for n in self.root.iter(w("num"))
                       if (n.get(w("numId")) or "").isdigit()]
            self.next_ids = (max(abstract_ids, default=-1) + 1, max(num_ids, default=0) + 1)
        aid, nid = self.next_ids
        self.next_ids = (aid + 1, nid + 1)
        num_id = add_list_definition(self.root, aid, nid, ordered_by_level, start)
        from ooxml.lists import numbering  # numbering.xml changed in place: labels read it again
        numbering.invalidate(self.doc)
        return num_id


def add_list_definition(root: etree._Element, aid: int, nid: int, ordered_by_level: dict[int, bool],
                        start: int = 1) -> str:
    """A new abstractNum + num for one Markdown list (its levels bulleted or numbered); the numId.

    A definition of its own per list makes every numbered list start at 1, as Markdown does.
    """
    abstract = _abstract(tuple(ordered_by_level.get(level, False) for level in range(9)), start)
    abstract.set(w("abstractNumId"), str(aid))
    place_abstract(root, abstract)
    num = etree.Element(w("num"), {w("numId"): str(nid)})
    etree.SubElement(num, w("abstractNumId"), {W_VAL: str(aid)})
    place_num(root, num)
    return str(nid)


_ABSTRACTS: dict[tuple[tuple[bool, ...], int], etree._Element] = {}


def _abstract(ordered: tuple[bool, ...], start: int) -> etree._Element:
    """A fresh abstractNum (without its id) for lists of this shape: copied from a kept template,
    as a copy costs a fraction of building nine levels."""
    key = (ordered, start)
    if key not in _ABSTRACTS:
        if len(_ABSTRACTS) > 256:
            _ABSTRACTS.clear()
        template = etree.Element(w("abstractNum"))
        etree.SubElement(template, w("multiLevelType"), {W_VAL: "hybridMultilevel"})
        for level, numbered in enumerate(ordered):
            template.append(_new_level(level, numbered, start if level == 0 else 1))
        _ABSTRACTS[key] = template
    return copy.deepcopy(_ABSTRACTS[key])


def _new_level(level: int, ordered: bool, start: int) -> etree._Element:
    lvl = etree.Element(w("lvl"), {w("ilvl"): str(level)})
    etree.SubElement(lvl, w("start"), {W_VAL: str(max(0, start))})
    etree.SubElement(lvl, w("numFmt"), {W_VAL: "decimal" if ordered else "bullet"})
    etree.SubElement(lvl, w("lvlText"), {W_VAL: f"%{level + 1}." if ordered else "\u2022"})
    etree.SubElement(lvl, w("lvlJc"), {W_VAL: "left"})
    ppr = etree.SubElement(lvl, w("pPr"))
    etree.SubElement(ppr, w("ind"), {w("left"): str(720 * (level + 1)), w("hanging"): "360"})
    return lvl
