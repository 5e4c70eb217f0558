"""How a chart is shown: its line in a box (kind, title, size) with a small table of its data under
it, cut at 8 categories and 5 rows of series; the same table in the Markdown export; and a chart without an
embedded workbook updated in its caches, the answer saying so."""
from __future__ import annotations

import zipfile

import pytest
from lxml import etree

from tests.builders import build_chart_docx

pytestmark = pytest.mark.anyio
NS = {"c": "http://schemas.openxmlformats.org/drawingml/2006/chart"}
CATS = [f"M{i}" for i in range(10)]
SERIES = [(f"S{j}", [j * 100 + i for i in range(10)]) for j in range(7)]


async def test_a_chart_shows_its_kind_title_and_a_bounded_table(docx, tmp_path):
    await docx.open(build_chart_docx(tmp_path / "c.docx", "line", CATS, SERIES, title="Monthly"))
    listing = (await docx.ok("docx_read_content", session_id=docx.session_id)).text
    assert '[CHART chart_' in listing and ': line "Monthly", 7 series × 10]' in listing
    para = listing.split("] [CHART")[0].rsplit("(", 1)[1].rstrip(")")
    text = (await docx.ok("docx_get_context", session_id=docx.session_id, element_id=para)).text
    assert "|  | M0 | M1 | M2 | M3 | M4 | M5 | M6 | M7 | … |" in text
    assert "| S3 | 300 | 301 | 302 | 303 | 304 | 305 | 306 | 307 | … |" in text
    assert "| S4 |" not in text and "| … 3 more series |" in text and "more lines not shown" not in text


async def test_markdown_export_writes_the_chart_as_a_table(docx, tmp_path):
    await docx.open(build_chart_docx(tmp_path / "c.docx", "column", ["A|B", "C"], [("Sales", [1.5, 2])]))
    text = (await docx.ok("docx_export_markdown", session_id=docx.session_id)).text
    assert "*Chart (column): Sales*" in text
    assert "|  | A\\|B | C |\n| --- | --- | --- |\n| Sales | 1.5 | 2 |" in text


async def test_a_chart_without_workbook_is_updated_in_its_caches(docx, tmp_path):
    await docx.open(build_chart_docx(tmp_path / "c.docx", workbook=False))
    listed = await docx.ok("docx_list_charts", session_id=docx.session_id)
    chart_id = listed.text.split("[CHART ")[1].split(":")[0]
    answer = await docx.ok("docx_update_chart", session_id=docx.session_id, chart_id=chart_id,
                           series=[{"name": "Only", "values": [9, 8, 7, 6]}])
    assert answer.head["Workbook"] == "none: caches updated only"
    out = tmp_path / "out.docx"
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
    space = etree.fromstring(zipfile.ZipFile(out).read("word/charts/chart1.xml"))
    assert [v.text for v in space.iterfind(".//c:val//c:v", NS)] == ["9", "8", "7", "6"]
