"""Headers and footers: create, show (inherited too), edit with the usual tools, images in the header's rels."""
from __future__ import annotations

import re
import zipfile

import pytest
from lxml import etree

from tests.builders import NS, build_docx, p, part_xml, png
from tests.support.client import read_part

pytestmark = pytest.mark.anyio
W = f"{{{NS['w']}}}"
HDR_NS = 'urn:ooxml-mcp:ids:2026'


def xml(path, name):
    return etree.fromstring(read_part(path, name))


async def test_create_footer_adds_part_rel_content_type_and_reference(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="body", position="end:document_body")
    a = await docx.ok("docx_create_header_footer", kind="footer", text="Confidential")
    ftr = a.element_id
    assert ftr.startswith("ftr_") and "Confidential" in a.section("Context")
    assert "+" in a.section("Changes")
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    ref = body.find("w:sectPr/w:footerReference", NS)
    assert ref.get(f"{W}type") == "default"
    rels = xml(out, "word/_rels/document.xml.rels")
    target = [r.get("Target") for r in rels if r.get("Id") == ref.get(f"{{{NS['r']}}}id")][0]
    assert target == "footer1.xml"
    types = read_part(out, "[Content_Types].xml").decode()
    assert 'PartName="/word/footer1.xml"' in types and "footer+xml" in types
    root = xml(out, "word/footer1.xml")
    assert root.tag == f"{W}ftr" and "".join(root.itertext()) == "Confidential"
    assert "oxm" in root.get("{http://schemas.openxmlformats.org/markup-compatibility/2006}Ignorable")
    # schema order: references first in the sectPr
    assert body.find("w:sectPr", NS)[0].tag == f"{W}footerReference"


