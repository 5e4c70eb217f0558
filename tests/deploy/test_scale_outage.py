"""--state: a state store outage answers StateUnavailable at once, /healthz says so, and the worker
goes on by itself when the store is back (nothing acknowledged lost, nothing refused applied)."""
from __future__ import annotations

import os
import signal
import time

import anyio
import httpx2
import pytest

from tests.support.http_server import MODES, http_client
from tests.support.services import READY_S, running_redis, wait_http
from tests.deploy.test_scale_workers import LEASE_MS, call_retrying, insert
from tests.support.workers import workers

pytestmark = pytest.mark.anyio
ANSWER_BOUND_S = 6.0  # per call during the outage: the store's timeouts, not the old 5 s x retries


def go_away(redis, how: str) -> None:
    if how == "stopped":
        redis.stop()  # connections refused
    else:
        os.kill(redis.proc.pid, signal.SIGSTOP)  # connections hang: only timeouts end them


def come_back(redis, how: str) -> None:
    if how == "stopped":
        redis.start()  # the same port, its data kept (AOF)
    else:
        os.kill(redis.proc.pid, signal.SIGCONT)


async def timed(client, name, **args):
    started = time.monotonic()
    answer = await client.call(name, **args)
    return answer, time.monotonic() - started


@pytest.mark.parametrize("how", ["stopped", "paused"])
@pytest.mark.parametrize("mode", MODES)
async def test_a_store_outage_answers_state_unavailable_quickly_and_the_worker_recovers(tmp_path, mode, how):
    with running_redis(persist=True) as redis, workers(1, tmp_path, redis.url, LEASE_MS) as (w1,):
        async with http_client(w1.url, mode, [tmp_path]) as client, httpx2.AsyncClient(timeout=30) as http:
            await client.create()
            await insert(client, "before the outage")
            go_away(redis, how)
            try:
                during = [await timed(client, "docx_insert_paragraph", session_id=client.session_id,
                                      text="during the outage", position="end:document_body"),
                          await timed(client, "docx_read_content", session_id=client.session_id),
                          await timed(client, "docx_insert_paragraph", session_id=client.session_id,
                                      text="during the outage", position="end:document_body"),
                          await timed(client, "docx_create")]
                health = await http.get(w1.health_url)
            finally:
                come_back(redis, how)
            await anyio.to_thread.run_sync(wait_http, w1.health_url, READY_S)  # recovers by itself
            after = await insert(client, "after the outage")
            read = await call_retrying(client, "docx_read_content", session_id=client.session_id)
            created = await client.call("docx_create")
    print(f"\nRedis {how} ({mode}): answers during the outage in {[round(t, 3) for _, t in during]} s")
    assert [a.error_type for a, _ in during] == ["StateUnavailable"] * 4, [a.text for a, _ in during]
    assert all(a.head.get("Hint") for a, _ in during)
    assert max(t for _, t in during) < ANSWER_BOUND_S, [round(t, 2) for _, t in during]
    assert health.status_code == 503 and health.text.startswith("unavailable: state store unreachable")
    assert "before the outage" in read.text and "after the outage" in read.text and after in read.text
    assert "during the outage" not in read.text
    assert not created.is_error, created.text
