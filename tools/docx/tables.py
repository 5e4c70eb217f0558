"""Table tools: insert, read, fill, rows and columns, merges, copies (SPEC §7).

Rows and columns are 0-based indexes on the table's visual grid: a merged cell covers several
grid slots and is addressed by any of them (its top-left slot is its own position).
"""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.tabular.build import CELL_BYTES, build_table, check_data, check_size, column_widths
from ooxml.tabular.cells import is_empty_cell, set_cell_text
from ooxml.tabular.columns import delete_col, insert_col
from ooxml.tabular.fill import fill_table
from ooxml.tabular.merge import check_merge, merge_cells
from ooxml.tabular.rows import delete_row, insert_row, parse_row_col_position
from ooxml.review.revisions import refuse_deleted, refuse_when_tracking
from ooxml.text.build import copy_props, make_run, mark_rpr
from ooxml.text.copies import check_copy_size, copy_blocks
from ooxml.xml import growth
from ooxml.xml.errors import ElementNotFound, ValidationError
from ooxml.tabular.grid import Cell, TableGrid, counted
from ooxml.tabular.widths import available_width
from ooxml.xml.namespaces import w
from ooxml.xml.order import remove_child
from render.answer import success_answer
from render.blocks import box, table_grid_lines, title_of
from render.width import cut, pad, width
from render import text_changes
from tools.docx.common import answer, box_lines, call_limits, expect, resolve, session_of
from ooxml.model.insertion import block_insertion
from tools.docx.protocol import Edit, place_blocks
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sessions import Session

Cells = list[list[str | int | float | None]]
PAGE_ROWS = 20
PAGE_COLS = 8
CELL_TEXT = 16
MAX_LISTED = 100


# ---- shared helpers ----------------------------------------------------------------------------

def table_of(session: Session, table_id: str, editing: bool = True) -> etree._Element:
    tbl = expect(resolve(session, table_id, "table_id"), {B.W_TBL}, "table", "table_id")
    if editing:  # a table a tracked deletion took reads as gone for edits; it can still be shown
        refuse_deleted(session.doc, tbl, "table_id")
    return tbl


def table_width_limit(doc, tbl: etree._Element) -> int:
    return available_width(doc, tbl.getparent(), tbl)


class _Rows:
    """A few rows of a TableGrid, for drawing an excerpt of a large table."""

    def __init__(self, grid: TableGrid, r0: int, r1: int):
        self.grid, self.r0, self.r1 = grid, r0, r1
        self.n_cols = grid.n_cols

    @property
    def n_rows(self) -> int:
        return self.r1 - self.r0

    def text_matrix(self) -> list[list[str]]:
        return self.grid.text_matrix()[self.r0:self.r1]


def table_lines(doc, tbl: etree._Element, near_row: int | None = None) -> list[str]:
    """The table's box for a diff; for tables over the box's 20 rows, the rows around ``near_row``."""
    doc.id_of(tbl)
    grid = TableGrid(tbl)
    if grid.n_rows <= 20 or near_row is None:
        return box_lines(doc, [tbl])
    r0 = max(0, min(near_row - 3, grid.n_rows - 7))
    part = _Rows(grid, r0, min(grid.n_rows, r0 + 7))
    lines = box(title_of(doc, tbl), [f"rows {r0}-{part.r1 - 1} of {grid.n_rows}"] + table_grid_lines(part))
    text_changes.record(doc, tbl, doc.id_of(tbl), lines)
    return lines


def show_table(e, tbl: etree._Element, near_row: int | None) -> None:
    """The table's box (or its rows around ``near_row``) before and after the edit."""
    e.show(*table_lines(e.doc, tbl, near_row))
    e.after(lambda: table_lines(e.doc, tbl, near_row))


def table_done(e, tbl: etree._Element, fields: dict, element: etree._Element | None = None, **marks) -> None:
    """The table's model reported its changes itself (ooxml/tabular): the answer shows the table.
    ``marks``: ``inserted``/``updated`` for last_insert/last_update (Edit.done)."""
    focus = element if element is not None and element.getparent() is not None else tbl
    e.done(focus, marker="UPDATED", fields=fields, element_id=e.doc.id_of(focus), **marks)


