"""Rows inserted and deleted on the visual grid (a copied row keeps its formatting, not its revisions)."""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.tabular.build import MAX_ROWS, new_cell
from ooxml.tabular.cells import cell_blocks, clear_copied_cell, is_empty_cell, move_content
from ooxml.tabular.grid import MAX_COLS, TableGrid, counted
from ooxml.tabular.grid_props import set_grid_attr, set_vmerge
from ooxml.text import body as B
from ooxml.xml.errors import InvalidPosition, ValidationError
from ooxml.xml.namespaces import w
from ooxml.xml.order import remove_child


# Revision records are not formatting: a copied row or cell must not repeat them (their ids
# would clash and Word would show changes nobody made).
_TRPR_REVISIONS = ("ins", "del", "trPrChange")


def parse_row_col_position(position: str, count: int, what: str) -> tuple[int, int]:
    """``before:N``/``after:N``/``start``/``end`` -> (insert index, template index)."""
    raw = (position or "").strip().lower()
    hint = (f"Use before:N, after:N (N is a 0-based {what} index, 0-{count - 1}), start or end." if count
            else f"The table has no {what}s: use start or end.")
    if raw == "start":
        return 0, 0
    if raw == "end":
        return count, max(0, count - 1)
    mode, _, num = raw.partition(":")
    digits = num.strip().lstrip("-")
    if mode not in ("before", "after") or not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        raise InvalidPosition(f"'{position[:40]}' is not a {what} position.", hint=hint)
    n = int(num)
    if not 0 <= n < count:
        raise InvalidPosition(f"{what} {n} does not exist: the table has {counted(count, what)}.", hint=hint)
    return (n, n) if mode == "before" else (n + 1, n)


def _is_header(tr: etree._Element) -> bool:
    trpr = tr.find(w("trPr"))
    return trpr is not None and trpr.find(w("tblHeader")) is not None


def new_row(grid: TableGrid, at: int, template: int, copy_format: bool, ids) -> etree._Element:
    """A row shaped like row ``template`` for index ``at``; it continues vertical merges crossing ``at``."""
    from ooxml.xml.wordids import prepare_copy

    src = grid.rows[template]
    if copy_format:
        tr = copy.deepcopy(src)
        trpr = tr.find(w("trPr"))
        if trpr is not None:
            for name in _TRPR_REVISIONS:
                remove_child(trpr, name)
            if not (at == 0 or _is_header(grid.rows[at - 1])):
                remove_child(trpr, "tblHeader")  # repeated header rows must stay at the top
        for tc in B.row_cells(tr):
            clear_copied_cell(tc, keep_span=True)
        prepare_copy(tr, ids)
    else:
        tr = etree.Element(w("tr"))
        gb, ga = grid.before[template], grid.after[template]
        if gb:
            set_grid_attr(tr, "gridBefore", gb)
        if ga:
            set_grid_attr(tr, "gridAfter", ga)
        for cell in grid.cells[template]:
            tr.append(new_cell(grid.width_of(cell.start, cell.span), span=cell.span))
    for tc, cell in zip(B.row_cells(tr), grid.cells[template]):
        below = grid.at(at, cell.start)
        inside = (below is not None and below.start == cell.start and below.span == cell.span
                  and grid.continues(below))
        set_vmerge(tc, "continue" if inside else None)
    return tr


def _mark_if_tracked(doc, tr: etree._Element) -> None:
    if getattr(doc, "tracker", None) is not None:
        from ooxml.review.revisions import mark_inserted
        mark_inserted(doc, tr)


def insert_row(doc, tbl: etree._Element, at: int, template: int, copy_format: bool) -> etree._Element:
    grid = TableGrid(tbl)
    if grid.n_rows + 1 > MAX_ROWS:
        raise ValidationError(f"The table already has {grid.n_rows} rows, the limit.",
                              hint="Split the data over several tables.")
    doc.will_change(tbl)
    if not grid.rows:  # a table without rows (Word calls it damaged) gets one from its grid
        tr = etree.Element(w("tr"))
        for width in grid.widths[:MAX_COLS] or [None]:
            tr.append(new_cell(width or None))
        tbl.append(tr)
        _mark_if_tracked(doc, tr)
        doc.changed(tbl)
        return tr
    tr = new_row(grid, at, template, copy_format, doc.word_ids(tbl))
    if at < grid.n_rows:
        grid.rows[at].addprevious(tr)
    else:
        grid.rows[-1].addnext(tr)
    _mark_if_tracked(doc, tr)
    doc.changed(tbl)
    return tr


def check_deletable(i: int, n: int, what: str) -> None:
    """Line ``i`` of ``n`` (rows or columns) exists and is not the table's last one."""
    if not 0 <= i < n:
        raise InvalidPosition(f"{what.capitalize()} {i} does not exist: the table has {counted(n, what)}.",
                              hint=f"{what.capitalize()} indexes are 0-based; docx_get_table shows them.")
    if n == 1:
        raise ValidationError(f"A table must keep at least one {what}.",
                              hint="Delete the whole table with docx_delete.")


def delete_row(doc, tbl: etree._Element, r: int) -> None:
    grid = TableGrid(tbl)
    check_deletable(r, grid.n_rows, "row")
    doc.will_change(tbl)
    if getattr(doc, "tracker", None) is not None:  # the row stays, marked deleted
        from ooxml.review.revisions import delete_row as tracked_delete
        tracked_delete(doc, grid.rows[r])
        doc.changed(tbl)
        return
    for cell in grid.cells[r]:
        below = grid.at(r + 1, cell.start)
        if below is None or below.start != cell.start or not grid.continues(below):
            continue
        if not grid.continues(cell):  # this row starts the merge: the row below starts it now
            set_vmerge(below.tc, "restart")
            if not is_empty_cell(cell.tc):
                for child in cell_blocks(below.tc):
                    if child.tag not in B.MARKERS:
                        doc.remove_block(child)
                move_content(cell.tc, below.tc)
                doc.forget_order(below.tc)
    tr = grid.rows[r]
    holder = tr.getparent()
    doc.remove_block(tr)
    _drop_empty_row_wrapper(doc, holder, tbl)
    normalise_vmerge(TableGrid(tbl), {r})
    doc.changed(tbl)


def _drop_empty_row_wrapper(doc, holder: etree._Element, tbl: etree._Element) -> None:
    """A content control or custom XML that wrapped the row goes when it holds no row any more."""
    while holder is not tbl and next(holder.iter(B.W_TR), None) is None:
        outer = holder.getparent()
        if holder.tag in (B.W_SDT, w("customXml")):
            doc.remove_block(holder)
        holder = outer


def normalise_vmerge(grid: TableGrid, rows: set[int] | None = None) -> None:
    """In ``rows`` (default all), a 'continue' with nothing above to continue becomes a restart."""
    for r, line in enumerate(grid.cells):
        if rows is not None and r not in rows:
            continue
        for cell in line:
            if cell.vmerge != "continue" or cell.row == 0:
                if cell.vmerge == "continue":
                    set_vmerge(cell.tc, "restart")
                continue
            above = grid.at(cell.row - 1, cell.start)
            if above is None or above.start != cell.start:
                set_vmerge(cell.tc, "restart")
