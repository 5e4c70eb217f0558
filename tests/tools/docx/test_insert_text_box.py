"""docx_insert_text_box: a text box as Word writes it (wps:wsp in mc:Choice, a VML copy in mc:Fallback),
its paragraphs from the text's lines; tracked inside w:ins; bad input named, document unchanged."""
from __future__ import annotations

import pytest

from ooxml.model.document import Document
from ooxml.model.integrity import check_package
from tests.builders import NS, build_docx, p
from tests.support import sdk_validator
from tests.support.client import read_part
from tests.support.libreoffice import convert_cached, pdf_text, require_soffice

pytestmark = pytest.mark.anyio
NSX = {**NS, "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
       "wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape", "v": "urn:schemas-microsoft-com:vml"}


def _texts(box) -> list[str]:
    return ["".join(q.xpath(".//w:t/text()", namespaces=NS)) for q in box.xpath("w:p", namespaces=NS)]


async def test_a_text_box_is_written_with_its_lines_as_paragraphs_in_choice_and_fallback(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", p("Intro")))
    done = await docx.ok("docx_insert_text_box", position="end:document_body", text="Key fact\nSecond line")
    assert done.element_id.startswith("tbx_")
    body = await docx.save(tmp_path / "out.docx")
    choice = body.xpath("//mc:Choice[@Requires='wps']//wps:wsp/wps:txbx/w:txbxContent", namespaces=NSX)
    fallback = body.xpath("//mc:Fallback//v:textbox/w:txbxContent", namespaces=NSX)
    assert [_texts(b) for b in choice + fallback] == [["Key fact", "Second line"]] * 2


async def test_the_answer_shows_the_new_box_framed_with_its_id(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", p("Intro")))
    done = await docx.ok("docx_insert_text_box", position="end:document_body", text="Key fact")
    context = done.section("Document Context")
    assert f"[TEXT BOX {done.element_id}]" in context and f"┌ Text Box ({done.element_id})" in context


async def test_a_text_box_at_a_run_position_joins_that_paragraph(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", p("Intro")))
    para = (await docx.ok("docx_find_paragraphs", query="Intro")).text.split("- ")[1].split(":")[0]
    await docx.ok("docx_insert_text_box", position=f"end:{para}", text="Aside")
    body = await docx.save(tmp_path / "out.docx")
    assert len(body.xpath("w:p", namespaces=NS)) == 1
    assert body.xpath("w:p/w:r[2]//mc:Choice//w:txbxContent//w:t/text()", namespaces=NSX) == ["Aside"]


async def test_with_tracking_on_the_text_box_is_inside_an_insertion(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", p("Intro")))
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_insert_text_box", position="end:document_body", text="Tracked box")
    body = await docx.save(tmp_path / "out.docx")
    assert body.xpath("w:p[2]/w:ins/w:r/mc:AlternateContent", namespaces=NSX)


async def test_a_text_box_id_takes_paragraphs_after_insertion(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", p("Intro")))
    done = await docx.ok("docx_insert_text_box", position="end:document_body", text="One")
    await docx.ok("docx_insert_paragraph", position=f"end:{done.element_id}", text="Two")
    body = await docx.save(tmp_path / "out.docx")
    assert _texts(body.xpath("//mc:Choice//w:txbxContent", namespaces=NSX)[0]) == ["One", "Two"]


@pytest.mark.parametrize("args, named", [
    ({"width": 0}, "width"), ({"height": "-2cm"}, "height"), ({"width": "wide"}, "width"),
    ({"width": 40}, "width"), ({"text": "   "}, "text"),
])
async def test_bad_input_is_named_and_changes_nothing(docx, tmp_path, args, named):
    await docx.open(build_docx(tmp_path / "in.docx", p("Intro")))
    await docx.save(tmp_path / "before.docx")
    bad = await docx.call("docx_insert_text_box", **{"position": "end:document_body", "text": "x", **args})
    assert bad.is_error and bad.error_type == "ValidationError" and named in bad.text.split("Hint")[0]
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


async def test_a_text_box_inside_a_text_box_is_refused(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", p("Intro")))
    done = await docx.ok("docx_insert_text_box", position="end:document_body", text="Outer")
    bad = await docx.call("docx_insert_text_box", position=f"end:{done.element_id}", text="Inner")
    assert bad.is_error and bad.error_type == "InvalidPosition" and "text box" in bad.text


async def test_inserted_text_boxes_validate_and_libreoffice_shows_their_text_once(docx, tmp_path):
    sdk_validator.require()
    require_soffice()
    await docx.open(build_docx(tmp_path / "in.docx", p("Intro")))
    await docx.ok("docx_insert_text_box", position="end:document_body", text="Quokka fact\nWombat line")
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_insert_text_box", position="start:document_body", text="Tracked numbat", width="5cm")
    out = tmp_path / "boxes.docx"
    await docx.save(out)
    assert check_package(Document.open(out)) == []
    assert sdk_validator.validate_files([out])[out.resolve()] == []
    pdf = convert_cached([out], label="inserted text boxes")[out.resolve()]  # text export skips shapes
    assert pdf is not None
    text = pdf_text(pdf)
    assert text.count("Quokka fact") == 1 and text.count("Wombat line") == 1 and text.count("Tracked numbat") == 1
