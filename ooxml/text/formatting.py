"""Paragraph and run formatting edits, each property put where the schema order wants it."""
from __future__ import annotations

import copy
import re

from lxml import etree

from ooxml.text import body as B
from ooxml.text.build import copy_props
from ooxml.xml.wordids import REVISIONS
from ooxml.text.format_args import ALIGNMENTS
from ooxml.xml.namespaces import w
from ooxml.xml.order import get_or_add, insert_child, remove_child, set_child
from ooxml.xml.units import points, twips

_THEME_ATTR = {"ascii": "asciiTheme", "hAnsi": "hAnsiTheme", "eastAsia": "eastAsiaTheme", "cs": "cstheme"}
_HEX = re.compile(r"^#?([0-9A-Fa-f]{6})$")


def runs_of(el: etree._Element) -> list[etree._Element]:
    return [el] if el.tag == B.W_R else list(B.iter_runs(el))


def _toggle(rpr: etree._Element, name: str, on: bool) -> None:
    if on:
        set_child(rpr, name)
    else:
        set_child(rpr, name, val="0")  # explicit off: overrides a bold style


def set_run_font(r: etree._Element, *, size=None, bold=None, italic=None, underline=None,
                 color_hex=None, font_name=None, east_asian_font=None) -> None:
    """Values must have passed ``check_font_args`` (or ``check_properties``)."""
    if all(v is None for v in (size, bold, italic, underline, color_hex, font_name, east_asian_font)):
        return  # nothing to set: no empty w:rPr either
    rpr = get_or_add(r, "rPr")
    if font_name is not None or east_asian_font is not None:
        _set_fonts(rpr, font_name, east_asian_font)
    if bold is not None:
        _toggle(rpr, "b", bold)
        _toggle(rpr, "bCs", bold)
    if italic is not None:
        _toggle(rpr, "i", italic)
        _toggle(rpr, "iCs", italic)
    if color_hex is not None:
        m = _HEX.match(color_hex)
        set_child(rpr, "color", val=m.group(1).upper() if m else "auto")
    if size is not None:
        half = str(round(points(size) * 2))
        set_child(rpr, "sz", val=half)
        set_child(rpr, "szCs", val=half)
    if underline is not None:
        kind = underline if isinstance(underline, str) else ("single" if underline else "none")
        set_child(rpr, "u", val=kind)


def _set_fonts(rpr: etree._Element, font_name, east_asian_font) -> None:
    fonts = get_or_add(rpr, "rFonts")
    targets = {}
    if font_name:
        targets.update(ascii=font_name, hAnsi=font_name, cs=font_name, eastAsia=font_name)
    if east_asian_font:
        targets["eastAsia"] = east_asian_font
    for script, name in targets.items():
        fonts.set(w(script), name)
        fonts.attrib.pop(w(_THEME_ATTR[script]), None)  # a theme font would override the name


def set_run_flags(r: etree._Element, props: dict) -> None:
    if not props:
        return
    rpr = get_or_add(r, "rPr")
    for key, name in (("strike", "strike"), ("all_caps", "caps"), ("small_caps", "smallCaps")):
        if key in props:
            _toggle(rpr, name, bool(props[key]))
    if "highlight" in props:
        set_child(rpr, "highlight", val=props["highlight"])
    if props.get("superscript") or props.get("subscript"):
        set_child(rpr, "vertAlign", val="superscript" if props.get("superscript") else "subscript")
    elif props.get("superscript") is False or props.get("subscript") is False:
        remove_child(rpr, "vertAlign")


def set_alignment(p: etree._Element, alignment: str) -> None:
    set_child(get_or_add(p, "pPr"), "jc", val=ALIGNMENTS[alignment])


def set_paragraph_props(p: etree._Element, props: dict) -> None:
    """Values must have passed ``check_properties``; every attribute is computed before pPr is touched."""
    flags = {name: bool(props[key]) for key, name in (
        ("keep_with_next", "keepNext"), ("keep_together", "keepLines"),
        ("page_break_before", "pageBreakBefore"), ("widow_control", "widowControl")) if key in props}
    spacing = {}
    if "space_before" in props:
        spacing["before"] = str(twips(props["space_before"], "space_before"))
    if "space_after" in props:
        spacing["after"] = str(twips(props["space_after"], "space_after"))
    if "line_spacing" in props:
        spacing.update(_line_spacing(props["line_spacing"]))
    ind = {}
    for key, attr in (("left_indent", "left"), ("right_indent", "right")):
        if key in props:
            ind[attr] = str(twips(props[key], key))
    if "first_line_indent" in props:
        value = twips(props["first_line_indent"], "first_line_indent")
        ind["firstLine" if value >= 0 else "hanging"] = str(abs(value))
    if not (flags or spacing or ind or "alignment" in props):
        return
    ppr = get_or_add(p, "pPr")
    for name, on in flags.items():
        if on:
            set_child(ppr, name)
        else:
            set_child(ppr, name, val="0")
    if spacing:
        _merge_attrs(ppr, "spacing", spacing)
    if ind:
        _merge_attrs(ppr, "ind", ind, drop=("firstLine", "hanging") if "first_line_indent" in props else ())
    if "alignment" in props:
        set_child(ppr, "jc", val=ALIGNMENTS[props["alignment"]])


def _line_spacing(value) -> dict:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"line": str(round(value * 240)), "lineRule": "auto"}  # a multiple of single spacing
    return {"line": str(twips(value, "line_spacing")), "lineRule": "atLeast"}


def _merge_attrs(ppr: etree._Element, name: str, attrs: dict, drop: tuple = ()) -> None:
    el = ppr.find(w(name))
    if el is None:
        el = insert_child(ppr, etree.Element(w(name)))
    for a in drop:
        el.attrib.pop(w(a), None)
    for k, v in attrs.items():
        el.set(w(k), v)


def copy_format(src: etree._Element, dst: etree._Element) -> None:
    """Word's format painter: paragraph properties (paragraph source) and run properties.

    The formatting comes from the source; the destination keeps its section break and its own
    revision records (its paragraph mark's insertion, tracked property changes): they say what
    happened to the destination, and rejecting them must still find them."""
    if src.tag == B.W_P and dst.tag == B.W_P:
        src_ppr = src.find(w("pPr"))
        new = copy_props(src_ppr) if src_ppr is not None else etree.Element(w("pPr"))
        remove_child(new, "sectPr")
        old = dst.find(w("pPr"))
        if old is not None:
            if old.find(w("sectPr")) is not None:
                insert_child(new, copy.deepcopy(old.find(w("sectPr"))))
            _keep_revisions(old, new)
            dst.remove(old)
        if len(new):
            dst.insert(0, new)
    model = src if src.tag == B.W_R else next((r for r in B.iter_runs(src) if B.run_text(r)), None)
    rpr = model.find(w("rPr")) if model is not None else None
    for r in runs_of(dst):
        new = copy_props(rpr) if rpr is not None else etree.Element(w("rPr"))
        old = r.find(w("rPr"))
        if old is not None:
            _keep_revisions(old, new)
            r.remove(old)
        if len(new):
            r.insert(0, new)


def _keep_revisions(old: etree._Element, new: etree._Element) -> None:
    """Move the revision records of properties ``old`` (and of its mark's ``w:rPr``) into ``new``."""
    for child in list(old):
        if child.tag in REVISIONS:
            insert_child(new, child)
    mark = old.find(w("rPr"))
    if mark is not None and old.tag == w("pPr"):
        for child in list(mark):
            if child.tag in REVISIONS:
                insert_child(get_or_add(new, "rPr"), child)
