"""Table tools: insert, read, fill, rows, columns, merges, copies (0-based visual grid)."""
from __future__ import annotations

import pytest

from tests.builders import NS, build_docx, p, tbl, tc
from tests.support.client import by_id, read_part, texts

pytestmark = pytest.mark.anyio


def rows_of(table):
    return table.findall("w:tr", NS)


def cells_of(tr):
    return tr.findall("w:tc", NS)


def tcpr_val(cell, name):
    el = cell.find(f"w:tcPr/w:{name}", NS)
    return None if el is None else el.get(f"{{{NS['w']}}}val", "continue" if name == "vMerge" else None)


def grid_widths(table):
    return [int(g.get(f"{{{NS['w']}}}w")) for g in table.findall("w:tblGrid/w:gridCol", NS)]


async def new_table(docx, rows=2, cols=3, data=None):
    await docx.create()
    args = {"rows": rows, "cols": cols, "position": "end:document_body"}
    if data is not None:
        args["data"] = data
    return (await docx.ok("docx_insert_table", **args)).element_id


async def open_built(docx, tmp_path, body, **kw):
    await docx.open(build_docx(tmp_path / "in.docx", body, **kw))


def first_table_id(answer_text: str) -> str:
    import re
    return re.search(r"- (table_[0-9a-f]+):", answer_text).group(1)


# ---- insert --------------------------------------------------------------------------------------

async def test_insert_table_builds_grid_sized_to_the_text_width(docx, tmp_path):
    table_id = await new_table(docx, 2, 3)
    table = by_id(await docx.save(tmp_path / "out.docx"), table_id)
    assert len(rows_of(table)) == 2 and all(len(cells_of(r)) == 3 for r in rows_of(table))
    assert sum(grid_widths(table)) == 12240 - 2 * 1440  # Letter, 1in margins
    for row in rows_of(table):
        for cell in cells_of(row):
            assert cell[-1].tag == f"{{{NS['w']}}}p"


async def test_insert_table_answer_shows_ascii_grid_and_dimensions(docx):
    await docx.create()
    a = await docx.ok("docx_insert_table", rows=3, cols=2, position="end:document_body", data=[["Name", "Age"]])
    assert a.head["Dimensions"] == "3 rows × 2 columns"
    context = a.section("Document Context")
    assert f"Table ({a.element_id}) 3×2 ⭐ NEW" in context and "| Name" in context
    assert a.cursor_line == f"Cursor: after Table {a.element_id}"


async def test_insert_table_uses_the_table_grid_style(docx, tmp_path):
    table_id = await new_table(docx)
    table = by_id(await docx.save(tmp_path / "out.docx"), table_id)
    assert table.find("w:tblPr/w:tblStyle", NS).get(f"{{{NS['w']}}}val") == "TableGrid"
    assert table.find("w:tblPr/w:tblBorders", NS) is None


async def test_insert_table_without_table_style_gets_borders(docx, tmp_path):
    await open_built(docx, tmp_path, p("Only text"), styles=False)
    table_id = (await docx.ok("docx_insert_table", rows=1, cols=2, position="end:document_body")).element_id
    table = by_id(await docx.save(tmp_path / "out.docx"), table_id)
    assert table.find("w:tblPr/w:tblStyle", NS) is None
    borders = table.find("w:tblPr/w:tblBorders", NS)
    assert [b.tag.split("}")[1] for b in borders] == ["top", "left", "bottom", "right", "insideH", "insideV"]


async def test_insert_table_with_data_fills_cells(docx, tmp_path):
    table_id = await new_table(docx, 2, 2, data=[["a", "b"], ["c"]])
    table = by_id(await docx.save(tmp_path / "out.docx"), table_id)
    assert [[texts(c) for c in cells_of(r)] for r in rows_of(table)] == [["a", "b"], ["c", ""]]


async def test_insert_table_refuses_data_larger_than_the_table(docx, tmp_path):
    await docx.create()
    a = await docx.call("docx_insert_table", rows=1, cols=2, position="end:document_body", data=[["a", "b", "c"]])
    assert a.is_error and a.error_type == "ValidationError" and "3 values" in a.head["Message"]
    body = await docx.save(tmp_path / "out.docx")
    assert body.find("w:tbl", NS) is None


