"""New data for a chart: its caches (``c:ptCount``, points, ``formatCode``, the series formulas'
ranges) and its embedded workbook, laid out as Word lays it out (categories in column A from row 2,
one series per column from B, names in row 1), so Word's "Edit Data" shows the same numbers."""
from __future__ import annotations

import copy
from numbers import Real

from lxml import etree

from ooxml.charts import model, sheets
from ooxml.charts.build import KINDS
from ooxml.charts.model import c
from ooxml.opc.part import Part
from ooxml.xml import budget
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import A

MAX_SERIES, MAX_POINTS, MAX_VALUES = 255, 10_000, 100_000
_HINT = "Pass categories as a list and series as [{\"name\": …, \"values\": [numbers, one per category]}]."
_DROP_ON_COPY = ("spPr", "dPt", "dLbls", "trendline", "errBars", "extLst")


def plan(chart: model.Chart, categories: list | None, series: list | None) -> tuple[list, list[tuple]]:
    """The categories and (name, values) pairs to write, checked; nothing is changed."""
    cats = list(chart.categories) if categories is None else categories
    pairs = [(s.name, list(s.values)) for s in chart.series] if series is None else _pairs(series)
    check(chart.kind, cats, pairs)
    return list(cats), pairs


def new_data(kind: str, categories, series) -> tuple[list, list[tuple]]:
    """A new chart's data, checked."""
    if kind not in KINDS:
        raise ValidationError(f"Unknown chart kind '{kind}'.", hint="kind is one of: " + ", ".join(KINDS) + ".")
    pairs = _pairs(series)
    check(kind, categories, pairs)
    return list(categories), pairs


def _pairs(series) -> list[tuple]:
    if not isinstance(series, list) or not series or len(series) > MAX_SERIES:
        raise ValidationError(f"series must be a list of 1 to {MAX_SERIES} series.", hint=_HINT)
    pairs = []
    for i, s in enumerate(series):
        if not isinstance(s, dict) or not isinstance(s.get("values"), list) or \
                not isinstance(s.get("name", ""), (str, type(None))):
            raise ValidationError(f"series[{i}] must be {{\"name\": text, \"values\": [numbers]}}.", hint=_HINT)
        pairs.append((s.get("name") or f"Series {i + 1}", s["values"]))
    return pairs


def check(kind: str, cats, pairs: list[tuple]) -> None:
    if not isinstance(cats, list) or len(cats) > MAX_POINTS or not cats:
        raise ValidationError(f"categories must be a list of 1 to {MAX_POINTS} labels.", hint=_HINT)
    if any(not isinstance(v, (str, Real)) or isinstance(v, bool) for v in cats):
        raise ValidationError("Each category must be a text or a number.", hint=_HINT)
    if len(cats) * len(pairs) > MAX_VALUES:
        raise ValidationError(f"A chart holds at most {MAX_VALUES:,} values ({len(cats)} categories × "
                              f"{len(pairs)} series given).", hint="Chart fewer points: aggregate the data first.")
    for i, (name, values) in enumerate(pairs):
        if len(values) != len(cats):
            raise ValidationError(f"Series {i} ('{name}') has {len(values)} values for {len(cats)} categories.",
                                  hint="Give each series one value per category (null for a gap).")
        if any(v is not None and (isinstance(v, bool) or not isinstance(v, Real)) for v in values):
            raise ValidationError(f"Series {i} ('{name}') has a value that is not a number.", hint=_HINT)
    if kind in ("scatter", "bubble") and any(isinstance(v, bool) or not isinstance(v, Real) for v in cats):
        raise ValidationError("A scatter chart's categories are its x values: numbers.", hint=_HINT)


def size_estimate(cats: list, pairs: list[tuple]) -> int:
    """The bytes the chart part and workbook take, about (checked against the call's growth first)."""
    text = sum(len(str(v)) for v in cats) * (len(pairs) + 1)
    return 200 * len(pairs) + 60 * len(cats) * (len(pairs) + 1) + 2 * text + 8000


def sheet_name(chart: model.Chart) -> str:
    for s in chart.series:
        f = next(s.element.iter(c("f")), None)
        ref = sheets.parse_formula(f.text) if f is not None and f.text else None
        if ref:
            return ref[0]
    return "Sheet1"


def write_chart(space: etree._Element, chart: model.Chart, cats: list, pairs: list, sheet: str) -> None:
    sers = [s.element for s in chart.series]
    groups = model.plot_groups(space)
    while len(sers) < len(pairs):
        sers.append(_new_series(sers[-1] if sers else None, groups[0], len(sers)))
    for extra in sers[len(pairs):]:
        extra.getparent().remove(extra)
    n = len(cats)
    numeric_cats = all(isinstance(v, Real) for v in cats)
    for i, (ser, (name, values)) in enumerate(zip(sers, pairs)):
        col = i + 2
        _set_tx(ser, sheets.formula(sheet, col, 1), name)
        xy = ser.find(c("xVal")) is not None or ser.find(c("yVal")) is not None
        cat_tag, val_tag = ("xVal", "yVal") if xy else ("cat", "val")
        _set_data(ser, cat_tag, sheets.formula(sheet, 1, 2, 1, n + 1), cats, numeric_cats, before=val_tag)
        _set_data(ser, val_tag, sheets.formula(sheet, col, 2, col, n + 1), values, True, before=None)


