"""ooxml/tabular/grid.py: TableGrid, the one model of a table's cells on its grid columns, read from
documents with merged cells as Word writes them (w:gridSpan, w:vMerge, w:gridBefore/w:gridAfter)."""
from __future__ import annotations

from ooxml.model.document import Document
from ooxml.tabular.grid import TableGrid
from ooxml.xml.namespaces import w
from tests.builders import build_docx, p, tbl, tc

SPAN2 = '<w:gridSpan w:val="2"/>'
TOP, MORE = '<w:vMerge w:val="restart"/>', "<w:vMerge/>"


def grid_of(tmp_path, rows: list[list[str]], grid: list[int] | None = None) -> TableGrid:
    doc = Document.open(build_docx(tmp_path / "t.docx", tbl(rows, grid)))
    return TableGrid(doc.body.find(w("tbl")))


def test_a_spanned_cell_covers_its_columns_and_the_next_cell_starts_after_it(tmp_path):
    g = grid_of(tmp_path, [[tc(p("wide"), SPAN2), tc(p("c"))], [tc(p("1")), tc(p("2")), tc(p("3"))]])
    assert g.n_cols == 3 and g.at(0, 1) is g.at(0, 0) and g.at(0, 2).start == 2
    assert g.text_matrix() == [["wide", "\u2190", "c"], ["1", "2", "3"]]


def test_a_vertical_merge_shows_its_top_cell_in_every_row_it_covers(tmp_path):
    rows = [[tc(p("top"), TOP), tc(p("a"))], [tc(p(), MORE), tc(p("b"))], [tc(p(), MORE), tc(p("c"))]]
    g = grid_of(tmp_path, rows)
    top = g.at(0, 0)
    assert g.origin(g.at(2, 0)) is top and g.last_row_of(top) == 2
    assert g.cell(2, 0) is top.tc and g.is_top_left(0, 0) and not g.is_top_left(1, 0)
    assert [row[0] for row in g.text_matrix()] == ["top", "\u2191", "\u2191"]


def test_a_continue_with_nothing_above_starts_a_cell_of_its_own(tmp_path):
    g = grid_of(tmp_path, [[tc(p("lone"), MORE), tc(p("x"))]])
    assert not g.continues(g.at(0, 0)) and g.text_matrix() == [["lone", "x"]]


def test_grid_before_and_after_leave_empty_slots(tmp_path):
    shifted = '<w:trPr><w:gridBefore w:val="1"/></w:trPr>' + tc(p("b")) + tc(p("c"))
    doc = Document.open(build_docx(tmp_path / "t.docx", tbl([[tc(p("a")), tc(p("b")), tc(p("c"))], ["X"]])
                                   .replace("<w:tr>X</w:tr>", f"<w:tr>{shifted}</w:tr>")))
    g = TableGrid(doc.body.find(w("tbl")))
    assert g.at(1, 0) is None and g.position_of(g.at(1, 1).tc) == (1, 1)
    assert g.text_matrix()[1] == ["", "b", "c"]


def test_widths_come_from_the_declared_grid(tmp_path):
    g = grid_of(tmp_path, [[tc(p("a"), SPAN2), tc(p("b"))]], grid=[1000, 1500, 2000])
    assert g.width_of(0, 2) == 2500 and g.width_of(2, 1) == 2000 and g.width_of(2, 2) is None


def test_a_span_past_the_grid_is_clamped_so_the_cells_after_it_still_fit(tmp_path):
    g = grid_of(tmp_path, [[tc(p("huge"), '<w:gridSpan w:val="999999999"/>'), tc(p("after"))]])
    last = g.cells[0][-1]
    assert last.tc is g.cell_of(last.tc).tc and last.start < g.n_cols and g.text_matrix()[0][-1] == "after"
