"""The smaller holes of issue 17 (defect 10): each answers a named error or says what it found,
the document unchanged, the server up."""
from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from tests.builders import build_docx, p
from tests.support.client import read_body, read_part, texts
from ooxml.opc.template import new_package_parts

pytestmark = pytest.mark.anyio
REPO = Path(__file__).resolve().parents[3]


async def saved_unchanged(docx, tmp_path: Path, path: Path) -> bool:
    """Saved elsewhere, the session's document is still exactly the file it opened."""
    await docx.ok("docx_save", file_path=str(tmp_path / "check.docx"), strip_ids=True)
    return read_part(tmp_path / "check.docx") == read_part(path)


@pytest.mark.parametrize("markdown", [">" * 1000 + " deep", "*" * 500 + "x" + "*" * 500, "- " * 300 + "item"],
                         ids=["1000 quotes", "500 stars", "300 list levels"])
async def test_markdown_nested_too_deeply_is_a_named_error(docx, tmp_path, markdown):
    path = build_docx(tmp_path / "doc.docx", p("Original"))
    await docx.open(path)
    answer = await docx.call("docx_insert_markdown", markdown=markdown, position="end:document_body")
    assert answer.is_error and answer.error_type == "LimitExceeded", answer.text
    assert "nested" in answer.text and "Nest at most" in answer.head["Hint"]
    assert await saved_unchanged(docx, tmp_path, path)


async def test_markdown_nested_as_deep_as_word_lists_go_is_still_inserted(docx, tmp_path):
    await docx.create()
    nine_levels = "\n".join("  " * i + f"- level {i + 1}" for i in range(9))
    await docx.ok("docx_insert_markdown", markdown=nine_levels, position="end:document_body")
    await docx.ok("docx_save", file_path=str(tmp_path / "lists.docx"))
    assert texts(read_body(tmp_path / "lists.docx")) == "".join(f"level {i + 1}" for i in range(9))


async def test_track_changes_with_settings_pointing_at_the_main_part_is_a_named_error(docx, tmp_path):
    rels = new_package_parts()["word/_rels/document.xml.rels"].replace(b'Target="settings.xml"',
                                                                        b'Target="document.xml"')
    path = build_docx(tmp_path / "doc.docx", p("Original"), extra_parts={"word/_rels/document.xml.rels": rels})
    await docx.open(path)
    answer = await docx.call("docx_set_track_changes", enabled=True)
    assert answer.is_error and answer.error_type == "InvalidDocument", answer.text
    assert "settings" in answer.text and answer.head["Hint"]
    edited = await docx.ok("docx_insert_paragraph", text="Plain", position="end:document_body")
    assert "[+" not in edited.text  # tracking stayed off
    off = await docx.ok("docx_set_track_changes", enabled=False)
    assert off.head["Tracking"] == "off"


async def test_comment_authors_are_bounded(docx, tmp_path):
    path = build_docx(tmp_path / "doc.docx", p("Original"))
    await docx.open(path)
    answer = await docx.call("docx_add_comment", element_id="cursor", text="Note", author="A" * 100_000)
    assert answer.is_error and answer.error_type == "ValidationError", answer.text
    assert "author" in answer.text and "255" in answer.text
    assert await saved_unchanged(docx, tmp_path, path)
    await docx.ok("docx_add_comment", element_id="cursor", text="Note", author="B" * 255)


async def test_a_damaged_part_copied_unchanged_is_a_warning_at_open_and_at_save(docx, tmp_path):
    path = build_docx(tmp_path / "doc.docx", p("Original"), extra_parts={"customXml/item1.xml": b"<broken"})
    opened = await docx.open(path)
    assert "customXml/item1.xml is not well-formed XML" in opened.head["Warning"]
    await docx.ok("docx_insert_paragraph", text="Added", position="end:document_body")
    saved = await docx.ok("docx_save")
    assert saved.head["Integrity"].startswith("warning: 1 part(s)"), saved.head["Integrity"]
    assert "customXml/item1.xml" in saved.head["Integrity"]
    with zipfile.ZipFile(path) as z:
        assert z.read("customXml/item1.xml") == b"<broken"


async def test_a_clean_document_has_no_warning(docx, tmp_path):
    opened = await docx.open(build_docx(tmp_path / "doc.docx", p("Original")))
    assert "Warning" not in opened.head
    assert (await docx.ok("docx_save")).head["Integrity"] == "ok"


# ---- stdio: a request nested too deeply for the SDK's JSON reader ----------------------------------

async def test_a_deeply_nested_request_over_stdio_gets_a_parse_error_and_the_server_goes_on(tmp_path):
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(tmp_path)], cwd=str(REPO))
    deep: object = "x"
    for _ in range(250):  # the SDK's reader gives up near 199 levels
        deep = {"a": deep}
    async with Client(params, cache=None) as client:
        with anyio.fail_after(30):  # before the fix: no answer at all, the client waits forever
            with pytest.raises(Exception) as refused:
                await client.call_tool("docx_list_sessions", {"deep": deep})
            after = await client.call_tool("docx_list_sessions", {})
    assert "Parse error" in str(refused.value) and "nested too deeply" in str(refused.value)
    assert not after.is_error


@pytest.mark.parametrize("value", ["9" * 5000, "-1"], ids=["5000 digits", "negative"])
async def test_an_absurd_outline_level_in_a_style_opens(docx, tmp_path, value):
    """Found by the fuzz test: int() of 5,000 digits raised inside the first page's view."""
    src = REPO / "fixtures" / "report.docx"
    path = tmp_path / "outline.docx"
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in z.infolist():
            data = z.read(info)
            if info.filename == "word/styles.xml":
                data = data.replace(b'<w:outlineLvl w:val="0"/>', f'<w:outlineLvl w:val="{value}"/>'.encode(), 1)
                assert value.encode() in data
            out.writestr(info, data)
    answer = await docx.open(path)
    assert "Heading 1 (para_" in answer.text  # the name says heading 1; the outline level is ignored
