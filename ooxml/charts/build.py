"""A new chart as Word writes one: the chart part (python-pptx's XML is the model), its embedded
workbook (openpyxl, Word's layout: categories in column A from row 2, series from column B, names in
row 1) and the inline drawing that shows it."""
from __future__ import annotations

import posixpath
from xml.sax.saxutils import escape

from lxml import etree

from ooxml.charts import sheets
from ooxml.xml import budget
from ooxml.charts.model import C
from ooxml.opc.types import CT, RT
from ooxml.xml.namespaces import A, R, WP, w
from ooxml.xml.safexml import parse_part

KINDS = ("column", "bar", "line", "pie", "area", "scatter")
SHEET = "Sheet1"
_GROUPS = {"column": ("barChart", '<c:barDir val="col"/><c:grouping val="clustered"/>', '<c:gapWidth val="150"/>'),
           "bar": ("barChart", '<c:barDir val="bar"/><c:grouping val="clustered"/>', '<c:gapWidth val="150"/>'),
           "line": ("lineChart", '<c:grouping val="standard"/>', '<c:marker val="1"/>'),
           "area": ("areaChart", '<c:grouping val="standard"/>', ""),
           "pie": ("pieChart", "", '<c:firstSliceAng val="0"/>'),
           "scatter": ("scatterChart", '<c:scatterStyle val="lineMarker"/>', "")}
_AXES = ('<c:{first}><c:axId val="{a}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>'
         '<c:axPos val="{pos1}"/>{num}<c:majorTickMark val="out"/><c:minorTickMark val="none"/>'
         '<c:tickLblPos val="nextTo"/><c:crossAx val="{b}"/><c:crosses val="autoZero"/>{first_tail}</c:{first}>'
         '<c:valAx><c:axId val="{b}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>'
         '<c:axPos val="{pos2}"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/>'
         '<c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>'
         '<c:crossAx val="{a}"/><c:crosses val="autoZero"/><c:crossBetween val="{between}"/></c:valAx>')
_CAT_TAIL = '<c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/>'


def _cache(tag: str, values: list, numeric: bool) -> str:
    pts = "".join(f'<c:pt idx="{i}"><c:v>{escape(_text(v))}</c:v></c:pt>' for i, v in enumerate(values)
                  if v is not None)
    fmt = "<c:formatCode>General</c:formatCode>" if numeric else ""
    return f'<c:{tag}>{fmt}<c:ptCount val="{len(values)}"/>{pts}</c:{tag}>'


def _text(v) -> str:
    return repr(float(v)).removesuffix(".0") if isinstance(v, float) else str(v)


def _ref(kind: str, formula: str, values: list, numeric: bool) -> str:
    ref, cache = ("numRef", "numCache") if numeric else ("strRef", "strCache")
    return f"<c:{ref}><c:f>{escape(formula)}</c:f>{_cache(cache, values, numeric)}</c:{ref}>"


