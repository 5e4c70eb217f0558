"""Charts read back (ooxml/charts): every corpus chart's series as its chart part holds them, and a
series whose cache is missing read from the embedded workbook where its formula points."""
from __future__ import annotations

import zipfile

import pytest
from lxml import etree

from ooxml.charts import locate
from ooxml.model.document import Document
from tests.support.corpus import corpus_files, corpus_params

NS = {"c": "http://schemas.openxmlformats.org/drawingml/2006/chart"}


def _has_chart(path) -> bool:
    return any(n.startswith("word/charts/chart") for n in zipfile.ZipFile(path).namelist())


CHART_FILES = [p for p in corpus_files() if _has_chart(p)]


def _part_numbers(xml: bytes) -> list[list[str]]:
    """Each series' cached values as the part's text holds them, in idx order."""
    root = etree.fromstring(xml)
    out = []
    for ser in root.iterfind(".//c:plotArea/*/c:ser", NS):
        pts = ser.xpath("(c:val|c:yVal)//c:numCache/c:pt", namespaces=NS)
        out.append([p.findtext("c:v", namespaces=NS) for p in sorted(pts, key=lambda p: int(p.get("idx")))])
    return out


@pytest.mark.parametrize("path", corpus_params(CHART_FILES))
def test_corpus_charts_read_as_their_parts_hold_them(path):
    doc = Document.open(path)
    refs = locate.references(doc)
    assert refs
    for ref in refs:
        chart = locate.read(doc, ref)
        xml = etree.tostring(doc.package.part(chart.part_name).tree)  # Strict names read as Transitional
        want = [[float(v) for v in s] for s in _part_numbers(xml)]
        assert [[float(v) for v in s.values] for s in chart.series] == want
        assert all(s.name for s in chart.series) and chart.categories
        assert doc.id_of(ref).startswith("chart_")


def test_a_missing_cache_is_read_from_the_embedded_workbook(tmp_path):
    src = next((p for p in CHART_FILES if "Chart-Embedded-Xlsx" in p.name), None)
    if src is None:
        pytest.skip("corpus file with an embedded workbook not present")
    doc = Document.open(src)
    ref = locate.references(doc)[0]
    cached = locate.read(doc, ref)
    part = doc.package.part(cached.part_name)
    for cache in part.tree.getroot().iterfind(".//c:numCache", NS):
        cache.getparent().remove(cache)
    part.touch()
    from_book = locate.read(doc, ref)
    assert [s.values for s in from_book.series] == [s.values for s in cached.series]
    assert from_book.series[1].values == [2.4, 4.4, 1.8, 2.8]


@pytest.mark.parametrize("kind", ["column", "bar", "line", "pie", "scatter"])
def test_a_built_chart_reads_as_written(tmp_path, kind):
    from tests.builders import build_chart_docx
    cats = [1, 2, 3] if kind == "scatter" else ["Q1", "Q2", "Q3"]
    series = [("North", [4.3, 2.5, None]), ("South", [2, 4, 1.5])]
    doc = Document.open(build_chart_docx(tmp_path / "c.docx", kind, cats, series, title="Sales & costs"))
    chart = locate.read(doc, locate.references(doc)[0])
    assert (chart.kind, chart.title, chart.categories) == (kind, "Sales & costs", cats)
    assert [(s.name, s.values) for s in chart.series] == series
    assert chart.workbook == "word/embeddings/Microsoft_Excel_Worksheet.xlsx"


def test_multi_level_categories_join_their_labels():
    from ooxml.charts import model
    cache = etree.fromstring(
        f'<c:multiLvlStrCache xmlns:c="{NS["c"]}"><c:ptCount val="3"/>'
        '<c:lvl><c:pt idx="0"><c:v>Q1</c:v></c:pt><c:pt idx="1"><c:v>Q2</c:v></c:pt><c:pt idx="2"><c:v>Q1</c:v></c:pt></c:lvl>'
        '<c:lvl><c:pt idx="0"><c:v>2024</c:v></c:pt><c:pt idx="2"><c:v>2025</c:v></c:pt></c:lvl></c:multiLvlStrCache>')
    holder = etree.Element(f"{{{NS['c']}}}cat")
    holder.append(cache)
    assert model.ref_values(holder) == ["2024 / Q1", "2024 / Q2", "2025 / Q1"]


@pytest.mark.parametrize("path", corpus_params(CHART_FILES))
def test_corpus_charts_update_caches_and_workbook_together(path):
    """Every chart of the file gets new data: read back equal, the workbook (when it has one) holding the
    numbers where the formulas point, and the package still sound."""
    import io

    import openpyxl

    from ooxml.charts import sheets, update
    from ooxml.model.integrity import check_package
    doc = Document.open(path)
    known = set(check_package(Document.open(path)))
    for n, ref in enumerate(locate.references(doc)):
        chart = locate.read(doc, ref)
        cats = [1.5, 2.5, 3.5] if chart.kind in ("scatter", "bubble") else ["A", "B", "C"]
        pairs = [(f"S{j}", [n * 10 + j, None, 7.25]) for j in range(len(chart.series) + 1)]
        space = doc.package.part(chart.part_name).tree.getroot()
        sheet = update.sheet_name(chart)
        update.write_chart(space, chart, cats, pairs, sheet)
        wrote = chart.workbook and update.write_workbook(doc.package, chart.workbook, chart, cats, pairs, sheet)
        doc.package.part(chart.part_name).touch()
        again = locate.read(doc, ref)
        assert [(s.name, s.values) for s in again.series] == pairs and again.categories == cats
        if wrote:
            book = openpyxl.load_workbook(io.BytesIO(doc.package.part(chart.workbook).data))
            for s, (_, values) in zip(again.series, pairs):
                f = s.element.find("c:val//c:f", NS)
                f = f if f is not None else s.element.find("c:yVal//c:f", NS)
                assert sheets.read_range(book, f.text) == values
    assert set(check_package(doc)) - known == set()
