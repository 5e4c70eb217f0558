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


async def test_a_save_over_a_special_file_is_a_named_error_even_with_overwrite(docx, tmp_path):
    await exported_session(docx, tmp_path)
    os.mkfifo(tmp_path / "pipe.docx")
    answer = await docx.call("docx_save", file_path="pipe.docx", overwrite=True)
    assert answer.is_error and answer.error_type == "ValidationError" and "special file" in answer.text
    assert stat.S_ISFIFO((tmp_path / "pipe.docx").lstat().st_mode)


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


# ---- defect 7: recovery always succeeds somewhere, and the next docx_open finds it -----------------

def end_every_session(docx) -> None:
    """What the server does when it stops (or a session ends idle): unsaved work to recovery files."""
    from tools.runtime.sessions.lifetime import end_all
    end_all(docx.services, "the server stopped")


async def edit_and_end(docx, path: Path, text: str = "Unsaved work") -> None:
    await docx.open(path)
    await docx.ok("docx_insert_paragraph", text=text, position="end:document_body")


def recovery_files(tmp_path: Path) -> list[Path]:
    return sorted(f for f in tmp_path.rglob("~$*.recovered*.docx") if f.is_file() and not f.is_symlink())


async def test_a_dangling_symlink_at_the_recovery_name_is_left_alone_and_the_work_recovered(docx, tmp_path,
                                                                                           tmp_path_factory):
    path = build_docx(tmp_path / "report.docx", p("Original"))
    nowhere = tmp_path_factory.mktemp("outside") / "planted.docx"
    (tmp_path / "~$report.recovered.docx").symlink_to(nowhere)
    await edit_and_end(docx, path)
    end_every_session(docx)
    reopened = await docx.open(path)
    [recovery] = recovery_files(tmp_path)
    assert texts(read_body(recovery)) == "OriginalUnsaved work"
    assert recovery.name in reopened.head["Recovered"] and "the server stopped" in reopened.head["Recovered"]
    assert not nowhere.exists() and os.readlink(tmp_path / "~$report.recovered.docx") == str(nowhere)


async def test_a_read_only_folder_sends_the_recovery_to_the_recovery_folder(docx, tmp_path, monkeypatch):
    folder = tmp_path / "read-only"
    folder.mkdir()
    path = build_docx(folder / "report.docx", p("Original"))
    await edit_and_end(docx, path)
    folder.chmod(0o555)
    if os.geteuid() == 0:  # root writes anywhere: the system's refusal to others, as they would get it
        import errno
        from ooxml.opc import savefile
        real_open = savefile._Folder.open

        def as_non_root(self, name, flags, mode=0o666):
            if flags & os.O_CREAT and not os.stat(self.path).st_mode & stat.S_IWUSR:
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
            return real_open(self, name, flags, mode)
        monkeypatch.setattr(savefile._Folder, "open", as_non_root)
    try:
        end_every_session(docx)
        reopened = await docx.open(path)
    finally:
        folder.chmod(0o755)
    [recovery] = recovery_files(tmp_path)
    assert recovery.parent == tmp_path / ".ooxml-mcp-recovered" and list(folder.iterdir()) == [path]
    assert texts(read_body(recovery)) == "OriginalUnsaved work"
    assert str(recovery) in reopened.head["Recovered"]


async def test_a_document_with_a_250_byte_name_opens_saves_and_is_recovered(docx, tmp_path):
    name = "é" * 60 + "x" * (250 - 120 - len(".docx")) + ".docx"
    assert len(name.encode()) == 250
    path = build_docx(tmp_path / name, p("Original"))
    await edit_and_end(docx, path, "Saved")
    await docx.ok("docx_save")
    await docx.ok("docx_insert_paragraph", text="Unsaved work", position="end:document_body")
    end_every_session(docx)
    reopened = await docx.open(path)
    [recovery] = recovery_files(tmp_path)
    assert recovery.parent == tmp_path and len(recovery.name.encode()) <= 255
    assert recovery.name.startswith("~$" + "é" * 60)
    assert texts(read_body(path)) == "OriginalSaved"
    assert texts(read_body(recovery)) == "OriginalSavedUnsaved work"
    assert recovery.name in reopened.head["Recovered"]


@pytest.mark.parametrize("name", ["report.docx", "r" * 245 + ".docx"], ids=["short name", "250-byte name"])
async def test_a_renamed_folder_sends_the_recovery_where_the_moved_file_finds_it(docx, tmp_path, name):
    (tmp_path / "before").mkdir()
    path = build_docx(tmp_path / "before" / name, p("Original"))
    await edit_and_end(docx, path)
    (tmp_path / "before").rename(tmp_path / "after")
    end_every_session(docx)
    reopened = await docx.open(tmp_path / "after" / name)
    [recovery] = recovery_files(tmp_path)
    assert recovery.parent == tmp_path / ".ooxml-mcp-recovered" and len(recovery.name.encode()) <= 255
    assert texts(read_body(recovery)) == "OriginalUnsaved work"
    assert str(recovery) in reopened.head["Recovered"]


async def test_the_recovery_folder_is_configurable(docx, tmp_path):
    from tools.config.loading import parse_config
    docx.services.live.install(parse_config({"recovery_folder": "kept"}, base_dir=tmp_path))
    (tmp_path / "gone").mkdir()
    path = build_docx(tmp_path / "gone" / "report.docx", p("Original"))
    await edit_and_end(docx, path)
    (tmp_path / "gone" / "report.docx").unlink()
    (tmp_path / "gone").rmdir()
    end_every_session(docx)
    [recovery] = recovery_files(tmp_path)
    assert recovery.parent == tmp_path / "kept" and texts(read_body(recovery)) == "OriginalUnsaved work"
