"""Document.stories() (ooxml/model/stories.py): which parts hold the document's text, in which order,
as each caller asks (all, or TEXT without comments; the main story as its root or its body)."""
from __future__ import annotations

import pytest

from ooxml.model.document import Document
from ooxml.model.stories import ALL, TEXT
from ooxml.opc.parts import story_part_names
from tests.builders import SECT, build_docx, p, part_xml
from tests.support.corpus import corpus_params, editable_files

CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def notes(kind: str) -> bytes:
    return part_xml(f"w:{kind}s", f'<w:{kind} w:id="1">{p("A " + kind)}</w:{kind}>')


@pytest.fixture
def doc(tmp_path):
    """A footer related before a header, footnotes, comments and a relationship to a missing part."""
    parts = {"word/footer2.xml": part_xml("w:ftr", p("Footer")), "word/header1.xml": part_xml("w:hdr", p("Header")),
             "word/footnotes.xml": notes("footnote"), "word/comments.xml": notes("comment")}
    rels = [("rId81", "footer", "footer2.xml"), ("rId82", "header", "header1.xml"),
            ("rId83", "footnotes", "footnotes.xml"), ("rId84", "comments", "comments.xml"),
            ("rId85", "endnotes", "endnotes.xml")]
    overrides = {"word/footer2.xml": CT + "footer+xml", "word/header1.xml": CT + "header+xml",
                 "word/footnotes.xml": CT + "footnotes+xml", "word/comments.xml": CT + "comments+xml"}
    sect = SECT.replace("<w:sectPr>", '<w:sectPr><w:headerReference w:type="default" r:id="rId82"/>'
                                      '<w:footerReference w:type="default" r:id="rId81"/>')
    path = build_docx(tmp_path / "stories.docx", p("Body"), sect=sect, extra_parts=parts, rels=rels,
                      overrides=overrides)
    return Document.open(path)


def test_main_first_then_the_relationship_order_with_kinds(doc):
    assert [(s.name, s.kind) for s in doc.stories()] == [
        ("word/document.xml", "main"), ("word/footer2.xml", "footer"), ("word/header1.xml", "header"),
        ("word/footnotes.xml", "footnotes"), ("word/comments.xml", "comments")]


def test_text_stories_leave_comments_out(doc):
    assert [s.kind for s in doc.stories(TEXT)] == ["main", "footer", "header", "footnotes"]


def test_the_main_story_is_the_document_root_or_on_request_its_body(doc):
    assert doc.stories()[0].root is doc.root
    assert doc.story_roots(body=True)[0] is doc.body


def test_story_roots_are_registered_so_their_ids_resolve(doc):
    header = doc.stories(frozenset({"header"}))[0].root
    p_id = doc.id_of(header.find(f"{W}p"))
    fresh = doc.story_roots()
    assert header in doc.top_containers() and doc.find(p_id) is header.find(f"{W}p") and header in fresh


def test_a_relationship_to_a_missing_part_is_no_story(doc):
    assert "word/endnotes.xml" not in [s.name for s in doc.stories()]


def test_an_unknown_kind_is_a_programming_error(doc):
    with pytest.raises(ValueError):
        doc.stories(frozenset({"headers"}))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(editable_files()[:25]))
def test_corpus_stories_are_the_story_parts_of_their_kind(path):
    d = Document.open(path)
    try:
        found = d.stories(ALL)
        assert [s.name for s in found] == story_part_names(d.package, d.main_name)
        for s in found[1:]:  # each part's content type names its kind (Strict files are read as Transitional)
            assert (d.package.content_type_of(s.name) or "").endswith(f".{s.kind}+xml"), (s, d.package.content_type_of(s.name))
    finally:
        d.close()
