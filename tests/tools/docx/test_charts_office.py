"""Charts built by code and updated by docx_update_chart (series added and removed, new categories)
stay valid: check_package, the Open XML SDK validator, and LibreOffice shows the new values."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from lxml import etree

from ooxml.charts import sheets
from ooxml.model.document import Document
from ooxml.model.integrity import check_package
from tests.builders import build_chart_docx
from tests.support import sdk_validator
from tests.support.libreoffice import convert_cached, require_soffice

pytestmark = pytest.mark.anyio
NS = {"c": "http://schemas.openxmlformats.org/drawingml/2006/chart"}
KINDS = ("column", "bar", "line", "pie", "scatter")
BOOK = "word/embeddings/Microsoft_Excel_Worksheet.xlsx"


async def _updated(docx, tmp_path: Path, kind: str) -> tuple[Path, Path, list, list]:
    src = build_chart_docx(tmp_path / f"{kind}.docx", kind, [1, 2, 3, 4] if kind == "scatter" else None)
    await docx.open(src)
    listed = await docx.ok("docx_list_charts", session_id=docx.session_id)
    chart_id = listed.text.split("[CHART ")[1].split(":")[0]
    cats = [10, 20, 30] if kind == "scatter" else ["Alpha", "Beta", "Gamma"]
    series = [{"name": "East", "values": [7771, 7772, 7773]}, {"name": "West", "values": [8881, 8882, 8883]},
              {"name": "Mid", "values": [9991, 9992, 9993]}]
    await docx.ok("docx_update_chart", session_id=docx.session_id, chart_id=chart_id, categories=cats,
                  series=series, title=f"Updated {kind}")
    out = tmp_path / f"{kind}-updated.docx"
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
    return src, out, cats, series


@pytest.mark.parametrize("kind", KINDS)
async def test_updated_chart_workbook_holds_the_numbers_where_formulas_point(docx, tmp_path, kind):
    _, out, cats, series = await _updated(docx, tmp_path, kind)
    z = zipfile.ZipFile(out)
    book = openpyxl.load_workbook(io.BytesIO(z.read(BOOK)))
    sers = etree.fromstring(z.read("word/charts/chart1.xml")).findall(".//c:ser", NS)
    assert len(sers) == 3
    for ser, want in zip(sers, series):
        val = ser.find("c:val", NS) if ser.find("c:val", NS) is not None else ser.find("c:yVal", NS)
        assert sheets.read_range(book, val.findtext(".//c:f", namespaces=NS)) == want["values"]
        assert [float(v.text) for v in val.iterfind(".//c:pt/c:v", NS)] == want["values"]
        cat = ser.find("c:cat", NS) if ser.find("c:cat", NS) is not None else ser.find("c:xVal", NS)
        assert sheets.read_range(book, cat.findtext(".//c:f", namespaces=NS)) == cats
    assert check_package(Document.open(out)) == []


async def test_updated_charts_validate_and_libreoffice_shows_the_new_values(docx, tmp_path):
    sdk_validator.require()
    require_soffice()
    pairs = [await _updated(docx, tmp_path, kind) for kind in KINDS]
    found = sdk_validator.validate_files([f for src, out, *_ in pairs for f in (src, out)])
    errors = {out.name: found[out.resolve()] for _, out, *_ in pairs if found[out.resolve()]}
    errors.update({src.name: found[src.resolve()] for src, *_ in pairs if found[src.resolve()]})
    assert errors == {}
    converted = convert_cached([out for _, out, *_ in pairs], label="updated charts", target="odt")
    for _, out, *_ in pairs:
        odt = converted[out.resolve()]
        assert odt is not None, f"LibreOffice refused {out.name}"
        z = zipfile.ZipFile(odt)
        charts = b"".join(z.read(n) for n in z.namelist() if n.startswith("Object") and n.endswith("content.xml"))
        assert b"8882" in charts and b"East" in charts and b"7771" in charts


async def test_inserted_charts_of_every_kind_validate_and_libreoffice_shows_them(docx, tmp_path):
    sdk_validator.require()
    require_soffice()
    await docx.create()
    for kind in ("column", "bar", "line", "pie", "area", "scatter"):
        cats = [1, 2, 3] if kind == "scatter" else ["Red", "Green", "Blue"]
        answer = await docx.ok("docx_insert_chart", session_id=docx.session_id, kind=kind, categories=cats,
                               series=[{"name": f"{kind}Series", "values": [6661, None, 6663]}],
                               position="end:document_body", title=f"{kind} & co")
        assert answer.element_id.startswith("chart_")
    out = tmp_path / "inserted.docx"
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(out))
    assert check_package(Document.open(out)) == []
    assert sdk_validator.validate_files([out])[out.resolve()] == []
    odt = convert_cached([out], label="inserted charts", target="odt")[out.resolve()]
    assert odt is not None
    z = zipfile.ZipFile(odt)
    objects = [z.read(n) for n in z.namelist() if n.startswith("Object") and n.endswith("content.xml")]
    assert len(objects) == 6 and all(b"6663" in o for o in objects)


async def test_an_unknown_kind_is_refused_and_changes_nothing(docx, tmp_path):
    await docx.create()
    bad = await docx.call("docx_insert_chart", session_id=docx.session_id, kind="donut", categories=["a"],
                          series=[{"name": "s", "values": [1]}], position="end:document_body")
    assert bad.is_error and "Unknown chart kind 'donut'" in bad.text
    listed = await docx.ok("docx_list_charts", session_id=docx.session_id)
    assert "no charts" in listed.text
