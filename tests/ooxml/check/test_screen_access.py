"""docx_check's screens of two accessibility rules (ooxml/check/screen_access.py): a bold line that looks like
a heading, and empty paragraphs used for spacing, planted in a body big enough to be screened, spelled so
that a byte scan could miss them; the rule must still find them."""
from __future__ import annotations

import re

import pytest

from ooxml.check import screen_rules
from ooxml.check.run import check
from ooxml.model.document import Document
from tests.builders import build_docx
from tests.ooxml.check.test_screen import FILLER, W

ACCESS = {"empty-paragraphs", "looks-like-heading"}
TEXT = '<w:p><w:r><w:t xml:space="preserve">An ordinary sentence follows here.</w:t></w:r></w:p>'
BOLD = '<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>{}</w:t></w:r></w:p>'
# name -> (the rule's code, the body planted before the filler)
PLANTED = {
    "a bold line": ("looks-like-heading", BOLD.format("PLANT overview")),
    "a bold line ending with an entity": ("looks-like-heading", BOLD.format("PLANT overview &amp;")),
    "a bold line whose last text has a tail": ("looks-like-heading", '<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>PLANT over.'
                                               '</w:t>view</w:r></w:p>'),
    "a bold line after a link": ("looks-like-heading", '<w:p><w:hyperlink w:anchor="x"><w:r><w:t>PLANT</w:t></w:r>'
                                 '</w:hyperlink><w:r><w:rPr><w:rStyle w:val="Strong"/><w:b/></w:rPr><w:t> overview'
                                 '</w:t></w:r></w:p>'),
    "two empty paragraphs": ("empty-paragraphs", "<w:p/><w:p/>"),
    "two paragraphs of empty runs": ("empty-paragraphs", '<w:p><w:pPr><w:jc w:val="left"/></w:pPr></w:p><w:p><w:r>'
                                     '<w:rPr><w:b/></w:rPr></w:r></w:p>'),
}


def _open(tmp_path, body: str) -> Document:
    return Document.open(build_docx(tmp_path / "screened.docx", TEXT + body + TEXT + FILLER))


def _first_p(el) -> str:
    return "".join(next(a for a in (el, *el.iterancestors()) if a.tag == f"{{{W}}}p").itertext())


def test_the_filler_proves_both_rules_clean(tmp_path):
    doc = _open(tmp_path, "")
    assert ACCESS <= screen_rules.cleared(doc, doc.main_name, word=False, access=True)
    assert [f for f in check(doc, ("accessibility",)) if f.code in ACCESS] == []


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_a_planted_problem_is_still_found(tmp_path, name):
    code, body = PLANTED[name]
    doc = _open(tmp_path, body)
    assert code not in screen_rules.cleared(doc, doc.main_name, word=False, access=True)
    found = [f for f in check(doc, ("accessibility",)) if f.code == code]
    if code == "looks-like-heading":
        assert [_first_p(f.element) for f in found] == [re.sub(r"<[^>]+>", "", body).replace("&amp;", "&")]
    else:
        assert len(found) == 1 and found[0].element.getprevious() is not None \
            and "ordinary sentence" in "".join(found[0].element.getprevious().itertext())


def test_a_body_with_a_text_box_is_not_screened(tmp_path):
    box = ('<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="b1" style="width:10pt;height:10pt">'
           '<v:textbox><w:txbxContent><w:p><w:r><w:t>in the box.</w:t></w:r></w:p></w:txbxContent></v:textbox>'
           '</v:shape></w:pict></w:r></w:p>')
    doc = _open(tmp_path, box + BOLD.format("PLANT overview"))
    assert not ACCESS & screen_rules.cleared(doc, doc.main_name, word=False, access=True)
    assert any(f.code == "looks-like-heading" for f in check(doc, ("accessibility",)))
