"""docx_undo, docx_redo, docx_get_history: one step per tool call, every part back byte for byte."""
from __future__ import annotations

import zipfile

import pytest

from tests.builders import NS, build_docx, p, png
from tests.support.client import by_id, texts

pytestmark = pytest.mark.anyio


def parts(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


async def start(docx, tmp_path, body: str | None = None):
    src = tmp_path / "in.docx"
    build_docx(src, body or p("First") + p("Second") + p("Third"))
    return await docx.open(src)


async def saved(docx, tmp_path, name: str) -> dict[str, bytes]:
    await docx.save(tmp_path / name)
    return parts(tmp_path / name)


async def test_undo_of_an_insert_gives_back_every_part_and_the_special_ids(docx, tmp_path):
    await start(docx, tmp_path)
    first = await docx.ok("docx_insert_paragraph", text="One", position="end:document_body")
    before = await saved(docx, tmp_path, "before.docx")
    await docx.ok("docx_insert_paragraph", text="Two", position="start:document_body")
    undo = await docx.ok("docx_undo")
    assert undo.head["Undone"] == "1 step(s)" and "docx_insert_paragraph(text='Two'" in undo.text
    assert await saved(docx, tmp_path, "after.docx") == before
    again = await docx.ok("docx_get_context", element_id="last_insert")
    assert again.element_id == first.element_id
    assert first.element_id in undo.cursor_line


async def test_undo_of_a_table_delete_brings_the_table_back_with_its_id(docx, tmp_path):
    await docx.create()
    table = await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body",
                          data=[["a", "b"], ["c", "d"]])
    before = await saved(docx, tmp_path, "before.docx")
    await docx.ok("docx_delete", element_id=table.element_id)
    await docx.ok("docx_undo")
    assert await saved(docx, tmp_path, "after.docx") == before
    cell = await docx.ok("docx_get_cell", table_id=table.element_id, row=1, col=1)
    assert "d" in cell.text


async def test_undo_of_formatting_and_table_edits_restores_the_xml(docx, tmp_path):
    await start(docx, tmp_path, p("Bold me") + "<w:tbl><w:tblGrid><w:gridCol w:w='2000'/><w:gridCol w:w='2000'/>"
                "</w:tblGrid><w:tr><w:tc><w:p/></w:tc><w:tc><w:p/></w:tc></w:tr>"
                "<w:tr><w:tc><w:p/></w:tc><w:tc><w:p/></w:tc></w:tr></w:tbl>" + p("End"))
    ctx = await docx.ok("docx_read_content")
    para = ctx.text.split("Paragraph (")[1].split(")")[0]
    table = ctx.text.split("Table (")[1].split(")")[0]
    before = await saved(docx, tmp_path, "before.docx")
    await docx.ok("docx_set_font", element_id=para, bold=True, size=20)
    await docx.ok("docx_merge_cells", table_id=table, start_row=0, start_col=0, end_row=1, end_col=1)
    await docx.ok("docx_insert_col_at", table_id=table, position="end")
    await docx.ok("docx_fill_table", table_id=table, data=[["x", "y"]])
    undo = await docx.ok("docx_undo", steps=4)
    assert undo.head["Undone"] == "4 step(s)"
    assert await saved(docx, tmp_path, "after.docx") == before


