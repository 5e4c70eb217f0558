"""docx_open of .doc, .rtf and .odt files (made by LibreOffice from corpus files at test time):
converted into a new session, edited, saved as a .docx beside the original that validates and
LibreOffice opens; the original is untouched. Mislabelled files get a named error (issue 32)."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from tests.support import sdk_validator
from tests.support.client import read_body, texts
from tests.support.corpus import require_corpus, sha256_file
from tests.support.libreoffice import convert_cached, require_soffice

pytestmark = [pytest.mark.anyio, pytest.mark.libreoffice]
SOURCES = ("docxjs__footnote_document.docx", "docxjs__table-spans_document.docx", "mammoth.js__endnotes.docx")
TARGETS = {"doc": "doc:MS Word 97", "rtf": "rtf:Rich Text Format", "odt": "odt:writer8"}


@pytest.fixture(autouse=True)
def _soffice():
    require_soffice()


@pytest.fixture(scope="module")
def made() -> dict[str, list[Path]]:
    """format -> the corpus files LibreOffice converted to it (one batch per format, cached)."""
    corpus = require_corpus()
    files = [corpus / name for name in SOURCES if (corpus / name).is_file()]
    if not files:
        pytest.skip("none of the chosen corpus files is present")
    out = {}
    for fmt, target in TARGETS.items():
        converted = convert_cached(files, label=f"open formats {fmt}", target=target)
        out[fmt] = [(f, p) for f, p in converted.items() if p is not None]
    return out


def _copy(pairs, tmp_path: Path, fmt: str) -> list[Path]:
    copies = []
    for original, converted in pairs:
        copy = tmp_path / f"{original.stem}.{fmt}"
        shutil.copyfile(converted, copy)
        copies.append(copy)
    return copies


async def _open_edit_save(docx, sources: list[Path], fmt: str) -> list[Path]:
    """Each source opened (converted), edited and saved where docx_save puts it; the files saved."""
    for source in sources:
        opened = await docx.open(source)
        assert opened.head["Converted"].startswith(f"from .{fmt} by LibreOffice; may be lost: ")
        sid = docx.session_id
        await docx.ok("docx_insert_paragraph", session_id=sid, text="Added after conversion",
                      position="end:document_body")
        saved = await docx.ok("docx_save", session_id=sid)
        await docx.ok("docx_close", session_id=sid)
        assert saved.head["File"] == str(source.with_suffix(".docx"))
    return [p.with_suffix(".docx") for p in sources]


@pytest.mark.parametrize("fmt", sorted(TARGETS))
async def test_other_formats_open_edit_and_save_as_docx_beside_the_original(docx, tmp_path, made, fmt):
    sources = _copy(made[fmt], tmp_path, fmt)
    assert sources, f"LibreOffice made no .{fmt} file"
    before = {p: sha256_file(p) for p in sources}
    saved_files = await _open_edit_save(docx, sources, fmt)
    assert {p: sha256_file(p) for p in sources} == before
    assert all("Added after conversion" in texts(read_body(p)) for p in saved_files)
    assert all(convert_cached(saved_files, label=f"open formats {fmt} saved").values())


@pytest.mark.parametrize("fmt", sorted(TARGETS))
async def test_converted_documents_saved_validate_as_libreoffices_own_docx(docx, tmp_path, made, fmt):
    sdk_validator.require()
    sources = _copy(made[fmt], tmp_path, fmt)
    saved_files = await _open_edit_save(docx, sources, fmt)
    baseline = convert_cached(sources, label=f"open formats {fmt} baseline", target="docx:MS Word 2007 XML")
    sdk_validator.validate_files([*baseline.values(), *saved_files])  # one batch
    for source, saved in zip(sources, saved_files):
        assert sdk_validator.new_error_kinds(baseline[source.resolve()], saved) == []


async def test_a_save_never_replaces_a_docx_already_beside_the_original(docx, tmp_path, made):
    source = _copy(made["rtf"][:1], tmp_path, "rtf")[0]
    source.with_suffix(".docx").write_bytes(b"someone's own document")
    opened = await docx.open(source)
    assert opened.head["Converted"].endswith("(it exists: save with overwrite=true or another file_path)")
    answer = await docx.call("docx_save")
    assert answer.is_error and answer.error_type == "FileChanged"
    assert source.with_suffix(".docx").read_bytes() == b"someone's own document"


async def test_an_old_word_file_renamed_docx_is_named(docx, tmp_path, made):
    renamed = tmp_path / "report.docx"
    shutil.copyfile(made["doc"][0][1], renamed)
    answer = await docx.call("docx_open", file_path=str(renamed))
    assert answer.error_type == "MislabelledFile"
    assert "is a Word 97-2003 document" in answer.text and "report.doc'" in answer.text


async def test_an_odt_renamed_docx_is_named(docx, tmp_path, made):
    renamed = tmp_path / "notes.docx"
    shutil.copyfile(made["odt"][0][1], renamed)
    answer = await docx.call("docx_open", file_path=str(renamed))
    assert answer.error_type == "MislabelledFile" and "is an OpenDocument text" in answer.text
    assert "notes.odt'" in answer.text


async def test_a_docx_renamed_doc_is_named(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_save", file_path=str(tmp_path / "real.docx"))
    shutil.copyfile(tmp_path / "real.docx", tmp_path / "fake.doc")
    answer = await docx.call("docx_open", file_path=str(tmp_path / "fake.doc"))
    assert answer.error_type == "MislabelledFile" and "Open XML package" in answer.text
    assert "fake.docx'" in answer.text


async def test_a_file_that_is_not_a_zip_is_named(docx, tmp_path):
    (tmp_path / "plain.docx").write_bytes(b"just some text, not a document")
    answer = await docx.call("docx_open", file_path=str(tmp_path / "plain.docx"))
    assert answer.error_type == "InvalidDocument" and "is not a .docx (zip) file" in answer.text


async def test_the_conversion_reports_progress(docx, tmp_path, made):
    source = _copy(made["odt"][:1], tmp_path, "odt")[0]
    seen = []

    async def on_progress(done, total, message):
        seen.append(message)

    result = await docx.client.call_tool("docx_open", {"file_path": str(source)}, progress_callback=on_progress)
    assert not result.is_error, result.content[0].text
    assert any(m.startswith(f"LibreOffice is converting {source.name}") for m in seen)


async def test_a_converted_files_external_links_reach_nothing(tmp_path):
    from tests.support.client import open_client
    from tests.support.linked import linked_docx, loopback_listener

    with loopback_listener(b"", seconds=240) as (base, seen):
        linked = linked_docx(tmp_path / "linked.docx", f"{base}/x.png")
        made = convert_cached([linked], label="open formats linked", target="odt:writer8")[linked.resolve()]
        assert made is not None
        seen.clear()  # LibreOffice's own one-off conversion (the test's) may fetch: only the open counts
        source = tmp_path / "linked.odt"
        shutil.copyfile(made, source)
        async with open_client([tmp_path]) as docx:
            await docx.open(source)
        assert list(seen) == []
