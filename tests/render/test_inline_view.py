"""A paragraph's line shows its inline content: formatting, insertions, deletions, links."""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import NSMAP
from render.inline import paragraph_line

W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def para(inner: str) -> etree._Element:
    return etree.fromstring(f"<w:p {W_NS}>{inner}</w:p>")


def test_inserted_and_deleted_runs_are_marked_and_grouped():
    p = para('<w:r><w:t xml:space="preserve">Pay </w:t></w:r>'
             '<w:del w:id="1" w:author="a" w:date="2026-01-01T00:00:00Z"><w:r><w:delText>thirty</w:delText></w:r>'
             '<w:r><w:delText xml:space="preserve"> days</w:delText></w:r></w:del>'
             '<w:ins w:id="2" w:author="a" w:date="2026-01-01T00:00:00Z"><w:r><w:t>sixty days</w:t></w:r></w:ins>')
    assert paragraph_line(p) == "Pay [-thirty days-][+sixty days+]"


def test_bold_inside_an_insertion_keeps_its_mark():
    p = para('<w:ins w:id="2" w:author="a"><w:r><w:rPr><w:b/></w:rPr><w:t>new</w:t></w:r></w:ins>')
    assert paragraph_line(p) == "[+**new**+]"


def test_an_internal_hyperlink_shows_its_anchor():
    p = para('<w:r><w:t xml:space="preserve">See </w:t></w:r>'
             '<w:hyperlink w:anchor="_Toc1"><w:r><w:t>Terms</w:t></w:r></w:hyperlink>')
    assert paragraph_line(p) == "See [Terms](#_Toc1)"


def test_text_box_paragraphs_are_not_part_of_the_anchor_paragraph_line():
    p = para('<w:r><w:t>Outside</w:t></w:r><w:r><w:pict><w:txbxContent><w:p><w:r><w:t>Inside</w:t></w:r></w:p>'
             '</w:txbxContent></w:pict></w:r>')
    assert "Inside" not in paragraph_line(p) and paragraph_line(p).startswith("Outside")
    inner = p.find(".//w:txbxContent/w:p", NSMAP)
    assert paragraph_line(inner) == "Inside"
