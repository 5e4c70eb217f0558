"""docx_check's one walk per part (ooxml/check/walk.py) and the rules that judge elements as it passes."""
from __future__ import annotations

from lxml import etree

from ooxml.check.run import check
from ooxml.check.walk import Walk, visitors
from ooxml.model.document import Document
from ooxml.xml.namespaces import W
from tests.builders import build_docx

P, R, T, TBL, BKM = (f"{{{W}}}{n}" for n in ("p", "r", "t", "tbl", "bookmarkStart"))
TREE = etree.fromstring(
    f'<w:body xmlns:w="{W}"><w:p><w:r><w:t>a</w:t></w:r></w:p><w:bookmarkStart w:id="1"/>'
    '<w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl><w:p/></w:body>')


def _names(els) -> list[str]:
    return [el.getroottree().getpath(el) for el in els]


def test_visitors_see_their_tags_in_document_order_and_other_tags_are_kept_by_tag():
    seen = []
    walk = Walk(TREE, {BKM, TBL}, {P: seen.append})
    assert (_names(seen), _names(walk.get(BKM)), _names(walk.get(TBL))) == (
        ["/w:body/w:p[1]", "/w:body/w:tbl/w:tr/w:tc/w:p", "/w:body/w:p[2]"], ["/w:body/w:bookmarkStart"],
        ["/w:body/w:tbl"])


def test_a_tag_both_visited_and_asked_for_is_visited_and_kept():
    seen = []
    walk = Walk(TREE, {P}, {P: seen.append})
    assert _names(walk.get(P)) == _names(seen) and len(seen) == 3


def test_visitors_of_one_tag_from_two_rules_run_in_the_order_given():
    calls = []
    Walk(TREE, set(), visitors({T: lambda el: calls.append("first")}, {T: lambda el: calls.append("second")}))
    assert calls == ["first", "second"]


SPACED = ('<w:p><w:r><w:t>one</w:t></w:r></w:p><w:p/><w:p><w:r><w:rPr><w:b/></w:rPr></w:r></w:p>'
          '<w:p><w:r><w:t>two</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p><w:p/><w:p/>'
          '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/></w:tblGrid><w:tr><w:tc><w:p/><w:p/><w:p><w:r><w:t>in'
          '</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p><w:r><w:t>three</w:t></w:r></w:p>')


def test_empty_paragraphs_are_found_in_the_body_only_and_a_paragraph_ending_with_a_mark_is_not_empty(tmp_path):
    doc = Document.open(build_docx(tmp_path / "spaced.docx", SPACED))
    found = [f for f in check(doc, ("accessibility",)) if f.code == "empty-paragraphs"]
    assert [(f.what, f.element.getroottree().getpath(f.element)) for f in found] == [
        ("2 empty paragraphs in a row used as spacing", "/w:document/w:body/w:p[2]"),
        ("2 empty paragraphs in a row used as spacing", "/w:document/w:body/w:p[5]")]
