"""Hand-made .docx files for tests: a minimal valid package around a body given as XML.

Tests that need structures no tool creates (merged cells from elsewhere, tracked changes,
fields, headers with pictures) write them here as WordprocessingML text.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

from PIL import Image

from ooxml.opc.template import new_package_parts

NAMESPACES = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14"'
)
SECT = ('<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" '
        'w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>')
RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = {"w": W, "r": RT.rstrip("/"), "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
      "a": "http://schemas.openxmlformats.org/drawingml/2006/main", "oxm": "urn:ooxml-mcp:ids:2026",
      "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
      "ct": "http://schemas.openxmlformats.org/package/2006/content-types",
      "pr": "http://schemas.openxmlformats.org/package/2006/relationships"}


def document_xml(body: str, sect: str | None = SECT) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document {NAMESPACES}>'
            f'<w:body>{body}{sect or ""}</w:body></w:document>').encode()


def part_xml(root: str, body: str) -> bytes:
    """A header/footer/notes part: ``root`` is e.g. 'w:hdr'."""
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<{root} {NAMESPACES}>{body}</{root}>'.encode()


def build_docx(path: Path, body: str, *, sect: str | None = SECT, styles: bool = True,
               extra_parts: dict[str, bytes] | None = None,
               rels: list[tuple[str, str, str]] | None = None,
               overrides: dict[str, str] | None = None) -> Path:
    """Write a .docx: the product's template with ``body`` as the body's content.

    ``rels``: extra (Id, type name such as 'header', target) relationships of the main part;
    ``overrides``: part name -> content type.
    """
    parts = new_package_parts()
    parts["word/document.xml"] = document_xml(body, sect)
    if not styles:
        del parts["word/styles.xml"]
        parts["word/_rels/document.xml.rels"] = parts["word/_rels/document.xml.rels"].replace(
            b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
            b'Target="styles.xml"/>', b"")
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            b'<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.'
            b'wordprocessingml.styles+xml"/>', b"")
    if rels:
        extra = "".join(f'<Relationship Id="{i}" Type="{RT}{t}" Target="{target}"/>' for i, t, target in rels)
        parts["word/_rels/document.xml.rels"] = parts["word/_rels/document.xml.rels"].replace(
            b"</Relationships>", extra.encode() + b"</Relationships>")
    if overrides:
        extra = "".join(f'<Override PartName="/{n}" ContentType="{ct}"/>' for n, ct in overrides.items())
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(b"</Types>", extra.encode() + b"</Types>")
    parts.update(extra_parts or {})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return path


def png(path: Path, size=(300, 150), dpi=(150, 150), colour=(200, 30, 30)) -> Path:
    Image.new("RGB", size, colour).save(path, dpi=dpi)
    return path


def p(text: str = "", attrs: str = "") -> str:
    return f"<w:p{attrs}>" + (f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else "") + "</w:p>"


def tc(content: str = "", tcpr: str = "") -> str:
    return f"<w:tc>{f'<w:tcPr>{tcpr}</w:tcPr>' if tcpr else ''}{content or '<w:p/>'}</w:tc>"


def tbl(rows: list[list[str]], grid: list[int] | None = None) -> str:
    """A table from rows of ready-made ``<w:tc>`` strings."""
    n = max(len(r) for r in rows)
    grid = grid or [2000] * n
    cols = "".join(f'<w:gridCol w:w="{g}"/>' for g in grid)
    body = "".join("<w:tr>" + "".join(r) + "</w:tr>" for r in rows)
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{cols}</w:tblGrid>{body}</w:tbl>'


# ---- charts: a chart part as Word writes one (python-pptx's chart XML is the model), with its workbook ----

CHART_NS = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_CHART_GROUPS = {"column": ("barChart", '<c:barDir val="col"/><c:grouping val="clustered"/>'),
                 "bar": ("barChart", '<c:barDir val="bar"/><c:grouping val="clustered"/>'),
                 "line": ("lineChart", '<c:grouping val="standard"/>'),
                 "pie": ("pieChart", ""), "scatter": ("scatterChart", '<c:scatterStyle val="lineMarker"/>')}


def _col(i: int) -> str:
    return chr(ord("A") + i)


def _cache(tag: str, values: list, fmt: bool) -> str:
    from xml.sax.saxutils import escape
    pts = "".join(f'<c:pt idx="{i}"><c:v>{escape(str(v))}</c:v></c:pt>' for i, v in enumerate(values) if v is not None)
    return f"<c:{tag}>" + ("<c:formatCode>General</c:formatCode>" if fmt else "") + \
        f'<c:ptCount val="{len(values)}"/>{pts}</c:{tag}>'


def chart_xml(kind: str, categories: list, series: list[tuple[str, list]], title: str | None = None,
              workbook: bool = True) -> bytes:
    from xml.sax.saxutils import escape
    group, head = _CHART_GROUPS[kind]
    n = len(categories)
    xy = kind == "scatter"
    sers = []
    for j, (name, values) in enumerate(series):
        col = _col(j + 1)
        cat_tag, val_tag = ("xVal", "yVal") if xy else ("cat", "val")
        cat_ref = (f"<c:numRef><c:f>Sheet1!$A$2:$A${n + 1}</c:f>{_cache('numCache', categories, True)}</c:numRef>"
                   if xy else f"<c:strRef><c:f>Sheet1!$A$2:$A${n + 1}</c:f>{_cache('strCache', categories, False)}</c:strRef>")
        sers.append(
            f'<c:ser><c:idx val="{j}"/><c:order val="{j}"/><c:tx><c:strRef><c:f>Sheet1!${col}$1</c:f>'
            f'{_cache("strCache", [name], False)}</c:strRef></c:tx>'
            + ('<c:invertIfNegative val="0"/>' if group == "barChart" else "")
            + ('<c:marker><c:symbol val="none"/></c:marker>' if group in ("lineChart", "scatterChart") else "")
            + f"<c:{cat_tag}>{cat_ref}</c:{cat_tag}><c:{val_tag}><c:numRef><c:f>Sheet1!${col}$2:${col}${n + 1}</c:f>"
            f"{_cache('numCache', values, True)}</c:numRef></c:{val_tag}>"
            + ('<c:smooth val="0"/>' if group in ("lineChart", "scatterChart") else "") + "</c:ser>")
    axes_ids = "" if kind == "pie" else '<c:axId val="1001"/><c:axId val="1002"/>'
    tail = {"barChart": '<c:gapWidth val="150"/>', "lineChart": '<c:marker val="1"/>',
            "pieChart": '<c:firstSliceAng val="0"/>', "scatterChart": ""}[group]
    first_ax = ('<c:valAx><c:axId val="1001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>'
                '<c:axPos val="b"/><c:numFmt formatCode="General" sourceLinked="1"/><c:tickLblPos val="nextTo"/>'
                '<c:crossAx val="1002"/><c:crosses val="autoZero"/><c:crossBetween val="midCat"/></c:valAx>') if xy else (
                '<c:catAx><c:axId val="1001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>'
                '<c:axPos val="b"/><c:tickLblPos val="nextTo"/><c:crossAx val="1002"/><c:crosses val="autoZero"/>'
                '<c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>')
    axes = "" if kind == "pie" else first_ax + (
        '<c:valAx><c:axId val="1002"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>'
        '<c:axPos val="l"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/>'
        '<c:tickLblPos val="nextTo"/><c:crossAx val="1001"/><c:crosses val="autoZero"/>'
        '<c:crossBetween val="between"/></c:valAx>')
    title_xml = (f'<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>{escape(title)}</a:t></a:r></a:p></c:rich>'
                 f'</c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>') if title else \
        '<c:autoTitleDeleted val="1"/>'
    vary = '<c:varyColors val="1"/>' if kind == "pie" else '<c:varyColors val="0"/>'
    external = '<c:externalData r:id="rId1"><c:autoUpdate val="0"/></c:externalData>' if workbook else ""
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace xmlns:c="{CHART_NS}" '
            'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<c:date1904 val="0"/><c:roundedCorners val="0"/>'
            f'<c:chart>{title_xml}<c:plotArea><c:layout/><c:{group}>{head}{vary}{"".join(sers)}{tail}{axes_ids}'
            f'</c:{group}>{axes}</c:plotArea><c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend>'
            f'<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart>{external}</c:chartSpace>').encode()


def chart_workbook(categories: list, series: list[tuple[str, list]]) -> bytes:
    """The embedded workbook as Word lays it out: categories in A2.., series names in row 1."""
    import io
    from openpyxl import Workbook
    book = Workbook()
    ws = book.active
    ws.title = "Sheet1"
    for i, cat in enumerate(categories):
        ws.cell(row=i + 2, column=1, value=cat)
    for j, (name, values) in enumerate(series):
        ws.cell(row=1, column=j + 2, value=name)
        for i, v in enumerate(values):
            ws.cell(row=i + 2, column=j + 2, value=v)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def chart_paragraph(rid: str = "rIdChart1", doc_pr: int = 50) -> str:
    return ('<w:p><w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="5486400" '
            f'cy="3200400"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="{doc_pr}" name="Chart {doc_pr}"/>'
            '<wp:cNvGraphicFramePr/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
            f'<a:graphicData uri="{CHART_NS}"><c:chart xmlns:c="{CHART_NS}" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
            f'r:id="{rid}"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')


def build_chart_docx(path: Path, kind: str = "column", categories: list | None = None,
                     series: list[tuple[str, list]] | None = None, title: str | None = "Sales",
                     workbook: bool = True) -> Path:
    """A document with one chart (and its embedded workbook unless ``workbook`` is False)."""
    categories = categories if categories is not None else ["Q1", "Q2", "Q3", "Q4"]
    series = series if series is not None else [("North", [4.3, 2.5, 3.5, 4.5]), ("South", [2.4, 4.4, 1.8, 2.8])]
    parts = {"word/charts/chart1.xml": chart_xml(kind, categories, series, title, workbook)}
    overrides = {"word/charts/chart1.xml": "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"}
    if workbook:
        parts["word/embeddings/Microsoft_Excel_Worksheet.xlsx"] = chart_workbook(categories, series)
        parts["word/charts/_rels/chart1.xml.rels"] = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.'
            'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
            'openxmlformats.org/officeDocument/2006/relationships/package" '
            'Target="../embeddings/Microsoft_Excel_Worksheet.xlsx"/></Relationships>').encode()
        overrides["word/embeddings/Microsoft_Excel_Worksheet.xlsx"] = \
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    body = p("Before the chart.") + chart_paragraph() + p("After the chart.")
    return build_docx(path, body, extra_parts=parts, rels=[("rIdChart1", "chart", "charts/chart1.xml")],
                      overrides=overrides)