async def test_table_next_to_a_table_gets_a_paragraph_between(docx, tmp_path):
    first = await new_table(docx, 1, 1)
    second = (await docx.ok("docx_insert_table", rows=1, cols=1, position=f"after:{first}")).element_id
    body = await docx.save(tmp_path / "out.docx")
    blocks = [el.tag.split("}")[1] for el in body if el.tag != f"{{{NS['w']}}}sectPr"]
    assert blocks == ["tbl", "p", "tbl"]
    assert by_id(body, second).getprevious().tag == f"{{{NS['w']}}}p"


async def test_nested_table_fits_its_cell(docx, tmp_path):
    outer = await new_table(docx, 1, 2)
    cell = (await docx.ok("docx_get_cell", table_id=outer, row=0, col=0))
    para = cell.section("Content").split("(")[1].split(")")[0]
    inner = (await docx.ok("docx_insert_table", rows=1, cols=2, position=f"before:{para}")).element_id
    body = await docx.save(tmp_path / "out.docx")
    assert sum(grid_widths(by_id(body, inner))) == 4680 - 216  # half the text width, less cell margins
    assert by_id(body, inner).getparent().tag == f"{{{NS['w']}}}tc"


async def test_table_cannot_be_the_last_block_of_a_cell(docx):
    outer = await new_table(docx, 1, 1)
    cell_id = (await docx.ok("docx_get_cell", table_id=outer, row=0, col=0)).element_id
    a = await docx.call("docx_insert_table", rows=1, cols=1, position=f"end:{cell_id}")
    assert a.is_error and a.error_type == "InvalidPosition" and "must end with a paragraph" in a.head["Message"]


# ---- reading -------------------------------------------------------------------------------------

async def test_get_table_lists_every_cell_id(docx, tmp_path):
    table_id = await new_table(docx, 2, 2, data=[["a", "b"], ["c", "d"]])
    a = await docx.ok("docx_get_table", table_id=table_id)
    content = a.section("Content")
    ids = [line.split()[2].rstrip(":") for line in content.splitlines() if line.startswith("- (")]
    assert len(ids) == 4 and all(i.startswith("cell_") for i in ids)
    body = await docx.save(tmp_path / "out.docx")
    assert texts(by_id(body, ids[3])) == "d"


async def test_get_table_pages_large_tables(docx):
    table_id = await new_table(docx, 25, 10)
    a = await docx.ok("docx_get_table", table_id=table_id)
    assert a.head["Next Page"] == "start_row=20, start_col=0 or start_row=0, start_col=8"
    b = await docx.ok("docx_get_table", table_id=table_id, start_row=20)
    assert b.head["Shown"] == "rows 20-24, columns 0-7"


async def test_get_table_marks_merged_slots(docx, tmp_path):
    body = tbl([[tc(p("wide"), '<w:gridSpan w:val="2"/>')], [tc(p("a")), tc(p("b"))]])
    await open_built(docx, tmp_path, body)
    listed = await docx.ok("docx_list_tables")
    a = await docx.ok("docx_get_table", table_id=first_table_id(listed.text))
    assert "| wide | ←" in a.section("Content").replace("  ", " ").replace("  ", " ")
    assert "[merged 1×2]" in a.section("Content")


async def test_list_tables_shows_nested_tables_under_their_cell(docx, tmp_path):
    inner = tbl([[tc(p("in"))]])
    await open_built(docx, tmp_path, tbl([[tc(inner + p()), tc(p("x"))]]))
    a = await docx.ok("docx_list_tables")
    lines = [line for line in a.section("Content").splitlines() if line.strip()]
    assert a.head["Tables"] == "2"
    assert lines[0].startswith("- table_") and lines[1].startswith("  - table_") and " in cell cell_" in lines[1]


