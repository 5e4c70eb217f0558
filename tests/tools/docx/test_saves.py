"""Nothing saved is lost (issue 12, defects 6-9, 11, 12, 14, 16): docx_save through the MCP client.

Every refusal is asserted twice: the named error in the answer, and the file on disk (and the
document in the session) exactly as before the call.
"""
from __future__ import annotations

import os
import stat
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ooxml.opc.tempfiles import TEMP_PATTERN, temp_name
from ooxml.opc.template import new_package_parts
from tests.builders import build_docx, document_xml, p
from tests.support.client import read_body, read_part, texts
from tests.support.polling import wait_until

pytestmark = pytest.mark.anyio
REPO = Path(__file__).resolve().parents[3]


def make(path: Path, *words: str) -> Path:
    return build_docx(path, "".join(p(w) for w in words or ("Original",)))


async def add_paragraph(docx, text: str, session_id: str | None = None) -> None:
    await docx.ok("docx_insert_paragraph", session_id=session_id or docx.session_id, text=text,
                  position="end:document_body")


def crcs_ok(path: Path) -> bool:
    with zipfile.ZipFile(path) as z:
        return z.testzip() is None


# ---- defect 6: lost updates -----------------------------------------------------------------
async def test_second_session_saving_over_the_first_is_refused(docx, tmp_path):
    doc = make(tmp_path / "shared.docx")
    a = (await docx.open(doc)).head["Session ID"]
    b = (await docx.open(doc)).head["Session ID"]
    await add_paragraph(docx, "from A", a)
    await docx.ok("docx_save", session_id=a)
    after_a = doc.read_bytes()
    await add_paragraph(docx, "from B", b)
    answer = await docx.call("docx_save", session_id=b)
    assert answer.is_error and answer.error_type == "FileChanged", answer.text
    assert "overwrite" in answer.head["Hint"]
    assert doc.read_bytes() == after_a
    assert "from A" in texts(read_body(doc))
    listed = (await docx.ok("docx_list_sessions")).text
    assert f"| {b} | {doc} | yes |" in listed  # B's edits are still in its session, unsaved


async def test_overwrite_true_replaces_a_changed_file(docx, tmp_path):
    doc = make(tmp_path / "shared.docx")
    a = (await docx.open(doc)).head["Session ID"]
    b = (await docx.open(doc)).head["Session ID"]
    await add_paragraph(docx, "from A", a)
    await docx.ok("docx_save", session_id=a)
    await add_paragraph(docx, "from B", b)
    await docx.ok("docx_save", session_id=b, overwrite=True)
    assert texts(read_body(doc)) == "Originalfrom B"
    await add_paragraph(docx, "again B", b)
    await docx.ok("docx_save", session_id=b)  # B saved it last: no refusal now


async def test_file_edited_on_disk_after_open_is_not_overwritten(docx, tmp_path):
    doc = make(tmp_path / "edited.docx")
    await docx.open(doc)
    make(doc, "Edited elsewhere")
    on_disk = doc.read_bytes()
    await add_paragraph(docx, "mine")
    answer = await docx.call("docx_save")
    assert answer.is_error and answer.error_type == "FileChanged", answer.text
    assert doc.read_bytes() == on_disk


async def test_a_same_size_edit_on_disk_is_seen_by_its_hash(docx, tmp_path):
    doc = make(tmp_path / "edited.docx")
    await docx.open(doc)
    data = bytearray(doc.read_bytes())
    data[-30] ^= 0xFF  # one byte of the zip's directory: same size, same mtime granularity
    doc.write_bytes(bytes(data))
    await add_paragraph(docx, "mine")
    answer = await docx.call("docx_save")
    assert answer.is_error and answer.error_type == "FileChanged", answer.text
    assert "other content" in answer.head["Message"]
    assert doc.read_bytes() == bytes(data)


async def test_saving_a_new_document_over_an_unknown_file_is_refused(docx, tmp_path):
    other = make(tmp_path / "report.docx", "Someone's report")
    before = other.read_bytes()
    await docx.create()
    await add_paragraph(docx, "new")
    answer = await docx.call("docx_save", file_path="report.docx")
    assert answer.is_error and answer.error_type == "FileChanged", answer.text
    assert other.read_bytes() == before


async def test_two_saves_of_one_session_need_no_overwrite(docx, tmp_path):
    await docx.create()
    await add_paragraph(docx, "one")
    await docx.ok("docx_save", file_path="mine.docx")
    await add_paragraph(docx, "two")
    await docx.ok("docx_save")
    assert texts(read_body(tmp_path / "mine.docx")) == "onetwo"


