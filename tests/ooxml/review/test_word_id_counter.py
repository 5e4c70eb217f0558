"""ooxml/review/word_id_counter.py: Word's one w:id space for revisions, comments, bookmarks and their
ranges; a new mark's id is above every id of the document, counted on the tree or on the bytes alike."""
from __future__ import annotations

from ooxml.model.document import Document
from ooxml.review import word_id_counter as C
from tests.builders import build_docx, p

BODY = (p("one") + '<w:p><w:customXmlMoveFromRangeStart w:id="90"/><w:r><w:t>moved</w:t></w:r>'
        '<w:customXmlMoveFromRangeEnd w:id="90"/></w:p>' +
        '<w:p><w:ins w:id="7" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:t>x</w:t></w:r></w:ins>'
        '<w:bookmarkStart w:id="12" w:name="b"/><w:bookmarkEnd w:id="12"/></w:p>' +
        '<w:p><w:pPr><w:rPr><w:rPrChange w:id="40" w:author="A"><w:rPr/></w:rPrChange></w:rPr></w:pPr></w:p>')


def test_the_bytes_give_the_ids_the_tree_gives(tmp_path):
    doc = Document.open(build_docx(tmp_path / "a.docx", BODY))
    on_tree = [int(el.get(C.W_ID)) for el in doc.main.tree.getroot().iter(*C.ID_TAGS)]
    assert sorted(C.ids_in(doc.main.original())) == sorted(on_tree) == [7, 12, 40, 90]


def test_the_tree_counts_what_the_bytes_count(tmp_path):
    doc = Document.open(build_docx(tmp_path / "a.docx", BODY))
    doc.main.tree  # parsed: the tree is counted now
    assert C.floor(doc) == 91


def test_a_new_mark_takes_the_next_id_above_them_all(tmp_path):
    doc = Document.open(build_docx(tmp_path / "a.docx", BODY))
    doc.main.tree
    assert [C.new_word_id(doc), C.new_word_id(doc)] == ["91", "92"]