def _index(value: int, count: int, what: str, arg: str) -> int:
    if not 0 <= value < count:
        raise ValidationError(f"{arg} {value} is outside the table: it has {counted(count, what)}.",
                              hint=f"{what.capitalize()} indexes are 0-based.")
    return value


def cell_at(tbl: etree._Element, row: int, col: int) -> tuple[TableGrid, Cell]:
    """The (origin of the) cell covering grid slot (row, col)."""
    grid = TableGrid(tbl)
    _index(row, grid.n_rows, "row", "row")
    _index(col, grid.n_cols, "column", "col")
    cell = grid.at(row, col)
    if cell is None:
        raise ElementNotFound(f"Row {row} has no cell at column {col} (the row is shorter than the grid).",
                              hint="docx_get_table shows which cells each row has.")
    return grid, grid.origin(cell)


# ---- insert and copy -----------------------------------------------------------------------------

@tool(toolset="tables", title="Insert a table")
def docx_insert_table(ctx: CallContext, e: Edit, session_id: str | None, rows: int, cols: int, position: str,
                      data: Cells | None = None) -> None:
    """Insert a rows × cols table sized to the text width, optionally filled.

    Args:
        rows: 1-10000.
        cols: 1-63.
        data: Rows of cell texts (may be fewer).
    """
    doc = e.doc
    check_size(rows, cols)
    growth.spend(rows * cols * CELL_BYTES, call_limits(ctx, doc).max_call_growth_bytes,
                 f"A table of {rows}×{cols} cells", hint="Insert a smaller table, or fewer per call; the "
                                                         "operator sets limits.max_call_growth_bytes.")
    if data is not None:
        check_data(data, rows, cols)
    pos = e.position(position)
    container, _ = block_insertion(doc, pos, "table")
    widths = column_widths(available_width(doc, container, pos.target), cols)
    tbl = build_table(rows, cols, widths, doc.styles.default_table_style(), data)
    place_blocks(e, [tbl], pos, fields={"Dimensions": f"{rows} rows × {cols} columns"})


@tool(toolset="tables", title="Copy a table")
def docx_copy_table(ctx: CallContext, e: Edit, session_id: str | None, table_id: str, position: str) -> None:
    """Copy a table to a position (new IDs)."""
    doc = e.doc
    tbl = table_of(e.session, table_id)
    check_copy_size([tbl], call_limits(ctx, doc).max_call_growth_bytes)
    pos = e.position(position)
    container, _ = block_insertion(doc, pos, "table")
    dup = copy_blocks(doc, [tbl], pos.target, container)[0]
    place_blocks(e, [dup], pos, fields={"Source": doc.id_of(tbl)})


# ---- reading --------------------------------------------------------------------------------------

def grid_page(grid: TableGrid, r0: int, r1: int, c0: int, c1: int) -> list[str]:
    """An ASCII grid of rows r0..r1-1 and columns c0..c1-1 with row and column numbers."""
    matrix = grid.text_matrix()
    cells = [[cut(" ".join(matrix[r][c].split()) if c < len(matrix[r]) else "", CELL_TEXT) for c in range(c0, c1)]
             for r in range(r0, r1)]
    heads = [str(c) for c in range(c0, c1)]
    widths = [max(3, width(h), *(width(row[i]) for row in cells)) for i, h in enumerate(heads)]
    label = max(3, len(str(r1)))
    sep = " " * label + " +" + "+".join("-" * (wd + 2) for wd in widths) + "+"
    lines = [" " * label + "   " + "   ".join(pad(h, widths[i]) for i, h in enumerate(heads)), sep]
    for i, row in enumerate(cells):
        lines.append(str(r0 + i).rjust(label) + " | " + " | ".join(pad(t, widths[c]) for c, t in enumerate(row)) + " |")
        lines.append(sep)
    return lines


