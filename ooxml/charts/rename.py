"""Text replaced in charts' titles and series names (docx_replace_text sees what find sees): the
title's rich text, each name's cache or literal, and the workbook cell its formula names, so Word's
"Edit Data" shows the same name."""
from __future__ import annotations

from lxml import etree

from ooxml.charts import locate, model, sheets
from ooxml.charts.model import c
from ooxml.opc.part import Part
from ooxml.xml.namespaces import A

_A_T = f"{{{A}}}t"


def matching(doc, scope: etree._Element, old: str) -> list[tuple[etree._Element, model.Chart]]:
    """The charts under ``scope`` whose title or a series name holds ``old``; nothing is changed."""
    out = []
    for ref in scope.iter(model.c("chart")):
        if next(ref.iterancestors(locate.FALLBACK), None) is not None:
            continue
        chart = locate.read(doc, ref)
        if chart is not None and (old in (chart.title or "") or any(old in (s.name or "") for s in chart.series)):
            out.append((ref, chart))
    return out


def replace(doc, chart: model.Chart, old: str, new: str) -> int:
    """Replace ``old`` in the chart's title and series names; how many were replaced."""
    part = doc.package.part(chart.part_name)
    part.touch()
    space = part.tree.getroot()
    count = _in_title(space, old, new)
    cells = {}
    for s in chart.series:
        count += _in_name(s.element.find(c("tx")), old, new, cells)
    if cells and chart.workbook:
        _in_workbook(doc.package, chart.workbook, cells)
    return count


def _in_title(space: etree._Element, old: str, new: str) -> int:
    rich = space.find(f"{c('chart')}/{c('title')}/{c('tx')}/{c('rich')}")
    if rich is None:
        return 0
    count = 0
    for p in rich.iter(f"{{{A}}}p"):
        runs = list(p.iter(_A_T))
        whole = "".join(t.text or "" for t in runs)
        if old not in whole:
            continue
        count += whole.count(old)
        if sum((t.text or "").count(old) for t in runs) == whole.count(old):
            for t in runs:  # each occurrence inside one run: its formatting stays
                t.text = (t.text or "").replace(old, new)
        else:  # an occurrence spans runs: the paragraph's text goes to its first run
            runs[0].text = whole.replace(old, new)
            for t in runs[1:]:
                t.text = ""
    return count


def _in_name(tx: etree._Element | None, old: str, new: str, cells: dict) -> int:
    if tx is None:
        return 0
    count = 0
    for v in tx.iter(c("v")):
        if old in (v.text or ""):
            count += v.text.count(old)
            v.text = v.text.replace(old, new)
            formula = tx.findtext(f"{c('strRef')}/{c('f')}")
            if formula:
                cells[formula] = v.text
    return count


def _in_workbook(package, name: str, cells: dict) -> None:
    book = sheets.load(package.part(name).data)
    if book is None:
        return
    for formula, value in cells.items():
        ref = sheets.parse_formula(formula)
        if ref and ref[0] in book.sheetnames:
            book[ref[0]].cell(row=ref[2], column=ref[1]).value = value
    old = package.parts[name]
    package.parts[name] = Part(package, old.info, sheets.save(book))
