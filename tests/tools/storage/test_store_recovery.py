"""Recovery files of a document on an object root land beside it in the same bucket, never over
it (a real server process stopped by SIGTERM, a real SeaweedFS); the next docx_open says so."""
from __future__ import annotations

import signal

import obstore
import pytest

from ooxml.model.document import Document
from ooxml.text import body as B
from tests.builders import build_docx, p
from tests.support.client import open_client
from tests.support.http_server import http_client
from tests.support.workers import Worker
from tools.config.model import Config
from tools.storage.roots import ObjectRoot

pytestmark = pytest.mark.anyio
W_P = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p"


def text_of(data: bytes) -> str:
    doc = Document.from_bytes(data)
    try:
        return "\n".join(B.paragraph_text(el) for el in doc.body.iter(W_P))
    finally:
        doc.close()


async def test_sigterm_writes_the_recovery_object_beside_the_document(seaweed, tmp_path):
    bucket = seaweed.make_bucket("recovery-sigterm")
    store = seaweed.client(bucket)
    original = build_docx(tmp_path / "report.docx", p("Original text")).read_bytes()
    obstore.put(store, "team/report.docx", original)
    worker = Worker("w1", tmp_path, None, extra=("--root", f"s3://{bucket}/team"), env=seaweed.env()).wait()
    try:
        async with http_client(worker.url, "auto", [tmp_path]) as client:
            answer = await client.ok("docx_open", file_path=f"s3://{bucket}/team/report.docx")
            await client.ok("docx_insert_paragraph", session_id=answer.head["Session ID"], text="Unsaved edit",
                            position="end:document_body")
        worker.proc.send_signal(signal.SIGTERM)
        code = worker.proc.wait(60)
        log = worker.output()
    finally:
        worker.stop()
    assert code == 0, log
    recovered = bytes(obstore.get(store, "team/~$report.recovered.docx").bytes())
    assert "Unsaved edit" in text_of(recovered), log
    assert bytes(obstore.get(store, "team/report.docx").bytes()) == original
    assert f"s3://{bucket}/team/~$report.recovered.docx" in log


async def test_docx_open_tells_of_a_recovery_object(seaweed, tmp_path):
    bucket = seaweed.make_bucket("recovery-note")
    store = seaweed.client(bucket)
    data = build_docx(tmp_path / "memo.docx", p("Text")).read_bytes()
    obstore.put(store, "team/memo.docx", data)
    obstore.put(store, "team/~$memo.recovered.docx", data)
    async with open_client([tmp_path], config=Config(storage=seaweed.settings()),
                           objects=[ObjectRoot(bucket, "team")]) as c:
        opened = await c.ok("docx_open", file_path=f"s3://{bucket}/team/memo.docx")
    assert "~$memo.recovered.docx" in opened.head["Recovered"]
