"""Text boxes have tbx_ IDs; their paragraphs take positions like a cell's (start:/end:tbx_…) and every
editing tool works inside them, tracked or not; views show each box framed with its ID and text."""
from __future__ import annotations

import re

import pytest
from lxml import etree

from tests.builders import NS, build_docx, p
from tests.support.client import read_body, read_part
from tests.support.parts import assert_same_package
from tests.tools.docx.test_text_boxes import alternate_text_box

pytestmark = pytest.mark.anyio
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
NSX = {**NS, "mc": MC}


async def _open(docx, tmp_path, text: str = "Datum plane") -> str:
    """Open the text box fixture; the box's tbx_ ID as the answer shows it."""
    opened = await docx.open(build_docx(tmp_path / "in.docx", p("before") + alternate_text_box(text) + p("after")))
    return re.search(r"\[TEXT BOX (tbx_\w+)\]", opened.text).group(1)


def _box_texts(body: etree._Element) -> list[str]:
    """The paragraphs' texts of the Choice's text box (what Word and LibreOffice show)."""
    box = body.xpath("//mc:Choice//w:txbxContent", namespaces=NSX)[0]
    return ["".join(q.xpath(".//w:t/text()", namespaces=NS)) for q in box.xpath("w:p", namespaces=NS)]