async def test_get_cell_of_a_merged_slot_finds_the_merged_cell(docx, tmp_path):
    body = tbl([[tc(p("top"), '<w:vMerge w:val="restart"/>'), tc(p("x"))],
                [tc(p(), "<w:vMerge/>"), tc(p("y"))]])
    await open_built(docx, tmp_path, body)
    table_id = first_table_id((await docx.ok("docx_list_tables")).text)
    a = await docx.ok("docx_get_cell", table_id=table_id, row=1, col=0)
    assert a.head["Cell"] == "row 0, col 0" and a.head["Merged"] == "2 rows × 1 columns"
    assert a.head["Text"] == "top" and a.element_id.startswith("cell_")
    assert "Parent: Cell" in a.section("Document Context")


async def test_get_cell_outside_the_table_is_an_error(docx):
    table_id = await new_table(docx, 2, 2)
    a = await docx.call("docx_get_cell", table_id=table_id, row=2, col=0)
    assert a.is_error and "0-based" in a.text


# ---- paragraphs in cells ------------------------------------------------------------------------

async def test_paragraph_to_cell_fills_an_empty_cell(docx, tmp_path):
    table_id = await new_table(docx, 1, 2)
    a = await docx.ok("docx_insert_paragraph_to_cell", text="Hello", table_id=table_id, row=0, col=1)
    context = a.section("Document Context")
    assert f"in Table {table_id} (row 0, col 1)" in context
    assert "[Cell Start]" in context and "[Cell End]" in context
    assert a.cursor_line == f"Cursor: after Paragraph {a.element_id}"
    cell = cells_of(rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))[0])[1]
    assert [texts(x) for x in cell.findall("w:p", NS)] == ["Hello"]


async def test_paragraph_to_cell_appends_with_the_last_paragraphs_format(docx, tmp_path):
    body = tbl([[tc('<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>one</w:t></w:r></w:p>')]])
    await open_built(docx, tmp_path, body)
    table_id = first_table_id((await docx.ok("docx_list_tables")).text)
    a = await docx.ok("docx_insert_paragraph_to_cell", text="two", table_id=table_id, row=0, col=0)
    new = by_id(await docx.save(tmp_path / "o.docx"), a.element_id)
    assert texts(new) == "two" and new.find("w:pPr/w:jc", NS) is not None and new.find("w:r/w:rPr/w:b", NS) is not None
    assert new.getparent()[-1] is new
    assert a.head["Position"].startswith("end:cell_")


# ---- fill -------------------------------------------------------------------------------------------

async def test_fill_table_grows_rows_like_the_last_row(docx, tmp_path):
    body = tbl([[tc(p("h"), '<w:shd w:val="clear" w:color="auto" w:fill="FFFF00"/>')]])
    await open_built(docx, tmp_path, body)
    table_id = first_table_id((await docx.ok("docx_list_tables")).text)
    a = await docx.ok("docx_fill_table", table_id=table_id, data=[["a"], ["b"], ["c"]])
    assert a.head["Rows Added"] == "2" and a.head["Cells Written"] == "3"
    table = by_id(await docx.save(tmp_path / "o.docx"), table_id)
    assert [texts(r) for r in rows_of(table)] == ["a", "b", "c"]
    assert all(r.find("w:tc/w:tcPr/w:shd", NS) is not None for r in rows_of(table))


async def test_fill_table_from_start_row_and_null_keeps_cells(docx, tmp_path):
    table_id = await new_table(docx, 2, 2, data=[["a", "b"], ["c", "d"]])
    await docx.ok("docx_fill_table", table_id=table_id, data=[[None, "D"]], start_row=1)
    table = by_id(await docx.save(tmp_path / "o.docx"), table_id)
    assert [[texts(c) for c in cells_of(r)] for r in rows_of(table)] == [["a", "b"], ["c", "D"]]


async def test_fill_table_skips_merged_slots(docx):
    table_id = await new_table(docx, 2, 2)
    await docx.ok("docx_merge_cells", table_id=table_id, start_row=0, start_col=0, end_row=0, end_col=1)
    a = await docx.ok("docx_fill_table", table_id=table_id, data=[["x", "lost"], ["y", "z"]])
    assert a.head["Skipped"] == "1 value(s) on merged slots" and a.head["Cells Written"] == "3"


