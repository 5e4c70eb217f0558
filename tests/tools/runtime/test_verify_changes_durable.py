"""docx_changes after a take-over (--state): the new worker, rebuilt from the snapshot and the journal,
lists the very changes a worker that never lost the session lists (tests/tools/runtime/test_durable_history.py's pair)."""
from __future__ import annotations

import json
import re

from tests.tools.runtime.test_durable_history import Pair, redis_url  # noqa: F401  (the module's Redis fixture)

BEFORE_SNAPSHOT = [
    ("docx_insert_paragraph", {"text": "first", "position": "end:document_body"}),
    ("docx_insert_heading", {"text": "Heading", "level": 1, "position": "start:document_body"}),
    ("docx_set_font", {"element_id": "last_insert", "bold": True}),
    ("docx_replace_text", {"old_text": "A plain paragraph", "new_text": "A simple paragraph"}),
]
AFTER_SNAPSHOT = [
    ("docx_replace_text", {"old_text": "first", "new_text": "1st"}),
    ("docx_insert_paragraph", {"text": "undone soon", "position": "end:document_body"}),
    ("docx_undo", {"steps": 1}),
    ("docx_delete", {"element_id": "last_insert"}),
]


def test_changes_after_a_take_over_are_those_of_one_worker(tmp_path, redis_url):  # noqa: F811
    pair = Pair(tmp_path, redis_url)
    pair.start("docx_open", file_path="report.docx")
    for name, args in BEFORE_SNAPSHOT:
        pair.call(name, **args)
    pair.snapshot()
    for name, args in AFTER_SNAPSHOT:
        pair.call(name, **args)
    pair.take_over()
    answer = pair.call("docx_changes", format="json")  # the same answer as the single worker's (Pair.call)
    assert pair.worker.durable.worker_id == "w2"
    found = json.loads(re.search(r"```json\n(.*)\n```", answer, re.S).group(1))["changes"]
    # the heading went again (the last insert once "undone soon" was undone); nothing of the undone step
    assert [(c["change"], c.get("before"), c["after"]) for c in found] == [
        ("text", "A plain paragraph", "A simple paragraph"), ("inserted", None, "1st")], found
    assert pair.call("docx_changes", format="json") == answer  # listing them changed nothing


def test_the_hash_of_the_file_read_survives_a_take_over(tmp_path, redis_url):  # noqa: F811
    import hashlib
    from tests.support.answer_validator import parse_head
    pair = Pair(tmp_path, redis_url)
    pair.start("docx_open", file_path="report.docx")
    read = hashlib.sha256((pair.root / "report.docx").read_bytes()).hexdigest()
    pair.call("docx_insert_paragraph", text="new", position="end:document_body")
    pair.snapshot()
    pair.take_over()
    pair.call("docx_read_content")  # the new worker recovers the session here
    saved = pair.worker.call("docx_save", session_id=pair.sid, file_path=str(pair.root / "out.docx"))
    head = parse_head(saved.text)
    assert pair.worker.durable.worker_id == "w2" and head["Read SHA"] == read
    assert head["Written SHA"] == hashlib.sha256((pair.root / "out.docx").read_bytes()).hexdigest()