def chart_xml(kind: str, categories: list, pairs: list[tuple[str, list]], title: str | None) -> bytes:
    group, head, tail = _GROUPS[kind]
    n, xy = len(categories), kind == "scatter"
    numeric_cats = xy or all(isinstance(v, (int, float)) for v in categories)
    cat_f = sheets.formula(SHEET, 1, 2, 1, n + 1)
    sers = []
    for j, (name, values) in enumerate(pairs):
        budget.check()
        col = j + 2
        cat_tag, val_tag = ("xVal", "yVal") if xy else ("cat", "val")
        extra = ('<c:invertIfNegative val="0"/>' if group == "barChart" else "") + \
            ('<c:marker><c:symbol val="none"/></c:marker>' if group == "lineChart" else "")
        sers.append(f'<c:ser><c:idx val="{j}"/><c:order val="{j}"/><c:tx>'
                    f'{_ref(kind, sheets.formula(SHEET, col, 1), [name], False)}</c:tx>{extra}'
                    f'<c:{cat_tag}>{_ref(kind, cat_f, categories, numeric_cats)}</c:{cat_tag}>'
                    f'<c:{val_tag}>{_ref(kind, sheets.formula(SHEET, col, 2, col, n + 1), values, True)}</c:{val_tag}>'
                    + ('<c:smooth val="0"/>' if group in ("lineChart", "scatterChart") else "") + "</c:ser>")
    vary = '<c:varyColors val="1"/>' if kind == "pie" else '<c:varyColors val="0"/>'
    ax_ids = "" if kind == "pie" else '<c:axId val="500000001"/><c:axId val="500000002"/>'
    axes = "" if kind == "pie" else _AXES.format(
        first="valAx" if xy else "catAx", a=500000001, b=500000002, pos1="l" if kind == "bar" else "b",
        pos2="b" if kind == "bar" else "l", between="midCat" if xy else "between",
        num='<c:numFmt formatCode="General" sourceLinked="1"/>' if xy else "",
        first_tail="<c:crossBetween val=\"midCat\"/>" if xy else _CAT_TAIL)
    title_xml = (f'<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>{escape(title)}</a:t></a:r>'
                 f'</a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>') if title \
        else '<c:autoTitleDeleted val="1"/>'
    legend = '<c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend>'
    xml = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace xmlns:c="{C}" xmlns:a="{A}" '
           f'xmlns:r="{R}"><c:date1904 val="0"/><c:roundedCorners val="0"/><c:chart>{title_xml}<c:plotArea>'
           f'<c:layout/><c:{group}>{head}{vary}{"".join(sers)}{tail}{ax_ids}</c:{group}>{axes}</c:plotArea>'
           f'{legend}<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart>'
           f'<c:externalData r:id="rId1"><c:autoUpdate val="0"/></c:externalData></c:chartSpace>')
    return xml.encode()


def workbook(categories: list, pairs: list[tuple[str, list]]) -> bytes:
    from openpyxl import Workbook  # only charts need it
    book = Workbook()
    book.properties.created = None  # set by sheets.save from the call's clock, not the wall clock
    ws = book.active
    ws.title = SHEET
    sheets.write_data(ws, categories, pairs)
    return sheets.save(book)


def add_parts(package, source_part: str, chart: bytes, book: bytes) -> str:
    """The chart part and its workbook as new parts, related from ``source_part``; the chart's rId."""
    folder = posixpath.dirname(source_part)
    name = package.free_name(f"{folder}/charts/chart1.xml", folder + "/charts/chart{}.xml")
    book_name = package.free_name(f"{folder}/embeddings/Microsoft_Excel_Worksheet.xlsx",
                                  folder + "/embeddings/Microsoft_Excel_Worksheet{}.xlsx")
    package.add_part(book_name, book, CT.XLSX)
    package.add_part(name, chart, CT.CHART)
    rid = package.relate_part(name, RT.PACKAGE, book_name)
    if rid != "rId1":  # the chart part's only relationship: its externalData names it
        part = package.part(name)
        part.tree.getroot().find(f"{{{C}}}externalData").set(f"{{{R}}}id", rid)
        part.touch()
    return package.relate_part(source_part, RT.CHART, name)


def inline_chart(rid: str, cx: int, cy: int, doc_pr_id: int, name: str) -> etree._Element:
    """``w:drawing/wp:inline`` showing the chart related as ``rid``."""
    xml = (f'<w:drawing xmlns:w="{w("x")[1:].split("}")[0]}" xmlns:wp="{WP}" xmlns:a="{A}" xmlns:c="{C}" '
           f'xmlns:r="{R}"><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="{cx}" cy="{cy}"/>'
           f'<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="{doc_pr_id}" name="{escape(name)}"/>'
           f'<wp:cNvGraphicFramePr/><a:graphic><a:graphicData uri="{C}"><c:chart r:id="{rid}"/>'
           f'</a:graphicData></a:graphic></wp:inline></w:drawing>')
    return parse_part(xml.encode(), "chart drawing").getroot()