def cell_lines(doc, grid: TableGrid, r0: int, r1: int, c0: int, c1: int) -> list[str]:
    """One line per cell starting in the page: its slot, ID, size when merged, and text."""
    out = []
    for r in range(r0, r1):
        for c in range(c0, c1):
            tc = grid.cell(r, c)
            if tc is None or not grid.is_top_left(r, c):
                continue
            phys = grid.at(r, c)
            tall = grid.last_row_of(phys) - r + 1 if phys is not None else 1
            wide = phys.span if phys is not None else 1
            size = f" [merged {tall}×{wide}]" if tall > 1 or wide > 1 else ""
            text = cut(" ".join(B.cell_text(tc).split()), 60) or "(empty)"
            nested = " [has nested table]" if tc.find(B.W_TBL) is not None else ""
            out.append(f"- ({r},{c}) {doc.id_of(tc)}{size}{nested}: {text}")
    return out


@tool(toolset="tables", read_only=True, idempotent=True, title="Show a table")
def docx_get_table(ctx: CallContext, session_id: str | None, table_id: str, start_row: int = 0,
                   start_col: int = 0) -> str:
    """A table as an ASCII grid with cell IDs, 20 rows × 8 columns a page."""
    session = session_of(ctx, session_id)
    doc = session.doc
    tbl = table_of(session, table_id, editing=False)
    grid = TableGrid(tbl)
    if not 0 <= start_row < max(1, grid.n_rows) or not 0 <= start_col < max(1, grid.n_cols):
        raise ValidationError(f"start_row/start_col ({start_row}, {start_col}) are outside the table "
                              f"({grid.n_rows} rows × {grid.n_cols} columns, 0-based).",
                              hint="start_row and start_col are 0-based and below the table's size.")
    r1, c1 = min(grid.n_rows, start_row + PAGE_ROWS), min(grid.n_cols, start_col + PAGE_COLS)
    content = ["```", *grid_page(grid, start_row, r1, start_col, c1), "```", "",
               "Cells (row, col) → ID:", *cell_lines(doc, grid, start_row, r1, start_col, c1)]
    fields = {"Dimensions": f"{grid.n_rows} rows × {grid.n_cols} columns",
              "Shown": f"rows {start_row}-{r1 - 1}, columns {start_col}-{c1 - 1}" if r1 and c1 else "nothing"}
    more = []
    if r1 < grid.n_rows:
        more.append(f"start_row={r1}, start_col={start_col}")
    if c1 < grid.n_cols:
        more.append(f"start_row={start_row}, start_col={c1}")
    if more:
        fields["Next Page"] = " or ".join(more)
    return answer(session, "Get Table", tbl, marker="CURRENT", fields=fields, content="\n".join(content))


@tool(toolset="tables", read_only=True, idempotent=True, title="List tables")
def docx_list_tables(ctx: CallContext, session_id: str | None) -> str:
    """List the body's tables (nested under their cell): IDs, sizes, first row."""
    session = session_of(ctx, session_id)
    doc = session.doc
    lines, total = [], 0
    for tbl in doc.body.iter(B.W_TBL):
        total += 1
        if len(lines) >= MAX_LISTED:
            continue
        depth = sum(1 for a in tbl.iterancestors(B.W_TBL))
        grid = TableGrid(tbl)
        first = " | ".join(cut(" ".join(t.split()), 20) for t in grid.text_matrix()[0][:6]) if grid.n_rows else ""
        where = ""
        if depth:
            tc = B.find_ancestor(tbl, B.W_TC)
            where = f" in cell {doc.id_of(tc)} of {doc.id_of(B.find_ancestor(tc, B.W_TBL))}"
        size = f"{grid.n_rows}×{grid.n_cols}"
        lines.append(f"{'  ' * depth}- {doc.id_of(tbl)}: {size}{where} — first row: {first or '(empty)'}")
    fields = {"Tables": total}
    if total > len(lines):
        fields["Shown"] = f"first {len(lines)}"
    return success_answer("List Tables", fields=fields, content="\n".join(lines) or "The document has no tables.")