async def test_undo_of_an_image_takes_back_media_relationship_and_content_type(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")
    before = await saved(docx, tmp_path, "before.docx")
    await docx.ok("docx_insert_image", image_path=str(png(tmp_path / "red.png")), position="end:document_body")
    with_image = await saved(docx, tmp_path, "image.docx")
    assert "word/media/image1.png" in with_image
    await docx.ok("docx_undo")
    assert await saved(docx, tmp_path, "after.docx") == before
    await docx.ok("docx_redo")
    assert await saved(docx, tmp_path, "redone.docx") == with_image


async def test_history_lists_calls_newest_first_and_marks_undone_ones(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Alpha", position="end:document_body")
    await docx.ok("docx_read_content")  # reads are no steps
    await docx.ok("docx_insert_heading", text="Beta", level=1, position="start:document_body")
    await docx.ok("docx_undo")
    history = await docx.ok("docx_get_history")
    lines = [line for line in history.section("Content").splitlines() if line.startswith("- ")]
    assert len(lines) == 2
    assert lines[0].startswith("- (undone) ") and "docx_insert_heading(text='Beta', level=1" in lines[0]
    assert "docx_insert_paragraph(text='Alpha', position='end:document_body')" in lines[1]
    assert history.head["Undo Steps"] == "1" and history.head["Redo Steps"] == "1"


async def test_old_steps_over_the_limit_are_dropped_and_the_answer_says_so(docx, tmp_path, monkeypatch):
    monkeypatch.setenv("OOXML_MCP_UNDO_STEPS", "2")
    await docx.create()
    for text in ("a", "b", "c"):
        await docx.ok("docx_insert_paragraph", text=text, position="end:document_body")
    undo = await docx.ok("docx_undo", steps=5)
    assert undo.head["Undone"] == "2 step(s)"
    assert undo.head["Dropped"].startswith("1 oldest step(s) dropped by the history limit (2 steps")
    body = await docx.save(tmp_path / "o.docx")
    assert texts(body) == "a"


async def test_a_new_edit_clears_the_redo_steps(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="a", position="end:document_body")
    await docx.ok("docx_undo")
    await docx.ok("docx_insert_paragraph", text="b", position="end:document_body")
    redo = await docx.ok("docx_redo")
    assert redo.head["Redone"] == "0 step(s)" and "Nothing to redo." in redo.text
    assert texts(await docx.save(tmp_path / "o.docx")) == "b"


async def test_saving_keeps_the_history(docx, tmp_path):
    await start(docx, tmp_path)
    added = await docx.ok("docx_insert_paragraph", text="New", position="end:document_body")
    await docx.save(tmp_path / "saved.docx")
    await docx.ok("docx_undo")
    sessions = await docx.ok("docx_list_sessions")
    assert "| yes |" in sessions.text  # the undone state is not saved yet
    body = await docx.save(tmp_path / "undone.docx")
    assert "New" not in texts(body) and not body.xpath("//*[@oxm:id=$i]", namespaces=NS, i=added.element_id)
    await docx.ok("docx_redo")
    assert by_id(await docx.save(tmp_path / "redone.docx"), added.element_id) is not None


async def test_failed_calls_record_nothing(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="kept", position="end:document_body")
    await docx.ok("docx_insert_paragraph", text="undone", position="end:document_body")
    failed = await docx.call("docx_update_paragraph_text", element_id="para_000000", new_text="x")
    assert failed.is_error
    undo = await docx.ok("docx_undo")
    assert "text='undone'" in undo.text
    assert texts(await docx.save(tmp_path / "o.docx")) == "kept"


def test_an_edit_without_will_change_is_caught_in_check_mode(monkeypatch):
    """The suite runs with OOXML_MCP_CHECK_UNDO=1: an in-place edit that skips doc.will_change()
    (and so could not be undone) fails loudly instead of corrupting the history."""
    from lxml import etree

    from ooxml.model.document import Document
    from ooxml.model.undo_limits import UndoLimits
    from ooxml.xml.namespaces import w

    doc = Document.create()
    doc.history.configure(UndoLimits(check=True))  # the suite's check mode, given as the server gives it
    p = etree.Element(w("p"))
    doc.insert_block(p, container=doc.body)
    doc.history.begin()
    p.set(w("rsidR"), "00AB12CD")
    with pytest.raises(AssertionError, match="without doc.will_change"):
        doc.changed(p)
    doc.history.abandon()
    doc.history.begin()
    doc.will_change(p)
    p.set(w("rsidR"), "00AB12CE")
    doc.changed(p)
    doc.history.commit("test", "")
    doc.history.undo(1)
    assert p.get(w("rsidR")) == "00AB12CD"
