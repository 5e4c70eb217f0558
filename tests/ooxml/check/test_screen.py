"""docx_check's screen on a part's bytes (ooxml/check/screen.py, screen_rules.py): it may skip a Word rule's
tree walk only where the bytes prove the rule finds nothing. Each problem below is planted in a body big
enough to be screened, spelled the way a byte scan could miss it; the rule must still find it there."""
from __future__ import annotations

import zipfile

import pytest

from ooxml.check import screen, screen_rules
from ooxml.check.run import check
from ooxml.model.document import Document
from tests.builders import NAMESPACES, W, build_docx, document_xml, tbl, tc

W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
RULES = {"newline", "para-id", "order", "cell-end"}


def _filler(n: int = 2400) -> str:
    """A clean body past the screen's size: paraIds, run properties, a table."""
    out = []
    for i in range(n):
        props = '<w:rPr><w:b/><w:i/><w:sz w:val="24"/></w:rPr>' if i % 3 else ""
        out.append(f'<w:p w14:paraId="{i + 1:08X}" w14:textId="77777777"><w:pPr><w:spacing w:after="0"/><w:jc '
                   f'w:val="left"/></w:pPr><w:r>{props}<w:t xml:space="preserve">Filler text {i} &amp; more.</w:t>'
                   '</w:r></w:p>')
        if i % 500 == 0:
            out.append(tbl([[tc('<w:p><w:r><w:t>a</w:t></w:r></w:p>'), tc('<w:p><w:r><w:t>b</w:t></w:r></w:p>')]]))
    return "".join(out)


FILLER = _filler()
PARA = '<w:p><w:r><w:t>{}</w:t></w:r></w:p>'
# name -> (the rule's code, the body planted before the filler)
PLANTED = {
    "newline as &#10;": ("newline", PARA.format("PLANT&#10;next")),
    "newline as &#xD;": ("newline", PARA.format("PLANT&#xD;next")),
    "newline typed": ("newline", PARA.format("PLANT\r\nnext")),
    "newline in CDATA": ("newline", PARA.format("<![CDATA[PLANT\nnext]]>")),
    "paraId twice, one in lower case": ("para-id", '<w:p w14:paraId="0000abcd"><w:r><w:t>PLANT</w:t></w:r></w:p>'
                                        '<w:p w14:paraId="0000ABCD"><w:r><w:t>PLANT</w:t></w:r></w:p>'),
    "paraId out of range": ("para-id", '<w:p w14:paraId="80000001"><w:r><w:t>PLANT</w:t></w:r></w:p>'),
    "paraId twice, in single quotes": ("para-id", "<w:p w14:paraId='00000001'><w:r><w:t>PLANT</w:t></w:r></w:p>"),
    "paraId twice, another prefix": ("para-id", f'<w:p xmlns:x14="{W14}" x14:paraId="00000002"><w:r><w:t>PLANT'
                                     '</w:t></w:r></w:p>'),
    "run properties out of order": ("order", '<w:p><w:r><w:rPr><w:i/><w:b/></w:rPr><w:t>PLANT</w:t></w:r></w:p>'),
    "a property twice": ("order", '<w:p><w:r><w:rPr><w:b/><w:b/></w:rPr><w:t>PLANT</w:t></w:r></w:p>'),
    "paragraph mark properties out of order": ("order", '<w:p><w:pPr><w:rPr><w:i/><w:b/></w:rPr></w:pPr><w:r><w:t>'
                                               'PLANT</w:t></w:r></w:p>'),
    "w:pPr after the runs": ("order", '<w:p><w:r><w:t>PLANT</w:t></w:r><w:pPr><w:jc w:val="center"/></w:pPr></w:p>'),
    "out of order inside a pPrChange": ("order", '<w:p><w:pPr><w:pPrChange w:id="1" w:author="a"><w:pPr><w:jc '
                                        'w:val="left"/><w:spacing w:after="0"/></w:pPr></w:pPrChange></w:pPr><w:r>'
                                        '<w:t>PLANT</w:t></w:r></w:p>'),
    "a table without w:tblPr": ("order", '<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p>'
                                '<w:r><w:t>PLANT</w:t></w:r></w:p></w:tc></w:tr></w:tbl>'),
    "w:tblGrid before w:tblPr": ("order", '<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tblPr><w:tblW '
                                 'w:w="0" w:type="auto"/></w:tblPr><w:tr><w:tc><w:p><w:r><w:t>PLANT</w:t></w:r></w:p>'
                                 '</w:tc></w:tr></w:tbl>'),
    "w:trPr after a cell": ("order", '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p>'
                            '<w:r><w:t>PLANT</w:t></w:r></w:p></w:tc><w:trPr><w:cantSplit/></w:trPr></w:tr></w:tbl>'),
    "a cell ending with a table": ("cell-end", tbl([[tc('<w:p><w:r><w:t>PLANT</w:t></w:r></w:p>' + tbl([[tc()]]))]])),
    "a cell without a paragraph": ("cell-end", tbl([[tc(PARA.format("PLANT")), '<w:tc><w:tcPr><w:tcW w:w="0" '
                                                  'w:type="auto"/></w:tcPr></w:tc>']])),
    "w bound to another prefix below the root": ("order", f'<x:p xmlns:x="{W}"><x:pPr><x:jc x:val="left"/><x:spacing '
                                                 'x:after="0"/></x:pPr><x:r><x:t>PLANT</x:t></x:r></x:p>'),
}


