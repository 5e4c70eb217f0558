"""Copies of content holding notes, bookmarks, fields or VML shapes get fresh ids."""
from __future__ import annotations

import re

import pytest
from lxml import etree

from tests.builders import NS, build_docx, p
from tests.support.client import read_part

pytestmark = pytest.mark.anyio
W = f"{{{NS['w']}}}"
V = "urn:schemas-microsoft-com:vml"
O = "urn:schemas-microsoft-com:office:office"

TEXT_BOX = (f'<w:p><w:r><w:pict><v:shapetype xmlns:v="{V}" id="_x0000_t202" coordsize="21600,21600"/>'
            f'<v:shape xmlns:v="{V}" xmlns:o="{O}" id="_x0000_s1026" o:spid="_x0000_s1026" type="#_x0000_t202" '
            'style="width:100pt;height:50pt"><v:textbox><w:txbxContent><w:p><w:r><w:t>in box</w:t></w:r></w:p>'
            '</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>')


async def test_copied_text_box_gets_a_fresh_vml_shape_id(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", TEXT_BOX + p("after")))
    para = re.findall(r"para_\w+", (await docx.ok("docx_read_content")).text)[0]
    await docx.ok("docx_copy_paragraph", element_id=para, position="end:document_body")
    body = await docx.save(tmp_path / "o.docx")
    shapes = body.iter(f"{{{V}}}shape")
    ids = [(s.get("id"), s.get(f"{{{O}}}spid")) for s in shapes]
    assert len(ids) == 2 and ids[0] == ("_x0000_s1026", "_x0000_s1026")
    assert ids[1][0] != "_x0000_s1026" and ids[1][0] == ids[1][1]
    assert [t.get("type") for t in body.iter(f"{{{V}}}shape")] == ["#_x0000_t202", "#_x0000_t202"]


async def test_copied_footnote_reference_gets_a_note_of_its_own(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Claim", position="end:document_body")).element_id
    await docx.ok("docx_insert_footnote", element_id=para, text="the source")
    a = await docx.ok("docx_copy_paragraph", element_id=para, position="end:document_body")
    assert "Claim[^2]" in a.section("Context") and "[^2]: the source" in a.section("Context")
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    assert [r.get(f"{W}id") for r in body.iter(f"{W}footnoteReference")] == ["1", "2"]
    notes = etree.fromstring(read_part(out, "word/footnotes.xml"))
    assert [n.get(f"{W}id") for n in notes] == ["-1", "0", "1", "2"]
    assert "".join(notes[-1].itertext()) == " the source"


async def test_copied_range_with_bookmark_and_field_gets_fresh_bookmark_ids(docx, tmp_path):
    await docx.create()
    a = (await docx.ok("docx_insert_paragraph", text="A ", position="end:document_body")).element_id
    await docx.ok("docx_insert_field", field="PAGE", position=f"end:{a}")
    await docx.client.call_tool("docx_add_bookmark", {"name": "Mark", "element_id": a})
    await docx.ok("docx_copy_elements_range", start_id=a, end_id=a, position="end:document_body")
    body = await docx.save(tmp_path / "o.docx")
    starts = body.findall(".//w:bookmarkStart", NS)
    assert len({s.get(f"{W}id") for s in starts}) == 2 and len({s.get(f"{W}name") for s in starts}) == 2
    assert body.xpath(".//w:instrText/text()", namespaces=NS) == [" PAGE ", " PAGE "]
