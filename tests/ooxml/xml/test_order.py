"""Properties land where the schema order wants them (ooxml/xml/order.py)."""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import w
from ooxml.xml.order import get_or_add, insert_child, set_child

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def names(el):
    return [etree.QName(c).localname for c in el]


def test_ppr_children_follow_the_schema_sequence():
    ppr = etree.Element(w("pPr"))
    for name in ("jc", "pStyle", "spacing", "keepNext", "rPr", "ind"):
        get_or_add(ppr, name)
    assert names(ppr) == ["pStyle", "keepNext", "spacing", "ind", "jc", "rPr"]


def test_rpr_children_follow_the_canonical_order():
    rpr = etree.Element(w("rPr"))
    for name in ("sz", "color", "b", "rFonts", "u", "i"):
        set_child(rpr, name, val="1")
    assert names(rpr) == ["rFonts", "b", "i", "color", "sz", "u"]


def test_set_child_replaces_in_place():
    rpr = etree.Element(w("rPr"))
    set_child(rpr, "b")
    set_child(rpr, "sz", val="20")
    set_child(rpr, "b", val="0")
    assert names(rpr) == ["b", "sz"] and rpr[0].get(w("val")) == "0"


def test_properties_go_first_in_paragraphs_and_cells():
    p = etree.Element(w("p"))
    etree.SubElement(p, w("r"))
    get_or_add(p, "pPr")
    assert names(p) == ["pPr", "r"]
    tc = etree.Element(w("tc"))
    etree.SubElement(tc, w("p"))
    get_or_add(tc, "tcPr")
    assert names(tc) == ["tcPr", "p"]


def test_tbl_keeps_tblpr_then_tblgrid_before_rows():
    tbl = etree.Element(w("tbl"))
    etree.SubElement(tbl, w("tr"))
    insert_child(tbl, etree.Element(w("tblGrid")))
    insert_child(tbl, etree.Element(w("tblPr")))
    assert names(tbl) == ["tblPr", "tblGrid", "tr"]


def test_sectpr_order():
    sect = etree.Element(w("sectPr"))
    for name in ("cols", "pgMar", "pgSz", "headerReference", "docGrid", "titlePg"):
        insert_child(sect, etree.Element(w(name)))
    assert names(sect) == ["headerReference", "pgSz", "pgMar", "cols", "titlePg", "docGrid"]
