"""Cells merged over a rectangle of the visual grid."""
from __future__ import annotations

from lxml import etree

from ooxml.tabular.cells import cell_blocks, ensure_final_paragraph, is_empty_cell, move_content
from ooxml.tabular.grid import Cell, TableGrid, counted
from ooxml.tabular.grid_props import set_span, set_tcw, set_vmerge
from ooxml.text import body as B
from ooxml.xml.errors import ValidationError
from ooxml.xml.order import get_or_add, remove_child


def _row_cells_in(grid: TableGrid, r: int, c0: int, c1: int) -> list[Cell]:
    """The cells of row r exactly covering columns c0..c1, or a ValidationError saying why not."""
    cells = [cell for cell in grid.cells[r] if cell.start <= c1 and cell.end > c0]
    if not cells or cells[0].start > c0 or cells[-1].end <= c1:
        raise ValidationError(f"Row {r} has no cell at some column between {c0} and {c1} (a short row).",
                              hint="Merge a range inside the cells the row has.")
    for cell in (cells[0], cells[-1]):
        if cell.start < c0 or cell.end > c1 + 1:
            raise ValidationError(
                f"The cell at row {r}, columns {cell.start}-{cell.end - 1} is already merged across the "
                f"edge of the range (columns {c0}-{c1}).",
                hint=f"Widen the range to columns {min(c0, cell.start)}-{max(c1, cell.end - 1)}.")
    return cells


def check_merge(grid: TableGrid, r0: int, c0: int, r1: int, c1: int) -> list[list[Cell]]:
    if not (0 <= r0 <= r1 < grid.n_rows):
        raise ValidationError(f"Rows {r0}-{r1} are not a range of this table's rows: it has "
                              f"{counted(grid.n_rows, 'row')}.",
                              hint="start_row <= end_row, both 0-based.")
    if not (0 <= c0 <= c1 < grid.n_cols):
        raise ValidationError(f"Columns {c0}-{c1} are not a range of this table's columns: it has "
                              f"{counted(grid.n_cols, 'column')}.",
                              hint="start_col <= end_col, both 0-based.")
    rows = [_row_cells_in(grid, r, c0, c1) for r in range(r0, r1 + 1)]
    if len(rows) == 1 and len(rows[0]) == 1:
        raise ValidationError("The range is a single cell: nothing to merge.",
                              hint="Give a range of at least two cells (end_row > start_row or end_col > start_col).")
    for cell in rows[0]:
        if grid.continues(cell):
            top = grid.origin(cell).row
            raise ValidationError(f"The cell at row {r0}, column {cell.start} is merged with row {top} "
                                  "above the range.",
                                  hint=f"Start the range at row {top}.")
    for cell in rows[-1]:
        last = grid.last_row_of(grid.origin(cell))
        if last > r1:
            raise ValidationError(f"The cell at row {r1}, column {cell.start} is merged down to row {last}, "
                                  "beyond the range.", hint=f"End the range at row {last}.")
    return rows


def merge_cells(doc, tbl: etree._Element, r0: int, c0: int, r1: int, c1: int) -> etree._Element:
    """Merge the rectangle into its top-left cell; the other cells' content is appended to it."""
    grid = TableGrid(tbl)
    rows = check_merge(grid, r0, c0, r1, c1)
    doc.will_change(tbl)
    top = rows[0][0].tc
    others = [cell.tc for line in rows for cell in line if cell.tc is not top]
    if is_empty_cell(top) and any(not is_empty_cell(tc) for tc in others):
        for child in cell_blocks(top):
            if child.tag == B.W_P:
                doc.remove_block(child)
    for tc in others:
        if not is_empty_cell(tc):
            move_content(tc, top)
    ensure_final_paragraph(top)
    doc.forget_order(top)
    width = grid.width_of(c0, c1 - c0 + 1)
    for i, line in enumerate(rows):
        keep = line[0].tc
        for cell in line[1:]:
            doc.remove_block(cell.tc)
        remove_child(get_or_add(keep, "tcPr"), "hMerge")
        set_span(keep, c1 - c0 + 1)
        set_tcw(keep, width)
        set_vmerge(keep, None if r0 == r1 else ("restart" if i == 0 else "continue"))
        if keep is not top:
            ensure_final_paragraph(keep)
            doc.forget_order(keep)
    doc.changed(tbl)
    return top
