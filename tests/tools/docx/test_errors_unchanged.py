"""A failed call changes nothing: the saved document is byte-for-byte what it was."""
from __future__ import annotations

import pytest

from tests.support.client import read_part

pytestmark = pytest.mark.anyio

BAD_CALLS = [
    ("docx_insert_paragraph", {"text": "x", "position": "inside:PARA"}),
    ("docx_insert_paragraph", {"text": "x", "position": "sideways:PARA"}),
    ("docx_insert_paragraph", {"text": "x", "position": "after:para_000000"}),
    ("docx_insert_paragraph", {"text": "x", "position": "end:document_body", "style": "No Such Style"}),
    ("docx_insert_run", {"text": "x", "position": "after:PARA"}),
    ("docx_insert_heading", {"text": "x", "level": 12, "position": "end:document_body"}),
    ("docx_set_font", {"element_id": "PARA", "size": 5000}),
    ("docx_set_font", {"element_id": "PARA", "color_hex": "reddish"}),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"space_after": "lots"}}),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"bold": True, "sparkle": 1}}),
    ("docx_update_run_text", {"element_id": "PARA", "new_text": "x"}),
    ("docx_cursor_move", {"element_id": "PARA", "position": "inside_start_nope"}),
]


@pytest.mark.parametrize("name,args", BAD_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(BAD_CALLS)])
async def test_failed_call_leaves_document_unchanged(docx, tmp_path, name, args):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Stable", position="end:document_body")).element_id
    await docx.save(tmp_path / "before.docx")
    args = {k: (v.replace("PARA", para) if isinstance(v, str) else v) for k, v in args.items()}
    a = await docx.call(name, **args)
    assert a.is_error
    assert "Document Context" not in a.text and "Cursor:" not in a.text
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


async def test_invalid_position_lists_valid_positions(docx):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")).element_id
    a = await docx.call("docx_insert_paragraph", text="y", position=f"inside:{para}")
    assert a.error_type == "InvalidPosition"
    assert f"before:{para}" in a.head["Hint"] and f"after:{para}" in a.head["Hint"]

