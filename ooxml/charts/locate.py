"""Where a document's charts are: each ``c:chart`` reference in a story (body, headers, footers,
notes) and the chart part and embedded workbook its relationships name. The reference carries the
chart's ID (``chart_…``)."""
from __future__ import annotations

from lxml import etree

from ooxml.charts import model, sheets
from ooxml.opc.types import RT
from ooxml.xml.errors import ElementNotFound, InvalidElementType
from ooxml.xml.namespaces import MC

_CHART = model.c("chart")
FALLBACK = f"{{{MC}}}Fallback"
_NOT_FOUND_HINT = "Call docx_list_charts for the charts' IDs."


def references(doc) -> list[etree._Element]:
    """Every chart reference in reading order of the stories (main first), fallbacks skipped."""
    out = []
    for root in doc.story_roots():
        out.extend(ref for ref in root.iter(_CHART)
                   if next(ref.iterancestors(FALLBACK), None) is None)
    return out


def part_name(doc, ref: etree._Element) -> str | None:
    """The chart part a reference names, or None when its relationship or part is missing."""
    source = doc.part_of(ref).name
    rid = model.chart_rid(ref)
    for rel in doc.package.rels(source):
        if rel.get("Id") == rid and rel.get("TargetMode") != "External":
            name = doc.package.resolve_target(source, rel.get("Target", ""))
            return name if doc.package.has_part(name) else None
    return None


def workbook_name(package, chart_part: str) -> str | None:
    """The embedded .xlsx the chart's ``c:externalData`` names (an OLE .xls is not editable: None)."""
    space = package.part(chart_part).tree.getroot()
    ext = space.find(model.c("externalData"))
    rid = ext.get(f"{{{model.R}}}id") if ext is not None else None
    for rel in package.rels(chart_part):
        if (rid is None or rel.get("Id") == rid) and rel.get("Type") == RT.PACKAGE \
                and rel.get("TargetMode") != "External":
            name = package.resolve_target(chart_part, rel.get("Target", ""))
            return name if package.has_part(name) else None
    return None


def read(doc, ref: etree._Element) -> model.Chart | None:
    name = part_name(doc, ref)
    if name is None:
        return None
    package = doc.package
    book = workbook_name(package, name)
    return model.read(package.part(name).tree.getroot(), name, book,
                      lambda: sheets.load(package.part(book).data) if book else None)


def find(doc, chart_id: str) -> etree._Element:
    """The chart reference with this ID; a clear error for another kind of element or none."""
    try:
        el = doc.find(chart_id)
    except ElementNotFound as e:
        raise ElementNotFound(f"Chart '{chart_id}' not found.", hint=_NOT_FOUND_HINT) from e
    if el.tag != _CHART:
        raise InvalidElementType(f"'{chart_id}' is not a chart.", hint=_NOT_FOUND_HINT)
    return el