# ---- defect 7: permissions --------------------------------------------------------------------
async def test_save_keeps_the_files_permissions(docx, tmp_path):
    doc = make(tmp_path / "shared.docx")
    os.chmod(doc, 0o664)
    await docx.open(doc)
    await add_paragraph(docx, "x")
    await docx.ok("docx_save")
    assert stat.S_IMODE(doc.stat().st_mode) == 0o664


async def test_a_new_file_gets_the_umask(docx, tmp_path):
    old = os.umask(0o027)
    try:
        await docx.create()
        await docx.ok("docx_save", file_path="new.docx")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.docx").stat().st_mode) == 0o640


# ---- defect 8: only Word files -------------------------------------------------------------------
@pytest.mark.parametrize("name", ["notes.txt", "data.xlsx", "noextension"])
async def test_save_does_not_write_over_other_files(docx, tmp_path, name):
    target = tmp_path / name
    target.write_bytes(b"precious")
    await docx.create()
    answer = await docx.call("docx_save", file_path=name)
    assert answer.is_error and answer.error_type == "UnsupportedFileType", answer.text
    assert ".docx" in answer.head["Hint"]
    assert target.read_bytes() == b"precious"


async def test_create_refuses_a_non_word_name_at_once(docx, tmp_path):
    answer = await docx.call("docx_create", file_path="notes.txt")
    assert answer.is_error and answer.error_type == "UnsupportedFileType", answer.text
    assert (await docx.ok("docx_list_sessions")).head["Sessions"] == "0"


@pytest.mark.parametrize("name", ["macro.docm", "template.dotx", "macro.dotm"])
async def test_a_document_is_not_saved_under_another_kind_of_name(docx, tmp_path, name):
    await docx.create()
    answer = await docx.call("docx_save", file_path=name)
    assert answer.is_error and answer.error_type == "UnsupportedFileType", answer.text
    assert Path(name).with_suffix(".docx").name in answer.head["Hint"]
    assert not (tmp_path / name).exists()


async def test_a_template_saves_as_dotx(docx, tmp_path):
    types = new_package_parts()["[Content_Types].xml"].replace(b"wordprocessingml.document.main+xml",
                                                                b"wordprocessingml.template.main+xml")
    src = build_docx(tmp_path / "t.dotx", p("T"), extra_parts={"[Content_Types].xml": types})
    await docx.open(src)
    await add_paragraph(docx, "more")
    await docx.ok("docx_save", file_path="copy.dotx")
    assert texts(read_body(tmp_path / "copy.dotx")) == "Tmore"


# ---- defect 9: the source may change; damaged parts are refused ---------------------------------
async def test_source_changed_in_place_after_open_cannot_corrupt_a_save(docx, tmp_path):
    doc = make(tmp_path / "src.docx", "Kept")
    original = {n: read_part(doc, n) for n in zipfile.ZipFile(doc).namelist()}
    await docx.open(doc)
    await add_paragraph(docx, "added")
    data = bytearray(doc.read_bytes())
    data[40:len(data) - 200] = bytes(len(data) - 240)  # zeroes over the members, same size
    doc.write_bytes(bytes(data))
    answer = await docx.ok("docx_save", file_path="elsewhere.docx")
    out = tmp_path / "elsewhere.docx"
    assert answer.head["Integrity"] == "ok" and crcs_ok(out)
    for name, content in original.items():
        if name != "word/document.xml":
            assert read_part(out, name) == content, name
    assert texts(read_body(out)) == "Keptadded"


