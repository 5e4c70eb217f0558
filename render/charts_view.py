"""Charts in a paragraph's line (``[CHART chart_…: column "Sales", 2 series × 4]``) and a small table
of their data under the box: MAX_SERIES rows of series, MAX_CATEGORIES values each ("…" beyond). Reads, never edits."""
from __future__ import annotations

from lxml import etree

from ooxml.charts import locate, model
from render.inline import InlineKind, LineContext
from render.renderer import Renderer

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


def _cells(label, values: list) -> list[str]:
    """A label, then at most MAX_CATEGORIES values, "…" for the rest."""
    return [_cell(label), *(_cell(v) for v in values[:MAX_CATEGORIES])] + \
        (["…"] if len(values) > MAX_CATEGORIES else [])


def _shown(chart: model.Chart, most: int) -> tuple[list, int]:
    """The series shown (one row less when a "more series" row is needed) and how many are not."""
    if len(chart.series) <= most:
        return chart.series, 0
    return chart.series[:most - 1], len(chart.series) - most + 1


def table(chart: model.Chart) -> list[str]:
    """The data as rows under a box (MAX_BELOW lines at most): categories, then a row per series."""
    shown, more = _shown(chart, MAX_SERIES)
    rows = [_cells("", chart.categories)] + [_cells(s.name or "", s.values) for s in shown]
    out = ["| " + " | ".join(r) + " |" for r in rows]
    return out + ([f"| … {more} more series |"] if more else [])


def markdown_table(chart: model.Chart) -> list[str]:
    """The same bounded table as GFM (one series more: no line cap), a header of categories."""
    esc = str.maketrans({"|": "\\|", "\\": "\\\\"})
    shown, more = _shown(chart, MAX_SERIES + 1)
    head = _cells("", chart.categories)
    rows = [head, ["---"] * len(head)] + [(_cells(s.name or "", s.values) + [""] * len(head))[:len(head)]
                                          for s in shown]
    if more:
        rows.append([f"… {more} more series"] + [""] * (len(head) - 1))
    return ["| " + " | ".join(c if c == "---" else c.translate(esc) for c in r) + " |" for r in rows]


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


RENDERER = Renderer(inline=(InlineKind("chart", ".//c:chart", _draw),), below=chart_lines,
                    below_tags=frozenset({model.c("chart")}))