def _new_series(model_ser, group, count: int) -> etree._Element:
    if model_ser is None:
        ser = etree.Element(c("ser"))
        for tag in ("idx", "order"):
            etree.SubElement(ser, c(tag), val="0")
        etree.SubElement(ser, c("val"))
        group.insert(_first_after_series(group), ser)
        return ser
    ser = copy.deepcopy(model_ser)
    for el in [el for el in ser if etree.QName(el).localname in _DROP_ON_COPY]:
        ser.remove(el)  # the copy takes the chart's automatic colours, not the model's
    used = [int(e.get("val", "0")) for e in group.getroottree().getroot().iter(c("idx"))
            if e.getparent().tag == c("ser")]
    for tag in ("idx", "order"):
        ser.find(c(tag)).set("val", str(max(used, default=count - 1) + 1))
    model_ser.addnext(ser)
    return ser


def _first_after_series(group) -> int:
    for i, el in enumerate(group):
        if etree.QName(el).localname not in ("barDir", "grouping", "varyColors", "scatterStyle",
                                             "radarStyle", "wireframe", "ser"):
            return i
    return len(group)


def _set_tx(ser, f: str, name: str) -> None:
    old = ser.find(c("tx"))
    tx = etree.Element(c("tx"))
    ref = etree.SubElement(tx, c("strRef"))
    etree.SubElement(ref, c("f")).text = f
    _points(etree.SubElement(ref, c("strCache")), [name], numeric=False)
    if old is not None:
        old.getparent().replace(old, tx)
    else:
        ser.find(c("order")).addnext(tx)


def _set_data(ser, tag: str, f: str, values: list, numeric: bool, before: str | None) -> None:
    old = ser.find(c(tag))
    fmt = old.findtext(f".//{c('formatCode')}") if old is not None else None
    holder = etree.Element(c(tag))
    ref = etree.SubElement(holder, c("numRef" if numeric else "strRef"))
    etree.SubElement(ref, c("f")).text = f
    cache = etree.SubElement(ref, c("numCache" if numeric else "strCache"))
    if numeric:
        etree.SubElement(cache, c("formatCode")).text = fmt or "General"
    _points(cache, values, numeric)
    if old is not None:
        ser.replace(old, holder)
    elif before is not None and ser.find(c(before)) is not None:
        ser.find(c(before)).addprevious(holder)
    else:
        _insert_val(ser, holder)


def _insert_val(ser, holder) -> None:
    after = [el for el in ser if etree.QName(el).localname in ("smooth", "shape", "extLst", "bubbleSize",
                                                               "bubble3D")]
    (after[0].addprevious(holder) if after else ser.append(holder))


def _points(cache, values: list, numeric: bool) -> None:
    budget.check()
    etree.SubElement(cache, c("ptCount"), val=str(len(values)))
    for i, v in enumerate(values):
        if v is None:
            continue  # a gap: no point, as Word writes an empty cell
        pt = etree.SubElement(cache, c("pt"), idx=str(i))
        etree.SubElement(pt, c("v")).text = _text(v) if numeric else str(v)


def _text(v) -> str:
    return repr(float(v)).removesuffix(".0") if isinstance(v, float) else str(v)


def set_title(space: etree._Element, title: str) -> None:
    chart_el = space.find(c("chart"))
    old = chart_el.find(c("title"))
    new = etree.fromstring(
        f'<c:title xmlns:c="{model.C}" xmlns:a="{A}"><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r>'
        f'<a:t/></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>')
    next(new.iter(f"{{{A}}}t")).text = title
    if old is not None:
        keep = [el for el in old if etree.QName(el).localname in ("layout", "spPr", "txPr")]
        new_overlay = new.find(c("overlay"))
        for el in keep:
            (new_overlay.addprevious(el) if etree.QName(el).localname == "layout" else new.append(el))
        chart_el.replace(old, new)
    else:
        chart_el.insert(0, new)
    deleted = chart_el.find(c("autoTitleDeleted"))
    if deleted is not None:
        deleted.set("val", "0")


def write_workbook(package, name: str, chart: model.Chart, cats: list, pairs: list, sheet: str) -> bool:
    """The workbook rewritten with the new data (a new Part: undo puts the old one back); False when
    openpyxl cannot read it."""
    book = sheets.load(package.part(name).data)
    if book is None:
        return False
    ws = book[sheet] if sheet in book.sheetnames else book.create_sheet(sheet)
    for s in chart.series:  # the old data goes, wherever its formulas pointed on this sheet
        for f in s.element.iter(c("f")):
            ref = sheets.parse_formula(f.text or "")
            if ref and ref[0] == sheet:
                for row in ws.iter_rows(min_row=ref[2], max_row=ref[4], min_col=ref[1], max_col=ref[3]):
                    for cell in row:
                        cell.value = None
    sheets.write_data(ws, cats, pairs)
    sheets.fit_tables(ws, len(pairs) + 1, len(cats) + 1)
    old = package.parts[name]
    package.parts[name] = Part(package, old.info, sheets.save(book))
    return True
