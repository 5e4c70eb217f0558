"""Sessions, the file sandbox, saving and the server's resilience (SPEC §1-§2)."""
from __future__ import annotations

import os
import zipfile

import pytest

from tests.support.client import NS, read_part

pytestmark = pytest.mark.anyio


async def test_create_then_save_writes_a_valid_package(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Saved", position="end:document_body")
    body = await docx.save(tmp_path / "new.docx")
    assert zipfile.ZipFile(tmp_path / "new.docx").testzip() is None
    assert body.xpath("string(w:p/w:r/w:t)", namespaces=NS) == "Saved"


async def test_ids_survive_save_and_reopen(docx, tmp_path):
    await docx.create()
    p = (await docx.ok("docx_insert_paragraph", text="Keep my ID", position="end:document_body")).element_id
    await docx.save(tmp_path / "ids.docx")
    await docx.ok("docx_close", session_id=docx.session_id)
    await docx.open(tmp_path / "ids.docx")
    a = await docx.ok("docx_update_paragraph_text", element_id=p, new_text="Same element")
    assert a.element_id == p


async def test_saved_ids_namespace_is_declared_and_ignorable(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    await docx.save(tmp_path / "ns.docx")
    xml = read_part(tmp_path / "ns.docx").decode()
    assert 'xmlns:oxm="urn:ooxml-mcp:ids:2026"' in xml
    ignorable = xml.split('mc:Ignorable="')[1].split('"')[0].split()
    assert "oxm" in ignorable and "w14" in ignorable


async def test_strip_ids_saves_without_our_namespace(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    await docx.save(tmp_path / "plain.docx", strip_ids=True)
    assert b"ooxml-mcp" not in read_part(tmp_path / "plain.docx")
    assert b"oxm" not in read_part(tmp_path / "plain.docx")


async def test_session_id_may_be_omitted_with_one_session(docx):
    await docx.create()
    a = await docx.ok("docx_insert_paragraph", text="no session id", position="end:document_body")
    assert a.element_id.startswith("para_")


async def test_session_id_required_with_two_sessions(docx):
    await docx.create()
    await docx.create()
    a = await docx.call("docx_insert_paragraph", text="x", position="end:document_body")
    assert a.is_error and a.error_type == "SessionNotFound" and "2 sessions" in a.head["Message"]


async def test_list_and_close_report_unsaved_changes(docx):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    listed = await docx.ok("docx_list_sessions")
    assert docx.session_id in listed.text and "| yes |" in listed.text
    closed = await docx.ok("docx_close", session_id=docx.session_id)
    assert closed.head["Unsaved Changes"] == "yes, discarded"


async def test_path_outside_root_is_permission_denied(docx):
    a = await docx.call("docx_open", file_path="/etc/passwd")
    assert a.is_error and a.error_type == "PermissionDenied"


async def test_dotdot_escape_is_permission_denied(docx):
    a = await docx.call("docx_create", file_path="../escape.docx")
    assert a.is_error and a.error_type == "PermissionDenied"


async def test_symlink_escape_is_permission_denied(docx, tmp_path):
    outside = tmp_path.parent / f"outside-{os.getpid()}.docx"
    outside.write_bytes(b"not really")
    (tmp_path / "link.docx").symlink_to(outside)
    a = await docx.call("docx_open", file_path="link.docx")
    outside.unlink()
    assert a.is_error and a.error_type == "PermissionDenied"


async def test_missing_file_is_file_not_found(docx):
    a = await docx.call("docx_open", file_path="nope.docx")
    assert a.is_error and a.error_type == "FileNotFound"


@pytest.mark.parametrize("content,error_type", [
    (b"this is not a zip", "InvalidDocument"),
    (b"PK\x03\x04truncated", "InvalidDocument"),
])
async def test_bad_files_get_clear_errors_and_server_keeps_serving(docx, tmp_path, content, error_type):
    (tmp_path / "bad.docx").write_bytes(content)
    a = await docx.call("docx_open", file_path="bad.docx")
    assert a.is_error and a.error_type == error_type
    await docx.create()  # the server still serves


async def test_save_failure_leaves_previous_file_intact(docx, tmp_path):
    await docx.create()
    await docx.save(tmp_path / "keep.docx")
    before = (tmp_path / "keep.docx").read_bytes()
    (tmp_path / "sub").mkdir()
    a = await docx.call("docx_save", file_path="sub/missing-dir/keep.docx")
    assert a.is_error and a.error_type == "FileNotFound"
    assert (tmp_path / "keep.docx").read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


async def test_unknown_tool_and_bad_arguments_are_tool_errors(docx):
    a = await docx.call("docx_insert_paragraf", text="x")
    assert a.is_error and a.error_type == "ToolNotFound"
    b = await docx.call("docx_insert_heading", text="x", level="high", position="end:document_body")
    assert b.is_error and b.error_type == "ValidationError" and "level" in b.head["Message"]


async def test_save_reports_integrity_ok_for_a_clean_document(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body")
    a = await docx.ok("docx_save", file_path="clean.docx")
    assert a.head["Integrity"] == "ok"


async def test_save_reports_only_problems_the_original_lacked(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    await docx.save(tmp_path / "base.docx")
    import zipfile
    broken = tmp_path / "broken.docx"
    with zipfile.ZipFile(tmp_path / "base.docx") as src, zipfile.ZipFile(broken, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "word/document.xml":  # a dangling image reference, before we touch it
                data = data.replace(b"<w:body>", b'<w:body><w:p><w:r><w:drawing><a:blip r:embed="rId99"/>'
                                                 b"</w:drawing></w:r></w:p>")
            dst.writestr(info, data)
    await docx.ok("docx_close", session_id=docx.session_id)
    await docx.open(broken)
    await docx.ok("docx_insert_paragraph", text="y", position="end:document_body")
    a = await docx.ok("docx_save", file_path="broken-saved.docx")
    assert a.head["Integrity"] == "ok"  # the dangling reference was there before: not ours


async def test_open_counts_blocks_but_not_markers_comments_or_instructions_between_them(docx, tmp_path):
    from tests.builders import build_docx, p, tbl
    body = (p("one") + '<w:bookmarkStart w:id="0" w:name="b"/>' + p("two") + "<!-- a note -->" + tbl([["a"]])
            + "<?app data?>" + '<w:bookmarkEnd w:id="0"/>' + p("three"))
    a = await docx.open(build_docx(tmp_path / "marked.docx", body))
    assert a.head["Blocks"] == "4"  # 3 paragraphs and a table; not the final sectPr either
