"""Sessions stored before ooxml/ moved into folders are recovered by today's code (issue 19).

``fixtures/snapshot-v2-flat-layout.oxmsnap`` was written by main at 14d4d00 (flat ``ooxml/``):
a new document with a heading, a paragraph, tracked changes on (author "Snap"), a tracked
paragraph and a comment on it, then ``snapshots.encode``."""
from __future__ import annotations

from pathlib import Path

from tools.runtime.state import snapshots
from tools.runtime.state.snapshot_aliases import FLAT_OOXML

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "snapshot-v2-flat-layout.oxmsnap"


def restored():
    return snapshots.decode(FIXTURE.read_bytes())


def test_a_snapshot_of_the_flat_layout_restores_text_tracking_and_cursor():
    session = restored()
    text = session.doc.main.data.decode()
    assert "Title kept" in text and "First paragraph." in text and "Tracked insert." in text
    assert session.doc.tracker is not None and session.doc.tracker.author == "Snap"
    assert session.cursor.element_id == "para_695034" and session.last_insert == "comment_df00d4"


def test_a_snapshot_of_the_flat_layout_keeps_its_undo_history():
    doc = restored().doc
    assert [s.tool for s in doc.history.undo(1)] == ["docx_add_comment"]
    assert not any("comment" in name for name in doc.package.parts)
    doc.history.undo(1)
    assert b"Tracked insert." not in doc.main.data and b"First paragraph." in doc.main.data


def test_a_class_named_by_its_flat_path_is_found_in_its_folder():
    decoded = snapshots._decode({"__dc__": "ooxml." + "ids:Predeclared", "f": {"had_ids": True, "added": {"__tuple__": []}}})
    assert type(decoded).__module__ == "ooxml.xml.id_bytes" and decoded.had_ids is True


def test_a_class_named_by_the_module_it_left_is_found_where_it_lives_now():
    decoded = snapshots._decode({"__dc__": "ooxml.xml.ids:Predeclared", "f": {"had_ids": False, "added": {"__tuple__": []}}})
    assert type(decoded).__module__ == "ooxml.xml.id_bytes" and decoded.had_ids is False


def test_every_flat_path_names_a_module_that_exists():
    import importlib

    for new in FLAT_OOXML.values():
        importlib.import_module(new)
