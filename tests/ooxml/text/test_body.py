"""ooxml/text/body.py: the lookups docx_compare makes for every run and block it reads (``props``,
``section_mark``) answer as the lxml path searches they stand for, wherever the child sits."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.namespaces import W, w

NS = f'xmlns:w="{W}"'


def el(xml: str) -> etree._Element:
    return etree.fromstring(xml.replace("<w:p>", f"<w:p {NS}>", 1).replace("<w:r>", f"<w:r {NS}>", 1))


def test_props_finds_a_run_s_properties_first_later_or_not_at_all():
    first = el('<w:r><w:rPr><w:b/></w:rPr><w:t>x</w:t></w:r>')
    later = el('<w:r><w:t>x</w:t><w:rPr><w:i/></w:rPr><w:rPr><w:b/></w:rPr></w:r>')  # invalid, read as find reads it
    none = el('<w:r><w:t>x</w:t><w:tab/></w:r>')
    empty = el('<w:r></w:r>')
    for run in (first, later, none, empty):
        assert B.props(run, w("rPr")) is run.find(w("rPr"))
    assert B.props(later, w("rPr"))[0].tag == w("i")


def test_props_finds_a_paragraph_s_properties_among_many_runs():
    runs = "".join(f"<w:r><w:t>{k}</w:t></w:r>" for k in range(12))
    for xml in (f"<w:p><w:pPr/>{runs}</w:p>", f"<w:p>{runs}<w:pPr/></w:p>", f"<w:p>{runs}</w:p>"):
        p = el(xml)
        assert B.props(p, w("pPr")) is p.find(w("pPr"))


def test_section_mark_is_a_section_break_in_any_of_the_paragraph_s_properties():
    cases = {"<w:p><w:pPr><w:sectPr/></w:pPr></w:p>": True, "<w:p><w:pPr/></w:p>": False,
             "<w:p><w:pPr/><w:pPr><w:sectPr/></w:pPr></w:p>": True,  # invalid: a second pPr
             "<w:p><w:r><w:sectPr/></w:r></w:p>": False, "<w:p/>": False}
    for xml, expected in cases.items():
        p = el(xml.replace("<w:p/>", f"<w:p {NS}/>"))
        assert B.section_mark(p) is expected is (p.find(f"{w('pPr')}/{w('sectPr')}") is not None), xml