async def test_fill_table_refuses_too_many_columns_and_changes_nothing(docx, tmp_path):
    table_id = await new_table(docx, 1, 2)
    await docx.save(tmp_path / "a.docx")
    a = await docx.call("docx_fill_table", table_id=table_id, data=[["a", "b", "c"]])
    assert a.is_error and a.error_type == "ValidationError"
    await docx.save(tmp_path / "b.docx")
    assert read_part(tmp_path / "a.docx") == read_part(tmp_path / "b.docx")


# ---- rows ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("position, index", [("before:1", 1), ("after:1", 2), ("start", 0), ("end", 3)])
async def test_insert_row_positions(docx, tmp_path, position, index):
    table_id = await new_table(docx, 3, 1, data=[["0"], ["1"], ["2"]])
    a = await docx.ok("docx_insert_row_at", table_id=table_id, position=position)
    rows = rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))
    assert len(rows) == 4 and rows[index] is by_id(rows[0].getparent(), a.element_id) and texts(rows[index]) == ""
    assert a.cursor_line == f"Cursor: after Row {a.element_id}"


async def test_insert_row_copies_the_neighbours_format(docx, tmp_path):
    body = tbl([[tc(p("a"))], ['<w:tc><w:tcPr><w:shd w:val="clear" w:fill="00FF00"/></w:tcPr>'
                               '<w:p><w:pPr><w:jc w:val="right"/></w:pPr><w:r><w:rPr><w:i/></w:rPr><w:t>b</w:t></w:r></w:p></w:tc>']])
    body = body.replace("<w:tr><w:tc><w:tcPr><w:shd", '<w:tr><w:trPr><w:trHeight w:val="800"/></w:trPr><w:tc><w:tcPr><w:shd')
    await open_built(docx, tmp_path, body)
    table_id = first_table_id((await docx.ok("docx_list_tables")).text)
    a = await docx.ok("docx_insert_row_at", table_id=table_id, position="after:1")
    row = by_id(await docx.save(tmp_path / "o.docx"), a.element_id)
    assert row.find("w:trPr/w:trHeight", NS).get(f"{{{NS['w']}}}val") == "800"
    assert row.find("w:tc/w:tcPr/w:shd", NS) is not None and row.find("w:tc/w:p/w:pPr/w:jc", NS) is not None
    assert row.find("w:tc/w:p/w:pPr/w:rPr/w:i", NS) is not None  # the text formatting waits in the mark
    assert texts(row) == ""


async def test_insert_row_without_copy_format_is_plain(docx, tmp_path):
    body = tbl([['<w:tc><w:tcPr><w:shd w:val="clear" w:fill="00FF00"/></w:tcPr><w:p/></w:tc>']])
    await open_built(docx, tmp_path, body)
    table_id = first_table_id((await docx.ok("docx_list_tables")).text)
    a = await docx.ok("docx_insert_row_at", table_id=table_id, position="end", copy_format=False)
    row = by_id(await docx.save(tmp_path / "o.docx"), a.element_id)
    assert row.find("w:tc/w:tcPr/w:shd", NS) is None and row.find("w:tc/w:p", NS) is not None


async def test_insert_row_inside_a_vertical_merge_extends_it(docx, tmp_path):
    table_id = await new_table(docx, 3, 2)
    await docx.ok("docx_merge_cells", table_id=table_id, start_row=0, start_col=0, end_row=1, end_col=0)
    a = await docx.ok("docx_insert_row_at", table_id=table_id, position="after:0")
    rows = rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))
    assert rows[1].get(f"{{{NS['oxm']}}}id") == a.element_id
    assert [tcpr_val(cells_of(r)[0], "vMerge") for r in rows] == ["restart", "continue", "continue", None]
    assert tcpr_val(cells_of(rows[1])[1], "vMerge") is None


async def test_insert_row_bad_position_is_refused(docx):
    table_id = await new_table(docx, 2, 2)
    a = await docx.call("docx_insert_row_at", table_id=table_id, position="after:5")
    assert a.is_error and a.error_type == "InvalidPosition" and "0-based" in a.head["Hint"]


async def test_delete_row(docx, tmp_path):
    table_id = await new_table(docx, 3, 1, data=[["a"], ["b"], ["c"]])
    a = await docx.ok("docx_delete_row", table_id=table_id, row_index=1)
    assert a.head["Deleted"] == "row 1"
    assert [texts(r) for r in rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))] == ["a", "c"]


