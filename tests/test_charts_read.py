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
