"""ooxml/xml/background_parse.py: a part parsed on another thread gives the tree the part's own
parse gives, or None (never an error, never a thread left running)."""
from __future__ import annotations

import threading

from lxml import etree

from ooxml.xml.background_parse import BackgroundParse
from ooxml.xml.id_bytes import predeclare
from ooxml.xml.safexml import parse_part

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
PART = f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>Text</w:t></w:r></w:p></w:body></w:document>'.encode()


def test_the_tree_is_the_parse_of_the_part_with_our_namespace_declared():
    tree = BackgroundParse(PART).tree()
    assert etree.tostring(tree) == etree.tostring(parse_part(predeclare(PART)[0], ""))


def test_bytes_that_do_not_parse_give_none():
    assert BackgroundParse(PART[:-5]).tree() is None


def test_a_part_declaring_a_dtd_gives_none():
    assert BackgroundParse(b'<!DOCTYPE w:document [<!ENTITY x "y">]>' + PART).tree() is None


def test_a_part_declaring_our_namespace_is_left_to_its_own_parse():
    """Its IDs are marked by line as the part's own parse does it (``id_bytes.mark_ids``)."""
    ours = PART.replace(b"<w:document ", b'<w:document xmlns:oxm="urn:ooxml-mcp:ids:2026" ')
    assert BackgroundParse(ours).tree() is None


def test_no_thread_runs_once_the_tree_is_taken():
    parse = BackgroundParse(PART, "test-parse")
    parse.tree()
    assert parse.tree() is None  # once
    assert not [t for t in threading.enumerate() if t.name == "test-parse"]


def test_on_one_core_the_parse_waits_for_the_caller_and_gives_the_same_tree():
    parse = BackgroundParse(PART, "test-inline", threaded=False)
    assert not [t for t in threading.enumerate() if t.name == "test-inline"]
    assert etree.tostring(parse.tree()) == etree.tostring(BackgroundParse(PART).tree())


def test_on_one_core_a_parse_not_taken_is_never_made(monkeypatch):
    """docx_compare drops the runs' parse where the spliced bytes must be parsed instead."""
    made = []
    parse = BackgroundParse(PART, "test-inline", threaded=False)
    monkeypatch.setattr(parse, "_run", lambda data: made.append(data))
    parse.close()
    assert made == [] and parse.tree() is None


def test_closing_waits_for_the_thread():
    parse = BackgroundParse(PART, "test-close")
    parse.close()
    assert not [t for t in threading.enumerate() if t.name == "test-close"]
