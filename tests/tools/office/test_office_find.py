"""One finder of LibreOffice (tools/office/find.py) for page renders and TOC page numbers alike."""
from __future__ import annotations

import pytest

from tests.tools.docx.test_layout_toc import doc_with_headings

pytestmark = pytest.mark.anyio


async def test_a_toc_names_a_soffice_setting_that_is_not_a_program_as_renders_do(docx, tmp_path, monkeypatch):
    not_a_program = tmp_path / "soffice"
    not_a_program.write_text("not a program")  # exists, but cannot run
    monkeypatch.setenv("OOXML_MCP_SOFFICE", str(not_a_program))
    await doc_with_headings(docx)
    toc = await docx.ok("docx_insert_toc", position="start:document_body")
    assert toc.head["Page Numbers"].startswith(f"left out: OOXML_MCP_SOFFICE='{not_a_program}' is not an executable file")
    render = await docx.call("docx_render_page", page=1)
    assert render.is_error and render.error_type == "LibreOfficeNotFound"
    assert f"OOXML_MCP_SOFFICE='{not_a_program}' is not an executable file" in render.head["Message"]


@pytest.mark.libreoffice
async def test_an_empty_soffice_setting_means_the_one_on_the_path(docx, monkeypatch):
    from tests.support.libreoffice import require_soffice
    require_soffice()
    monkeypatch.setenv("OOXML_MCP_SOFFICE", "")
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="One page", position="end:document_body")
    assert (await docx.ok("docx_render_page", page=1)).head["Page"] == "1 of 1"
