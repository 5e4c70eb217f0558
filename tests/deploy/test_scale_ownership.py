"""--state: who owns a document session is kept in the shared store and checked on every worker.

A session belongs to its tenant and, for a 2025-11-25 client, to its MCP session while that MCP
session lives on ANY worker. A stranger naming the session on another worker gets
``SessionNotFound``, exactly as on the owner's worker: never ``SessionMoved`` (which would tell
that the ID exists), and never the session after the owner's lease was handed over.
"""
from __future__ import annotations

import json

import pytest

from tests.support.client import read_body, texts
from tests.support.http_server import http_client
from tests.support.services import redis_server
from tests.deploy.test_scale_workers import LEASE_MS, call_retrying, insert
from tests.support.workers import workers

pytestmark = pytest.mark.anyio
TOKENS = {"acme": "acme-token-1234", "beta": "beta-token-5678"}

# (owner's mode, owner's tenant, stranger's mode, stranger's tenant)
STRANGERS = {
    "second MCP session without tenants": ("legacy", None, "legacy", None),
    "second MCP session of the same tenant": ("legacy", "acme", "legacy", "acme"),
    "another tenant without MCP sessions": ("auto", "acme", "auto", "beta"),
    "another tenant with an MCP session": ("legacy", "acme", "legacy", "beta"),
}


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


def tenant_config(tmp_path, tenants: bool) -> tuple[tuple, dict]:
    if not tenants:
        return (), {}
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"tenants": {t: {"token_env": f"TEST_{t.upper()}_TOKEN"} for t in TOKENS}}))
    return ("--config", str(config)), {f"TEST_{t.upper()}_TOKEN": v for t, v in TOKENS.items()}


@pytest.mark.parametrize("case", list(STRANGERS))
async def test_a_stranger_on_another_worker_gets_session_not_found_and_changes_nothing(tmp_path, redis_url, case):
    owner_mode, owner_tenant, stranger_mode, stranger_tenant = STRANGERS[case]
    extra, env = tenant_config(tmp_path, owner_tenant is not None)
    target = tmp_path / "stolen.docx"
    with workers(2, tmp_path, redis_url, LEASE_MS, extra, env) as (w1, w2):
        async with http_client(w1.url, owner_mode, [tmp_path], TOKENS.get(owner_tenant)) as owner, \
                http_client(w2.url, stranger_mode, [tmp_path], TOKENS.get(stranger_tenant)) as stranger:
            await owner.create()
            await insert(owner, "the owner's text")  # w1 holds the lease now
            sid = owner.session_id
            first = await stranger.call("docx_read_content", session_id=sid)  # while w1 holds the lease
            # Retried as SessionMoved's hint says: the old code answered SessionMoved, then adopted it.
            answers = [await call_retrying(stranger, "docx_read_content", session_id=sid),
                       await call_retrying(stranger, "docx_insert_paragraph", session_id=sid, text="intruder",
                                           position="end:document_body"),
                       await call_retrying(stranger, "docx_save", session_id=sid, file_path=str(target)),
                       await call_retrying(stranger, "docx_close", session_id=sid)]
            unknown = await stranger.call("docx_read_content", session_id="doc_0123456789abcdef01234567")
            mine = await call_retrying(owner, "docx_read_content", session_id=sid)
    assert [a.error_type for a in answers] == ["SessionNotFound"] * 4, [a.text for a in answers]
    assert first.error_type == "SessionNotFound" and first.head["Message"] == unknown.head["Message"].replace(
        "doc_0123456789abcdef01234567", sid)  # the same words as for an ID that never existed
    assert not target.exists()
    assert not mine.is_error and "the owner's text" in mine.text and "intruder" not in mine.text


async def test_a_live_owner_on_another_worker_keeps_its_session_while_the_stranger_is_refused(tmp_path, redis_url):
    """The owner's MCP session stays live (shared), so it keeps working after the stranger tried."""
    with workers(2, tmp_path, redis_url, LEASE_MS) as (w1, w2):
        async with http_client(w1.url, "legacy", [tmp_path]) as owner, \
                http_client(w2.url, "legacy", [tmp_path]) as stranger:
            await owner.create()
            await insert(owner, "first")
            refused = await call_retrying(stranger, "docx_insert_paragraph", session_id=owner.session_id,
                                          text="intruder", position="end:document_body")
            await insert(owner, "second")
            out = tmp_path / "out.docx"
            saved = await call_retrying(owner, "docx_save", session_id=owner.session_id, file_path=str(out))
    assert refused.error_type == "SessionNotFound" and not saved.is_error, saved.text
    assert texts(read_body(out)) == "firstsecond"


async def test_when_the_owner_s_worker_dies_another_mcp_session_adopts_the_session(tmp_path, redis_url):
    """The dead worker's heartbeat runs out, so its MCP sessions count as ended everywhere."""
    import os
    import signal
    import time
    import anyio
    with workers(2, tmp_path, redis_url, LEASE_MS) as (w1, w2):
        async with http_client(w1.url, "legacy", [tmp_path]) as owner:
            await owner.create()
            await insert(owner, "kept after the crash")
            os.kill(w1.proc.pid, signal.SIGKILL)
        async with http_client(w2.url, "legacy", [tmp_path]) as adopter:
            deadline, read = time.monotonic() + 60, None
            while time.monotonic() < deadline:  # polled: refused until the heartbeat's TTL (1.5 leases) has run out
                read = await adopter.call("docx_read_content", session_id=owner.session_id)
                if not read.is_error:
                    break
                await anyio.sleep(0.1)
    assert not read.is_error and "kept after the crash" in read.text, read.text
