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
