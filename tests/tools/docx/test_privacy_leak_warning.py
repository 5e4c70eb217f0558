"""A failed leak check stays until the secret is gone (issue 29, defect 8): a later check that passes
for another text, or a passing check inside a batch that is rolled back, leaves it; docx_save of a
session with a known leak says so in its head."""
from __future__ import annotations

import zipfile

import pytest

from tests.support import planted

pytestmark = pytest.mark.anyio
SECRET = "Quillfeather"
FAILED = "FAILED: 1 place(s) still hold it"


async def with_leak(docx, tmp_path) -> None:
    """A planted document whose OLE object holds the secret (no redaction can clean it), redacted."""
    src = planted.build(tmp_path / "p.docx", SECRET)
    with zipfile.ZipFile(src, "a") as z:
        z.writestr("word/embeddings/oleObject1.bin", b"\xd0\xcf\x11\xe0" + SECRET.encode("utf-16-le"))
    await docx.open(src)
    a = await docx.ok("docx_redact", text=SECRET)
    assert a.head["Leak Check"] == FAILED


async def saved_check(docx, tmp_path) -> str | None:
    saved = await docx.ok("docx_save", file_path=str(tmp_path / "out.docx"))
    return saved.head.get("Leak Check")


async def test_a_passing_redaction_of_another_text_keeps_the_warning(docx, tmp_path):
    await with_leak(docx, tmp_path)
    other = await docx.ok("docx_redact", text="Closing words")
    assert other.head["Leak Check"].startswith("nothing left")
    assert await saved_check(docx, tmp_path) == FAILED


async def test_a_passing_find_of_another_text_keeps_the_warning(docx, tmp_path):
    await with_leak(docx, tmp_path)
    found = await docx.ok("docx_inspect", find="no such words here")
    assert found.head["Leak Check"].startswith("nothing left")
    assert await saved_check(docx, tmp_path) == FAILED


async def test_a_rolled_back_batch_keeps_the_warning(docx, tmp_path):
    await with_leak(docx, tmp_path)
    a = await docx.call("docx_batch", calls=[
        {"tool": "docx_redact", "arguments": {"text": "Closing words"}},
        {"tool": "docx_insert_paragraph", "arguments": {"text": "x", "position": "after:para_nothere"}}])
    assert a.is_error and "Nothing in the batch was applied" in a.head["Message"]
    assert await saved_check(docx, tmp_path) == FAILED


async def test_the_warning_goes_with_the_secret_and_comes_back_with_an_undo(docx, tmp_path):
    await with_leak(docx, tmp_path)
    await docx.ok("docx_scrub", categories=["embedded_objects"])
    assert await saved_check(docx, tmp_path) is None
    await docx.ok("docx_undo")
    assert await saved_check(docx, tmp_path) == FAILED


async def test_each_secret_keeps_its_own_warning(docx, tmp_path):
    await with_leak(docx, tmp_path)
    word = await docx.ok("docx_inspect", find="Opening words")
    assert word.head["Leak Check"].startswith("FAILED")
    await docx.ok("docx_redact", text="Opening words")
    assert await saved_check(docx, tmp_path) == FAILED
