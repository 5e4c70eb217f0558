"""Redis + 3 workers + HAProxy on loopback: kill -9 the worker holding a session while its client
edits; a new MCP session adopts it: 0 acknowledged edits lost, 0 edits applied twice. SIGTERM
(drain) during load loses nothing either."""
from __future__ import annotations

import math
import os
import signal

import anyio
import pytest

from tests.support.failover import run_trial
from tests.support.services import redis_server
from tests.support.workers import haproxy, workers
from tools.runtime.state.statestore import RedisState

pytestmark = pytest.mark.anyio
TRIALS = int(os.environ.get("OOXML_MCP_FAILOVER_TRIALS", "20"))
LEASE_MS = 800


async def run_trials(tmp_path, sig, count: int, mode: str = "auto"):
    results = []
    with redis_server() as redis_url, workers(3, tmp_path, redis_url, LEASE_MS) as ws, haproxy(ws) as url:
        state = RedisState(redis_url)
        for n in range(count):
            results.append(await run_trial(url, tmp_path, state, ws, f"t{n}", sig, mode))
            for w in ws:
                if w.proc.poll() is not None:
                    await anyio.to_thread.run_sync(w.restart)
            await anyio.to_thread.run_sync(url.wait_up, ws)  # HAProxy's health checks see them all up again
    return results


async def test_kill_9_of_the_owner_loses_no_acknowledged_edit(tmp_path):
    results = await run_trials(tmp_path, signal.SIGKILL, TRIALS)
    times = sorted(r.failover_s for r in results)
    print(f"\nfailover over {len(times)} kill -9 trials: p50 {times[len(times) // 2]:.2f} s, "
          f"max {times[-1]:.2f} s; acknowledged edits {sum(len(r.acknowledged) for r in results)}")
    assert all(r.acknowledged for r in results), "some trial acknowledged nothing: the kill came too early"


async def test_a_new_mcp_session_adopts_a_killed_worker_s_sessions_within_2_s_p99(tmp_path):
    """2025-11-25 clients: the killed worker's MCP session must count as ended as soon as its lease
    would let another worker in, not after a heartbeat TTL of 10 s (issue 29 defect 3: p99 10.05 s)."""
    results = await run_trials(tmp_path, signal.SIGKILL, TRIALS, "legacy")
    times = sorted(r.failover_s for r in results)
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
    print(f"\nfailover (new MCP session adopts) over {len(times)} kill -9 trials: p50 {times[len(times) // 2]:.2f} s, "
          f"p99 {p99:.2f} s, max {times[-1]:.2f} s; acknowledged edits {sum(len(r.acknowledged) for r in results)}")
    assert all(r.acknowledged for r in results), "some trial acknowledged nothing: the kill came too early"
    assert p99 <= 2.0, times


async def test_sigterm_drains_during_load_and_loses_nothing(tmp_path):
    results = await run_trials(tmp_path, signal.SIGTERM, 3)
    assert all(r.acknowledged for r in results)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_haproxy_keeps_each_client_on_the_worker_of_its_session(tmp_path, mode):
    """2025-11-25: the stick table pins the MCP session (another worker would answer 404);
    2026-07-28: the session_id names the worker that made it, and every call goes there."""
    from tests.support.http_server import http_client
    from tools.runtime.state.statestore import RedisState
    from tests.support.failover import owner_of
    with redis_server() as redis_url, workers(3, tmp_path, redis_url, LEASE_MS) as ws, haproxy(ws) as url:
        state = RedisState(redis_url)
        async with http_client(url, mode, [tmp_path]) as client:
            await client.create()
            answers, owners = [], set()
            for i in range(12):
                answers.append(await client.call("docx_insert_paragraph", session_id=client.session_id,
                                                 text=f"p{i}", position="end:document_body"))
                owners.add(owner_of(state, client.session_id))
    assert [a.error_type for a in answers] == [None] * 12
    assert len(owners) == 1, owners


async def test_each_session_stays_on_the_worker_that_created_it_with_no_take_over(tmp_path):
    """2026-07-28 clients through HAProxy: sessions spread like their round-robin creates and are
    never handed to another worker while their own is up (a hand-over per session made a second
    worker add nothing, issue 21)."""
    from tests.support.http_server import http_client
    from tests.support.failover import owner_of
    with redis_server() as redis_url, workers(3, tmp_path, redis_url, LEASE_MS) as ws, haproxy(ws) as url:
        state = RedisState(redis_url)
        homes = {}
        for _ in range(6):
            async with http_client(url, "auto", [tmp_path]) as client:
                await client.create()
                for i in range(3):
                    answer = await client.call("docx_insert_paragraph", session_id=client.session_id,
                                               text=f"p{i}", position="end:document_body")
                    assert not answer.is_error, answer.text
                homes[client.session_id] = owner_of(state, client.session_id)
        recoveries = state.redis.info("commandstats").get("cmdstat_xrange", {}).get("calls", 0)
    assert all(sid.endswith("." + home) for sid, home in homes.items()), homes
    assert recoveries == 0  # no worker read a session's journal to take it over
