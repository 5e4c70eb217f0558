"""--state: a docx_batch is journaled as one entry, and replaying it gives the live session back."""
from __future__ import annotations

import json

import pytest

from tests.tools.runtime.test_durable_replay import DurableDriver, recovered_equals_live, redis_url  # noqa: F401 (fixture)


@pytest.mark.parametrize("every", [1, 1000])  # recovered from a snapshot alone / from the journal
def test_a_batch_is_one_journal_entry_and_replays(tmp_path, redis_url, every):  # noqa: F811
    driver = DurableDriver(tmp_path, redis_url, snapshot_every=every)
    driver.call("docx_create")
    sid = driver.session().id
    driver.call("docx_insert_paragraph", session_id=sid, text="Start", position="end:document_body")
    journal = driver.durable.backend.redis.xlen(driver.durable.backend.keys(sid)[3]) if every > 1 else None
    done = driver.call("docx_batch", session_id=sid, view="compact", calls=[
        {"tool": "docx_insert_paragraph", "arguments": {"text": "One", "position": "after:last_insert"}},
        {"tool": "docx_insert_table", "arguments": {"rows": 2, "cols": 2, "position": "after:cursor"}},
        {"tool": "docx_fill_table", "arguments": {"table_id": "last_insert", "data": [["a", "b"]]}},
        {"tool": "docx_insert_row_at", "arguments": {"table_id": "last_update", "position": "end"}}])
    assert not done.is_error, done.text
    if journal is not None:
        entries = driver.durable.backend.redis.xrange(driver.durable.backend.keys(sid)[3])
        assert len(entries) == journal + 1
        assert json.loads(entries[-1][1][b"e"])["t"] == "docx_batch"
    recovered_equals_live(driver, redis_url, tmp_path)