@tool(toolset="tables", read_only=True, idempotent=True, title="Show a table cell")
def docx_get_cell(ctx: CallContext, session_id: str | None, table_id: str, row: int, col: int) -> str:
    """Show one cell by grid row and col (any slot of a merged cell finds it)."""
    session = session_of(ctx, session_id)
    doc = session.doc
    tbl = table_of(session, table_id, editing=False)
    grid, cell = cell_at(tbl, row, col)
    tall, wide = grid.last_row_of(cell) - cell.row + 1, cell.span
    blocks = [b for b in B.iter_blocks(cell.tc)]
    content = []
    for b in blocks[:30]:
        doc.id_of(b)
        content.append(f"- {title_of(doc, b)}: {cut(B.block_text(b, 400).replace(chr(10), ' ↵ '), 70)}")
    if len(blocks) > 30:
        content.append(f"... ({len(blocks) - 30} more blocks)")
    fields = {"Table": doc.id_of(tbl), "Cell": f"row {cell.row}, col {cell.start}",
              "Merged": f"{tall} rows × {wide} columns" if tall > 1 or wide > 1 else None,
              "Text": cut(" ".join(B.cell_text(cell.tc).split()), 120) or "(empty)"}
    return answer(session, "Get Cell", blocks[0] if blocks else None, marker="CURRENT", fields=fields,
                  content="\n".join(content) or "(empty cell)", element_id=doc.id_of(cell.tc))


# ---- cell content -------------------------------------------------------------------------------

def _paragraph_like(last: etree._Element | None, text: str) -> etree._Element:
    """A new paragraph formatted like the cell's last one (as Enter at the end of a cell would)."""
    p = etree.Element(w("p"))
    rpr = None
    if last is not None:
        ppr = last.find(w("pPr"))
        if ppr is not None:
            ppr = copy_props(ppr)  # revision marks and a section break are not formatting to repeat
            remove_child(ppr, "sectPr")
            p.append(ppr)
        model = next((r for r in B.iter_runs(last) if B.run_text(r)), None)
        rpr = model.find(w("rPr")) if model is not None else mark_rpr(last)
    p.append(make_run(text, rpr))
    return p


@tool(toolset="tables", title="Insert a paragraph into a cell")
def docx_insert_paragraph_to_cell(ctx: CallContext, e: Edit, session_id: str | None, text: str, table_id: str,
                                  row: int, col: int) -> None:
    """Add a paragraph at a cell's end (an empty cell's paragraph gets the text)."""
    doc = e.doc
    tbl = table_of(e.session, table_id)
    _, cell = cell_at(tbl, row, col)
    tc = cell.tc
    fields = {"Table": doc.id_of(tbl), "Cell": f"{doc.id_of(tc)} (row {cell.row}, col {cell.start})"}
    blocks = [b for b in B.iter_blocks(tc)]
    if len(blocks) == 1 and blocks[0].tag == B.W_P and is_empty_cell(tc):
        p = blocks[0]
        e.show(p)
        set_cell_text(doc, tc, text)
        e.changed(p)
        e.done(p, marker="NEW", inserted=p, fields={**fields, "Filled": "the cell's empty paragraph"})
    else:
        last = next((b for b in reversed(blocks) if b.tag == B.W_P), None)
        pos = e.position(f"end:{doc.id_of(tc)}")
        new = e.insert(_paragraph_like(last, text), pos)
        e.done(new, marker="NEW", inserted=new, fields={"Position": pos.text, **fields})


@tool(toolset="tables", destructive=True, idempotent=True, title="Fill a table")
def docx_fill_table(ctx: CallContext, e: Edit, session_id: str | None, table_id: str, data: Cells,
                    start_row: int = 0) -> None:
    """Write texts into cells row by row from start_row, adding rows as needed.

    Args:
        data: Rows of cell texts (numbers as text; null skips).
        start_row: May equal the row count (append).
    """
    tbl = table_of(e.session, table_id)
    show_table(e, tbl, start_row)
    written, added, skipped = fill_table(e.doc, tbl, data, start_row)
    fields = {"Cells Written": written, "Rows Added": added or None,
              "Skipped": f"{skipped} value(s) on merged slots" if skipped else None}
    table_done(e, tbl, fields, updated=tbl)


