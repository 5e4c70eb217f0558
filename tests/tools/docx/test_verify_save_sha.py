"""docx_save answers with the SHA-256 of the file it read and of the file it wrote (issue 34)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.builders import build_docx, p

pytestmark = pytest.mark.anyio


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_save_reports_the_hashes_of_the_file_read_and_the_file_written(docx, tmp_path):
    original = build_docx(tmp_path / "in.docx", p("Original"))
    await docx.open(original)
    await docx.ok("docx_insert_paragraph", text="Added", position="end:document_body")
    a = await docx.ok("docx_save", session_id=docx.session_id, file_path=str(tmp_path / "out.docx"))
    assert a.head["Read SHA"] == sha(original)
    assert a.head["Written SHA"] == sha(tmp_path / "out.docx")


async def test_the_read_hash_stays_the_opened_file_after_saving_over_it(docx, tmp_path):
    original = build_docx(tmp_path / "in.docx", p("Original"))
    opened = sha(original)
    await docx.open(original)
    await docx.ok("docx_insert_paragraph", text="One", position="end:document_body")
    await docx.ok("docx_save", session_id=docx.session_id)
    await docx.ok("docx_insert_paragraph", text="Two", position="end:document_body")
    a = await docx.ok("docx_save", session_id=docx.session_id)
    assert a.head["Read SHA"] == opened != sha(original)
    assert a.head["Written SHA"] == sha(original)


async def test_a_created_document_has_no_read_hash(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_save", session_id=docx.session_id, file_path=str(tmp_path / "new.docx"))
    assert a.head["Read SHA"].startswith("none")
    assert a.head["Written SHA"] == sha(tmp_path / "new.docx")
