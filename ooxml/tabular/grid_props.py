"""The grid's properties written: cell widths, spans, vertical merges, ``w:tblGrid`` kept in step."""
from __future__ import annotations

from lxml import etree

from ooxml.tabular.grid import TableGrid
from ooxml.xml.namespaces import w
from ooxml.xml.numbers import file_int
from ooxml.xml.order import get_or_add, insert_child, remove_child, set_child


def set_tcw(tc: etree._Element, width: int | None) -> None:
    if width is None:
        return
    tcpr = get_or_add(tc, "tcPr")
    tcw = tcpr.find(w("tcW"))
    if tcw is not None and tcw.get(w("type"), "dxa") not in ("dxa",):
        return  # pct/auto widths are not ours to turn into fixed ones
    set_child(tcpr, "tcW", w=str(width), type="dxa")


def set_span(tc: etree._Element, span: int) -> None:
    tcpr = get_or_add(tc, "tcPr")
    if span > 1:
        set_child(tcpr, "gridSpan", val=str(span))
    else:
        remove_child(tcpr, "gridSpan")


def set_vmerge(tc: etree._Element, value: str | None) -> None:
    tcpr = get_or_add(tc, "tcPr")
    if value is None:
        remove_child(tcpr, "vMerge")
    elif value == "restart":
        set_child(tcpr, "vMerge", val="restart")
    else:
        set_child(tcpr, "vMerge")  # no val: continue


def set_grid_attr(tr: etree._Element, name: str, value: int) -> None:
    trpr = get_or_add(tr, "trPr")
    if value > 0:
        set_child(trpr, name, val=str(value))
        return
    remove_child(trpr, name)
    remove_child(trpr, "wBefore" if name == "gridBefore" else "wAfter")  # the gap's width goes with it
    if not len(trpr):
        tr.remove(trpr)


def write_grid(tbl: etree._Element, widths: list[int]) -> None:
    grid = tbl.find(w("tblGrid"))
    if grid is None:
        grid = insert_child(tbl, etree.Element(w("tblGrid")))
    for gc in grid.findall(w("gridCol")):
        grid.remove(gc)
    change = grid.find(w("tblGridChange"))
    for width in widths:
        gc = etree.Element(w("gridCol"), {w("w"): str(width)})
        if change is not None:
            change.addprevious(gc)
        else:
            grid.append(gc)
    tblpr = tbl.find(w("tblPr"))
    tblw = tblpr.find(w("tblW")) if tblpr is not None else None
    if tblw is not None and tblw.get(w("type")) == "dxa" and file_int(tblw.get(w("w")), 0, 0, 1) > 0:
        tblw.set(w("w"), str(sum(widths)))


def fit_widths(grid: TableGrid, widths: list[int], max_width: int | None) -> list[int]:
    """Scale column widths down to ``max_width`` when an edit made the table wider than the page."""
    total = sum(widths)
    if not max_width or total <= max_width or sum(grid.widths) > max_width:
        return widths
    factor = max_width / total
    return [max(120, int(x * factor)) for x in widths]


def sync_cell_widths(grid: TableGrid) -> None:
    for line in grid.cells:
        for cell in line:
            set_tcw(cell.tc, grid.width_of(cell.start, cell.span))
