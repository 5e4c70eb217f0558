"""--state (issue 29 defect 2): a 2025-11-25 client's document sessions end when its MCP session
ends, as without --state: unsaved work goes to a recovery file at once, and nothing of the session
(a redacted secret included) stays in Redis. Real redis-server and worker processes."""
from __future__ import annotations

import time

import anyio
import pytest

from tests.builders import build_docx, p
from tests.support.client import read_body, texts
from tests.support.http_server import http_client
from tests.support.services import redis_server
from tests.support.workers import workers
from tools.runtime.state.statestore import RedisState

pytestmark = pytest.mark.anyio
LEASE_MS = 600
BOUND_S = 2.0  # without --state the session ends as the MCP session does (DELETE): give it the same
SECRET = "Quillfeather-4711"


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


async def appears(path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        await anyio.sleep(0.05)
    return path.exists()


async def test_unsaved_work_goes_to_a_recovery_file_when_the_mcp_session_ends(tmp_path, redis_url):
    path = build_docx(tmp_path / "report.docx", p("Original text"))
    recovery = tmp_path / "~$report.recovered.docx"
    with workers(1, tmp_path, redis_url, LEASE_MS) as (w1,):
        async with http_client(w1.url, "legacy", [tmp_path]) as a:
            await a.open(path)
            await a.ok("docx_insert_paragraph", text="Unsaved edit", position="end:document_body")
        ended = time.monotonic()
        found = await appears(recovery, BOUND_S + 60)
        took = time.monotonic() - ended
        async with http_client(w1.url, "legacy", [tmp_path]) as b:
            adopted = await b.call("docx_read_content", session_id=a.session_id)
        log = w1.output()
    assert found, f"no recovery file; the worker's log:\n{log}"
    assert took <= BOUND_S, f"the recovery file came {took:.1f} s after the MCP session ended"
    assert "Unsaved edit" in texts(read_body(recovery)) and str(recovery) in log
    assert adopted.error_type == "SessionNotFound"  # it ended: nobody adopts it any more


async def test_nothing_of_a_saved_and_closed_mcp_session_stays_in_redis(tmp_path, redis_url):
    path = build_docx(tmp_path / "secret.docx", p(f"Pay {SECRET} today"))
    state = RedisState(redis_url)
    with workers(1, tmp_path, redis_url, LEASE_MS) as (w1,):
        async with http_client(w1.url, "legacy", [tmp_path]) as a:
            await a.open(path)
            await a.ok("docx_redact", text=SECRET)
            await a.ok("docx_save")
            sid = a.session_id
        deadline = time.monotonic() + BOUND_S + 60
        while state.redis.keys(f"oxm:{{{sid}}}:*") and time.monotonic() < deadline:
            await anyio.sleep(0.05)
        left = state.redis.keys(f"oxm:{{{sid}}}:*")
        holding = [k for k in state.redis.keys("*") if SECRET.encode() in dump(state.redis, k)]
    assert SECRET not in texts(read_body(path))
    assert left == [] and holding == [], (left, holding)


def dump(redis, key) -> bytes:
    """Every byte a key holds, whatever its type (the journal is a stream: the redact call's arguments)."""
    kind = redis.type(key).decode()
    if kind == "string":
        return redis.get(key) or b""
    if kind == "hash":
        return b" ".join(k + b"=" + v for k, v in redis.hgetall(key).items())
    if kind == "stream":
        return b" ".join(b" ".join(v for kv in fields.items() for v in kv) for _, fields in redis.xrange(key))
    if kind == "list":
        return b" ".join(redis.lrange(key, 0, -1))
    if kind == "zset":
        return b" ".join(m for m, _ in redis.zrange(key, 0, -1, withscores=True))
    if kind == "set":
        return b" ".join(redis.smembers(key))
    return b""