def set_crc(path: Path, name: str, crc: int) -> None:
    """Write a wrong CRC-32 for one member in its local header and the central directory."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(name)
    struct.pack_into("<I", data, info.header_offset + 14, crc)
    pos = data.find(b"PK\x01\x02")
    while pos >= 0:
        n = struct.unpack_from("<H", data, pos + 28)[0]
        if data[pos + 46:pos + 46 + n].decode() == name:
            struct.pack_into("<I", data, pos + 16, crc)
        pos = data.find(b"PK\x01\x02", pos + 4)
    path.write_bytes(bytes(data))


async def test_a_part_with_a_bad_crc_is_refused_at_open(docx, tmp_path):
    doc = make(tmp_path / "bad.docx")
    set_crc(doc, "docProps/app.xml", 0x12345678)
    before = doc.read_bytes()
    answer = await docx.call("docx_open", file_path=str(doc))
    assert answer.is_error and answer.error_type == "InvalidDocument", answer.text
    assert "docProps/app.xml" in answer.head["Message"] and "CRC" in answer.head["Message"]
    assert doc.read_bytes() == before
    listed = await docx.ok("docx_list_sessions")
    assert listed.head["Sessions"] == "0"


# ---- defect 11: the sandbox at save time ---------------------------------------------------------
async def test_folder_swapped_for_a_symlink_after_open_is_refused(tmp_path):
    from tests.support.client import open_client
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    doc = make(root / "sub" / "doc.docx")
    async with open_client([root]) as docx:
        await docx.open(doc)
        await add_paragraph(docx, "escape")
        decoy = make(outside / "doc.docx", "Outside")
        before = decoy.read_bytes()
        (root / "sub").rename(root / "moved")
        (root / "sub").symlink_to(outside, target_is_directory=True)
        answer = await docx.call("docx_save")
        assert answer.is_error and answer.error_type == "PermissionDenied", answer.text
    assert decoy.read_bytes() == before
    assert [p.name for p in outside.iterdir()] == ["doc.docx"]


async def test_saving_to_the_root_itself_is_refused_and_writes_nothing_beside_it(tmp_path):
    from tests.support.client import open_client
    root = tmp_path / "root"
    root.mkdir()
    async with open_client([root]) as docx:
        await docx.create()
        answer = await docx.call("docx_save", file_path=".")
        assert answer.is_error and answer.error_type == "ValidationError", answer.text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["root"]
    assert list(root.iterdir()) == []


# ---- defect 12: named errors ----------------------------------------------------------------------
async def test_saving_to_a_folder_is_a_validation_error(docx, tmp_path):
    (tmp_path / "reports").mkdir()
    await docx.create()
    answer = await docx.call("docx_save", file_path="reports")
    assert answer.is_error and answer.error_type == "ValidationError", answer.text
    assert "folder" in answer.head["Message"]
    assert list((tmp_path / "reports").iterdir()) == []


async def test_a_name_over_255_bytes_is_a_validation_error(docx, tmp_path):
    await docx.create()
    answer = await docx.call("docx_save", file_path="é" * 130 + ".docx")
    assert answer.is_error and answer.error_type == "ValidationError", answer.text
    assert "255" in answer.head["Message"]
    assert list(tmp_path.iterdir()) == []


def set_method(path: Path, name: str, method: int) -> None:
    """Claim another compression method for one member (local header and central directory)."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(name)
    struct.pack_into("<H", data, info.header_offset + 8, method)
    pos = data.find(b"PK\x01\x02")
    while pos >= 0:
        n = struct.unpack_from("<H", data, pos + 28)[0]
        if data[pos + 46:pos + 46 + n].decode() == name:
            struct.pack_into("<H", data, pos + 10, method)
        pos = data.find(b"PK\x01\x02", pos + 4)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("method", [9, 12, 99])  # deflate64, bzip2, AES
async def test_an_unsupported_compression_method_is_refused_at_open(docx, tmp_path, method):
    doc = make(tmp_path / "method.docx")
    set_method(doc, "docProps/core.xml", method)
    answer = await docx.call("docx_open", file_path=str(doc))
    assert answer.is_error and answer.error_type == "InvalidDocument", answer.text
    assert "docProps/core.xml" in answer.head["Message"] and f"method {method}" in answer.head["Message"]


# ---- defect 14: temp files of a killed save --------------------------------------------------------
def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


async def test_stale_temp_files_of_ours_are_removed_at_start(tmp_path):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    (tmp_path / "deep" / "er").mkdir(parents=True)
    ours = temp_name().split(".")
    ours[3] = str(dead_pid())
    stale = [tmp_path / ".".join(ours), tmp_path / "deep" / "er" / ".".join(ours)]
    alive = ours.copy()
    alive[3] = str(os.getpid())  # this test process is a live writer: its temp file stays
    keep = [tmp_path / ".".join(alive), tmp_path / ".~ooxml-mcp-save.notours.tmp", tmp_path / "x.docx.tmp",
            tmp_path / ".doc.docx.abc123.tmp"]
    for f in stale + keep:
        f.write_bytes(b"partial")
    assert all(TEMP_PATTERN.match(f.name) for f in stale)
    params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(tmp_path)],
                                   cwd=str(REPO))
    async with Client(params, cache=None) as client:
        await client.list_tools()
        await wait_until(lambda: not any(f.exists() for f in stale))  # the cleanup runs beside serving
    assert not any(f.exists() for f in stale)
    assert all(f.exists() for f in keep)


def test_a_live_save_of_this_process_is_never_cleaned_up(tmp_path):
    from ooxml.opc.tempfiles import _STARTED, clean_stale_temp_files
    live, old = tmp_path / temp_name(), tmp_path / temp_name()
    for f in (live, old):
        f.write_bytes(b"partial")
    os.utime(old, (_STARTED - 60, _STARTED - 60))  # written by an earlier process with our pid
    assert clean_stale_temp_files([tmp_path]) == 1
    assert live.exists() and not old.exists()


