"""ooxml/review/edits.py: the edits that record themselves as tracked changes while the document tracks
them (doc.tracker) and edit plainly otherwise, on documents built as Word writes them."""
from __future__ import annotations

from lxml import etree

from ooxml.model.document import Document
from ooxml.review import edits as E
from ooxml.review.revisions import Tracker
from ooxml.text import body as B
from ooxml.text import build
from ooxml.xml.namespaces import w
from tests.builders import build_docx

BOLD_QUICK = ('<w:p><w:r><w:t xml:space="preserve">The </w:t></w:r><w:r><w:rPr><w:b/></w:rPr>'
              '<w:t>quick</w:t></w:r><w:r><w:t xml:space="preserve"> fox.</w:t></w:r></w:p>')


def opened(tmp_path, body: str, tracked: bool) -> Document:
    doc = Document.open(build_docx(tmp_path / "e.docx", body))
    doc.history.begin()
    doc.tracker = Tracker("Reviewer") if tracked else None
    return doc


def first(doc) -> etree._Element:
    return next(B.iter_blocks(doc.body))


def tags(el, tag: str) -> list:
    return list(el.iter(w(tag)))


def saved(doc, tmp_path) -> Document:
    doc.save(tmp_path / "out.docx")
    return Document.open(tmp_path / "out.docx")


def test_setting_a_paragraphs_text_keeps_the_formatting_of_the_words_it_keeps(tmp_path):
    doc = opened(tmp_path, BOLD_QUICK, tracked=False)
    p = first(doc)
    doc.will_change(p)
    E.set_paragraph_text(doc, p, "The quick brown fox.")
    doc.changed(p)
    p = first(saved(doc, tmp_path))
    assert B.paragraph_text(p) == "The quick brown fox."
    assert [t.text for r in p.iter(w("r")) if r.find(f"{w('rPr')}/{w('b')}") is not None for t in r.iter(w("t"))] == ["quick"]
    assert not tags(p, "ins") and not tags(p, "del")


def test_setting_a_paragraphs_text_while_tracking_marks_only_the_changed_words(tmp_path):
    doc = opened(tmp_path, BOLD_QUICK, tracked=True)
    p = first(doc)
    doc.will_change(p)
    E.set_paragraph_text(doc, p, "The slow fox.")
    doc.changed(p)
    p = first(saved(doc, tmp_path))
    assert ["".join(t.text for t in d.iter(w("delText"))) for d in tags(p, "del")] == ["quick"]
    assert ["".join(t.text for t in i.iter(w("t"))) for i in tags(p, "ins")] == ["slow"]
    assert {m.get(w("author")) for m in tags(p, "ins") + tags(p, "del")} == {"Reviewer"}


def test_deleting_a_block_removes_it_or_marks_it_deleted_while_tracking(tmp_path):
    body = '<w:p><w:r><w:t>Goes</w:t></w:r></w:p><w:p><w:r><w:t>Stays</w:t></w:r></w:p>'
    plain = opened(tmp_path, body, tracked=False)
    assert E.delete_block(plain, first(plain)) is True
    assert [B.paragraph_text(x) for x in B.iter_blocks(plain.body)] == ["Stays"]
    tracked = opened(tmp_path, body, tracked=True)
    p = first(tracked)
    assert E.delete_block(tracked, p) is False and p.getparent() is tracked.body
    assert p.find(f"{w('pPr')}/{w('rPr')}/{w('del')}") is not None  # the paragraph mark is deleted too
    assert [t.text for t in p.iter(w("delText"))] == ["Goes"]


def test_our_own_tracked_insertion_deleted_while_tracking_just_goes(tmp_path):
    doc = opened(tmp_path, '<w:p><w:r><w:t>Kept</w:t></w:r></w:p>', tracked=True)
    p = first(doc)
    doc.will_change(p)
    run = build.make_run("new")
    E.place_run(doc, p, run, "end", p)
    assert run.getparent().tag == w("ins")
    E.delete_runs(doc, [run])
    doc.changed(p)
    assert run.getparent() is None or run.getparent().getparent() is None
    assert not tags(p, "del") and B.paragraph_text(p) == "Kept"


def test_a_run_placed_at_the_start_goes_after_the_paragraph_properties(tmp_path):
    doc = opened(tmp_path, '<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t>b</w:t></w:r></w:p>', tracked=False)
    p = first(doc)
    doc.will_change(p)
    E.place_run(doc, p, build.make_run("a"), "start", p)
    doc.changed(p)
    assert p[0].tag == w("pPr") and B.paragraph_text(p) == "ab"


def test_a_runs_text_set_while_tracking_keeps_the_diff_inside_the_paragraph(tmp_path):
    doc = opened(tmp_path, '<w:p><w:r><w:t xml:space="preserve">one two three</w:t></w:r></w:p>', tracked=True)
    p = first(doc)
    doc.will_change(p)
    assert E.set_run_text(doc, p.find(w("r")), "one 2 three") is True
    doc.changed(p)
    assert [t.text for t in p.iter(w("delText"))] == ["two"]
    assert "".join(t.text for i in tags(p, "ins") for t in i.iter(w("t"))) == "2"
