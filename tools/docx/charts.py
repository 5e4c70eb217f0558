"""Charts (SPEC §12, toolset content): list, read, and new data written to the caches and the
embedded workbook."""
from __future__ import annotations

import json

import render.charts_view as V
from lxml import etree

from ooxml.charts import build, locate, model, update
from ooxml.xml import growth
from ooxml.xml.errors import InvalidElementType, InvalidPosition
from ooxml.xml.namespaces import w
from ooxml.text import body as B
from ooxml.xml.errors import InvalidDocument
from render.answer import success_answer
from tools.docx.common import call_limits, session_of
from ooxml.model.insertion import block_insertion
from tools.docx.protocol import DELETERS, delete_inline, Edit
from tools.runtime.call.registry import CallContext, tool

MAX_LISTED = 200


@tool(toolset="content", read_only=True, idempotent=True, title="List charts")
def docx_list_charts(ctx: CallContext, session_id: str | None) -> str:
    """List charts: ID, kind, title, data size."""
    doc = session_of(ctx, session_id).doc
    refs = locate.references(doc)
    lines = [f"- {V.headline(locate.read(doc, r), doc.id_of(r))}" for r in refs[:MAX_LISTED]]
    if len(refs) > MAX_LISTED:
        lines.append(f"- ... {len(refs) - MAX_LISTED} more")
    return success_answer("List Charts", fields={"Charts": len(refs)},
                          content="\n".join(lines) or "The document has no charts.")


@tool(toolset="content", read_only=True, idempotent=True, title="Get a chart")
def docx_get_chart(ctx: CallContext, session_id: str | None, chart_id: str) -> str:
    """A chart's kind, title, axes and data, as JSON."""
    doc = session_of(ctx, session_id).doc
    ref = locate.find(doc, chart_id)
    chart = _read(doc, ref)
    data = {"kind": chart.kind, "title": chart.title, "categories": chart.categories,
            "series": [{"name": s.name, "values": s.values} for s in chart.series],
            "axes": [a for a in chart.axes if a["title"]], "workbook": bool(chart.workbook)}
    if len(set(chart.kinds)) > 1:
        data["kinds"] = chart.kinds
    return success_answer("Get Chart", element_id=chart_id,
                          content=json.dumps(data, ensure_ascii=False, separators=(",", ":")))


@tool(toolset="content", title="Update a chart's data")
def docx_update_chart(ctx: CallContext, e: Edit, session_id: str | None, chart_id: str, categories: list | None = None,
                      series: list | None = None, title: str | None = None) -> None:
    """Set a chart's data in its caches and workbook; series replaces every series."""
    doc = e.doc
    ref = locate.find(doc, chart_id)
    chart = _read(doc, ref)
    cats, pairs = update.plan(chart, categories, series)
    _spend(ctx, doc, update.size_estimate(cats, pairs))
    sheet = update.sheet_name(chart)
    para = B.find_ancestor(ref, B.W_P)
    e.show(para)
    e.change(para)  # its box shows the chart's data
    part = doc.package.part(chart.part_name)
    part.touch()
    space = part.tree.getroot()
    update.write_chart(space, chart, cats, pairs, sheet)
    if title is not None:
        update.set_title(space, title)
    book = chart.workbook is not None and update.write_workbook(doc.package, chart.workbook, chart,
                                                                cats, pairs, sheet)
    fields = {"Series": len(pairs), "Categories": len(cats)}
    if not book:
        fields["Workbook"] = "none: caches updated only"
    fields.update(e.not_tracked("Word records no revision for chart data"))
    e.done(para, updated=para, fields=fields)


@tool(toolset="content", title="Insert a chart")
def docx_insert_chart(ctx: CallContext, e: Edit, session_id: str | None, kind: str, categories: list, series: list,
                      position: str, title: str | None = None) -> None:
    """Insert a chart with its workbook as a new paragraph."""
    doc = e.doc
    cats, pairs = update.new_data(kind, categories, series)
    _spend(ctx, doc, update.size_estimate(cats, pairs))
    chart = build.chart_xml(kind, cats, pairs, title)
    book = build.workbook(cats, pairs)
    pos = e.position(position)
    if pos.target.tag != B.W_P and B.find_ancestor(pos.target, B.W_P) is not None:
        raise InvalidPosition("A chart goes in a paragraph of its own: use a block position.",
                              hint="Pass before:/after: a paragraph or table, or start:/end:document_body.")
    container, _ = block_insertion(doc, pos, "paragraph")
    para = etree.Element(w("p"))
    run = etree.SubElement(para, w("r"))
    # Everything is checked: from here on the document changes.
    rid = build.add_parts(doc.package, doc.part_of(container).name, chart, book)
    doc_pr = doc.word_ids(container).new_doc_pr()
    run.append(build.inline_chart(rid, 5486400, 3200400, doc_pr, f"Chart {doc_pr}"))
    e.insert(para, pos)
    ref = next(para.iter(model.c("chart")))
    e.done(para, marker="NEW", inserted=para, element_id=doc.id_of(ref),
           fields={"Kind": kind, "Series": len(pairs), "Categories": len(cats)})


def delete_chart(e, ref) -> None:
    """docx_delete of a chart ID: its drawing goes, as an image's does (tracked while tracking)."""
    drawing = B.find_ancestor(ref, w("drawing"))
    if drawing is None:
        raise InvalidElementType("This chart is not in a drawing and cannot be deleted here.",
                                 hint="Delete the paragraph holding it with docx_delete.")
    delete_inline(e, drawing)


DELETERS[model.c("chart")] = delete_chart


def _spend(ctx, doc, size: int) -> None:
    growth.spend(size, call_limits(ctx, doc).max_call_growth_bytes, "The chart's data",
                 hint="Chart fewer points per call; the operator sets limits.max_call_growth_bytes.")


def _read(doc, ref):
    chart = locate.read(doc, ref)
    if chart is None:
        raise InvalidDocument("The chart's part is missing from the package.",
                              hint="The chart cannot be read; docx_list_charts lists the others.")
    return chart
