"""--state: ending a session (idle, closed, ended to make room) on a worker. Only the worker that has
the session's current state writes its recovery file and deletes it from the store; a worker whose
copy is stale (another worker took the session since) just drops that copy."""
from __future__ import annotations

import time
import zipfile

import pytest

from tests.support.answer_validator import parse_head
from tests.support.services import redis_server
from tests.tools.runtime.test_durable_replay import DurableDriver
from tools.runtime.state.quota import quota_key
from tools.runtime.sessions.lifetime import reap_idle

LATER = 10 ** 6  # seconds: every session counts as idle


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


def saved_session(w1: DurableDriver, path) -> str:
    sid = parse_head(w1.call("docx_create", file_path=str(path)).text)["Session ID"]
    w1.call("docx_save", session_id=sid)
    return sid


def let_go(w: DurableDriver, sid: str) -> None:
    """What a worker does between calls when another worker wants the session."""
    held = w.durable.held[sid]
    w.durable._let_go(sid, held, held.token)


def recovery_files(root) -> list:
    return [p for p in root.rglob("*") if p.is_file() and ".recovered" in p.name]


def text_of(path) -> str:
    with zipfile.ZipFile(path) as z:
        return z.read("word/document.xml").decode()


def test_a_stale_copy_reaped_on_its_old_worker_writes_no_recovery_file(tmp_path, redis_url):
    w1 = DurableDriver(tmp_path, redis_url, "w1")
    sid = saved_session(w1, tmp_path / "report.docx")
    w1.call("docx_insert_paragraph", session_id=sid, text="first on w1", position="end:document_body")
    let_go(w1, sid)
    w2 = DurableDriver(tmp_path, redis_url, "w2")
    w2.call("docx_insert_paragraph", session_id=sid, text="then on w2", position="end:document_body")
    head = w2.durable.backend.head(sid)

    assert reap_idle(w1.services, time.monotonic() + LATER) == 1  # w1's old copy, unsaved as w1 knew it

    assert recovery_files(tmp_path) == [] and w1.services.recovered == {}
    assert w1.durable.backend.head(sid) == head
    assert w2.durable.holds(sid)
    read = w2.call("docx_read_content", session_id=sid).text
    assert "first on w1" in read and "then on w2" in read


def test_a_session_ended_after_its_lease_lapsed_is_gone_from_the_store(tmp_path, redis_url):
    w1 = DurableDriver(tmp_path, redis_url, "w1")
    sid = saved_session(w1, tmp_path / "report.docx")
    let_go(w1, sid)
    w2 = DurableDriver(tmp_path, redis_url, "w2", lease_ms=1000)  # no renewer thread runs here
    w2.call("docx_insert_paragraph", session_id=sid, text="unsaved on w2", position="end:document_body")
    quota = quota_key(w2.session().quota)
    time.sleep(1.2)  # the lease lapses, as when ending takes longer than a lease nobody renews

    assert reap_idle(w2.services, time.monotonic() + LATER) == 1

    assert w2.durable.backend.head(sid) is None
    assert sid not in [s for s, _ in w2.durable.backend.quota_members(quota)]
    [recovery] = recovery_files(tmp_path)
    assert "unsaved on w2" in text_of(recovery)
    gone = parse_head(w1.call("docx_read_content", session_id=sid).text)
    assert gone["Error Type"] == "SessionNotFound"


def test_a_stale_copy_dropped_while_the_lease_is_free_leaves_the_new_worker_able_to_end_it(tmp_path, redis_url):
    w1 = DurableDriver(tmp_path, redis_url, "w1")
    sid = saved_session(w1, tmp_path / "report.docx")
    let_go(w1, sid)
    w2 = DurableDriver(tmp_path, redis_url, "w2")
    w2.call("docx_insert_paragraph", session_id=sid, text="unsaved on w2", position="end:document_body")
    let_go(w2, sid)
    reap_idle(w1.services, time.monotonic() + LATER)  # w1's stale copy, its lease free to take

    assert recovery_files(tmp_path) == [] and w1.durable.backend.head(sid) is not None
    assert reap_idle(w2.services, time.monotonic() + LATER) == 1
    assert w2.durable.backend.head(sid) is None
    [recovery] = recovery_files(tmp_path)
    assert "unsaved on w2" in text_of(recovery)
