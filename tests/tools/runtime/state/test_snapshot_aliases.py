"""Sessions stored before tools/runtime moved into wings (issue 30) are recovered by today's code.

``fixtures/snapshot-v2-flat-runtime.oxmsnap`` was written by main at 152710a (flat ``tools/runtime``):
``docx_create``, two paragraphs inserted, then ``snapshots.encode``. Its session and its undo history
name ``tools.runtime.sessions:Cursor``, which lives in ``tools.runtime.sessions.sessions`` now."""
from __future__ import annotations

import importlib
from pathlib import Path

from tools.runtime.state import snapshots
from tools.runtime.state.snapshot_aliases import FLAT_RUNTIME

FIXTURE = Path(__file__).resolve().parents[4] / "fixtures" / "snapshot-v2-flat-runtime.oxmsnap"


def restored():
    return snapshots.decode(FIXTURE.read_bytes())


def test_a_snapshot_of_the_flat_runtime_restores_its_text_and_cursor():
    session = restored()
    assert b"Runtime kept." in session.doc.main.data and b"Second paragraph." in session.doc.main.data
    assert session.cursor.element_id == "para_b98998" and session.last_insert == "para_b98998"


def test_a_snapshot_of_the_flat_runtime_keeps_its_undo_history():
    doc = restored().doc
    assert [s.tool for s in doc.history.undo(1)] == ["docx_insert_paragraph"]
    assert b"Second paragraph." not in doc.main.data and b"Runtime kept." in doc.main.data


def test_every_flat_runtime_path_names_a_module_that_exists():
    for new in FLAT_RUNTIME.values():
        importlib.import_module(new)
