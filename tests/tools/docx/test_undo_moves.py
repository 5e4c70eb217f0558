"""Undo and redo of a block moved into another block in one call (a content control wrapping a
paragraph): redo puts it inside again, never leaves the control empty."""
from __future__ import annotations

import re

import pytest

from tests.tools.docx.test_property_edits import Driver
from tests.tools.docx.test_undo_property import differing, parts


def element_id(answer) -> str:
    return re.search(r"\*\*Element ID\*\*: (\S+)", answer.text).group(1)


def content(driver: Driver) -> str:
    return driver.call("docx_read_content").text.split("## 📋 Content")[1]


@pytest.fixture
def driver(tmp_path) -> Driver:
    d = Driver(tmp_path)
    d.call("docx_create")
    return d


def test_redo_of_a_wrap_puts_the_paragraph_back_inside_the_control(driver):
    pid = element_id(driver.call("docx_insert_paragraph", text="Keep me", position="end:document_body"))
    driver.call("docx_insert_content_control", kind="repeating_section", element_id=pid)
    wrapped, after = content(driver), parts(driver)
    driver.call("docx_undo")
    driver.call("docx_redo")
    assert "Keep me" in wrapped and content(driver) == wrapped
    assert differing(after, parts(driver)) == []


def test_tracked_wrap_item_and_delete_undone_and_redone_give_the_same_document(driver):
    pid = element_id(driver.call("docx_insert_paragraph", text="Keep me", position="end:document_body"))
    driver.call("docx_set_track_changes", enabled=True, author="T")
    sdt = element_id(driver.call("docx_insert_content_control", kind="repeating_section", element_id=pid))
    assert not driver.call("docx_add_repeating_item", control_id=sdt).is_error
    assert not driver.call("docx_delete", element_id=pid).is_error
    end, end_parts = content(driver), parts(driver)
    assert not driver.call("docx_undo", steps=3).is_error
    redo = driver.call("docx_redo", steps=3)
    assert not redo.is_error, redo.text
    assert content(driver) == end and differing(end_parts, parts(driver)) == []


def test_a_wrap_redone_after_a_snapshot_round_trip_keeps_the_paragraph_inside(driver):
    """The move travels in the session snapshot (--state): redo on another worker is the same."""
    from tools.runtime.state import snapshots
    pid = element_id(driver.call("docx_insert_paragraph", text="Keep me", position="end:document_body"))
    driver.call("docx_insert_content_control", kind="repeating_section", element_id=pid)
    driver.call("docx_undo")
    session = driver.session()
    restored = snapshots.decode(snapshots.encode(session, "h"))
    restored.doc.history.redo(1)
    sdt = restored.doc.body[0]
    assert "sdt" in sdt.tag and "Keep me" in "".join(sdt.itertext())
