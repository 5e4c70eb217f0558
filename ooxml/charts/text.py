"""A chart's words as find sees them: its title and its series' names (``[chart: …]``)."""
from __future__ import annotations

from lxml import etree

from ooxml.charts import locate, model

_CHART = model.c("chart")


def chart_text(doc, ref: etree._Element) -> str:
    """``[chart: Title; Series A, Series B]``; empty when the chart part is missing or says nothing."""
    chart = locate.read(doc, ref)
    if chart is None:
        return ""
    names = ", ".join(s.name for s in chart.series if s.name)
    words = "; ".join(w for w in (chart.title, names) if w)
    return f"[chart: {words}]" if words else ""


def charts_text(doc, p: etree._Element) -> str:
    """The words of every chart a paragraph holds, fallbacks skipped (cheap when it holds none)."""
    refs = [ref for ref in p.iter(_CHART) if next(ref.iterancestors(locate.FALLBACK), None) is None]
    return " ".join(t for t in (chart_text(doc, ref) for ref in refs) if t)
