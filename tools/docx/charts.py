"""Charts (SPEC §12, toolset content): list, read, and new data written to the caches and the
embedded workbook."""
from __future__ import annotations

import json

import render.charts_view as V
from ooxml.charts import locate, update
from ooxml.text import body as B
from ooxml.xml.errors import InvalidDocument
from render.answer import success_answer
from tools.docx.common import session_of
from tools.docx.protocol import editing
from tools.runtime.registry import CallContext, tool

MAX_LISTED = 200


@tool(toolset="content", read_only=True, idempotent=True, title="List charts")
def docx_list_charts(ctx: CallContext, session_id: str | None) -> str:
    """List charts: ID, kind, title, size."""
    doc = session_of(ctx, session_id).doc
    refs = locate.references(doc)
    lines = [f"- {V.headline(locate.read(doc, r), doc.id_of(r))}" for r in refs[:MAX_LISTED]]
    if len(refs) > MAX_LISTED:
        lines.append(f"- ... {len(refs) - MAX_LISTED} more")
    return success_answer("List Charts", fields={"Charts": len(refs)},
                          content="\n".join(lines) or "The document has no charts.")


@tool(toolset="content", read_only=True, idempotent=True, title="Get a chart")
def docx_get_chart(ctx: CallContext, session_id: str | None, chart_id: str) -> str:
    """A chart's kind, title, axes and data (JSON)."""
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
def docx_update_chart(ctx: CallContext, session_id: str | None, chart_id: str, categories: list | None = None,
                      series: list[dict] | None = None, title: str | None = None) -> str:
    """Set a chart's data (caches and workbook). series: [{name, values}], replaces all."""
    with editing(ctx, session_id, "Update Chart") as e:
        doc = e.doc
        ref = locate.find(doc, chart_id)
        chart = _read(doc, ref)
        cats, pairs = update.plan(chart, categories, series)
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
        e.done(para, updated=para, fields=fields)
    return e.answer


def _read(doc, ref):
    chart = locate.read(doc, ref)
    if chart is None:
        raise InvalidDocument("The chart's part is missing from the package.",
                              hint="The chart cannot be read; docx_list_charts lists the others.")
    return chart
