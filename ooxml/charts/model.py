"""A chart as a reader sees it: kind, title, axis titles, series names, categories and values.

Read from the chart part's caches (``c:strCache``/``c:numCache``/``c:multiLvlStrCache``); a series
whose cache is missing is read from the embedded workbook where its formula points (``sheets``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from ooxml.charts import sheets
from ooxml.xml.namespaces import A, R
from ooxml.xml.numbers import file_int

C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
GRAPHIC_URI = C  # a:graphicData/@uri of a chart
MAX_POINTS = 100_000  # a ptCount beyond this is a damaged or hostile file: read as this many


def c(tag: str) -> str:
    return f"{{{C}}}{tag}"


# plotArea children -> the kind a reader names
_KINDS = {"barChart": "bar", "bar3DChart": "bar", "lineChart": "line", "line3DChart": "line",
          "pieChart": "pie", "pie3DChart": "pie", "ofPieChart": "pie", "doughnutChart": "doughnut",
          "areaChart": "area", "area3DChart": "area", "scatterChart": "scatter", "radarChart": "radar",
          "bubbleChart": "bubble", "stockChart": "stock", "surfaceChart": "surface",
          "surface3DChart": "surface"}


@dataclass
class Series:
    name: str | None
    values: list
    categories: list
    element: etree._Element = field(repr=False, compare=False)


@dataclass
class Chart:
    kind: str  # the first group's; combos list every group's in ``kinds``
    kinds: list[str]
    title: str | None
    axes: list[dict]
    series: list[Series]
    part_name: str
    workbook: str | None  # the embedded workbook's part name (xlsx), if any

    @property
    def categories(self) -> list:
        return next((s.categories for s in self.series if s.categories), [])


def plot_groups(space: etree._Element) -> list[etree._Element]:
    """The chart-type elements of the plot area (more than one: a combo chart)."""
    area = space.find(f"{c('chart')}/{c('plotArea')}")
    if area is None:
        return []
    return [g for g in area if etree.QName(g).localname in _KINDS]


def kind_of(group: etree._Element) -> str:
    kind = _KINDS[etree.QName(group).localname]
    if kind == "bar":
        bar_dir = group.find(c("barDir"))
        return "bar" if bar_dir is not None and bar_dir.get("val") == "bar" else "column"
    return kind


def rich_text(tx: etree._Element | None, book=None) -> str | None:
    """A ``c:tx``'s text: rich paragraphs, a cell reference's cache (or cell), or a literal."""
    if tx is None:
        return None
    rich = tx.find(c("rich"))
    if rich is not None:
        paras = ["".join(t.text or "" for t in p.iter(f"{{{A}}}t")) for p in rich.iter(f"{{{A}}}p")]
        return "\n".join(paras).strip() or None
    ref = tx.find(c("strRef"))
    if ref is not None:
        values = ref_values(ref, book)
        return " ".join(str(v) for v in values if v not in (None, "")) or None
    v = tx.find(c("v"))
    return v.text if v is not None else None


def point_count(cache: etree._Element) -> int:
    count = cache.find(c("ptCount"))
    return file_int(count.get("val") if count is not None else None, 0, 0, MAX_POINTS)


def cache_points(cache: etree._Element) -> list:
    """A cache's points by ``idx`` (missing points are None); numbers as float when numeric."""
    n = point_count(cache)
    numeric = etree.QName(cache).localname in ("numCache", "numLit")
    out: list = [None] * n
    for pt in cache.iterchildren(c("pt")):
        idx = file_int(pt.get("idx"), -1, -1, MAX_POINTS)
        if 0 <= idx < n:
            out[idx] = _value(pt.findtext(c("v")), numeric)
    return out


def _value(text: str | None, numeric: bool):
    if text is None or not numeric:
        return text
    try:
        number = float(text)
    except ValueError:
        return text
    return int(number) if number.is_integer() and abs(number) < 1e15 else number


def _multi_level(cache: etree._Element) -> list:
    """A multi-level category cache: each point's labels joined outermost first ("2024 / Q1")."""
    n = point_count(cache)
    levels = []
    for lvl in cache.iterchildren(c("lvl")):
        pts = [None] * n
        for pt in lvl.iterchildren(c("pt")):
            idx = file_int(pt.get("idx"), -1, -1, MAX_POINTS)
            if 0 <= idx < n:
                pts[idx] = pt.findtext(c("v"))
        levels.append(pts)
    out = []
    for i in range(n):  # an outer label holds for the points after it until the next
        parts = []
        for pts in reversed(levels):
            label = next((pts[j] for j in range(i, -1, -1) if pts[j] is not None), None) \
                if pts is not levels[0] else pts[i]
            if label is not None:
                parts.append(label)
        out.append(" / ".join(parts) if parts else None)
    return out


def ref_values(holder: etree._Element | None, book=None) -> list:
    """The data under ``c:cat``/``c:val``/``c:tx``-like holders: the cache, else the workbook cell range."""
    if holder is None:
        return []
    for el in holder.iter(c("strCache"), c("numCache"), c("strLit"), c("numLit"), c("multiLvlStrCache")):
        return _multi_level(el) if el.tag == c("multiLvlStrCache") else cache_points(el)
    formula = next(holder.iter(c("f")), None)
    wb = book.get() if book is not None and formula is not None and formula.text else None
    return sheets.read_range(wb, formula.text) if wb is not None else []


def read(space: etree._Element, part_name: str, workbook_name: str | None, load_book) -> Chart:
    """The chart in a ``c:chartSpace``; ``load_book()`` gives the workbook when a cache is missing."""
    groups = plot_groups(space)
    book = _Lazy(load_book)
    series = []
    for group in groups:
        for ser in group.iterchildren(c("ser")):
            cats = ser.find(c("cat"))
            if cats is None:
                cats = ser.find(c("xVal"))
            vals = ser.find(c("val"))
            if vals is None:
                vals = ser.find(c("yVal"))
            series.append(Series(rich_text(ser.find(c("tx")), book), ref_values(vals, book),
                                 ref_values(cats, book), ser))
    kinds = [kind_of(g) for g in groups]
    chart_el = space.find(c("chart"))
    title = rich_text(chart_el.find(f"{c('title')}/{c('tx')}"), book) if chart_el is not None else None
    return Chart(kinds[0] if kinds else "unknown", kinds, title, _axes(space, book), series,
                 part_name, workbook_name)


def _axes(space: etree._Element, book) -> list[dict]:
    area = space.find(f"{c('chart')}/{c('plotArea')}")
    out = []
    for ax in (area if area is not None else []):
        name = etree.QName(ax).localname
        if name in ("catAx", "valAx", "dateAx", "serAx"):
            title = rich_text(ax.find(f"{c('title')}/{c('tx')}"), book)
            pos = ax.find(c("axPos"))
            out.append({"axis": name, "position": pos.get("val") if pos is not None else None,
                        "title": title})
    return out


class _Lazy:
    """The workbook, loaded on first need (most charts have every cache)."""

    def __init__(self, load):
        self._load, self._book, self._done = load, None, False

    def get(self):
        if not self._done:
            self._book, self._done = self._load(), True
        return self._book


def chart_rid(ref: etree._Element) -> str | None:
    return ref.get(f"{{{R}}}id")
