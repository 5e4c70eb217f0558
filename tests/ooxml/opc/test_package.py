"""ooxml/opc/package.py: THE write API for parts, relationships and content types, seen in the saved
file (zip members, [Content_Types].xml, .rels) of a document built as Word writes one."""
from __future__ import annotations

import zipfile

from lxml import etree

from ooxml.model.document import Document
from tests.builders import build_docx, p

MAIN = "word/document.xml"
IMAGE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"
LINK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"
CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
PR = "{http://schemas.openxmlformats.org/package/2006/relationships}"


def opened(tmp_path) -> Document:
    return Document.open(build_docx(tmp_path / "in.docx", p("Hello")))


def saved(doc: Document, tmp_path) -> zipfile.ZipFile:
    doc.save(tmp_path / "out.docx")
    return zipfile.ZipFile(tmp_path / "out.docx")


def rels_of(z: zipfile.ZipFile, name: str = "word/_rels/document.xml.rels") -> dict[str, etree._Element]:
    return {r.get("Id"): r for r in etree.fromstring(z.read(name)).iter(f"{PR}Relationship")}


def overrides(z: zipfile.ZipFile) -> dict[str, str]:
    root = etree.fromstring(z.read("[Content_Types].xml"))
    return {o.get("PartName"): o.get("ContentType") for o in root.iter(f"{CT}Override")}


def test_a_new_part_is_saved_with_its_content_type(tmp_path):
    doc = opened(tmp_path)
    doc.package.add_part("customXml/item9.xml", b"<data/>", "application/xml")
    z = saved(doc, tmp_path)
    assert z.read("customXml/item9.xml") == b"<data/>"
    assert overrides(z)["/customXml/item9.xml"] == "application/xml"
    assert Document.open(tmp_path / "out.docx").package.content_type_of("customXml/item9.xml") == "application/xml"


def test_an_identical_relationship_is_reused_and_a_new_one_takes_the_next_free_id(tmp_path):
    doc = opened(tmp_path)
    taken = {r.get("Id") for r in doc.package.rels(MAIN)}
    first = doc.package.relate(MAIN, LINK, "https://example.com/", external=True)
    assert first not in taken
    assert doc.package.relate(MAIN, LINK, "https://example.com/", external=True) == first
    other = doc.package.relate(MAIN, LINK, "https://example.org/", external=True)
    rels = rels_of(saved(doc, tmp_path))
    assert other != first and rels[first].get("TargetMode") == "External"
    assert rels[other].get("Target") == "https://example.org/"


def test_a_relationship_to_a_part_has_a_target_relative_to_its_source(tmp_path):
    doc = opened(tmp_path)
    doc.package.add_part("word/media/pic.png", b"\x89PNG fake", None)
    doc.package.set_default("png", "image/png")
    rid = doc.package.relate_part(MAIN, IMAGE, "word/media/pic.png")
    z = saved(doc, tmp_path)
    assert rels_of(z)[rid].get("Target") == "media/pic.png"
    root = etree.fromstring(z.read("[Content_Types].xml"))
    assert [d.get("ContentType") for d in root.iter(f"{CT}Default") if d.get("Extension") == "png"] == ["image/png"]


def test_a_content_type_default_is_added_once(tmp_path):
    doc = opened(tmp_path)
    assert doc.package.set_default("emf", "image/x-emf") is True
    assert doc.package.set_default("EMF", "image/x-emf") is False


def test_a_part_without_relationships_gets_a_rels_part_when_it_first_relates(tmp_path):
    doc = opened(tmp_path)
    doc.package.add_part("word/header9.xml", b"<hdr/>", None)
    rid = doc.package.relate("word/header9.xml", LINK, "https://example.com/", external=True)
    z = saved(doc, tmp_path)
    assert list(rels_of(z, "word/_rels/header9.xml.rels")) == [rid]


def test_removing_a_part_drops_its_relationships_and_its_content_type(tmp_path):
    doc = opened(tmp_path)
    doc.package.add_part("word/extra.xml", b"<x/>", "application/xml")
    rid = doc.package.relate_part(MAIN, IMAGE, "word/extra.xml")
    kept = doc.package.relate(MAIN, LINK, "https://example.com/", external=True)
    doc.package.remove_parts(["word/extra.xml"])
    z = saved(doc, tmp_path)
    assert "word/extra.xml" not in z.namelist() and "/word/extra.xml" not in overrides(z)
    assert rid not in rels_of(z) and kept in rels_of(z)


def test_unrelate_drops_only_the_relationships_named(tmp_path):
    doc = opened(tmp_path)
    a = doc.package.relate(MAIN, LINK, "https://a.example/", external=True)
    b = doc.package.relate(MAIN, LINK, "https://b.example/", external=True)
    doc.package.unrelate(MAIN, {a})
    rels = rels_of(saved(doc, tmp_path))
    assert a not in rels and b in rels


def test_a_free_name_skips_names_taken_whatever_their_case(tmp_path):
    doc = opened(tmp_path)
    doc.package.add_part("word/Numbering.xml", b"<n/>", None)
    doc.package.add_part("word/numbering2.xml", b"<n/>", None)
    assert doc.package.free_name("word/numbering.xml", "word/numbering{}.xml") == "word/numbering3.xml"
    assert doc.package.free_name("word/footnotes.xml", "word/footnotes{}.xml") == "word/footnotes.xml"


def test_parts_never_written_are_copied_byte_for_byte(tmp_path):
    src = build_docx(tmp_path / "in.docx", p("Hello"))
    doc = Document.open(src)
    doc.package.add_part("customXml/item9.xml", b"<data/>", "application/xml")
    z, original = saved(doc, tmp_path), zipfile.ZipFile(src)
    untouched = [n for n in original.namelist() if n not in ("[Content_Types].xml", MAIN)]
    assert untouched and all(z.read(n) == original.read(n) for n in untouched)


def test_a_part_read_again_after_open_has_the_bytes_of_the_file(tmp_path):
    path = build_docx(tmp_path / "again.docx", p("read again") * 2000)
    doc = Document.open(path)
    assert "word/document.xml" in doc.package._members.verified  # read whole at open: read again in one call
    assert doc.main.original() == zipfile.ZipFile(path).read("word/document.xml")
