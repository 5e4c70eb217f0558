"""ooxml/compare/byte_blocks.py: a body's blocks found in its bytes are the blocks lxml finds."""
from __future__ import annotations

import pytest
from lxml import etree

from ooxml.compare.byte_blocks import scan
from ooxml.compare.serial import blocks_of
from tests.builders import document_xml, p, tbl, tc

BOX = ('<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent>'
       + p("In the box") + p("Again") + '</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>')
NESTED = tbl([[tc(p("outer") + tbl([[tc(p("inner")), tc()]]) + "<w:p/>")]])
CONTROL = '<w:sdt><w:sdtPr><w:tag w:val="x"/></w:sdtPr><w:sdtContent>' + p("In control") + '</w:sdtContent></w:sdt>'


def blocks(data: bytes) -> list[bytes]:
    body = etree.fromstring(data).find("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}body")
    kids, xml = blocks_of(body, always=True)
    return [x.encode() for x in xml]


def test_blocks_are_the_top_level_elements_lxml_reads_markers_left_out():
    data = document_xml(p("One") + '<w:bookmarkStart w:id="1" w:name="b"/>' + "<w:p/>" + '<w:p w:rsidR="00AA"/>'
                        + NESTED + BOX + '<w:bookmarkEnd w:id="1"/>' + CONTROL + p("Last"))
    found = scan(data)
    assert found is not None
    assert [found.key(k) for k in range(len(found.spans))] == blocks(data)
    assert len(found.spans) == 7  # the text box's paragraphs are its paragraph's; w:sectPr is no block


def test_a_comment_in_the_body_leaves_the_scanner_unsure():
    assert scan(document_xml(p("One") + "<!-- <w:p> -->" + p("Two"))) is None


def test_tracked_changes_leave_the_scanner_unsure():
    tracked = '<w:p><w:del w:id="1" w:author="X"><w:r><w:delText>x</w:delText></w:r></w:del></w:p>'
    assert scan(document_xml(p("One") + tracked)) is None
    changed = '<w:p><w:pPr><w:pPrChange w:id="2" w:author="X"><w:pPr/></w:pPrChange></w:pPr></w:p>'
    assert scan(document_xml(p("One") + changed)) is None


@pytest.mark.parametrize("before", [0, 100], ids=["first", "after many private use characters"])
def test_our_separator_in_the_body_leaves_the_scanner_unsure(before):
    # (serial.py cuts a body's serialization at U+E000; U+E001-U+EFFF share its first byte)
    other = p("\ue001" * before)
    assert scan(document_xml(p("One") + other + p("Two three"))) is not None
    assert scan(document_xml(p("One") + other + p("Two \ue000 three"))) is None


@pytest.mark.parametrize("where", ["in a block", "between blocks", "after the body"])
def test_a_second_body_leaves_the_scanner_unsure(where):
    second = "<w:body>"
    data = {"in a block": document_xml(p("One") + f"<w:p>{second}</w:p>"),
            "between blocks": document_xml(p("One") + second + p("Two")),
            "after the body": document_xml(p("One")).replace(b"</w:document>", second.encode() + b"</w:document>")}[where]
    assert scan(data) is None


def test_raw_greater_than_signs_in_text_and_attributes_still_delimit_the_blocks():
    # ('<' and '>' then do not alternate: each block tag's '>' is looked for after it)
    given = ['<w:p w:rsidR="a>b"><w:r><w:t>1 > 0</w:t></w:r></w:p>', p("Two"), NESTED,
             '<w:p><w:r><w:t>x >> y</w:t></w:r></w:p>']
    found = scan(document_xml("".join(given)))
    assert found is not None
    assert [found.key(k) for k in range(len(found.spans))] == [x.encode() for x in given]
