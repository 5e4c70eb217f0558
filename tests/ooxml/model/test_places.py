"""ooxml/model/places.py: where blocks may stand (the one container table, block and inline slots),
on the content-controls document (every control level, in the body and a header)."""
from __future__ import annotations

import pytest
from lxml import etree

from ooxml.model import places as P
from ooxml.model.document import Document
from ooxml.text import body as B
from ooxml.xml.errors import InvalidPosition
from tests.builders import build_docx, p, tc, tbl
from tests.support.form_docs import controls_doc

NS = {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"}


@pytest.fixture(scope="module")
def controls(tmp_path_factory):
    doc = Document.open(controls_doc(tmp_path_factory.mktemp("places") / "controls.docx"))
    doc.register_stories()
    return doc


def sdt(doc, tag: str) -> etree._Element:
    found = [r.xpath(f"//w:sdt[w:sdtPr/w:tag/@w:val='{tag}']", namespaces=NS) for r in doc.story_roots()]
    return [el for els in found for el in els][0]


def content(doc, tag: str) -> etree._Element:
    return sdt(doc, tag).find(B.W_SDTCONTENT)


def test_one_table_holds_every_container_each_with_its_reason():
    names = "body tc hdr ftr footnote endnote comment txbxContent sdtContent docPartBody".split()
    assert P.CONTAINERS == {f"{{{NS['w']}}}{n}" for n in names} and set(P.WHY) == set(names)


@pytest.mark.parametrize("tag", ["summary", "heading", "people"])
def test_a_block_controls_content_holds_blocks(controls, tag):
    assert P.holds_blocks(content(controls, tag))


@pytest.mark.parametrize("tag", ["customer", "agree", "row_ctrl", "cell_ctrl", "company"])
def test_an_inline_row_or_cell_controls_content_holds_no_blocks(controls, tag):
    assert not P.holds_blocks(content(controls, tag))


def test_start_and_end_of_a_block_control_go_into_its_content(controls):
    assert P.block_slot(sdt(controls, "summary")) is content(controls, "summary")


@pytest.mark.parametrize("tag", ["customer", "row_ctrl"])
def test_start_and_end_of_an_inline_or_row_control_are_no_block_slot(controls, tag):
    assert P.block_slot(sdt(controls, tag)) is None


def test_a_run_in_an_inline_control_is_no_placed_block(controls):
    run = content(controls, "customer").find(B.W_R)
    assert B.is_block(run) and not P.is_placed_block(run)


def test_a_paragraph_of_the_body_is_a_placed_block(controls):
    assert P.is_placed_block(next(B.iter_blocks(controls.body)))


@pytest.mark.parametrize("tag,inline", [("customer", True), ("company", True), ("summary", False),
                                        ("row_ctrl", False), ("cell_ctrl", False)])
def test_inline_slot_tells_runs_from_blocks(controls, tag, inline):
    assert P.inline_slot(sdt(controls, tag)) is inline


def test_the_first_slot_of_an_empty_body_is_before_its_section_properties(tmp_path):
    doc = Document.open(build_docx(tmp_path / "empty.docx", ""))
    assert P.first_slot(doc.body) is doc.body.find(B.W_SECTPR)


def test_the_block_of_a_run_in_a_cell_is_its_paragraph(tmp_path):
    doc = Document.open(build_docx(tmp_path / "t.docx", tbl([[tc(p("x"))]])))
    run = doc.body.find(".//w:r", NS)
    assert P.block_of(run) is run.getparent() and P.must_end_with_paragraph(run.getparent().getparent())


def test_a_range_runs_from_its_start_to_its_end_in_one_container(tmp_path):
    doc = Document.open(build_docx(tmp_path / "r.docx", p("a") + p("b") + p("c")))
    a, b, c = B.iter_blocks(doc.body)
    assert P.block_range(a, c) == [a, b, c]


def test_a_range_whose_end_comes_first_is_refused(tmp_path):
    doc = Document.open(build_docx(tmp_path / "r.docx", p("a") + p("b")))
    a, b = B.iter_blocks(doc.body)
    with pytest.raises(InvalidPosition, match="does not come after"):
        P.block_range(b, a)


def test_a_range_across_containers_is_refused(tmp_path):
    doc = Document.open(build_docx(tmp_path / "r.docx", p("a") + tbl([[tc(p("in a cell"))]])))
    cell_p = doc.body.find(".//w:tc/w:p", NS)
    with pytest.raises(InvalidPosition, match="different containers"):
        P.block_range(next(B.iter_blocks(doc.body)), cell_p)
