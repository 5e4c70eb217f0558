"""--state: a snapshot sends the document's package (its original parts) only when it changed.

The store keeps the package apart as the snapshot's *base*, named by its hash (v3 snapshots,
tools/runtime/state/snapshots.py ``split``). A later snapshot of the same package sends only the parts
changed since open, the session's fields and the undo history; recovery rebuilds exactly the same
session from it, and a snapshot never names a base the store does not hold.
"""
from __future__ import annotations

import base64
import random

import pytest

from tests.builders import build_docx, p
from tests.support.services import redis_server
from tests.tools.runtime.test_durable_replay import DurableDriver, parts, recovered_equals_live
from tools.runtime.state import snapshots

BODY = "".join(p(f"Clause {i}: the parties agree to the terms set out in schedule {i}.") for i in range(30))
# A part no edit touches and that does not compress: the base outweighs any snapshot that leaves it out.
NOISE = b"<noise>" + base64.b64encode(random.Random(7).randbytes(30_000)) + b"</noise>"


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


def opened(tmp_path, url, name="w1"):
    build_docx(tmp_path / "a.docx", BODY, extra_parts={"customXml/item1.xml": NOISE},
               overrides={"customXml/item1.xml": "application/xml"})
    driver = DurableDriver(tmp_path, url, name, snapshot_every=10 ** 6)
    driver.call("docx_open", file_path="a.docx")
    driver.call("docx_insert_paragraph", text="First change.", position="end:document_body")
    return driver


def sent_by(driver) -> list[tuple[int, bool]]:
    """(bytes of the snapshot, whether its base went with it) for each snapshot the worker sends."""
    sent, real = [], driver.durable.backend.snapshot

    def counted(sid, token, blob, head, ttl, base=None):
        sent.append((len(blob), base is not None and base[1] is not None))
        return real(sid, token, blob, head, ttl, base)

    driver.durable.backend.snapshot = counted
    return sent


def test_a_second_snapshot_of_the_same_package_sends_no_base_and_recovers_the_same_session_and_undo(
        tmp_path, redis_url):
    driver = opened(tmp_path, redis_url)
    sent = sent_by(driver)
    session = driver.session()
    driver.durable.snapshot(session)
    driver.call("docx_insert_paragraph", text="Second change.", position="end:document_body")
    driver.durable.snapshot(session)
    _, base, _ = snapshots.split(session, "0-0")
    assert [with_base for _, with_base in sent] == [False, False]  # the open's snapshot stored it
    assert all(size < len(base) for size, _ in sent), (sent, len(base))
    recovered_equals_live(driver, redis_url, tmp_path)
    back = DurableDriver(tmp_path, redis_url, "w2").durable.recover(session.id)
    try:  # its undo history travelled too
        back.doc.history.undo(2)
        session.doc.history.undo(2)
        assert parts(back.doc) == parts(session.doc) and b"First change." not in back.doc.main.data
    finally:
        back.doc.close()


def test_a_base_the_store_does_not_hold_is_sent_again(tmp_path, redis_url):
    driver = opened(tmp_path, redis_url)
    session = driver.session()
    backend = driver.durable.backend
    backend.redis.hset(backend.keys(session.id)[1], "base", "another worker's")  # it snapshotted since
    sent = sent_by(driver)
    driver.durable.snapshot(session)
    assert [with_base for _, with_base in sent] == [False, True]
    recovered_equals_live(driver, redis_url, tmp_path)


def test_a_split_snapshot_restores_only_with_the_base_it_names(tmp_path, redis_url):
    driver = opened(tmp_path, redis_url)
    session = driver.session()
    blob, base, name = snapshots.split(session, "0-0")
    assert snapshots.base_of(blob) == name and snapshots.base_of(snapshots.encode(session, "0-0")) is None
    restored = snapshots.decode(blob, base=base)
    assert parts(restored.doc) == parts(session.doc) and restored.cursor == session.cursor
    for wrong in (None, base[:-1] + bytes([base[-1] ^ 1])):
        with pytest.raises(ValueError, match="base"):
            snapshots.decode(blob, base=wrong)


def test_a_session_whose_base_is_gone_from_the_store_is_not_found_as_an_expired_one(tmp_path, redis_url):
    from tests.support.answer_validator import parse_head
    driver = opened(tmp_path, redis_url)
    sid = driver.session().id
    backend = driver.durable.backend
    backend.redis.delete(backend.keys(sid)[7])  # evicted apart from the snapshot (maxmemory)
    backend.redis.delete(backend.keys(sid)[0])  # and the worker that held it is gone
    other = DurableDriver(tmp_path, redis_url, "w2")
    answer = parse_head(other.call("docx_read_content", session_id=sid).text)
    assert answer["Error Type"] == "SessionNotFound"