async def test_delete_row_that_starts_a_merge_moves_the_start_down(docx, tmp_path):
    table_id = await new_table(docx, 3, 2, data=[["top", "x"], ["", "y"], ["", "z"]])
    await docx.ok("docx_merge_cells", table_id=table_id, start_row=0, start_col=0, end_row=2, end_col=0)
    await docx.ok("docx_delete_row", table_id=table_id, row_index=0)
    rows = rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))
    assert [tcpr_val(cells_of(r)[0], "vMerge") for r in rows] == ["restart", "continue"]
    assert texts(cells_of(rows[0])[0]) == "top"


async def test_delete_the_only_row_is_refused(docx):
    table_id = await new_table(docx, 1, 2)
    a = await docx.call("docx_delete_row", table_id=table_id, row_index=0)
    assert a.is_error and "at least one row" in a.head["Message"]


# ---- columns ---------------------------------------------------------------------------------------

async def test_insert_col_adds_grid_column_and_cells(docx, tmp_path):
    table_id = await new_table(docx, 2, 2, data=[["a", "b"], ["c", "d"]])
    a = await docx.ok("docx_insert_col_at", table_id=table_id, position="before:1")
    assert a.head["New Cells"] == "2"
    table = by_id(await docx.save(tmp_path / "o.docx"), table_id)
    assert [[texts(c) for c in cells_of(r)] for r in rows_of(table)] == [["a", "", "b"], ["c", "", "d"]]
    assert len(grid_widths(table)) == 3 and sum(grid_widths(table)) <= 9360


async def test_insert_col_through_a_merged_cell_widens_it(docx, tmp_path):
    table_id = await new_table(docx, 2, 2)
    await docx.ok("docx_merge_cells", table_id=table_id, start_row=0, start_col=0, end_row=0, end_col=1)
    await docx.ok("docx_insert_col_at", table_id=table_id, position="after:0")
    rows = rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))
    assert tcpr_val(cells_of(rows[0])[0], "gridSpan") == "3" and len(cells_of(rows[1])) == 3


async def test_insert_col_keeps_the_table_within_the_page(docx, tmp_path):
    table_id = await new_table(docx, 1, 4)
    await docx.ok("docx_insert_col_at", table_id=table_id, position="end")
    table = by_id(await docx.save(tmp_path / "o.docx"), table_id)
    widths = grid_widths(table)
    assert len(widths) == 5 and sum(widths) <= 9360
    assert [int(c.find("w:tcPr/w:tcW", NS).get(f"{{{NS['w']}}}w")) for c in cells_of(rows_of(table)[0])] == widths


async def test_delete_col(docx, tmp_path):
    table_id = await new_table(docx, 2, 3, data=[["a", "b", "c"], ["d", "e", "f"]])
    await docx.ok("docx_delete_col", table_id=table_id, col_index=1)
    table = by_id(await docx.save(tmp_path / "o.docx"), table_id)
    assert [[texts(c) for c in cells_of(r)] for r in rows_of(table)] == [["a", "c"], ["d", "f"]]
    assert len(grid_widths(table)) == 2


async def test_delete_col_through_a_span_narrows_it(docx, tmp_path):
    table_id = await new_table(docx, 2, 3)
    await docx.ok("docx_merge_cells", table_id=table_id, start_row=0, start_col=0, end_row=0, end_col=2)
    await docx.ok("docx_delete_col", table_id=table_id, col_index=1)
    rows = rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))
    assert tcpr_val(cells_of(rows[0])[0], "gridSpan") == "2" and len(cells_of(rows[1])) == 2


async def test_delete_the_only_column_is_refused(docx):
    table_id = await new_table(docx, 2, 1)
    a = await docx.call("docx_delete_col", table_id=table_id, col_index=0)
    assert a.is_error and "at least one column" in a.head["Message"]


async def test_delete_col_that_would_empty_a_row_is_refused(docx, tmp_path):
    body = tbl([[tc(p("only"))], [tc(p("a")), tc(p("b"))]])
    body = body.replace("<w:tr><w:tc>", '<w:tr><w:trPr><w:gridAfter w:val="1"/></w:trPr><w:tc>', 1)
    await open_built(docx, tmp_path, body)
    table_id = first_table_id((await docx.ok("docx_list_tables")).text)
    a = await docx.call("docx_delete_col", table_id=table_id, col_index=0)
    assert a.is_error and "row 0 without any cell" in a.head["Message"]


