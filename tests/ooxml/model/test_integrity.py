"""ooxml.model.integrity.check_package: reports each kind of problem, and nothing on a sound file."""
from __future__ import annotations

import zipfile

from ooxml.model.document import Document
from ooxml.model.integrity import check_package, summarize
from tests.builders import build_docx, p, part_xml, tbl, tc

HEADER_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"


def problems_of(path, **kw) -> list[str]:
    doc = Document.open(path)
    try:
        return check_package(doc, **kw)
    finally:
        doc.close()


def check_body(tmp_path, body, **kw) -> list[str]:
    return problems_of(build_docx(tmp_path / "in.docx", body, **kw), all_parts=True)


def test_a_sound_document_has_no_problems(tmp_path):
    assert check_body(tmp_path, p("fine") + tbl([[tc(p("cell"))]])) == []


def test_new_document_has_no_problems():
    doc = Document.create()
    assert check_package(doc) == []


def test_reference_without_relationship(tmp_path):
    found = check_body(tmp_path, '<w:p><w:r><w:drawing><a:blip r:embed="rId99"/></w:drawing></w:r></w:p>')
    assert found == ['word/document.xml: r:embed="rId99" has no relationship']


def test_relationship_to_a_missing_part(tmp_path):
    found = check_body(tmp_path, p("x"), rels=[("rId5", "image", "media/gone.png")])
    assert found == ["word/_rels/document.xml.rels: relationship rId5 targets missing part 'word/media/gone.png'"]


def test_part_without_content_type(tmp_path):
    found = check_body(tmp_path, p("x"), extra_parts={"word/media/pic.bmp": b"BM"})
    assert found == ["word/media/pic.bmp: no content type (no Override, no Default for '.bmp')"]


def test_para_ids_out_of_range_and_duplicated(tmp_path):
    body = ('<w:p w14:paraId="80000001"/><w:p w14:paraId="0000000A"/><w:p w14:paraId="0000000A"/>'
            '<w:p w14:paraId="0000000B" w14:textId="77777777"/><w:p w14:paraId="0000000C" w14:textId="77777777"/>')
    found = check_body(tmp_path, body)
    assert found == ["word/document.xml: w14:paraId 80000001 is out of range or malformed",
                     "word/document.xml: w14:paraId 0000000A is used more than once"]


def test_doc_pr_ids_must_be_unique_across_header_and_body(tmp_path):
    drawing = '<w:p><w:r><w:drawing><wp:inline><wp:docPr id="4" name="x"/></wp:inline></w:drawing></w:r></w:p>'
    found = check_body(tmp_path, drawing, extra_parts={"word/header1.xml": part_xml("w:hdr", drawing)},
                       rels=[("rId7", "header", "header1.xml")], overrides={"word/header1.xml": HEADER_CT})
    assert found == ["wp:docPr id 4 is used more than once across the main part, headers, footers and notes"]


def test_bookmarks_duplicated_and_unpaired(tmp_path):
    body = ('<w:p><w:bookmarkStart w:id="1" w:name="a"/><w:bookmarkEnd w:id="1"/>'
            '<w:bookmarkStart w:id="1" w:name="b"/><w:bookmarkStart w:id="2" w:name="c"/></w:p>')
    found = check_body(tmp_path, body)
    assert found == ["word/document.xml: bookmark id 1 starts more than once", "word/document.xml: bookmark id 2 has no end"]


def test_cell_not_ending_with_a_paragraph(tmp_path):
    inner = tbl([[tc(p("x"))]])
    found = check_body(tmp_path, tbl([[tc(p("a") + inner)], [tc(p("b") + "<w:bookmarkEnd w:id=\"9\"/>")]]))
    # the nested table ends the first cell; a bookmarkEnd after the paragraph does not count
    assert found.count("word/document.xml: a table cell does not end with a paragraph") == 1


def test_newline_inside_text(tmp_path):
    found = check_body(tmp_path, "<w:p><w:r><w:t>two&#10;lines</w:t></w:r></w:p>")
    assert found == ["word/document.xml: a w:t contains a newline"]


def test_story_parts_are_read_even_when_not_loaded(tmp_path):
    header = part_xml("w:hdr", '<w:p><w:r><w:drawing><a:blip r:embed="rIdX"/></w:drawing></w:r></w:p>')
    path = build_docx(tmp_path / "in.docx", p("x"), extra_parts={"word/header1.xml": header},
                      rels=[("rId7", "header", "header1.xml")], overrides={"word/header1.xml": HEADER_CT})
    assert problems_of(path) == ['word/header1.xml: r:embed="rIdX" has no relationship']


def test_other_parts_are_read_only_when_asked(tmp_path):
    path = build_docx(tmp_path / "in.docx", p("x"), extra_parts={"word/bad.xml": b"<not-closed>"},
                      overrides={"word/bad.xml": "application/xml"})
    assert problems_of(path) == []


def test_unreadable_part_is_reported_not_raised(tmp_path):
    path = build_docx(tmp_path / "in.docx", p("x"), extra_parts={"word/bad.xml": b"<not-closed>"},
                      overrides={"word/bad.xml": "application/xml"})
    found = problems_of(path, all_parts=True)
    assert found == ["word/bad.xml: cannot be parsed (InvalidDocument)"]
    with zipfile.ZipFile(path) as z:
        assert "word/bad.xml" in z.namelist()


def test_each_occurrence_is_a_line_and_summarize_folds_them(tmp_path):
    found = check_body(tmp_path, "<w:p><w:r><w:t>a&#10;b</w:t><w:t>c&#10;d</w:t></w:r></w:p>")
    assert found == ["word/document.xml: a w:t contains a newline"] * 2
    assert summarize(found) == ["word/document.xml: a w:t contains a newline (2×)"]
