"""Document.top_block(el): the block of the body or of a story part's root holding an element."""
from __future__ import annotations

import pytest

from ooxml.model.document import Document
from tests.builders import SECT, build_docx, p, part_xml, tbl, tc

NS = {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"}
CT_HDR = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"


@pytest.fixture
def doc(tmp_path):
    sect = SECT.replace("<w:sectPr>", '<w:sectPr><w:headerReference w:type="default" r:id="rId71"/>')
    path = build_docx(tmp_path / "top.docx", p("first") + tbl([[tc(p("in a cell"))]]), sect=sect,
                      extra_parts={"word/header1.xml": part_xml("w:hdr", p("head"))},
                      rels=[("rId71", "header", "header1.xml")], overrides={"word/header1.xml": CT_HDR})
    return Document.open(path)


def test_a_run_in_a_cell_belongs_to_its_table(doc):
    table = doc.body.find("w:tbl", NS)
    assert doc.top_block(table.find(".//w:r", NS)) is table


def test_a_block_of_the_body_is_its_own_top_block(doc):
    first = doc.body.find("w:p", NS)
    assert doc.top_block(first) is first


def test_a_run_in_a_header_belongs_to_the_headers_paragraph(doc):
    header = doc.stories(frozenset({"header"}))[0].root
    assert doc.top_block(header.find(".//w:r", NS)) is header.find("w:p", NS)


def test_a_detached_element_has_no_top_block(doc):
    first = doc.body.find("w:p", NS)
    doc.remove_block(first)
    assert doc.top_block(first.find(".//w:r", NS)) is None