async def test_the_view_frames_the_text_box_with_its_id_and_paragraphs(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    context = (await docx.ok("docx_get_context", element_id=tbx)).section("Document Context")
    assert f"Parent: Text Box {tbx} in Paragraph para_" in context and "Datum plane" in context


async def test_read_content_lists_the_text_box_paragraphs_with_their_ids(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    content = (await docx.ok("docx_read_content")).section("Content")
    assert f"┌ Text Box ({tbx})" in content
    assert re.search(r"│ para_\w+: Datum plane", content)


async def test_a_paragraph_inserted_at_the_end_of_a_text_box_goes_into_it(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    await docx.ok("docx_insert_paragraph", position=f"end:{tbx}", text="Second line")
    body = await docx.save(tmp_path / "out.docx")
    assert _box_texts(body) == ["Datum plane", "Second line"]


async def test_a_paragraph_inserted_at_the_start_of_a_text_box_goes_first(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    await docx.ok("docx_insert_paragraph", position=f"start:{tbx}", text="Heading line")
    body = await docx.save(tmp_path / "out.docx")
    assert _box_texts(body) == ["Heading line", "Datum plane"]


async def test_an_edit_inside_a_text_box_leaves_a_valid_alternate_content(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    await docx.ok("docx_insert_paragraph", position=f"end:{tbx}", text="Second line")
    body = await docx.save(tmp_path / "out.docx")
    alt = body.xpath("//mc:AlternateContent", namespaces=NSX)[0]
    # The stale VML copy goes; the Choice stays first, with no empty Fallback left behind.
    assert [etree.QName(c).localname for c in alt] == ["Choice"]


async def test_an_unknown_text_box_id_is_named_and_changes_nothing(docx, tmp_path):
    await _open(docx, tmp_path)
    await docx.save(tmp_path / "before.docx")
    bad = await docx.call("docx_insert_paragraph", position="end:tbx_0badc0de", text="x")
    assert bad.is_error and "tbx_0badc0de" in bad.text and bad.error_type == "ElementNotFound"
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


async def test_replacing_a_text_box_paragraphs_text_with_tracking_records_a_revision(docx, tmp_path):
    await _open(docx, tmp_path)
    para = re.search(r"(para_\w+): Datum plane", (await docx.ok("docx_read_content")).text).group(1)
    await docx.ok("docx_set_track_changes", enabled=True)
    done = await docx.ok("docx_update_paragraph_text", element_id=para, new_text="Datum line")
    assert done.head.get("Tracked", "yes") == "yes"
    body = await docx.save(tmp_path / "out.docx")
    box = body.xpath("//mc:Choice//w:txbxContent", namespaces=NSX)[0]
    assert box.xpath(".//w:del//w:delText/text()", namespaces=NS) == ["plane"]
    assert box.xpath(".//w:ins//w:t/text()", namespaces=NS) == ["line"]


async def test_a_tracked_paragraph_inserted_in_a_text_box_is_marked_inserted(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_insert_paragraph", position=f"end:{tbx}", text="Added")
    body = await docx.save(tmp_path / "out.docx")
    box = body.xpath("//mc:Choice//w:txbxContent", namespaces=NSX)[0]
    assert box.xpath("w:p[2]/w:ins/w:r/w:t/text()", namespaces=NS) == ["Added"]
    assert box.xpath("w:p[2]/w:pPr/w:rPr/w:ins", namespaces=NS)


async def test_a_text_box_paragraph_can_be_deleted(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    added = await docx.ok("docx_insert_paragraph", position=f"end:{tbx}", text="Second line")
    await docx.ok("docx_delete", element_id=added.element_id)
    body = await docx.save(tmp_path / "out.docx")
    assert _box_texts(body) == ["Datum plane"]


async def test_properties_set_on_a_text_box_paragraph_land_there(docx, tmp_path):
    await _open(docx, tmp_path)
    para = re.search(r"(para_\w+): Datum plane", (await docx.ok("docx_read_content")).text).group(1)
    await docx.ok("docx_set_properties", element_id=para, properties={"bold": True, "alignment": "center"})
    body = await docx.save(tmp_path / "out.docx")
    box = body.xpath("//mc:Choice//w:txbxContent", namespaces=NSX)[0]
    assert box.xpath("w:p/w:pPr/w:jc/@w:val", namespaces=NS) == ["center"]
    assert box.xpath("w:p/w:r/w:rPr/w:b", namespaces=NS)


async def test_undo_of_edits_inside_a_text_box_restores_every_part(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    para = re.search(r"(para_\w+): Datum plane", (await docx.ok("docx_read_content")).text).group(1)
    await docx.save(tmp_path / "before.docx")
    await docx.ok("docx_insert_paragraph", position=f"end:{tbx}", text="Second line")
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_update_paragraph_text", element_id=para, new_text="Other words")
    await docx.ok("docx_insert_text_box", position=f"end:document_body", text="New box")
    for _ in range(4):
        await docx.ok("docx_undo")
    await docx.save(tmp_path / "after.docx")
    assert_same_package(tmp_path / "before.docx", tmp_path / "after.docx")


async def test_deleting_a_text_box_by_its_id_removes_it_and_its_fallback(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    await docx.ok("docx_delete", element_id=tbx)
    body = await docx.save(tmp_path / "out.docx")
    assert not body.xpath("//w:txbxContent | //mc:AlternateContent", namespaces=NSX)
    assert "".join(body.xpath("w:p[2]//w:t/text()", namespaces=NS)) == "Anchor"


async def test_a_tracked_delete_of_a_text_box_marks_its_run_and_text_deleted(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_delete", element_id=tbx)
    body = await docx.save(tmp_path / "out.docx")
    assert body.xpath("w:p[2]/w:del/w:r/mc:AlternateContent", namespaces=NSX)
    box = body.xpath("//mc:Choice//w:txbxContent", namespaces=NSX)[0]
    assert box.xpath(".//w:delText/text()", namespaces=NS) == ["Datum plane"] and not box.xpath(".//w:t", namespaces=NS)


def vml_text_box(text: str) -> str:
    """A paragraph holding a VML-only text box (Word 2007 and older, no mc:AlternateContent)."""
    return ('<w:p><w:r><w:pict xmlns:v="urn:schemas-microsoft-com:vml"><v:shape id="_x0000_s2001" '
            'style="width:120pt;height:60pt" type="#_x0000_t202"><v:textbox><w:txbxContent><w:p><w:r>'
            f'<w:t>{text}</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>')


async def test_a_vml_only_text_box_has_an_id_and_takes_paragraphs(docx, tmp_path):
    opened = await docx.open(build_docx(tmp_path / "in.docx", p("before") + vml_text_box("Legacy box")))
    tbx = re.search(r"\[TEXT BOX (tbx_\w+)\]", opened.text).group(1)
    await docx.ok("docx_insert_paragraph", position=f"end:{tbx}", text="Added")
    body = await docx.save(tmp_path / "out.docx")
    box = body.xpath("//w:pict//w:txbxContent", namespaces=NS)[0]
    assert ["".join(q.xpath(".//w:t/text()", namespaces=NS)) for q in box.xpath("w:p", namespaces=NS)] == \
        ["Legacy box", "Added"]


async def test_a_page_break_inside_a_text_box_is_refused_and_changes_nothing(docx, tmp_path):
    tbx = await _open(docx, tmp_path)
    await docx.save(tmp_path / "before.docx")
    bad = await docx.call("docx_insert_page_break", position=f"end:{tbx}")
    assert bad.is_error and bad.error_type == "InvalidPosition" and "text box" in bad.text
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


async def test_a_text_box_in_a_table_cell_shows_under_the_table_with_its_id(docx, tmp_path):
    from tests.builders import tbl, tc
    cell = tc(alternate_text_box("Cell box"))
    opened = await docx.open(build_docx(tmp_path / "in.docx", tbl([[cell, tc(p("x"))]]) + p("after")))
    tbx = re.search(r"┌ Text Box \((tbx_\w+)\)", opened.text).group(1)
    await docx.ok("docx_insert_paragraph", position=f"end:{tbx}", text="More")
    body = await docx.save(tmp_path / "out.docx")
    assert _box_texts(body) == ["Cell box", "More"]