# ---- rows and columns ---------------------------------------------------------------------------

@tool(toolset="tables", title="Insert a table row")
def docx_insert_row_at(ctx: CallContext, e: Edit, session_id: str | None, table_id: str, position: str,
                       copy_format: bool = True) -> None:
    """Insert an empty row into a table.

    Args:
        position: before:N, after:N, start or end.
        copy_format: Copy the neighbour row's formatting.
    """
    doc = e.doc
    tbl = table_of(e.session, table_id)
    at, template = parse_row_col_position(position, len(B.table_rows(tbl)), "row")
    show_table(e, tbl, at)
    tr = insert_row(doc, tbl, at, template, copy_format)
    table_done(e, tbl, {"Table": doc.id_of(tbl), "Row Index": at, "Position": position}, element=tr,
               inserted=tr)


@tool(toolset="tables", title="Insert a table column")
def docx_insert_col_at(ctx: CallContext, e: Edit, session_id: str | None, table_id: str, position: str,
                       copy_format: bool = True) -> None:
    """Insert an empty column into a table.

    Args:
        position: before:N, after:N (a column), start or end.
        copy_format: Copy the neighbour column's formatting.
    """
    doc = e.doc
    tbl = table_of(e.session, table_id)
    refuse_when_tracking(doc, "Inserting a column")
    at, template = parse_row_col_position(position, TableGrid(tbl).n_cols, "column")
    growth.spend(len(B.table_rows(tbl)) * CELL_BYTES, call_limits(ctx, doc).max_call_growth_bytes,
                 "The column's cells", hint="Insert fewer columns per call; the operator sets "
                                            "limits.max_call_growth_bytes.")
    show_table(e, tbl, 0)
    created = insert_col(doc, tbl, at, template, copy_format, table_width_limit(doc, tbl))
    fields = {"Table": doc.id_of(tbl), "Column Index": at, "Position": position, "New Cells": len(created)}
    first = created[0] if created else None
    table_done(e, tbl, fields, element=first, inserted=first)


@tool(toolset="tables", destructive=True, title="Delete a table row")
def docx_delete_row(ctx: CallContext, e: Edit, session_id: str | None, table_id: str, row_index: int) -> None:
    """Delete a row; a vertical merge starting in it moves down."""
    _delete_line(e, table_id, row_index, column=False)


@tool(toolset="tables", destructive=True, title="Delete a table column")
def docx_delete_col(ctx: CallContext, e: Edit, session_id: str | None, table_id: str, col_index: int) -> None:
    """Delete a grid column; a merged cell spanning it narrows."""
    _delete_line(e, table_id, col_index, column=True)


def _delete_line(e: Edit, table_id: str, index: int, column: bool) -> None:
    """One row or grid column goes; a column is refused while tracking (Word has no revision for it)."""
    tbl = table_of(e.session, table_id)
    if column:
        refuse_when_tracking(e.doc, "Deleting a column")
    show_table(e, tbl, 0 if column else index)
    (delete_col if column else delete_row)(e.doc, tbl, index)
    table_done(e, tbl, {"Deleted": f"{'column' if column else 'row'} {index}"}, updated=tbl)


@tool(toolset="tables", destructive=True, title="Merge table cells")
def docx_merge_cells(ctx: CallContext, e: Edit, session_id: str | None, table_id: str, start_row: int, start_col: int,
                     end_row: int, end_col: int) -> None:
    """Merge the rectangle (start_row, start_col)-(end_row, end_col), inclusive."""
    doc = e.doc
    tbl = table_of(e.session, table_id)
    refuse_when_tracking(doc, "Merging cells")
    check_merge(TableGrid(tbl), start_row, start_col, end_row, end_col)
    show_table(e, tbl, start_row)
    top = merge_cells(doc, tbl, start_row, start_col, end_row, end_col)
    fields = {"Table": doc.id_of(tbl), "Merged": f"rows {start_row}-{end_row}, columns {start_col}-{end_col}"}
    table_done(e, tbl, fields, element=top, updated=top)
