"""Seed 001 (cursor context awareness): acceptance items F-001..F-007."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.anyio


async def test_f001_answer_ends_with_cursor_and_shows_neighbours(docx):
    await docx.create()
    first = (await docx.ok("docx_insert_paragraph", text="One", position="end:document_body")).element_id
    a = await docx.ok("docx_insert_paragraph", text="Two", position=f"after:{first}")
    assert a.text.rstrip().splitlines()[-1] == f"Cursor: after Paragraph {a.element_id}"
    assert f"Paragraph ({first})" in a.section("Document Context")


async def test_f002_new_document_shows_document_start(docx):
    created = await docx.create()
    assert created.cursor_line == "Cursor: at empty document start"
    a = await docx.ok("docx_insert_paragraph", text="First", position="end:document_body")
    assert "[Document Start]" in a.section("Document Context")


async def test_f003_last_paragraph_shows_document_end(docx):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="A", position="end:document_body")
    a = await docx.ok("docx_insert_paragraph", text="B", position="end:document_body")
    assert a.section("Document Context").rstrip().endswith("[Document End]")


async def test_f004_long_text_is_cut_with_ellipsis(docx):
    await docx.create()
    long_text = "Long text content " * 10
    a = await docx.ok("docx_insert_paragraph", text=long_text, position="end:document_body")
    line = next(x for x in a.section("Document Context").splitlines() if "Long text content" in x)
    assert "..." in line and long_text.strip() not in line


async def test_f005_cursor_in_a_cell_shows_the_cell_not_the_body(docx):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Outside the table", position="end:document_body")
    table = (await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body")).element_id
    a = await docx.ok("docx_insert_paragraph_to_cell", text="Inside", table_id=table, row=0, col=1)
    context = a.section("Document Context")
    assert "[Cell Start]" in context and "[Cell End]" in context
    assert "Outside the table" not in context
    assert f"in Table {table} (row 0, col 1)" in context and "Parent: Cell cell_" in context


async def test_f006_copy_table_shows_new_table_and_cursor(docx):
    await docx.create()
    table = (await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body")).element_id
    a = await docx.ok("docx_copy_table", table_id=table, position=f"after:{table}")
    assert a.element_id != table and a.element_id.startswith("table_")
    assert f"Table ({a.element_id})" in a.section("Document Context")
    assert a.cursor_line == f"Cursor: after Table {a.element_id}"


async def test_f007_errors_carry_no_cursor_or_context(docx):
    a = await docx.call("docx_insert_paragraph", session_id="doc_nope", text="x", position="end:document_body")
    assert a.is_error and a.error_type == "SessionNotFound"
    assert "Cursor:" not in a.text and "Document Context" not in a.text and "Changes" not in a.text


async def test_cursor_inside_a_cell_shows_the_cell_with_the_cursor_mark(docx):
    await docx.create()
    table = (await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body",
                           data=[["a", "b"], ["c", "d"]])).element_id
    cell = (await docx.ok("docx_get_cell", table_id=table, row=1, col=0)).element_id
    a = await docx.ok("docx_cursor_move", element_id=cell, position="inside_end")
    context = a.section("Document Context")
    assert f"Parent: Cell {cell} in Table {table} (row 1, col 0)" in context
    assert "[Cell Start]" in context and "[Cell End]" in context
    lines = context.splitlines()
    assert lines.index(">>> [CURSOR] <<<") > next(i for i, x in enumerate(lines) if "│ c" in x)
    assert a.cursor_line == f"Cursor: inside Cell {cell} (at end)"
