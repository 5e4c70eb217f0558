"""Seed 002 (special position IDs): acceptance items F-001..F-010, checked in the saved XML too."""
from __future__ import annotations

import pytest

from tests.support.client import NS, by_id, texts

pytestmark = pytest.mark.anyio
JC = "string(w:pPr/w:jc/@w:val)"


async def test_f001_last_insert_targets_the_new_paragraph(docx, tmp_path):
    await docx.create()
    p = (await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")).element_id
    r = await docx.ok("docx_insert_run", text=" Run", position="inside:last_insert")
    body = await docx.save(tmp_path / "f1.docx")
    assert texts(by_id(body, p)) == "Text Run"
    assert by_id(body, r.element_id).getparent() is by_id(body, p)


async def test_f002_last_update_targets_the_updated_paragraph(docx, tmp_path):
    await docx.create()
    p = (await docx.ok("docx_insert_paragraph", text="Old", position="end:document_body")).element_id
    await docx.ok("docx_insert_paragraph", text="Other", position="end:document_body")
    await docx.ok("docx_update_paragraph_text", element_id=p, new_text="New")
    a = await docx.ok("docx_set_alignment", element_id="last_update", alignment="center")
    assert a.element_id == p
    body = await docx.save(tmp_path / "f2.docx")
    assert by_id(body, p).xpath(JC, namespaces=NS) == "center"


@pytest.mark.parametrize("special", ["cursor", "current"], ids=["f003-cursor", "f004-current-is-an-alias"])
async def test_f003_f004_cursor_and_current_target_the_cursor_element(docx, tmp_path, special):
    await docx.create()
    a = (await docx.ok("docx_insert_paragraph", text="A", position="end:document_body")).element_id
    await docx.ok("docx_insert_paragraph", text="C", position="end:document_body")
    await docx.ok("docx_cursor_move", element_id=a, position="after")
    await docx.ok("docx_insert_paragraph", text="B", position=f"after:{special}")
    body = await docx.save(tmp_path / f"{special}.docx")
    assert [texts(p) for p in body.findall("w:p", NS)] == ["A", "B", "C"]


async def test_f005_position_after_last_insert_keeps_order(docx, tmp_path):
    await docx.create()
    for word in ("one", "two", "three"):
        await docx.ok("docx_insert_paragraph", text=word, position="after:last_insert" if word != "one"
                      else "end:document_body")
    body = await docx.save(tmp_path / "f5.docx")
    assert [texts(p) for p in body.findall("w:p", NS)] == ["one", "two", "three"]


async def test_f006_special_id_in_element_argument(docx, tmp_path):
    await docx.create()
    p = (await docx.ok("docx_insert_paragraph", text="Draft", position="end:document_body")).element_id
    a = await docx.ok("docx_update_paragraph_text", element_id="last_insert", new_text="Final")
    assert a.element_id == p
    assert texts(by_id(await docx.save(tmp_path / "f6.docx"), p)) == "Final"


async def test_f007_two_special_ids_in_one_call(docx, tmp_path):
    await docx.create()
    b = (await docx.ok("docx_insert_paragraph", text="B", position="end:document_body")).element_id
    await docx.ok("docx_set_font", element_id=b, bold=True, size=16)
    await docx.ok("docx_update_paragraph_text", element_id=b, new_text="B updated")
    a = (await docx.ok("docx_insert_paragraph", text="A", position="end:document_body")).element_id
    await docx.ok("docx_format_copy", source_id="last_update", target_id="last_insert")
    body = await docx.save(tmp_path / "f7.docx")
    run_props = by_id(body, a).find("w:r/w:rPr", NS)
    assert run_props is not None and run_props.find("w:b", NS) is not None
    assert run_props.find("w:sz", NS).get(f"{{{NS['w']}}}val") == "32"


@pytest.mark.parametrize("special,reason", [
    ("last_insert", "no insert operation in this session"),
    ("last_update", "no update operation in this session"),
    ("cursor", "cursor not initialized"),
    ("current", "cursor not initialized"),
])
async def test_f008_special_ids_before_use_give_exact_errors(docx, special, reason):
    await docx.create()
    a = await docx.call("docx_get_context", element_id=special)
    assert a.is_error and a.error_type == "SpecialIDNotAvailable"
    name = "cursor" if special == "current" else special
    assert a.head["Message"] in (f"Special ID '{special}' not available: {reason}",
                                 f"Special ID '{name}' not available: {reason}")


async def test_f009_last_insert_after_delete_is_element_not_found(docx):
    await docx.create()
    p = (await docx.ok("docx_insert_paragraph", text="Gone soon", position="end:document_body")).element_id
    await docx.ok("docx_delete", element_id=p)
    a = await docx.call("docx_update_paragraph_text", element_id="last_insert", new_text="x")
    assert a.is_error and a.error_type == "ElementNotFound"
    assert a.head["Message"] == f"Element '{p}' not found"


async def test_f010_error_head_has_status_type_message(docx):
    await docx.create()
    a = await docx.call("docx_insert_paragraph", text="x", position="after:last_insert")
    assert a.head["Status"] == "❌ Error"
    assert list(a.head)[:3] == ["Status", "Error Type", "Message"]
    assert a.error_type == "SpecialIDNotAvailable"