# ---- defect 16: a no-op save is clean ---------------------------------------------------------------
WORD_STYLE = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
              document_xml('<w:p><w:pPr /><w:r><w:t>One</w:t></w:r></w:p><w:p><w:r><w:t>Two</w:t></w:r></w:p>')
              .split(b"?>\n", 1)[1].replace(b"<w:pgSz ", b"<w:pgSz  "))


async def test_open_then_save_with_strip_ids_writes_the_original_bytes(docx, tmp_path):
    doc = build_docx(tmp_path / "word.docx", "", extra_parts={"word/document.xml": WORD_STYLE})
    opened = await docx.open(doc)
    assert "para_" in opened.text  # the open answer gave IDs to the blocks it showed
    await docx.ok("docx_save", file_path="plain.docx", strip_ids=True)
    assert read_part(tmp_path / "plain.docx") == WORD_STYLE


async def test_a_touched_part_keeps_its_xml_declaration(docx, tmp_path):
    doc = build_docx(tmp_path / "word.docx", "", extra_parts={"word/document.xml": WORD_STYLE})
    await docx.open(doc)
    await add_paragraph(docx, "Three")
    for strip in (False, True):
        await docx.ok("docx_save", file_path=f"out{strip}.docx", strip_ids=strip)
        saved = read_part(tmp_path / f"out{strip}.docx")
        assert saved.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document ')
        assert texts(read_body(tmp_path / f"out{strip}.docx")) == "OneTwoThree"


def test_the_folder_really_written_in_is_checked_not_the_path(tmp_path):
    """The last line of defence: a save through a path whose folder is (now) a symlink to the
    outside is refused by the check on the opened folder handle, and nothing is written there."""
    from ooxml.model.document import Document
    from tools.runtime.sessions.sandbox import folder_check
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "link").symlink_to(outside, target_is_directory=True)
    doc = Document.open(make(root / "doc.docx"))
    try:
        with pytest.raises(Exception) as info:
            doc.save(root / "link" / "doc.docx", check_dir=folder_check([root]))
    finally:
        doc.close()
    assert getattr(info.value, "error_type", None) == "PermissionDenied"
    assert list(outside.iterdir()) == []


async def test_saved_files_have_no_new_kind_of_sdk_validation_error(docx, tmp_path):
    from tests.support import sdk_validator
    doc = build_docx(tmp_path / "word.docx", "", extra_parts={"word/document.xml": WORD_STYLE})
    await docx.open(doc)
    await docx.ok("docx_save", file_path="noop.docx", strip_ids=True)
    await add_paragraph(docx, "Three")
    outs = []
    for strip in (False, True):
        await docx.ok("docx_save", file_path=f"edited{strip}.docx", strip_ids=strip)
        outs.append(tmp_path / f"edited{strip}.docx")
    found = sdk_validator.validate_files([doc, tmp_path / "noop.docx", *outs])
    assert len(found) == 4
    for out in [tmp_path / "noop.docx", *outs]:
        assert sdk_validator.new_error_kinds(doc, out) == [], out.name


async def test_strip_ids_removes_ids_an_earlier_save_left_in_an_untouched_part(docx, tmp_path):
    original = make(tmp_path / "a.docx", "x", "y")
    await docx.open(original)
    await docx.ok("docx_save", file_path="ids.docx")
    assert b"urn:ooxml-mcp" in read_part(tmp_path / "ids.docx")
    await docx.ok("docx_close")
    await docx.open(tmp_path / "ids.docx")  # its IDs exist already: opening touches nothing
    await docx.ok("docx_save", file_path="plain.docx", strip_ids=True)
    assert b"urn:ooxml-mcp" not in read_part(tmp_path / "plain.docx")
    assert read_part(tmp_path / "plain.docx") == read_part(original)


async def test_strip_ids_save_with_a_new_picture_keeps_the_picture(docx, tmp_path):
    from tests.builders import png
    image = png(tmp_path / "red.png")
    await docx.open(make(tmp_path / "a.docx"))
    await docx.ok("docx_insert_image", image_path=str(image), position="end:document_body")
    await docx.ok("docx_save", file_path="plain.docx", strip_ids=True)
    with zipfile.ZipFile(tmp_path / "plain.docx") as z:
        media = [n for n in z.namelist() if n.startswith("word/media/")]
        assert [z.read(n) for n in media] == [image.read_bytes()]
    assert b"urn:ooxml-mcp" not in read_part(tmp_path / "plain.docx")
