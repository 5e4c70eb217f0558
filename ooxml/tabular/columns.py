"""Columns inserted and deleted on the visual grid, spans and widths kept in step."""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.tabular.build import column_widths, new_cell
from ooxml.tabular.cells import clear_copied_cell
from ooxml.tabular.grid import MAX_COLS, Cell, TableGrid
from ooxml.tabular.grid_props import fit_widths, set_grid_attr, set_span, set_tcw, sync_cell_widths, write_grid
from ooxml.tabular.rows import check_deletable, normalise_vmerge
from ooxml.xml.errors import ValidationError
from ooxml.xml.ids import IdIndex


def insert_col(doc, tbl: etree._Element, k: int, template: int, copy_format: bool,
               max_width: int | None) -> list[etree._Element]:
    """Insert a grid column at index ``k``; returns the new cells, top to bottom."""
    grid = TableGrid(tbl)
    if grid.n_cols + 1 > MAX_COLS:
        raise ValidationError(f"The table already has {grid.n_cols} columns, Word's limit is {MAX_COLS}.",
                              hint="Delete a column first (docx_delete_col), or split the table.")
    doc.will_change(tbl)
    widths = list(grid.widths) or column_widths(max_width or 9360, grid.n_cols)
    widths += [widths[-1] if widths else 1440] * (grid.n_cols - len(widths))
    width = widths[template] if 0 <= template < len(widths) else (widths[-1] if widths else 1440)
    created = []
    for r, line in enumerate(grid.cells):
        tc = _insert_col_in_row(grid, r, line, k, template, copy_format, width)
        if tc is not None:
            created.append(tc)
    new_grid = TableGrid(tbl)  # spans changed; the grid gets the new column now
    widths.insert(k, width)
    widths = fit_widths(grid, widths, max_width)
    write_grid(tbl, widths)
    new_grid.widths = widths
    for tc in created:
        set_tcw(tc, width)
    if widths != grid.widths[:k] + [width] + grid.widths[k:]:
        sync_cell_widths(new_grid)
    else:
        for line in new_grid.cells:
            for cell in line:
                if cell.start < k < cell.end:
                    set_tcw(cell.tc, new_grid.width_of(cell.start, cell.span))
    doc.changed(tbl)
    return created


def _insert_col_in_row(grid: TableGrid, r: int, line: list[Cell], k: int, template: int,
                       copy_format: bool, width: int) -> etree._Element | None:
    tr = grid.rows[r]
    gb, ga = grid.before[r], grid.after[r]
    row_end = line[-1].end if line else gb
    inside = next((c for c in line if c.start < k < c.end), None)
    if inside is not None:
        set_span(inside.tc, inside.span + 1)  # the column goes through a merged cell: it widens
        return None
    if k < gb:
        set_grid_attr(tr, "gridBefore", gb + 1)
        return None
    if k > row_end or (k == row_end and ga):
        if ga:
            set_grid_attr(tr, "gridAfter", ga + 1)
        return None
    model = grid.at(r, template) if copy_format else None
    tc = copy.deepcopy(model.tc) if model is not None else new_cell(width)
    if model is not None:
        IdIndex.clear_ids(tc)
        clear_copied_cell(tc)
    nxt = next((c for c in line if c.start == k), None)
    if nxt is not None:
        nxt.tc.addprevious(tc)
    elif line:
        line[-1].tc.addnext(tc)
    else:
        tr.append(tc)
    return tc


def delete_col(doc, tbl: etree._Element, c: int) -> None:
    grid = TableGrid(tbl)
    check_deletable(c, grid.n_cols, "column")
    for r, line in enumerate(grid.cells):
        cell = grid.at(r, c)
        if cell is not None and cell.span == 1 and len(line) == 1:
            raise ValidationError(f"Deleting column {c} would leave row {r} without any cell.",
                                  hint=f"Delete row {r} first (docx_delete_row), or delete the table.")
    doc.will_change(tbl)
    narrowed = [_delete_col_in_row(doc, grid, r, line, c) for r, line in enumerate(grid.cells)]
    widths = list(grid.widths)
    if c < len(widths):
        del widths[c]
        write_grid(tbl, widths)
    new_grid = TableGrid(tbl)
    for line in new_grid.cells:
        for cell in line:
            if cell.tc in narrowed:
                set_tcw(cell.tc, new_grid.width_of(cell.start, cell.span))
    normalise_vmerge(new_grid)
    doc.changed(tbl)


def _delete_col_in_row(doc, grid: TableGrid, r: int, line: list[Cell], c: int) -> etree._Element | None:
    """Take column c out of row r; returns the cell that narrowed, if one did."""
    tr = grid.rows[r]
    cell = grid.at(r, c)
    if cell is not None:
        if cell.span > 1:
            set_span(cell.tc, cell.span - 1)  # the column leaves a merged cell: it narrows
            return cell.tc
        doc.remove_block(cell.tc)
        return None
    gb, ga = grid.before[r], grid.after[r]
    if c < gb:
        set_grid_attr(tr, "gridBefore", gb - 1)
    elif line and c >= line[-1].end and ga:
        set_grid_attr(tr, "gridAfter", ga - 1)
    return None
