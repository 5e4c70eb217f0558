"""ooxml/model/insertion.py: where new content goes for a position, and the refusal that names the
positions valid there, on a document of a centred paragraph and a one-cell table."""
from __future__ import annotations

import pytest
from lxml import etree

from ooxml.model.document import Document
from ooxml.model.insertion import Position, block_insertion, inline_place, run_place
from ooxml.text import body as B
from ooxml.xml.errors import InvalidPosition
from ooxml.xml.namespaces import w
from tests.builders import build_docx, p, tbl, tc

CENTRED = '<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t>Intro</w:t></w:r></w:p>'


@pytest.fixture
def doc(tmp_path):
    return Document.open(build_docx(tmp_path / "d.docx", CENTRED + tbl([[tc(p("cell text"))]]) + p("End")))


def first(doc, tag):
    return next(doc.body.iter(tag))


def test_a_block_after_a_paragraph_goes_into_its_container_after_it(doc):
    para = first(doc, B.W_P)
    container, where = block_insertion(doc, Position("after", para, "after:x"))
    assert container is doc.body and where == {"after": para}


def test_a_table_cannot_end_a_cell_and_the_refusal_names_the_place_before(doc):
    with pytest.raises(InvalidPosition) as err:
        block_insertion(doc, Position("end", first(doc, B.W_TC), "end:x"), "table")
    assert "must end with a paragraph" in err.value.message and err.value.hint.startswith("Use before:")


def test_a_run_cannot_go_inside_a_table_and_the_refusal_lists_valid_positions(doc):
    with pytest.raises(InvalidPosition) as err:
        run_place(doc, Position("end", first(doc, B.W_TBL), "end:x"))
    assert "inside a paragraph" in err.value.message and "Valid positions here" in err.value.hint


def test_inline_content_at_a_paragraphs_start_goes_after_its_properties(doc):
    para = first(doc, B.W_P)
    new = etree.Element(w("r"))
    inline_place(doc, Position("start", para, "start:x"), "field").put([new])
    assert [c.tag for c in para][:2] == [w("pPr"), w("r")] and para[1] is new
