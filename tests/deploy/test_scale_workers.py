"""--state with several worker processes: sessions move between workers by their ID, leases fence
a paused worker, and a document session ends with its MCP session on every worker."""
from __future__ import annotations

import os
import signal
import time

import anyio
import pytest

from tests.support.client import by_id, read_body, texts
from tests.support.http_server import http_client
from tests.support.services import redis_server
from tests.support.workers import workers

LEASE_MS = 600
pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


async def call_retrying(client, name, seconds: float = 60.0, **args):
    """Retry SessionMoved as its hint says, bounded in time (generously: the machine may be loaded)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = await client.call(name, **args)
        if answer.error_type != "SessionMoved" or time.monotonic() > deadline:
            return answer
        await anyio.sleep(0.1)


async def insert(client, text):
    answer = await call_retrying(client, "docx_insert_paragraph", session_id=client.session_id, text=text,
                                 position="end:document_body")
    assert not answer.is_error, answer.text
    return answer.element_id


async def test_a_session_created_on_one_worker_is_edited_on_another_with_the_same_ids(tmp_path, redis_url):
    with workers(2, tmp_path, redis_url, LEASE_MS) as (w1, w2):
        async with http_client(w1.url, "auto", [tmp_path]) as a, http_client(w2.url, "auto", [tmp_path]) as b:
            await a.create()
            first = await insert(a, "written on w1")
            b.session_id = a.session_id
            second = await insert(b, "written on w2")  # w1's lease runs out, then w2 takes the session over
            await call_retrying(b, "docx_save", session_id=b.session_id, file_path=str(tmp_path / "out.docx"))
    body = read_body(tmp_path / "out.docx")
    assert texts(by_id(body, first)) == "written on w1" and texts(by_id(body, second)) == "written on w2"


async def test_a_paused_worker_whose_lease_expired_cannot_write_and_knows_it_lost_the_session(tmp_path, redis_url):
    with workers(2, tmp_path, redis_url, LEASE_MS) as (w1, w2):
        async with http_client(w1.url, "auto", [tmp_path]) as a, http_client(w2.url, "auto", [tmp_path]) as b:
            await a.create()
            await insert(a, "before the pause")  # w1 holds the lease now
            os.kill(w1.proc.pid, signal.SIGSTOP)
            try:
                b.session_id = a.session_id
                await insert(b, "on w2 while w1 sleeps")
            finally:
                os.kill(w1.proc.pid, signal.SIGCONT)
            late = await a.call("docx_insert_paragraph", session_id=a.session_id, text="from the sleeper",
                                position="end:document_body")
            final = await call_retrying(b, "docx_read_content", session_id=b.session_id)
    assert late.error_type == "SessionMoved", late.text
    assert "Retry" in late.head["Hint"]
    assert "on w2 while w1 sleeps" in final.text and "before the pause" in final.text
    assert "from the sleeper" not in final.text


async def test_a_document_session_ends_with_its_mcp_session_and_no_other_worker_adopts_it(tmp_path, redis_url):
    """Ended as without --state (issue 29 defect 2): its unsaved work is in a recovery file; only
    the sessions of a worker that died wait in the store to be adopted (test_scale_ownership.py)."""
    with workers(2, tmp_path, redis_url, LEASE_MS) as (w1, w2):
        async with http_client(w1.url, "legacy", [tmp_path]) as a:
            await a.create()
            await insert(a, "kept in a recovery file")
        async with http_client(w2.url, "legacy", [tmp_path]) as b:
            gone = await call_retrying(b, "docx_read_content", session_id=a.session_id)
        deadline = time.monotonic() + 60  # polled: w1 ends it as the DELETE comes (a loaded machine is slow)
        while not list(tmp_path.glob("~$new-document-*.recovered*.docx")) and time.monotonic() < deadline:
            await anyio.sleep(0.05)
    recovered = list(tmp_path.glob("~$new-document-*.recovered*.docx"))
    assert gone.error_type == "SessionNotFound", gone.text
    assert len(recovered) == 1 and "kept in a recovery file" in texts(read_body(recovered[0]))


async def test_another_live_mcp_session_cannot_take_a_session_it_does_not_own(tmp_path, redis_url):
    with workers(1, tmp_path, redis_url, LEASE_MS) as (w1,):
        async with http_client(w1.url, "legacy", [tmp_path]) as a, http_client(w1.url, "legacy", [tmp_path]) as b:
            await a.create()
            await insert(a, "mine")
            stolen = await b.call("docx_read_content", session_id=a.session_id)
    assert stolen.error_type == "SessionNotFound"


async def test_healthz_answers_200_and_an_unknown_mcp_session_gets_404(tmp_path, redis_url):
    import httpx2
    with workers(1, tmp_path, redis_url, LEASE_MS) as (w1,):
        async with httpx2.AsyncClient(timeout=10) as http:
            health = await http.get(w1.url.replace("/mcp", "/healthz"))
            unknown = await http.post(w1.url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                      headers={"Mcp-Session-Id": "0123456789abcdef0123456789abcdef",
                                               "Accept": "application/json, text/event-stream",
                                               "MCP-Protocol-Version": "2025-11-25"})
    assert health.status_code == 200 and health.text == "ok\n"
    assert unknown.status_code == 404


def test_audit_lines_name_the_worker(tmp_path, monkeypatch):
    import json
    from tools.runtime.call.audit import AuditLog
    from tools.runtime.call.dispatch import Outcome
    monkeypatch.setattr(AuditLog, "worker", "w7")
    log = AuditLog(tmp_path / "audit.jsonl")
    log.record(tenant=None, tool="docx_read_content", arguments={}, outcome=Outcome("x", False), started=0.0)
    log.event("session_ended", tenant=None, session_id="doc_x")
    log.close()
    lines = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [line["worker"] for line in lines] == ["w7", "w7"]