def _open(tmp_path, body: str, name: str = "screened.docx") -> Document:
    return Document.open(build_docx(tmp_path / name, FILLER + body))  # a repeated ID: the later one is named


def _planted_text(el) -> str:
    """The text of the paragraph or table the finding names (or holds)."""
    for a in (el, *el.iterancestors()):
        if a.tag in (f"{{{W}}}p", f"{{{W}}}tbl"):
            return "".join(a.itertext())
    return ""


def test_the_filler_is_screened_and_every_rule_proven_clean(tmp_path):
    doc = _open(tmp_path, "")
    assert doc.main.info.file_size >= screen.MIN_BYTES
    assert screen_rules.cleared(doc, doc.main_name) == RULES
    assert check(doc, ("word",)) == []


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_a_problem_the_bytes_could_hide_is_still_found(tmp_path, name):
    code, body = PLANTED[name]
    doc = _open(tmp_path, body)
    assert code not in screen_rules.cleared(doc, doc.main_name)
    found = [f for f in check(doc, ("word",)) if f.code == code]
    assert any("PLANT" in _planted_text(f.element) for f in found), [(f.what, f.where) for f in found]


def test_a_part_binding_w_to_another_prefix_is_not_screened(tmp_path):
    path = tmp_path / "ns0.docx"
    body = '<w:p><w:pPr><w:jc w:val="left"/><w:spacing w:after="0"/></w:pPr><w:r><w:t>PLANT</w:t></w:r></w:p>' + FILLER
    xml = document_xml(body).replace(b"<w:", b"<ns0:").replace(b"</w:", b"</ns0:").replace(b" w:", b" ns0:").replace(
        b"xmlns:w=", b"xmlns:ns0=")
    build_docx(path, "", extra_parts={"word/document.xml": xml})
    doc = Document.open(path)
    assert b"xmlns:w=" not in zipfile.ZipFile(path).read("word/document.xml")
    assert screen_rules.cleared(doc, doc.main_name) == set()
    assert any(f.code == "order" and "PLANT" in _planted_text(f.element) for f in check(doc, ("word",)))


def test_a_root_binding_w_also_as_the_default_namespace_is_not_screened(tmp_path):
    path = tmp_path / "default.docx"
    body = FILLER + '<p><pPr><jc w:val="left"/><spacing w:after="0"/></pPr><r><t>PLANT</t></r></p>'
    xml = document_xml(body).replace(b"<w:document ", f'<w:document xmlns="{W}" '.encode())
    build_docx(path, "", extra_parts={"word/document.xml": xml})
    doc = Document.open(path)
    assert screen_rules.cleared(doc, doc.main_name) == set()
    assert any(f.code == "order" and "PLANT" in _planted_text(f.element) for f in check(doc, ("word",)))


def test_a_changed_part_runs_the_tree_rules(tmp_path):
    doc = _open(tmp_path, "")
    doc.main.touch()
    assert screen_rules.cleared(doc, doc.main_name) == set()


def test_our_ids_alone_do_not_stop_the_screen(tmp_path):
    doc = _open(tmp_path, "")
    doc.id_of(doc.body[0])  # mints our ID: the part is dirty, its content unchanged
    doc.main.touch(ids_only=True)
    assert screen_rules.cleared(doc, doc.main_name) == RULES


assert "w14" in NAMESPACES  # the filler's paraIds need the prefix bound on the root