# ---- merge ----------------------------------------------------------------------------------------------

async def test_merge_sets_span_and_vmerge_and_joins_content(docx, tmp_path):
    table_id = await new_table(docx, 3, 3, data=[["a", "b", "c"], ["d", "", "f"], ["g", "h", "i"]])
    a = await docx.ok("docx_merge_cells", table_id=table_id, start_row=0, start_col=0, end_row=1, end_col=1)
    rows = rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))
    top, below = cells_of(rows[0])[0], cells_of(rows[1])[0]
    assert a.element_id == top.get(f"{{{NS['oxm']}}}id")
    assert (tcpr_val(top, "gridSpan"), tcpr_val(top, "vMerge")) == ("2", "restart")
    assert (tcpr_val(below, "gridSpan"), tcpr_val(below, "vMerge")) == ("2", "continue")
    assert [texts(x) for x in top.findall("w:p", NS)] == ["a", "b", "d"]
    assert texts(below) == "" and below[-1].tag == f"{{{NS['w']}}}p"
    assert [len(cells_of(r)) for r in rows] == [2, 2, 3]


async def test_merge_across_an_existing_merge_is_refused(docx):
    table_id = await new_table(docx, 2, 3)
    await docx.ok("docx_merge_cells", table_id=table_id, start_row=0, start_col=1, end_row=0, end_col=2)
    a = await docx.call("docx_merge_cells", table_id=table_id, start_row=0, start_col=0, end_row=1, end_col=1)
    assert a.is_error and a.error_type == "ValidationError" and "already merged" in a.head["Message"]
    assert "columns 0-2" in a.head["Hint"]


async def test_merge_of_a_single_cell_is_refused(docx):
    table_id = await new_table(docx, 2, 2)
    a = await docx.call("docx_merge_cells", table_id=table_id, start_row=1, start_col=1, end_row=1, end_col=1)
    assert a.is_error and "single cell" in a.head["Message"]


async def test_merge_in_a_nested_table(docx, tmp_path):
    inner = tbl([[tc(p("1")), tc(p("2"))]])
    await open_built(docx, tmp_path, tbl([[tc(inner + p())]]))
    listed = (await docx.ok("docx_list_tables")).text
    inner_id = [line.split()[1].rstrip(":") for line in listed.splitlines() if line.startswith("  - table_")][0]
    a = await docx.ok("docx_merge_cells", table_id=inner_id, start_row=0, start_col=0, end_row=0, end_col=1)
    assert "Parent: Cell" in a.section("Document Context")
    cell = by_id(await docx.save(tmp_path / "o.docx"), a.element_id)
    assert tcpr_val(cell, "gridSpan") == "2" and [texts(x) for x in cell.findall("w:p", NS)] == ["1", "2"]


# ---- copy ---------------------------------------------------------------------------------------------

async def test_copy_table_gets_new_ids_and_word_ids(docx, tmp_path):
    body = tbl([[tc('<w:p w14:paraId="1A2B3C4D" w14:textId="77777777"><w:bookmarkStart w:id="3" w:name="mark"/>'
                    '<w:r><w:t>cell</w:t></w:r><w:bookmarkEnd w:id="3"/></w:p>')]]) + p("after")
    await open_built(docx, tmp_path, body)
    source = first_table_id((await docx.ok("docx_list_tables")).text)
    a = await docx.ok("docx_copy_table", table_id=source, position="end:document_body")
    assert a.element_id != source and a.cursor_line == f"Cursor: after Table {a.element_id}"
    saved = await docx.save(tmp_path / "o.docx")
    copy = by_id(saved, a.element_id)
    para = copy.find(".//w:p", NS)
    assert para.get(f"{{{NS['w14']}}}paraId") not in (None, "1A2B3C4D") and int(para.get(f"{{{NS['w14']}}}paraId"), 16) < 0x80000000
    assert copy.find(".//w:bookmarkStart", NS).get(f"{{{NS['w']}}}name") == "mark_2"
    ids = saved.xpath("//@oxm:id", namespaces=NS)
    assert len(ids) == len(set(ids))
    assert texts(copy) == "cell"


