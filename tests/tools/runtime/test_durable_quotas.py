"""--state: a session that ends on its worker (ended to make room for its caller's new one, or idle)
is gone from the store too, so no other worker can bring it back by its ID."""
from __future__ import annotations

import time

import pytest

from tests.support.answer_validator import parse_head
from tests.support.services import redis_server
from tests.tools.runtime.test_durable_replay import DurableDriver
from tools.runtime.state.quota import quota_key
from tools.runtime.sessions.sessions import Caller


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


def test_a_session_ended_to_make_room_is_gone_from_the_store(tmp_path, redis_url):
    w1 = DurableDriver(tmp_path, redis_url, "w1")
    w1.services.limit_overrides["max_sessions"] = 1
    first = parse_head(w1.call("docx_create").text)["Session ID"]  # created, its lease let go at once
    second = parse_head(w1.call("docx_create").text)
    w2 = DurableDriver(tmp_path, redis_url, "w2")
    taken = w2.call("docx_read_content", session_id=first)
    assert first in second["Ended"]
    assert w1.durable.backend.head(first) is None
    assert parse_head(taken.text)["Error Type"] == "SessionNotFound"


def test_a_stale_copy_ending_on_one_worker_leaves_the_session_another_worker_took(tmp_path, redis_url):
    w1 = DurableDriver(tmp_path, redis_url, "w1")
    sid = parse_head(w1.call("docx_create").text)["Session ID"]
    w2 = DurableDriver(tmp_path, redis_url, "w2")
    w2.call("docx_insert_paragraph", session_id=sid, text="on w2", position="end:document_body")
    w2.durable.backend.release(sid, w2.durable.held[sid].token)  # between calls, the lease is free
    w1.services.sessions.discard(w1.session())  # e.g. w1's idle reaper ends its old copy
    assert w1.durable.backend.head(sid) is not None
    assert "on w2" in w2.call("docx_read_content", session_id=sid).text


# ---- one quota on every worker ----------------------------------------------------------------------
def quota(driver: DurableDriver) -> list[str]:
    """The caller's sessions as the store counts them, longest idle first."""
    return [sid for sid, _ in driver.durable.backend.quota_members(quota_key(driver.ctx.caller.quota))]


def fresh_store(url: str) -> None:
    import redis
    redis.Redis.from_url(url).flushdb()  # earlier tests' sessions would count against the same caller


def test_a_caller_at_its_quota_on_one_worker_is_at_it_on_every_worker(tmp_path, redis_url):
    fresh_store(redis_url)
    w1, w2 = DurableDriver(tmp_path, redis_url, "w1"), DurableDriver(tmp_path, redis_url, "w2")
    for w in (w1, w2):
        w.services.limit_overrides["max_sessions"] = 2
    first = parse_head(w1.call("docx_create").text)["Session ID"]
    second = parse_head(w1.call("docx_create").text)["Session ID"]
    third = parse_head(w2.call("docx_create").text)
    assert first in third["Ended"] and "idle the longest" in third["Ended"]
    assert w1.durable.backend.head(first) is None
    assert quota(w1) == [second, third["Session ID"]]


def test_the_session_idle_the_longest_is_let_go_by_its_worker_and_ended_with_its_recovery_file(tmp_path, redis_url):
    fresh_store(redis_url)
    w1 = DurableDriver(tmp_path, redis_url, "w1", lease_ms=600)
    w1.durable.start()  # its renewer: leases kept, last uses told, sessions let go when another worker wants them
    w2 = DurableDriver(tmp_path, redis_url, "w2", lease_ms=10_000)
    try:
        for w in (w1, w2):
            w.services.limit_overrides["max_sessions"] = 2
        older = parse_head(w1.call("docx_create").text)["Session ID"]
        idle = parse_head(w1.call("docx_create").text)["Session ID"]
        w1.call("docx_insert_paragraph", session_id=idle, text="unsaved on w1", position="end:document_body")
        w1.call("docx_insert_paragraph", session_id=older, text="used last", position="end:document_body")
        wait_for(lambda: quota(w1) == [idle, older])  # w1's renewer told the store of both uses
        third = parse_head(w2.call("docx_create").text)
        kept = w1.call("docx_read_content", session_id=older)
    finally:
        w1.durable.stop()
    assert idle in third["Ended"] and "unsaved changes are in" in third["Ended"], third
    recovery = third["Ended"].split("unsaved changes are in ")[1].strip()
    assert "unsaved on w1" in document_text(recovery)
    assert w1.durable.backend.head(idle) is None
    assert quota(w1) == [older, third["Session ID"]]
    assert "used last" in kept.text


def wait_for(condition, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        time.sleep(0.05)
    assert condition()


def document_text(path: str) -> str:
    import zipfile
    with zipfile.ZipFile(path) as z:
        return z.read("word/document.xml").decode()


def test_anonymous_callers_are_counted_per_address_on_every_worker(tmp_path, redis_url):
    fresh_store(redis_url)
    w1, w2, w3 = (DurableDriver(tmp_path, redis_url, w) for w in ("w1", "w2", "w3"))
    for w, address in ((w1, "203.0.113.5"), (w2, "203.0.113.5"), (w3, "198.51.100.7")):
        w.ctx.caller = Caller(http=True, address=address)
        w.services.limit_overrides["max_sessions_anonymous"] = 1
    first = parse_head(w1.call("docx_create").text)["Session ID"]
    same_address = parse_head(w2.call("docx_create").text)
    other_address = parse_head(w3.call("docx_create").text)
    assert first in same_address["Ended"]
    assert "Ended" not in other_address and w3.durable.backend.head(same_address["Session ID"]) is not None
    assert quota(w1) == [same_address["Session ID"]] and quota(w3) == [other_address["Session ID"]]


def test_a_session_busy_on_its_worker_is_passed_over_for_the_next_idle_one(tmp_path, redis_url):
    import threading
    fresh_store(redis_url)
    w1 = DurableDriver(tmp_path, redis_url, "w1", lease_ms=600)
    w2 = DurableDriver(tmp_path, redis_url, "w2", lease_ms=600)
    held, release = threading.Event(), threading.Event()
    for w in (w1, w2):
        w.services.limit_overrides["max_sessions"] = 2
        w.durable.start()
    try:
        busy = parse_head(w1.call("docx_create").text)["Session ID"]
        idle = parse_head(w1.call("docx_create").text)["Session ID"]
        w1.call("docx_insert_paragraph", session_id=busy, text="busy", position="end:document_body")
        w1.call("docx_insert_paragraph", session_id=idle, text="idle", position="end:document_body")
        wait_for(lambda: quota(w1) == [busy, idle])  # the busy one was used the longest ago

        def long_call():  # a call under way on w1, as a long edit would be
            with w1.services.sessions.local(busy).lock:
                held.set()
                release.wait(30)
        threading.Thread(target=long_call, daemon=True).start()
        held.wait(5)
        third = parse_head(w2.call("docx_create").text)
    finally:
        release.set()
        for w in (w1, w2):
            w.durable.stop()
    assert idle in third["Ended"] and busy not in third["Ended"], third
    assert w1.durable.backend.head(busy) is not None and w1.durable.backend.head(idle) is None
