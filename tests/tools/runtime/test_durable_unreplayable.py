"""--state: a journal entry that no longer replays does not stop recovery.

The new worker keeps what replays (every entry before the failing one), keeps the session usable,
sets the failing entries aside in Redis, writes an audit line, and its next answer says which
acknowledged calls are missing and why. A later take-over recovers cleanly.
"""
from __future__ import annotations

import json

import pytest

from tests.support.answer_validator import parse_head
from tests.support.services import redis_server
from tests.tools.runtime.test_durable_replay import DurableDriver
from tools.runtime.call.audit import AuditLog


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


def damage(driver: DurableDriver, sid: str, n: int, how) -> list[bytes]:
    """Rewrite the journal with its n-th entry (0-based) changed by ``how(bytes) -> bytes``, same IDs."""
    redis, key = driver.durable.backend.redis, driver.durable.backend.keys(sid)[3]
    entries = redis.xrange(key)
    redis.delete(key)
    written = []
    for i, (entry_id, fields) in enumerate(entries):
        raw = how(fields[b"e"]) if i == n else fields[b"e"]
        redis.xadd(key, {"e": raw}, id=entry_id)
        written.append(raw)
    return written


def unknown_target(raw: bytes) -> bytes:
    entry = json.loads(raw)
    entry["a"]["position"] = "after:para_ffffff"  # names an element the document does not have
    return json.dumps(entry).encode()


def garbage(raw: bytes) -> bytes:
    return raw[: len(raw) // 2]


def worker(tmp_path, url, name):
    return DurableDriver(tmp_path, url, name, audit=AuditLog(tmp_path / f"audit-{name}.jsonl"))


def take_over(old: DurableDriver, sid: str, tmp_path, url, name) -> DurableDriver:
    old.durable.backend.redis.delete(old.durable.backend.keys(sid)[0])  # the old worker died
    return worker(tmp_path, url, name)


@pytest.mark.parametrize("how", [unknown_target, garbage], ids=["call-fails", "entry-unreadable"])
def test_recovery_keeps_what_replays_and_the_next_answer_names_what_did_not(tmp_path, redis_url, how):
    a = worker(tmp_path, redis_url, "wa")
    a.call("docx_create")
    sid = a.session().id
    for text in ("one", "two", "three"):
        assert not a.call("docx_insert_paragraph", session_id=sid, text=text, position="end:document_body").is_error
    journal = damage(a, sid, 1, how)  # "two" can no longer be replayed ("three" came after it)
    b = take_over(a, sid, tmp_path, redis_url, "wb")
    first = b.call("docx_read_content", session_id=sid)
    assert not first.is_error
    note = parse_head(first.text)["Not Replayed"]
    assert note.startswith("2 acknowledged call(s) could not be replayed when worker wb took this session over")
    assert "docx_insert_paragraph" in note and "not tried" in note and f"oxm:{{{sid}}}:failed" in note
    if how is unknown_target:
        assert "para_ffffff" in note
    assert "one" in first.text and "two" not in first.text and "three" not in first.text

    kept = b.durable.backend.redis.lrange(b.durable.backend.keys(sid)[6], 0, -1)
    assert kept == journal[1:], "the entries not replayed are kept as they were, for debugging"
    audit = [json.loads(line) for line in (tmp_path / "audit-wb.jsonl").read_text().splitlines()]
    lost = [e for e in audit if e.get("event") == "journal_not_replayed"]
    assert len(lost) == 1 and lost[0]["session_id"] == sid and len(lost[0]["entries"]) == 2

    again = b.call("docx_insert_paragraph", session_id=sid, text="after recovery", position="end:document_body")
    assert not again.is_error and "Not Replayed" not in again.text, "told once"

    c = take_over(b, sid, tmp_path, redis_url, "wc")
    later = c.call("docx_read_content", session_id=sid)
    assert not later.is_error and "Not Replayed" not in later.text
    assert "one" in later.text and "after recovery" in later.text and "two" not in later.text
