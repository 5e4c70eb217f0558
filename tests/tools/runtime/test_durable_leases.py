"""--state: a worker renews every lease it holds in one round trip to the store, and each session's
answer (renewed, lost, wanted by another worker) is acted on as before."""
from __future__ import annotations

import time

import pytest
import redis.connection

from tests.support.answer_validator import parse_head
from tests.support.services import redis_server
from tests.tools.runtime.test_durable_replay import DurableDriver


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


def held_sessions(driver: DurableDriver, n: int) -> list[str]:
    sids = []
    for i in range(n):
        sid = parse_head(driver.call("docx_create").text)["Session ID"]
        driver.call("docx_insert_paragraph", session_id=sid, text=f"doc {i}", position="end:document_body")
        sids.append(sid)  # the call took its lease
    assert all(driver.durable.held[sid].token for sid in sids)
    return sids


def test_every_lease_a_worker_holds_is_renewed_in_one_round_trip(tmp_path, redis_url, monkeypatch):
    w1 = DurableDriver(tmp_path, redis_url, "w1", lease_ms=2_000)
    sids = held_sessions(w1, 12)
    w1.durable._renew_all()  # the first round loads the renewal script into the store
    before = {sid: w1.durable.held[sid].deadline for sid in sids}
    sends = []
    real = redis.connection.Connection.send_packed_command
    monkeypatch.setattr(redis.connection.Connection, "send_packed_command",
                        lambda self, *a, **k: (sends.append(a), real(self, *a, **k))[1])
    time.sleep(0.01)
    w1.durable._renew_all()
    assert len(sends) == 1  # one request carries all twelve
    assert all(w1.durable.held[sid].deadline > before[sid] for sid in sids)
    ttls = [w1.durable.backend.redis.pttl(w1.durable.backend.keys(sid)[0]) for sid in sids]
    assert all(1_900 < ttl <= 2_000 for ttl in ttls), ttls


def test_a_batch_acts_on_each_answer_lost_wanted_and_renewed(tmp_path, redis_url):
    w1 = DurableDriver(tmp_path, redis_url, "w1", lease_ms=2_000)
    kept, lost, wanted = held_sessions(w1, 3)
    backend = w1.durable.backend
    backend.redis.delete(backend.keys(lost)[0])  # its lease ran out while the worker was paused
    backend.want(wanted, "w2", 2_000)  # another worker got a call for it
    w1.durable._renew_all()
    assert w1.durable.held[kept].token is not None
    assert w1.durable.held[lost].token is None
    assert w1.durable.held[wanted].token is None and backend.redis.get(backend.keys(wanted)[0]) is None
    assert "doc 1" in w1.call("docx_read_content", session_id=lost).text  # taken again on its next call


def test_renewals_survive_a_store_that_forgot_its_scripts(tmp_path, redis_url):
    w1 = DurableDriver(tmp_path, redis_url, "w1", lease_ms=2_000)
    sid = held_sessions(w1, 1)[0]
    w1.durable.backend.redis.script_flush()
    deadline = w1.durable.held[sid].deadline
    time.sleep(0.01)
    w1.durable._renew_all()
    assert w1.durable.held[sid].token is not None and w1.durable.held[sid].deadline > deadline
