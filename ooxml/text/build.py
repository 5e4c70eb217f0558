"""Building new WordprocessingML: paragraphs, runs, text with tabs and breaks."""
from __future__ import annotations

import copy
import re

from lxml import etree

from ooxml.xml import budget
from ooxml.xml.namespaces import XML, w
from ooxml.xml.order import get_or_add, set_child
from ooxml.xml.wordids import REVISIONS

_SPLIT = re.compile(r"(\r\n|\r|\n|\t)")
_XML_SPACE = f"{{{XML}}}space"
_W_P, _W_R, _W_T, _W_TAB, _W_BR = w("p"), w("r"), w("t"), w("tab"), w("br")
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def clean_text(text: str) -> str:
    """Drop characters XML 1.0 cannot hold (lxml would refuse them)."""
    return _ILLEGAL.sub("", text)


def text_children(text: str) -> list[etree._Element]:
    """``w:t``/``w:tab``/``w:br`` for text: never a raw newline inside ``w:t`` (Word refuses it)."""
    holder = etree.Element(_W_R)
    append_text(holder, text)
    return list(holder)


def append_text(parent: etree._Element, text: str) -> None:
    """``text_children`` made as children of ``parent`` (an element made inside its parent costs
    less than one made alone and moved there: lxml gives a lone element a document of its own)."""
    for i, piece in enumerate(_SPLIT.split(_ILLEGAL.sub("", text))):  # clean_text
        if not piece:
            continue
        if not i % 8192:
            budget.check()  # a million characters of line breaks: 400,000 elements
        if piece == "\t":
            etree.SubElement(parent, _W_TAB)
        elif piece in ("\n", "\r\n", "\r"):
            etree.SubElement(parent, _W_BR)
        else:
            t = etree.SubElement(parent, _W_T)
            t.text = piece
            if piece != piece.strip():
                t.set(_XML_SPACE, "preserve")  # else Word drops leading/trailing spaces


def copy_props(props: etree._Element) -> etree._Element:
    """Run or paragraph properties for new content formatted like other content: the formatting only.
    Revision marks (a tracked format change, a paragraph mark's insertion) stay with the original:
    copied, they would repeat its w:id and claim a change nobody made to the new content."""
    out = copy.deepcopy(props)
    for el in list(out.iter(*REVISIONS)):
        if el is not out:
            el.getparent().remove(el)
    return out


def make_run(text: str, rpr: etree._Element | None = None) -> etree._Element:
    r = etree.Element(_W_R)
    _fill_run(r, text, rpr)
    return r


def _fill_run(r: etree._Element, text: str, rpr: etree._Element | None) -> None:
    if rpr is not None and len(rpr):
        rpr = copy_props(rpr)
    if rpr is not None and len(rpr):
        r.append(rpr)
    append_text(r, text)


def make_paragraph(text: str = "", style_id: str | None = None, rpr: etree._Element | None = None) -> etree._Element:
    p = etree.Element(_W_P)
    if style_id:
        set_child(get_or_add(p, "pPr"), "pStyle", val=style_id)
    if text:
        _fill_run(etree.SubElement(p, _W_R), text, rpr)
    return p


def page_break_paragraph() -> etree._Element:
    p = etree.Element(w("p"))
    r = etree.SubElement(p, w("r"))
    etree.SubElement(r, w("br"), {w("type"): "page"})
    return p


_TEXTUAL = {w(n) for n in "t tab br cr noBreakHyphen softHyphen sym ptab".split()}


def set_run_text(r: etree._Element, text: str) -> None:
    """Replace a run's text, keeping its formatting and anything that is not text (images, fields)."""
    first_text = None
    for child in list(r):
        if child.tag in _TEXTUAL:
            if first_text is None:
                first_text = child.getprevious()
            r.remove(child)
    new = text_children(text)
    anchor = first_text if first_text is not None else r.find(w("rPr"))
    for child in reversed(new):
        if anchor is not None:
            anchor.addnext(child)
        else:
            r.insert(0, child)


MARK_RPR_DROP = {w(n) for n in ("ins", "del", "moveFrom", "moveTo", "rPrChange")}


def mark_rpr(p: etree._Element) -> etree._Element | None:
    """The paragraph-mark run properties (``w:pPr/w:rPr``) as a run rPr, revision marks left out."""
    ppr = p.find(w("pPr"))
    rpr = ppr.find(w("rPr")) if ppr is not None else None
    if rpr is None:
        return None
    out = etree.Element(w("rPr"))
    for child in rpr:
        if child.tag not in MARK_RPR_DROP:
            out.append(copy.deepcopy(child))
    return out if len(out) else None

