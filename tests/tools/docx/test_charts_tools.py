"""docx_list_charts, docx_get_chart, docx_update_chart on a corpus chart with an embedded workbook:
the answer, the saved chart part's caches and the workbook (openpyxl) agree; undo puts every part back."""
from __future__ import annotations

import io
import json
import shutil
import zipfile

import openpyxl
import pytest
from lxml import etree

from ooxml.charts import sheets
from tests.support.corpus import corpus_files

NS = {"c": "http://schemas.openxmlformats.org/drawingml/2006/chart"}
SRC = next((p for p in corpus_files() if "Chart-Embedded-Xlsx-01" in p.name), None)
pytestmark = [pytest.mark.anyio,
              pytest.mark.skipif(SRC is None, reason="corpus file with a chart and its workbook not present")]


async def _open(docx, tmp_path):
    path = tmp_path / "chart.docx"
    shutil.copy(SRC, path)
    await docx.open(path)
    listed = await docx.ok("docx_list_charts", session_id=docx.session_id)
    return path, listed.text.split("[CHART ")[1].split(":")[0]


async def test_list_and_get_show_the_chart_data(docx, tmp_path):
    _, chart_id = await _open(docx, tmp_path)
    got = await docx.ok("docx_get_chart", session_id=docx.session_id, chart_id=chart_id)
    data = json.loads(got.text[got.text.index("{"):])
    assert data["kind"] == "bar" and data["categories"][0] == "Category 1"
    assert data["series"][1] == {"name": "Series 2", "values": [2.4, 4.4, 1.8, 2.8]}


async def test_update_writes_caches_and_workbook(docx, tmp_path):
    path, chart_id = await _open(docx, tmp_path)
    new = [{"name": "North", "values": [1, 2.5, 3]}, {"name": "South", "values": [4, 5, None]}]
    await docx.ok("docx_update_chart", session_id=docx.session_id, chart_id=chart_id,
                  categories=["Jan", "Feb", "Mar"], series=new, title="Sales")
    out = tmp_path / "out.docx"
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
    z = zipfile.ZipFile(out)
    space = etree.fromstring(z.read("word/charts/chart1.xml"))
    sers = space.findall(".//c:ser", NS)
    assert len(sers) == 2
    book = openpyxl.load_workbook(io.BytesIO(z.read("word/embeddings/Microsoft_Excel_Worksheet1.xlsx")))
    for ser, want in zip(sers, new):
        cache = ser.find("c:val//c:numCache", NS)
        assert cache.find("c:ptCount", NS).get("val") == "3"
        assert sheets.read_range(book, ser.findtext("c:val//c:f", namespaces=NS)) == want["values"]
        assert sheets.read_range(book, ser.findtext("c:tx//c:f", namespaces=NS)) == [want["name"]]
        assert sheets.read_range(book, ser.findtext("c:cat//c:f", namespaces=NS)) == ["Jan", "Feb", "Mar"]
    assert "".join(space.find("c:chart/c:title", NS).itertext()) == "Sales"


async def test_undo_restores_chart_and_workbook(docx, tmp_path):
    path, chart_id = await _open(docx, tmp_path)
    await docx.ok("docx_update_chart", session_id=docx.session_id, chart_id=chart_id,
                  series=[{"name": "Only", "values": [1, 2, 3, 4]}])
    await docx.ok("docx_undo", session_id=docx.session_id)
    out = tmp_path / "out.docx"
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
    before, after = zipfile.ZipFile(SRC), zipfile.ZipFile(out)
    for name in ("word/charts/chart1.xml", "word/embeddings/Microsoft_Excel_Worksheet1.xlsx"):
        assert after.read(name) == before.read(name)


async def test_a_series_of_the_wrong_length_is_refused_and_changes_nothing(docx, tmp_path):
    path, chart_id = await _open(docx, tmp_path)
    bad = await docx.call("docx_update_chart", session_id=docx.session_id, chart_id=chart_id,
                          series=[{"name": "S", "values": [1, 2]}])
    assert bad.is_error and "2 values for 4 categories" in bad.text
    got = await docx.ok("docx_get_chart", session_id=docx.session_id, chart_id=chart_id)
    assert '"Series 3"' in got.text


async def test_an_inserted_chart_is_tracked_and_undo_removes_its_parts(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_set_track_changes", session_id=docx.session_id, enabled=True, author="T")
    await docx.ok("docx_insert_chart", session_id=docx.session_id, kind="area", categories=["a", "b"],
                  series=[{"name": "s", "values": [1, 2]}], position="end:document_body")
    out = tmp_path / "tracked.docx"
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
    body = etree.fromstring(zipfile.ZipFile(out).read("word/document.xml"))
    W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    chart = next(body.iter("{http://schemas.openxmlformats.org/drawingml/2006/chart}chart"))
    assert any(a.tag == f"{W}ins" for a in chart.iterancestors())
    await docx.ok("docx_undo", session_id=docx.session_id)
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(tmp_path / "undone.docx"))
    names = zipfile.ZipFile(tmp_path / "undone.docx").namelist()
    assert not [n for n in names if "charts/" in n or "embeddings/" in n]


async def test_find_sees_a_chart_by_its_title_and_series_names(docx, tmp_path):
    _, chart_id = await _open(docx, tmp_path)
    await docx.ok("docx_update_chart", session_id=docx.session_id, chart_id=chart_id, title="Quarterly Zeta")
    by_title = await docx.ok("docx_find_paragraphs", session_id=docx.session_id, query="zeta")
    by_series = await docx.ok("docx_find_paragraphs", session_id=docx.session_id, query="Series 2")
    assert by_title.head["Matches"] == "1" and "[chart: Quarterly Zeta; Series 1, Series 2" in by_title.text
    assert by_series.head["Matches"] == "1"


async def test_replace_text_renames_a_series_in_the_cache_and_the_workbook(docx, tmp_path):
    _, chart_id = await _open(docx, tmp_path)
    ans = await docx.ok("docx_replace_text", session_id=docx.session_id, old_text="Series 2", new_text="Costs")
    assert ans.head["Charts Changed"] == "1" and ans.head["Replacements"] == "1", ans.text[:600]
    out = tmp_path / "out.docx"
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
    z = zipfile.ZipFile(out)
    space = etree.fromstring(z.read("word/charts/chart1.xml"))
    ser = space.findall(".//c:ser", NS)[1]
    book = openpyxl.load_workbook(io.BytesIO(z.read("word/embeddings/Microsoft_Excel_Worksheet1.xlsx")))
    assert ser.findtext("c:tx//c:v", namespaces=NS) == "Costs"
    assert sheets.read_range(book, ser.findtext("c:tx//c:f", namespaces=NS)) == ["Costs"]


async def test_replace_text_in_a_chart_title_is_undone_with_its_part(docx, tmp_path):
    path, chart_id = await _open(docx, tmp_path)
    await docx.ok("docx_update_chart", session_id=docx.session_id, chart_id=chart_id, title="Sales 2025")
    before = await docx.ok("docx_get_chart", session_id=docx.session_id, chart_id=chart_id)
    await docx.ok("docx_replace_text", session_id=docx.session_id, old_text="2025", new_text="2026")
    after = await docx.ok("docx_get_chart", session_id=docx.session_id, chart_id=chart_id)
    await docx.ok("docx_undo", session_id=docx.session_id)
    undone = await docx.ok("docx_get_chart", session_id=docx.session_id, chart_id=chart_id)
    assert '"title":"Sales 2026"' in after.text and undone.text == before.text