# ---- special IDs and failed calls ---------------------------------------------------------------

async def test_table_tools_accept_special_ids(docx, tmp_path):
    table_id = await new_table(docx, 1, 1)
    a = await docx.ok("docx_fill_table", table_id="last_insert", data=[["via special id"]])
    assert a.element_id == table_id
    b = await docx.ok("docx_insert_row_at", table_id="last_update", position="end")
    assert b.head["Table"] == table_id


BAD_TABLE_CALLS = [
    ("docx_merge_cells", {"start_row": 0, "start_col": 1, "end_row": 1, "end_col": 2}),
    ("docx_merge_cells", {"start_row": 0, "start_col": 0, "end_row": 5, "end_col": 0}),
    ("docx_insert_row_at", {"position": "middle"}),
    ("docx_insert_col_at", {"position": "before:9"}),
    ("docx_delete_row", {"row_index": 7}),
    ("docx_delete_col", {"col_index": -1}),
    ("docx_fill_table", {"data": [["a"]], "start_row": 9}),
    ("docx_get_cell", {"row": 0, "col": 3}),
]


@pytest.mark.parametrize("name, args", BAD_TABLE_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(BAD_TABLE_CALLS)])
async def test_refused_table_calls_change_nothing(docx, tmp_path, name, args):
    table_id = await new_table(docx, 2, 3)
    await docx.ok("docx_merge_cells", table_id=table_id, start_row=0, start_col=0, end_row=0, end_col=1)
    await docx.save(tmp_path / "a.docx")
    a = await docx.call(name, table_id=table_id, **args)
    assert a.is_error and "Cursor:" not in a.text and "Document Context" not in a.text
    await docx.save(tmp_path / "b.docx")
    assert read_part(tmp_path / "a.docx") == read_part(tmp_path / "b.docx")


async def test_table_id_must_be_a_table(docx):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")).element_id
    a = await docx.call("docx_get_table", table_id=para)
    assert a.is_error and a.error_type == "InvalidElementType"


_BOLD_FONT_CELL = ('<w:tc><w:p><w:pPr><w:rPr><w:sz w:val="18"/></w:rPr></w:pPr><w:r><w:rPr>'
                   '<w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:b/><w:sz w:val="18"/></w:rPr><w:t>{}</w:t></w:r></w:p></w:tc>')


def _bold_arial(run) -> bool:
    rpr = run.find("w:rPr", NS)
    return (rpr is not None and rpr.find("w:b", NS) is not None
            and rpr.find("w:rFonts", NS).get(f"{{{NS['w']}}}ascii") == "Arial")


async def test_a_new_row_takes_the_neighbours_run_formatting(docx, tmp_path):
    """Word copies the font and bold of the row's text into a new row, even where the paragraph mark
    has formatting of its own."""
    await open_built(docx, tmp_path, tbl([[_BOLD_FONT_CELL.format("a")]]))
    table_id = first_table_id((await docx.ok("docx_list_tables")).text)
    await docx.ok("docx_insert_row_at", table_id=table_id, position="end")
    await docx.ok("docx_insert_paragraph_to_cell", text="typed", table_id=table_id, row=1, col=0)
    row = rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))[1]
    assert "typed" in texts(row)
    assert all(_bold_arial(r) for r in row.iter(f"{{{NS['w']}}}r"))


async def test_rows_added_by_fill_table_take_the_last_rows_run_formatting(docx, tmp_path):
    await open_built(docx, tmp_path, tbl([[_BOLD_FONT_CELL.format("a")]]))
    table_id = first_table_id((await docx.ok("docx_list_tables")).text)
    await docx.ok("docx_fill_table", table_id=table_id, data=[["x"], ["y"], ["z"]])
    rows = rows_of(by_id(await docx.save(tmp_path / "o.docx"), table_id))
    assert [texts(r) for r in rows] == ["x", "y", "z"]
    assert all(_bold_arial(r) for row in rows for r in row.iter(f"{{{NS['w']}}}r"))
