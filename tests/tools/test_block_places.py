"""Blocks go only where blocks may stand (ooxml/model/places.py): a content control's content holds
blocks only when the control is itself a block; in a paragraph it holds runs, in a table rows."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.client import read_part
from tests.support.form_docs import controls_doc

pytestmark = pytest.mark.anyio


async def opened(docx, tmp_path) -> tuple[dict[str, str], Path]:
    path = controls_doc(tmp_path / "controls.docx")
    await docx.open(path)
    listed = await docx.ok("docx_list_content_controls")
    return {tag: cid for cid, tag in re.findall(r"- (sdt_\w+) \[[^\]]+\] tag=(\w+)", listed.text)}, path


async def refused_unchanged(docx, tmp_path, name: str, **arguments) -> str:
    await docx.save(tmp_path / "before.docx")
    bad = await docx.call(name, **arguments)
    assert bad.is_error and bad.error_type == "InvalidPosition", bad.text
    assert bad.head["Hint"]
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")
    return bad.head["Message"]


async def test_a_paragraph_cannot_go_inside_an_inline_control(docx, tmp_path):
    ids, _ = await opened(docx, tmp_path)
    message = await refused_unchanged(docx, tmp_path, "docx_insert_paragraph", text="X",
                                      position=f"end:{ids['customer']}")
    assert "cannot go inside" in message


async def test_a_table_cannot_go_among_the_rows_of_a_row_control(docx, tmp_path):
    ids, _ = await opened(docx, tmp_path)
    message = await refused_unchanged(docx, tmp_path, "docx_insert_table", rows=1, cols=1,
                                      position=f"end:{ids['row_ctrl']}")
    assert "cannot go inside" in message


async def test_a_paragraph_still_goes_inside_a_block_control(docx, tmp_path):
    ids, _ = await opened(docx, tmp_path)
    a = await docx.ok("docx_insert_paragraph", text="Inside", position=f"end:{ids['summary']}")
    await docx.save(tmp_path / "out.docx")
    xml = read_part(tmp_path / "out.docx").decode()
    assert re.search(r'w:val="summary".*?<w:sdtContent>.*Inside.*?</w:sdtContent>', xml, re.S), a.text


def run_id_in(docx, control_id: str) -> str:
    """The ID of a run inside a control (answers show controls as ⟦tag: value⟧, not their runs)."""
    doc = docx.services.sessions.get(None, docx.session_id).doc
    return doc.id_of(doc.find(control_id).find(".//w:r", {"w": W}))


W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


async def test_a_paragraph_cannot_go_after_a_run_of_an_inline_control(docx, tmp_path):
    ids, _ = await opened(docx, tmp_path)
    message = await refused_unchanged(docx, tmp_path, "docx_insert_paragraph", text="X",
                                      position=f"after:{run_id_in(docx, ids['customer'])}")
    assert "cannot go after" in message


async def test_a_run_of_an_inline_control_is_no_block_to_copy(docx, tmp_path):
    ids, _ = await opened(docx, tmp_path)
    run = run_id_in(docx, ids["customer"])
    bad = await docx.call("docx_copy_elements_range", start_id=run, end_id=run, position="end:document_body")
    assert bad.is_error and bad.error_type == "InvalidElementType" and "must be a block" in bad.head["Message"]


def customer_xml(path) -> str:
    xml = read_part(path).decode()
    return re.search(r'<w:sdt [^>]*><w:sdtPr><w:alias w:val="Customer"/>.*?</w:sdt>', xml, re.S).group(0)


async def test_a_tracked_delete_of_a_run_in_an_inline_control_marks_it_deleted(docx, tmp_path):
    ids, _ = await opened(docx, tmp_path)
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_delete", element_id=run_id_in(docx, ids["customer"]))
    await docx.save(tmp_path / "out.docx")
    assert re.search(r"<w:del [^>]*>.*<w:delText[^>]*>Name here</w:delText>", customer_xml(tmp_path / "out.docx"))


async def test_deleting_a_run_in_an_inline_control_shows_its_paragraph(docx, tmp_path):
    ids, _ = await opened(docx, tmp_path)
    a = await docx.ok("docx_delete", element_id=run_id_in(docx, ids["customer"]))
    assert "Customer:" in a.section("Document Context")
