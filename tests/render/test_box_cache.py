"""Boxes kept across calls (render/blocks.py) are redrawn when what they show moved elsewhere."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.anyio


async def test_a_note_copied_before_a_cached_box_renumbers_that_box(docx):
    await docx.create()
    first = await docx.ok("docx_insert_paragraph", text="Claim", position="end:document_body")
    await docx.ok("docx_insert_footnote", element_id=first.element_id, text="Source")
    shown = await docx.ok("docx_read_content")  # the box of the paragraph is drawn and kept: [^1]
    copied = await docx.ok("docx_copy_paragraph", element_id=first.element_id, position=f"before:{first.element_id}")
    after = await docx.ok("docx_read_content")
    assert "Claim[^1]" in shown.text
    assert "Claim[^2]" in copied.text, "the kept box of the original still showed [^1]"
    assert after.text.index("Claim[^1]") < after.text.index("Claim[^2]")


async def test_list_labels_follow_the_numbering_part_through_undo_and_redo(docx):
    # The labels look for numbering.xml again only when the parts or the main part's relationships
    # changed: the first list brings the part, undo takes it away, redo brings it back.
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Plain", position="end:document_body")
    listed = await docx.ok("docx_insert_list", items=["one", "two"], position="end:document_body",
                           list_type="number")
    assert "│ 1. one" in listed.section("Document Context")
    await docx.ok("docx_undo")
    undone = await docx.ok("docx_get_context", element_id="cursor")
    assert "one" not in undone.section("Document Context") and "│ Plain" in undone.section("Document Context")
    await docx.ok("docx_redo")
    redone = await docx.ok("docx_get_context", element_id="cursor")
    assert "│ 1. one" in redone.section("Document Context") and "│ 2. two" in redone.section("Document Context")
    again = await docx.ok("docx_insert_paragraph", text="After", position="end:document_body")
    assert "│ 2. two" in again.section("Document Context")
