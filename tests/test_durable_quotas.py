"""--state: a session that ends on its worker (ended to make room for its caller's new one, or idle)
is gone from the store too, so no other worker can bring it back by its ID."""
from __future__ import annotations

import pytest

from tests.support.answer_validator import parse_head
from tests.support.services import redis_server
from tests.test_durable_replay import DurableDriver


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
