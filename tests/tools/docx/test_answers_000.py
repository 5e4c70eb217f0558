"""Seed 000 (Markdown response format): acceptance items F-001..F-010, through the MCP client."""
from __future__ import annotations

import json

import pytest
from PIL import Image

from tests.support.client import by_id, read_body, texts

pytestmark = pytest.mark.anyio


async def fill(docx, n: int) -> list[str]:
    ids = []
    for i in range(n):
        a = await docx.ok("docx_insert_paragraph", text=f"Paragraph number {i}", position="end:document_body")
        ids.append(a.element_id)
    return ids


async def test_f001_insert_paragraph_answers_markdown_with_ascii_view(docx):
    await docx.create()
    a = await docx.ok("docx_insert_paragraph", text="Hello World", position="end:document_body")
    assert a.text.startswith("# 操作结果: Insert Paragraph\n")
    assert a.head["Status"] == "✅ Success" and a.head["Operation"] == "Insert Paragraph"
    assert a.head["Position"] == "end:document_body"
    context = a.section("Document Context")
    assert f"│ Paragraph ({a.element_id}) ⭐ NEW" in context and "│ Hello World" in context
    assert "┌" in context and "└" in context


async def test_f001_answers_are_never_json(docx):
    await docx.create()
    a = await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    with pytest.raises(json.JSONDecodeError):
        json.loads(a.text)
    assert '{"status"' not in a.text.lower()


async def test_f002_update_shows_git_style_diff(docx, tmp_path):
    await docx.create()
    await fill(docx, 4)
    target = (await docx.ok("docx_insert_paragraph", text="Hello World", position="end:document_body")).element_id
    a = await docx.ok("docx_update_paragraph_text", element_id=target, new_text="Hello Claude")
    changes = a.section("Changes").splitlines()
    assert any(line.startswith("-") and "Hello World" in line for line in changes)
    assert any(line.startswith("+") and "Hello Claude" in line for line in changes)
    assert any(line.startswith(" ") and f"Paragraph ({target})" in line for line in changes)
    body = await docx.save(tmp_path / "f002.docx")
    assert texts(by_id(body, target)) == "Hello Claude"


async def test_f003_insert_table_shows_ascii_table(docx):
    await docx.create()
    a = await docx.ok("docx_insert_table", rows=3, cols=2, position="end:document_body",
                      data=[["Name", "Age"], ["Alice", "30"], ["Bob", "25"]])
    context = a.section("Document Context")
    assert f"Table ({a.element_id})" in context and "⭐ NEW" in context
    assert "| Name" in context and "| Alice" in context and "+-" in context


async def test_f004_bold_and_italic_show_as_markdown(docx):
    await docx.create()
    p = (await docx.ok("docx_insert_paragraph", text="plain ", position="end:document_body")).element_id
    bold = (await docx.ok("docx_insert_run", text="strong", position=f"end:{p}")).element_id
    await docx.ok("docx_set_font", element_id=bold, bold=True)
    italic = (await docx.ok("docx_insert_run", text="slanted", position=f"end:{p}")).element_id
    a = await docx.ok("docx_set_font", element_id=italic, italic=True, color_hex="FF0000")
    assert "plain **strong**[red]*slanted*[/red]" in a.section("Document Context")


async def test_f005_context_is_about_one_page_with_ellipsis_marks(docx):
    await docx.create()
    ids = await fill(docx, 40)
    a = await docx.ok("docx_insert_paragraph", text="In the middle", position=f"after:{ids[20]}")
    context = a.section("Document Context")
    boxes = context.count("  ┌")
    assert 10 <= boxes <= 15
    assert "more elements above) ..." in context and "more elements below) ..." in context
    above = int(context.split("... (")[1].split(" more")[0])
    below = int(context.split("... (")[2].split(" more")[0])
    assert above + boxes + below == 41


async def test_f005_window_shifts_at_document_start_to_keep_its_size(docx):
    await docx.create()
    ids = await fill(docx, 30)
    a = await docx.ok("docx_get_context", element_id=ids[0])
    context = a.section("Document Context")
    assert "[Document Start]" in context and context.count("  ┌") == 15


async def test_f006_cursor_move_marks_the_cursor(docx):
    await docx.create()
    ids = await fill(docx, 5)
    a = await docx.ok("docx_cursor_move", element_id=ids[2], position="before")
    context = a.section("Document Context").splitlines()
    mark = context.index(">>> [CURSOR] <<<")
    assert f"Paragraph ({ids[2]})" in context[mark + 3]
    assert a.cursor_line == f"Cursor: before Paragraph {ids[2]}"


async def test_f007_inserted_image_is_marked(docx, tmp_path):
    Image.new("RGB", (60, 30), "red").save(tmp_path / "logo.png", dpi=(96, 96))
    await docx.create()
    a = await docx.ok("docx_insert_image", image_path=str(tmp_path / "logo.png"), position="end:document_body")
    assert "[IMG: logo.png]" in a.section("Document Context")


async def test_f008_every_listed_tool_answers_markdown_with_a_head(docx):
    await docx.ok("docx_toolsets", enable=["all"])  # core is listed by default (SPEC §11)
    listed = await docx.client.list_tools()
    names = [t.name for t in listed.tools]
    assert len(names) >= 70
    for name in names:
        a = await docx.call(name, session_id="doc_missing")  # validated by the client helper
        assert a.text.startswith("# 操作结果: ") and "**Status**: " in a.text


async def test_f009_f010_saved_document_matches_what_answers_said(docx, tmp_path):
    await docx.create()
    a = await docx.ok("docx_insert_heading", text="Report", level=1, position="end:document_body")
    b = await docx.ok("docx_insert_paragraph", text="Body text", position=f"after:{a.element_id}")
    body = await docx.save(tmp_path / "f009.docx")
    paragraphs = body.findall("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p")
    assert [texts(p) for p in paragraphs] == ["Report", "Body text"]
    assert by_id(body, b.element_id) is paragraphs[1]
    assert read_body(tmp_path / "f009.docx") is not None
