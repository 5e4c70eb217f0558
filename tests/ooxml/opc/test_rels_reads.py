"""A part's relationships as read on every edit (Package.rels, Document.related_part) are kept between
reads, and every way the rels part changes shows in the next read: relate, unrelate, undo putting
the part back, a relationship added to the rels tree directly (docx_compare's copies), a new part."""
from __future__ import annotations

from lxml import etree

from ooxml.model.document import Document
from ooxml.opc.package import Package

MAIN = "word/document.xml"
RT_LINK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"
RT_NUMBERING = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering"
PR = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"


def link_targets(doc: Document) -> list[str]:
    return [r.get("Target") for r in doc.package.rels(MAIN) if r.get("Type") == RT_LINK]


def test_relate_and_unrelate_show_in_the_next_read():
    doc = Document.create()
    assert link_targets(doc) == []
    rid = doc.package.relate(MAIN, RT_LINK, "https://example.com/a", external=True)
    assert link_targets(doc) == ["https://example.com/a"]
    doc.package.unrelate(MAIN, {rid})
    assert link_targets(doc) == []


def test_undo_of_a_new_relationship_shows_in_the_next_read():
    doc = Document.create()
    doc.history.begin()
    doc.package.relate(MAIN, RT_LINK, "https://example.com/a", external=True)
    doc.history.commit("link", "")
    assert link_targets(doc) == ["https://example.com/a"]
    doc.history.undo(1)
    assert link_targets(doc) == []
    doc.history.redo(1)
    assert link_targets(doc) == ["https://example.com/a"]


def test_a_relationship_added_to_the_tree_directly_shows_in_the_next_read():
    pkg = Document.create().package
    before = len(pkg.rels(MAIN))
    etree.SubElement(pkg.rels_root(MAIN), PR, {"Id": "rId99", "Type": RT_LINK, "Target": "x", "TargetMode": "External"})
    assert len(pkg.rels(MAIN)) == before + 1


def test_a_list_read_by_a_caller_cannot_change_the_next_read():
    pkg = Document.create().package
    first = pkg.rels(MAIN)
    first.clear()
    assert pkg.rels(MAIN) != []


def test_the_numbering_part_is_found_once_it_is_related():
    doc = Document.create()
    assert doc.related_part(RT_NUMBERING) is None
    doc.package.add_part("word/numbering.xml", b'<w:numbering xmlns:w="http://schemas.openxmlformats.org/'
                                               b'wordprocessingml/2006/main"/>')
    doc.package.relate_part(MAIN, RT_NUMBERING, "word/numbering.xml")
    assert doc.related_part(RT_NUMBERING).name == "word/numbering.xml"


def test_names_of_rels_parts_and_targets():
    assert Package.rels_name("word/document.xml") == "word/_rels/document.xml.rels"
    assert Package.rels_name("/word/document.xml") == "word/_rels/document.xml.rels"
    assert Package.rels_name("") == "_rels/.rels"
    assert Package.resolve_target("word/document.xml", "media/a.png") == "word/media/a.png"
    assert Package.resolve_target("word/document.xml", "../customXml/item1.xml") == "customXml/item1.xml"
    assert Package.resolve_target("word/document.xml", "/word/styles.xml") == "word/styles.xml"
