"""Creating, changing and applying styles in styles.xml (properties through ooxml/text/formatting.py).

Every change touches the styles part, re-reads the styles and the numbering definitions (a
style may carry numbering), and puts properties where the schema wants them (ooxml/xml/order.py).
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.text import body as B
from ooxml.text import formatting as F
from ooxml.lists import numbering as N
from ooxml.opc.types import RT
from ooxml.xml.namespaces import w
from ooxml.xml.order import get_or_add, insert_child, set_child

STYLE_TYPES = ("paragraph", "character", "table")
PARAGRAPH_KEYS = {"alignment", "space_before", "space_after", "line_spacing", "left_indent", "right_indent",
                  "first_line_indent", "keep_with_next", "keep_together", "page_break_before", "widow_control"}
FONT_KEYS = {"bold", "italic", "underline", "size", "color_hex", "font_name", "east_asian_font"}


def styles_part(doc):
    return doc.related_part(RT.STYLES)


def style_element(doc, sid: str) -> etree._Element | None:
    return doc.styles.by_id.get(sid)


def styles_changed(doc, part) -> None:
    part.touch()
    doc.modified = True
    doc.reset_styles()
    N.invalidate(doc)


def new_style_id(doc, name: str) -> str:
    base = re.sub(r"[^0-9A-Za-z]", "", name) or "Style"
    sid, n = base, 1
    taken = {s.lower() for s in doc.styles.by_id}
    while sid.lower() in taken:
        n += 1
        sid = f"{base}{n}"
    return sid


def set_properties(style: etree._Element, properties: dict) -> None:
    """Write docx_set_properties keys into a style's pPr/rPr (validated by the caller)."""
    para = {k: v for k, v in properties.items() if k in PARAGRAPH_KEYS}
    if para:
        F.set_paragraph_props(style, para)
    font = {k: v for k, v in properties.items() if k in FONT_KEYS}
    flags = {k: v for k, v in properties.items() if k not in PARAGRAPH_KEYS and k not in FONT_KEYS}
    if font:
        F.set_run_font(style, **font)
    if flags:
        F.set_run_flags(style, flags)


def create_style(doc, name: str, style_type: str, based_on: str | None, next_style: str | None,
                 properties: dict) -> str:
    part = styles_part(doc)
    sid = new_style_id(doc, name)
    style = etree.Element(w("style"), {w("type"): style_type, w("customStyle"): "1", w("styleId"): sid})
    etree.SubElement(style, w("name"), {w("val"): name})
    if based_on:
        insert_child(style, etree.Element(w("basedOn"), {w("val"): based_on}))
    if next_style:
        insert_child(style, etree.Element(w("next"), {w("val"): next_style}))
    insert_child(style, etree.Element(w("qFormat")))
    set_properties(style, properties)
    part.tree.getroot().append(style)
    styles_changed(doc, part)
    return sid


def modify_style(doc, sid: str, properties: dict) -> None:
    style = style_element(doc, sid)
    doc.will_change(style)
    set_properties(style, properties)
    styles_changed(doc, styles_part(doc))


def apply_style(doc, el: etree._Element, sid: str, kind: str) -> list[etree._Element]:
    """Set a paragraph, character or table style on ``el``; the elements changed."""
    if kind == "paragraph":
        doc.will_change(el)
        set_child(get_or_add(el, "pPr"), "pStyle", val=sid)
        return [el]
    if kind == "table":
        doc.will_change(el)
        set_child(get_or_add(el, "tblPr"), "tblStyle", val=sid)
        return [el]
    runs = F.runs_of(el)
    for r in runs:
        doc.will_change(r)
        set_child(get_or_add(r, "rPr"), "rStyle", val=sid)
    return runs


def usage(doc) -> dict[str, int]:
    """Style ID -> paragraphs using it: its own paragraphs (paragraph styles), paragraphs with a run
    in it (character styles), paragraphs in its tables (table styles). Unstyled paragraphs count
    for the default paragraph style."""
    counts: dict[str, int] = {}
    seen: dict[str, set] = {}
    styled = 0
    for el in doc.body.iter(w("pStyle"), w("rStyle"), w("tblStyle")):
        sid = el.get(w("val"))
        parent = el.getparent()
        if el.tag == w("pStyle"):
            if parent is not None and parent.getparent() is not None and parent.getparent().tag == B.W_P:
                counts[sid] = counts.get(sid, 0) + 1
                styled += 1
        elif el.tag == w("rStyle"):
            p = B.find_ancestor(el, B.W_P)
            if p is not None and p not in seen.setdefault(sid, set()):
                seen[sid].add(p)
                counts[sid] = counts.get(sid, 0) + 1
        else:
            tbl = B.find_ancestor(el, B.W_TBL)
            if tbl is not None:
                counts[sid] = counts.get(sid, 0) + sum(1 for _ in tbl.iter(B.W_P))
    default = next((sid for sid, st in doc.styles.by_id.items()
                    if st.get(w("type")) == "paragraph" and st.get(w("default")) in ("1", "true", "on")), None)
    if default:
        total = sum(1 for _ in doc.body.iter(B.W_P))
        counts[default] = counts.get(default, 0) + total - styled
    return counts
