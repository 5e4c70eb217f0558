"""What keeps calls at the transport's floor and a server's memory in check (issue 21)."""
from __future__ import annotations

import gc
import weakref

import pytest

pytestmark = pytest.mark.anyio


async def test_closing_a_session_frees_its_document_without_waiting_for_the_cycle_collector(docx):
    # A closed document that waits for the cyclic collector keeps its tree (hundreds of MB for a
    # large file) while the next docx_open parses: that open then page-faults fresh memory.
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="One", position="end:document_body", style="List Number")
    await docx.ok("docx_delete", element_id=(await docx.ok(
        "docx_insert_paragraph", text="Two", position="end:document_body", style="List Number")).element_id)
    doc = weakref.ref(docx.services.sessions._sessions[docx.session_id].doc)
    gc.disable()
    try:
        closed = await docx.ok("docx_close", session_id=docx.session_id)
        assert closed.head["Unsaved Changes"] == "yes, discarded"
        assert doc() is None
    finally:
        gc.enable()
