"""Charts in a paragraph's line (``[CHART chart_…: column "Sales", 2 series × 4]``) and a small table
of their data under the box, at most MAX_SERIES × MAX_CATEGORIES cells ("…" beyond). Reads, never edits."""
from __future__ import annotations

from lxml import etree

from ooxml.charts import locate, model
from render.blocks import BELOW_BOX, BELOW_TAGS
from render.inline import InlineKind, LineContext, register

MAX_SERIES, MAX_CATEGORIES, CELL = 5, 8, 12


def headline(chart: model.Chart | None, chart_id: str) -> str:
    if chart is None:
        return f"[CHART {chart_id}: part missing]"
    kinds = "+".join(dict.fromkeys(chart.kinds)) or chart.kind
    title = f' "{chart.title}"' if chart.title else ""
    return f"[CHART {chart_id}: {kinds}{title}, {len(chart.series)} series × {len(chart.categories)}]"


def _cell(value) -> str:
    text = "" if value is None else (f"{value:g}" if isinstance(value, float) else str(value))
    return text if len(text) <= CELL else text[:CELL - 1] + "…"


def _row(cells: list, total: int) -> str:
    shown = [_cell(v) for v in cells[:MAX_CATEGORIES]]
    return " | ".join(shown + (["…"] if total > MAX_CATEGORIES else []))


def table(chart: model.Chart) -> list[str]:
    """The data as rows: categories first, then one row per series (name: values)."""
    cats = chart.categories
    rows = [f"| {_row([''] + list(cats), len(cats) + 1)} |"]
    for s in chart.series[:MAX_SERIES]:
        rows.append(f"| {_row([s.name or ''] + list(s.values), len(s.values) + 1)} |")
    if len(chart.series) > MAX_SERIES:
        rows.append(f"| … {len(chart.series) - MAX_SERIES} more series |")
    return rows


def markdown_table(chart: model.Chart) -> list[str]:
    """The same bounded table as GFM: a header of categories, a row per series."""
    esc = str.maketrans({"|": "\\|", "\\": "\\\\"})
    cats = chart.categories
    head = ["", *cats[:MAX_CATEGORIES]] + (["…"] if len(cats) > MAX_CATEGORIES else [])
    rows = [head, ["---"] * len(head)]
    for s in chart.series[:MAX_SERIES]:
        cells = [s.name or "", *s.values[:MAX_CATEGORIES]] + (["…"] if len(s.values) > MAX_CATEGORIES else [])
        rows.append((cells + [""] * len(head))[:len(head)])
    if len(chart.series) > MAX_SERIES:
        rows.append([f"… {len(chart.series) - MAX_SERIES} more series"] + [""] * (len(head) - 1))
    return ["| " + " | ".join(_cell(v).translate(esc) if v != "---" else v for v in r) + " |" for r in rows]


def _draw(el: etree._Element, ctx: LineContext) -> str:
    if ctx.doc is None:
        return "[CHART]"
    return headline(locate.read(ctx.doc, el), ctx.doc.id_of(el))


def chart_lines(doc, el: etree._Element) -> list[str]:
    if doc is None:
        return []
    out = []
    for ref in el.iter(model.c("chart")):
        chart = locate.read(doc, ref)
        if chart is not None and chart.series:
            out.extend("    " + row for row in table(chart))
    return out


register(InlineKind("chart", ".//c:chart", _draw))
BELOW_BOX.append(chart_lines)
BELOW_TAGS.add(model.c("chart"))
