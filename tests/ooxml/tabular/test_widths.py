"""ooxml/tabular/widths.py: how wide new content may be at a place (the page's text width, a cell's inside)."""
from __future__ import annotations

from ooxml.model.document import Document
from ooxml.tabular.widths import CELL_MARGINS, available_width
from ooxml.text import body as B
from tests.builders import build_docx, p, tbl, tc

TEXT_WIDTH = 12240 - 2 * 1440  # the builders' Letter page with 1in margins


def opened(tmp_path, body: str) -> Document:
    return Document.open(build_docx(tmp_path / "w.docx", body))


def cells(doc: Document) -> list:
    return list(doc.body.iter(B.W_TC))


def test_in_the_body_it_is_the_page_text_width(tmp_path):
    doc = opened(tmp_path, p("a"))
    first = next(B.iter_blocks(doc.body))
    assert available_width(doc, doc.body, first) == TEXT_WIDTH


def test_in_a_cell_it_is_the_cell_inside_its_margins(tmp_path):
    doc = opened(tmp_path, tbl([[tc(p("a")), tc(p("b"))]], grid=[3000, 4000]))
    second = cells(doc)[1]
    assert available_width(doc, second, second[-1]) == 4000 - CELL_MARGINS


def test_a_merged_cell_counts_every_column_it_spans(tmp_path):
    doc = opened(tmp_path, tbl([[tc(p("a"), '<w:gridSpan w:val="2"/>')]], grid=[3000, 4000]))
    cell = cells(doc)[0]
    assert available_width(doc, cell, cell[-1]) == 7000 - CELL_MARGINS


def test_a_narrow_cell_still_offers_half_an_inch(tmp_path):
    doc = opened(tmp_path, tbl([[tc(p("a"))]], grid=[500]))
    cell = cells(doc)[0]
    assert available_width(doc, cell, cell[-1]) == 720
