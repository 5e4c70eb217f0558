"""Every file the server writes goes through one writer with docx_save's rules (issue 17, defect 2):
a Markdown export writes only .md/.markdown files, never over a file it did not write unless
overwrite=true, keeps the permissions of a file written over, and judges the folder at write time.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.builders import build_docx, p
from tests.support.client import read_body, texts

pytestmark = pytest.mark.anyio


async def exported_session(docx, tmp_path: Path, text: str = "Exported text") -> Path:
    path = build_docx(tmp_path / "report.docx", p(text))
    await docx.open(path)
    return path


@pytest.mark.parametrize("name", ["notes.txt", "other.docx", "report.docx"])
async def test_an_export_onto_a_file_that_is_not_markdown_is_refused(docx, tmp_path, name):
    await exported_session(docx, tmp_path)
    target = tmp_path / name
    if not target.exists():
        build_docx(target, p("another document")) if name.endswith(".docx") else target.write_text("my notes\n")
    before = target.read_bytes()
    answer = await docx.call("docx_export_markdown", file_path=name)
    assert answer.is_error and answer.error_type == "UnsupportedFileType", answer.text
    assert ".md" in answer.text and target.read_bytes() == before


async def test_an_export_over_an_existing_markdown_file_needs_overwrite(docx, tmp_path):
    await exported_session(docx, tmp_path)
    target = tmp_path / "notes.md"
    target.write_text("the user's notes\n")
    answer = await docx.call("docx_export_markdown", file_path="notes.md")
    assert answer.is_error and answer.error_type == "FileChanged", answer.text
    assert "overwrite" in answer.head["Hint"] and target.read_text() == "the user's notes\n"


async def test_overwrite_true_replaces_the_file_and_keeps_its_permissions(docx, tmp_path):
    await exported_session(docx, tmp_path)
    target = tmp_path / "notes.md"
    target.write_text("the user's notes\n")
    os.chmod(target, 0o640)
    await docx.ok("docx_export_markdown", file_path="notes.md", overwrite=True, ids=False)
    assert target.read_text() == "Exported text\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


async def test_a_new_export_gets_the_umask_mode_and_a_second_export_there_needs_no_overwrite(docx, tmp_path):
    await exported_session(docx, tmp_path)
    await docx.ok("docx_export_markdown", file_path="notes.md", ids=False)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((tmp_path / "notes.md").stat().st_mode) == 0o666 & ~umask
    await docx.ok("docx_insert_paragraph", text="More", position="end:document_body")
    await docx.ok("docx_export_markdown", file_path="notes.md", ids=False)  # the file this session wrote
    assert (tmp_path / "notes.md").read_text() == "Exported text\n\nMore\n"


@pytest.mark.parametrize("special", ["folder", "fifo"])
async def test_a_folder_or_a_special_file_as_target_is_a_named_error(docx, tmp_path, special):
    await exported_session(docx, tmp_path)
    target = tmp_path / "out.md"
    target.mkdir() if special == "folder" else os.mkfifo(target)
    answer = await docx.call("docx_export_markdown", file_path="out.md", overwrite=True)
    assert answer.is_error and answer.error_type == "ValidationError", answer.text
    assert ("folder" if special == "folder" else "special file") in answer.text
    assert (target.is_dir() if special == "folder" else stat.S_ISFIFO(target.stat().st_mode))


async def test_a_folder_swapped_for_a_symlink_during_the_export_gets_nothing(docx, tmp_path, tmp_path_factory,
                                                                            monkeypatch):
    """The root is checked before the export; the folder becomes a link to outside while it runs."""
    outside = tmp_path_factory.mktemp("outside")
    folder = tmp_path / "exports"
    folder.mkdir()
    await exported_session(docx, tmp_path)
    from render.markdown import Exporter
    real_blocks = Exporter.blocks

    def swap_then_export(self, blocks):
        if folder.is_dir() and not folder.is_symlink():
            folder.rename(tmp_path / "exports.old")
            folder.symlink_to(outside, target_is_directory=True)
        return real_blocks(self, blocks)

    monkeypatch.setattr(Exporter, "blocks", swap_then_export)
    answer = await docx.call("docx_export_markdown", file_path="exports/notes.md")
    assert answer.is_error and answer.error_type == "PermissionDenied", answer.text
    assert list(outside.iterdir()) == [] and list((tmp_path / "exports.old").iterdir()) == []
    assert texts(read_body(tmp_path / "report.docx")) == "Exported text"