async def test_paragraph_tools_work_inside_the_header(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_create_header_footer", text="Head")
    hdr, para = a.element_id, a.head["Paragraph"]
    b = await docx.ok("docx_insert_paragraph", text="second line", position=f"end:{hdr}")
    assert "Parent: Header " + hdr in b.section("Context")
    await docx.ok("docx_insert_run", text=" more", position=f"end:{para}")
    await docx.ok("docx_set_font", element_id=para, bold=True)
    await docx.ok("docx_insert_table", rows=1, cols=2, position=f"end:{hdr}", data=[["a", "b"]])
    out = tmp_path / "o.docx"
    await docx.save(out)
    root = xml(out, "word/header1.xml")
    assert [el.tag.split("}")[1] for el in root] == ["p", "p", "tbl"]
    assert "".join(root[0].itertext()) == "Head more" and root[0].find("w:r/w:rPr/w:b", NS) is not None


async def test_first_page_header_sets_title_page_and_even_sets_settings(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_create_header_footer", which="first", text="First")
    await docx.ok("docx_create_header_footer", which="even", text="Even")
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    sect = body.find("w:sectPr", NS)
    assert sect.find("w:titlePg", NS) is not None
    assert [r.get(f"{W}type") for r in sect.findall("w:headerReference", NS)] == ["first", "even"]
    assert xml(out, "word/settings.xml").find("w:evenAndOddHeaders", NS) is not None


async def test_missing_header_is_element_not_found_naming_the_create_tool(docx):
    await docx.create()
    a = await docx.call("docx_get_header_footer")
    assert a.is_error and a.error_type == "ElementNotFound" and "docx_create_header_footer" in a.head["Hint"]


async def test_a_later_section_shows_the_inherited_header_and_says_so(docx):
    await docx.create()
    first = (await docx.ok("docx_insert_paragraph", text="one", position="end:document_body")).element_id
    await docx.ok("docx_insert_paragraph", text="two", position="end:document_body")
    hdr = (await docx.ok("docx_create_header_footer", text="H")).element_id
    await docx.ok("docx_insert_section_break", position=f"after:{first}")
    listing = (await docx.ok("docx_list_sections")).section("Content")
    sects = re.findall(r"sect_[0-9a-f]+", listing)
    assert listing.count(hdr) == 2 and "inherited from section 1" in listing
    a = await docx.ok("docx_get_header_footer", section_id=sects[1])
    assert a.element_id == hdr and a.head["Inherited From"].startswith("section 1")


async def test_existing_header_of_a_file_is_found_and_edited(docx, tmp_path):
    hdr = part_xml("w:hdr", p("Letterhead"))
    sect = ('<w:sectPr><w:headerReference w:type="default" r:id="rId9"/><w:pgSz w:w="12240" w:h="15840"/>'
            '</w:sectPr>')
    src = build_docx(tmp_path / "in.docx", p("body"), sect=sect, extra_parts={"word/header1.xml": hdr},
                     rels=[("rId9", "header", "header1.xml")],
                     overrides={"word/header1.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"})
    await docx.open(src)
    a = await docx.ok("docx_get_header_footer")
    para = re.findall(r"para_[0-9a-f]+", a.section("Context"))[0]
    await docx.ok("docx_update_paragraph_text", element_id=para, new_text="New letterhead")
    out = tmp_path / "o.docx"
    await docx.save(out)
    assert "New letterhead" in "".join(xml(out, "word/header1.xml").itertext())
    # IDs survive save and reopen: the header paragraph resolves in a new session
    await docx.ok("docx_close", session_id=docx.session_id)
    await docx.open(out)
    await docx.ok("docx_update_paragraph_text", session_id=docx.session_id, element_id=para, new_text="Again")


async def test_image_in_header_gets_a_relationship_in_the_headers_rels(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_create_header_footer", text="Logo:")
    await docx.ok("docx_insert_image", image_path=str(png(tmp_path / "logo.png")), position=f"end:{a.head['Paragraph']}")
    out = tmp_path / "o.docx"
    await docx.save(out)
    rels = xml(out, "word/_rels/header1.xml.rels")
    assert [r.get("Target") for r in rels] == ["media/image1.png"]
    blip = xml(out, "word/header1.xml").find(".//{http://schemas.openxmlformats.org/drawingml/2006/main}blip")
    assert blip.get(f"{{{NS['r']}}}embed") == rels[0].get("Id")
    with zipfile.ZipFile(out) as z:
        assert "word/media/image1.png" in z.namelist()


async def test_delete_a_footer_removes_part_rel_content_type_and_reference(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="body", position="end:document_body")
    ftr = (await docx.ok("docx_create_header_footer", kind="footer", text="F")).element_id
    d = await docx.ok("docx_delete", element_id=ftr)
    assert d.head["References Removed"] == "1"
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    assert body.find("w:sectPr/w:footerReference", NS) is None
    with zipfile.ZipFile(out) as z:
        assert "word/footer1.xml" not in z.namelist()
    assert b"footer" not in read_part(out, "word/_rels/document.xml.rels")
    assert b"footer1" not in read_part(out, "[Content_Types].xml")
    again = await docx.call("docx_get_header_footer", kind="footer")
    assert again.is_error and again.error_type == "ElementNotFound"


async def test_the_only_paragraph_of_a_header_cannot_be_deleted(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_create_header_footer", text="Only")
    d = await docx.call("docx_delete", element_id=a.head["Paragraph"])
    assert d.is_error and d.error_type == "InvalidPosition" and a.element_id in d.head["Hint"]


async def test_hyperlink_in_a_footer_gets_its_relationship_in_the_footers_rels(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_create_header_footer", kind="footer", text="Visit ")
    link = await docx.ok("docx_insert_hyperlink", text="us", url="https://example.net/", position=f"end:{a.head['Paragraph']}")
    assert "Visit [us](https://example.net/)" in link.section("Context")
    out = tmp_path / "o.docx"
    await docx.save(out)
    rels = xml(out, "word/_rels/footer1.xml.rels")
    assert [(r.get("Target"), r.get("TargetMode")) for r in rels] == [("https://example.net/", "External")]


async def test_strip_ids_leaves_no_trace_of_ours_in_new_parts(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")).element_id
    await docx.ok("docx_create_header_footer", text="H")
    await docx.ok("docx_insert_footnote", element_id=para, text="n")
    out = tmp_path / "o.docx"
    await docx.save(out, strip_ids=True)
    for name in ("word/header1.xml", "word/footnotes.xml", "word/document.xml"):
        data = read_part(out, name)
        assert b"oxm" not in data and b"urn:ooxml-mcp" not in data, name
