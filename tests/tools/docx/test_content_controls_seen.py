"""Views, find and replace see inside content controls at every level: block, inline, row and cell."""
from __future__ import annotations

import pytest

from tests.builders import build_docx, p
from tests.support.client import read_part

pytestmark = pytest.mark.anyio

SDT = "<w:sdt><w:sdtPr/><w:sdtContent>{}</w:sdtContent></w:sdt>"
PLACES = ("block", "inline", "row", "cell")


def controls_document(path):
    inline = p("").replace("</w:p>", SDT.format("<w:r><w:t>inline control</w:t></w:r>") + "</w:p>")
    cell = f"<w:tc>{SDT.format(p('cell control'))}</w:tc>"
    row = SDT.format(f"<w:tr><w:tc>{p('row control')}</w:tc><w:tc>{p('x')}</w:tc></w:tr>")
    table = (f"<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>"
             f"<w:tr><w:tc>{p('head')}</w:tc>{cell}</w:tr>{row}</w:tbl>")
    return build_docx(path, SDT.format(p("block control")) + inline + table)


async def test_views_show_content_controls_at_every_level(docx, tmp_path):
    await docx.open(controls_document(tmp_path / "in.docx"))
    read = (await docx.ok("docx_read_content")).section("Content")
    assert "block control" in read and "inline control" in read
    table_id = next(w for w in read.split() if w.startswith("(table_")).strip("()")
    grid = (await docx.ok("docx_get_table", table_id=table_id)).text
    assert "cell control" in grid and "row control" in grid


@pytest.mark.parametrize("place", PLACES)
async def test_find_and_replace_reach_content_controls(docx, tmp_path, place):
    await docx.open(controls_document(tmp_path / "in.docx"))
    found = await docx.ok("docx_find_paragraphs", query=f"{place} control")
    assert found.head["Matches"] == "1"
    done = await docx.ok("docx_replace_text", old_text=f"{place} control", new_text=f"{place} edited")
    assert done.head["Replacements"] == "1"
    await docx.save(tmp_path / "out.docx")
    xml = read_part(tmp_path / "out.docx").decode()
    assert f"{place} edited" in xml and f"{place} control" not in xml
