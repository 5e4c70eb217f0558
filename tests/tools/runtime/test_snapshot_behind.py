"""--state: a snapshot due by count is made after the call that makes it due, not within it.

The call answers at once; the snapshot is taken in a thread of its own holding the session's lock
(tools/runtime/state/durable.py ``_snapshot_behind``), and nothing is lost if it fails: the journal holds
every entry and a take-over replays them.
"""
from __future__ import annotations

import threading

import pytest

from tests.support.services import redis_server
from tests.tools.runtime.test_durable_replay import DurableDriver, recovered_equals_live
from tests.tools.docx.test_property_edits import Driver


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


def insert(driver, text: str):
    return Driver.call(driver, "docx_insert_paragraph", text=text, position="end:document_body")  # no settle


def test_the_call_that_makes_a_snapshot_due_answers_before_it_is_written(tmp_path, redis_url):
    driver = DurableDriver(tmp_path, redis_url, snapshot_every=2)
    driver.call("docx_create")
    insert(driver, "one")
    release, written, real = threading.Event(), [], driver.durable.backend.snapshot

    def slow(*args):
        release.wait(10)
        written.append(real(*args))
        return written[-1]

    driver.durable.backend.snapshot = slow
    answer = insert(driver, "two")
    answered_before = not written
    release.set()
    driver.durable.settle()
    assert not answer.is_error and answered_before and written == [True]
    assert driver.durable.held[driver.session().id].since_snapshot == 0
    recovered_equals_live(driver, redis_url, tmp_path)


def test_a_snapshot_that_fails_behind_the_call_loses_nothing(tmp_path, redis_url):
    driver = DurableDriver(tmp_path, redis_url, snapshot_every=2)
    driver.call("docx_create")

    def down(*args):
        raise ConnectionError("the store went away for a moment")

    driver.durable.backend.snapshot = down
    answers = [driver.call("docx_insert_paragraph", text=t, position="end:document_body") for t in ("a", "b", "c")]
    assert not any(a.is_error for a in answers) and driver.services.sessions.all()
    recovered_equals_live(driver, redis_url, tmp_path)  # from the open's snapshot and the journal
