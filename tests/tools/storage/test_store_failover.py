"""Workers share the object store: with --state, a session opened from a bucket on one worker is
adopted by another after kill -9 of its owner and saves to the same object (a conditional put on the
tag the snapshot carried) with every acknowledged edit. Real Redis, HAProxy, workers and SeaweedFS."""
from __future__ import annotations

import os
import signal

import anyio
import obstore
import pytest

from tests.builders import build_docx, p
from tests.support.failover import owner_of, until_ok
from tests.support.http_server import http_client
from tests.support.services import redis_server
from tests.support.workers import haproxy, workers
from tools.runtime.state.statestore import RedisState

pytestmark = pytest.mark.anyio
W_P = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p"


async def test_adopted_session_saves_to_the_same_object_after_kill_9(seaweed, tmp_path):
    bucket = seaweed.make_bucket("failover-docs")
    store = seaweed.client(bucket)
    obstore.put(store, "team/shared.docx", build_docx(tmp_path / "s.docx", p("Start")).read_bytes())
    url_of = f"s3://{bucket}/team/shared.docx"
    extra = ("--root", f"s3://{bucket}/team")
    with redis_server() as redis_url, workers(2, tmp_path, redis_url, 800, extra, seaweed.env()) as ws, \
            haproxy(ws) as url:
        state = RedisState(redis_url)
        opened = await until_ok(url, [tmp_path], None, "docx_open", file_path=url_of)
        sid = opened.head["Session ID"]
        acknowledged = []
        async with http_client(url, "auto", [tmp_path]) as client:
            for i in range(5):
                answer = await client.call("docx_insert_paragraph", session_id=sid, text=f"edit-{i}",
                                           position="end:document_body")
                if answer.error_type == "SessionMoved":
                    await anyio.sleep(0.05)
                    continue
                assert not answer.is_error, answer.text
                acknowledged.append(f"edit-{i}")
        owner = owner_of(state, sid) or sid.rpartition(".")[2]  # the lease holder, else the worker it routes to
        os.kill(next(w for w in ws if w.name == owner).proc.pid, signal.SIGKILL)
        saved = await until_ok(url, [tmp_path], sid, "docx_save")
        assert not saved.is_error, saved.text
        assert saved.head["File"] == url_of
    from ooxml.model.document import Document
    from ooxml.text import body as B
    doc = Document.from_bytes(bytes(obstore.get(store, "team/shared.docx").bytes()))
    try:
        texts = [B.paragraph_text(el) for el in doc.body.iter(W_P)]
    finally:
        doc.close()
    assert acknowledged and all(t in texts for t in acknowledged), (acknowledged, texts)
