"""The edit protocol re-targets a cursor the call's removals left on nothing (tools/docx/protocol.py):
after the block of the answer's element, whatever tool removed it."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.anyio


async def test_a_cursor_on_a_run_the_new_text_replaced_moves_after_its_paragraph(docx):
    await docx.create()
    p = (await docx.ok("docx_insert_paragraph", text="alpha", position="end:document_body")).element_id
    run = (await docx.ok("docx_insert_run", text=" beta", position=f"end:{p}")).element_id
    await docx.ok("docx_cursor_move", element_id=run)
    answer = await docx.ok("docx_update_paragraph_text", element_id=p, new_text="gamma delta")
    assert answer.cursor_line == f"Cursor: after Paragraph {p}"
    assert (await docx.ok("docx_cursor_get")).cursor_line == f"Cursor: after Paragraph {p}"


async def test_a_cursor_on_a_deleted_first_block_moves_before_the_next(docx):
    """docx_delete's own rule, now said to the protocol: no block before, so before the next one."""
    await docx.create()
    first = (await docx.ok("docx_insert_paragraph", text="one", position="end:document_body")).element_id
    second = (await docx.ok("docx_insert_paragraph", text="two", position="end:document_body")).element_id
    await docx.ok("docx_cursor_move", element_id=first)
    answer = await docx.ok("docx_delete", element_id=first)
    assert answer.cursor_line == f"Cursor: before Paragraph {second}"


async def test_a_cursor_in_a_deleted_header_moves_after_the_last_body_block(docx):
    await docx.create()
    last = (await docx.ok("docx_insert_paragraph", text="body", position="end:document_body")).element_id
    header = await docx.ok("docx_create_header_footer", kind="header", text="top")
    assert (await docx.ok("docx_cursor_get")).cursor_line.endswith(header.head["Paragraph"])  # in the header
    await docx.ok("docx_delete", element_id=header.element_id)
    assert (await docx.ok("docx_cursor_get")).cursor_line == f"Cursor: after Paragraph {last}"


async def test_a_cursor_in_a_deleted_row_moves_after_its_table(docx):
    await docx.create()
    table = (await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body")).element_id
    inside = await docx.ok("docx_insert_paragraph_to_cell", text="gone", table_id=table, row=1, col=1)
    await docx.ok("docx_cursor_move", element_id=inside.element_id)
    deleted = await docx.ok("docx_delete_row", table_id=table, row_index=1)
    assert deleted.cursor_line == f"Cursor: after Table {table}"
