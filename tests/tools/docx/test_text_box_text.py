"""Find, redaction and compare see the text of a text box docx_insert_text_box made (Choice and its
VML copy alike)."""
from __future__ import annotations

import re

import pytest

from tests.builders import NS, build_docx, p
from tests.support.client import read_body, read_part

pytestmark = pytest.mark.anyio
NSX = {**NS, "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006"}


async def _boxed(docx, tmp_path) -> str:
    await docx.open(build_docx(tmp_path / "in.docx", p("Intro")))
    return (await docx.ok("docx_insert_text_box", position="end:document_body", text="Code 4242\nOther")).element_id


async def test_find_names_the_text_box_paragraph(docx, tmp_path):
    tbx = await _boxed(docx, tmp_path)
    found = await docx.ok("docx_find_paragraphs", query="4242")
    para = re.search(r"(para_\w+): Code 4242", found.text).group(1)
    context = (await docx.ok("docx_get_context", element_id=para)).section("Document Context")
    assert f"Parent: Text Box {tbx}" in context


async def test_redaction_removes_the_text_from_the_box_and_its_fallback(docx, tmp_path):
    await _boxed(docx, tmp_path)
    done = await docx.ok("docx_redact", text="4242")
    assert done.head["Matches"] == "2" and done.head["Leak Check"] == "nothing left"
    await docx.save(tmp_path / "out.docx")
    xml = read_part(tmp_path / "out.docx").decode()
    assert "4242" not in xml and xml.count("Code ████") == 2  # the VML copy stays in step


async def test_compare_tracks_a_text_box_edit_inside_the_box(docx, tmp_path):
    tbx = await _boxed(docx, tmp_path)
    await docx.save(tmp_path / "original.docx")
    para = re.search(r"(para_\w+): Code 4242", (await docx.ok("docx_read_content")).text).group(1)
    await docx.ok("docx_update_paragraph_text", element_id=para, new_text="Code 5353")
    await docx.save(tmp_path / "revised.docx")
    await docx.ok("docx_close")
    await docx.ok("docx_compare", original_path=str(tmp_path / "original.docx"),
                  revised_path=str(tmp_path / "revised.docx"))
    await docx.ok("docx_save", file_path=str(tmp_path / "redline.docx"))
    box = read_body(tmp_path / "redline.docx").xpath("//mc:Choice//w:txbxContent", namespaces=NSX)[0]
    assert box.xpath(".//w:del//w:delText/text()", namespaces=NS) == ["4242"]
    assert box.xpath(".//w:ins//w:t/text()", namespaces=NS) == ["5353"]
    assert tbx


async def test_compare_pairs_a_word_text_box_whose_vml_copy_the_edit_dropped(docx, tmp_path):
    """A Word-style box (Choice + VML copy) alone in its paragraph: the edit drops the stale copy, and
    compare still reads the paragraph as the box's text once, not the original's twice."""
    from tests.tools.docx.test_text_boxes import alternate_text_box
    box = alternate_text_box("Code 4242</w:t></w:r></w:p><w:p><w:r><w:t>Other").replace("<w:t>Anchor</w:t>", "")
    original = build_docx(tmp_path / "original.docx", p("Intro") + box)
    await docx.open(original)
    await docx.ok("docx_replace_text", old_text="4242", new_text="5353")
    await docx.save(tmp_path / "revised.docx")
    await docx.ok("docx_close")
    await docx.ok("docx_compare", original_path=str(original), revised_path=str(tmp_path / "revised.docx"))
    await docx.ok("docx_save", file_path=str(tmp_path / "redline.docx"))
    box = read_body(tmp_path / "redline.docx").xpath("//mc:Choice//w:txbxContent", namespaces=NSX)
    assert len(box) == 1 and box[0].xpath(".//w:delText/text()", namespaces=NS) == ["4242"]
