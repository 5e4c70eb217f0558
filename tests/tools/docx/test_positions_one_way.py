"""Every position argument resolves one way (the Edit's ``position``): a tracked-deleted target is
refused by every tool as docx_insert_paragraph refuses it, block or inline."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.anyio

CALLS = {  # tool -> arguments, POS the position at the deleted paragraph
    "docx_insert_paragraph": {"text": "x", "position": "after:{p}"},
    "docx_insert_markdown": {"markdown": "x", "position": "after:{p}"},
    "docx_insert_section_break": {"position": "after:{p}"},
    "docx_insert_toc": {"position": "after:{p}"},
    "docx_copy_elements_range": {"start_id": "{keep}", "end_id": "{keep}", "position": "after:{p}"},
    "docx_insert_field": {"field": "DATE", "position": "end:{p}"},
    "docx_insert_hyperlink": {"text": "x", "url": "https://example.com", "position": "end:{p}"},
}


@pytest.mark.parametrize("name", sorted(CALLS))
async def test_a_tracked_deleted_position_is_refused(docx, name):
    await docx.create()
    keep = (await docx.ok("docx_insert_paragraph", text="kept", position="end:document_body")).element_id
    p = (await docx.ok("docx_insert_paragraph", text="gone", position="end:document_body")).element_id
    await docx.ok("docx_save", file_path=str(docx.roots[0] / "base.docx"))  # our insertions become the original's
    await docx.ok("docx_close")
    await docx.open(docx.roots[0] / "base.docx")
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_delete", element_id=p)  # tracked: it stays, marked deleted
    arguments = {k: v.format(p=p, keep=keep) for k, v in CALLS[name].items()}
    answer = await docx.call(name, **arguments)
    assert answer.is_error and "is deleted (a tracked deletion)" in answer.text, answer.text
