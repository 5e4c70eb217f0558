"""Tables filled from rows of values; adjacent tables kept apart."""
from __future__ import annotations

from lxml import etree

from ooxml.tabular.build import MAX_ROWS, check_data
from ooxml.tabular.cells import set_cell_text
from ooxml.tabular.grid import TableGrid
from ooxml.tabular.rows import insert_row
from ooxml.text import body as B
from ooxml.xml import budget
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import w


def fill_table(doc, tbl: etree._Element, data: list[list[str | None]], start_row: int) -> tuple[int, int, int]:
    """Write ``data`` from row ``start_row``; rows are added (like the last row) when needed.

    Values falling on a slot covered by a merged cell (not its top-left) are skipped.
    Returns (cells written, rows added, values skipped).
    """
    grid = TableGrid(tbl)
    if not 0 <= start_row <= grid.n_rows:
        raise ValidationError(f"start_row {start_row} is outside the table (0-{grid.n_rows}).",
                              hint="start_row is 0-based; the row count itself appends rows after the last.")
    check_data(data, None, grid.n_cols)
    added = max(0, start_row + len(data) - grid.n_rows)
    if grid.n_rows + added > MAX_ROWS:
        raise ValidationError(f"Filling needs {grid.n_rows + added} rows, over the limit of {MAX_ROWS}.",
                              hint="Split the data over several tables.")
    budget.check()  # the last moment to stop: from here on the table changes
    doc.will_change(tbl)
    # Past this point a late stop is still safe: the undo recorder puts back what a failed call changed.
    n = grid.n_rows
    for _ in range(added):
        budget.check()
        insert_row(doc, tbl, n, n - 1, copy_format=True)
        n += 1
    grid = TableGrid(tbl)
    written = skipped = 0
    for i, values in enumerate(data):
        if i % 64 == 0:
            budget.check()
        for c, value in enumerate(values):
            if value is None:
                continue
            cell = grid.at(start_row + i, c)
            if cell is None or cell.start != c or grid.continues(cell):
                skipped += 1 if str(value) else 0
                continue
            set_cell_text(doc, cell.tc, str(value))
            written += 1
    doc.changed(tbl)
    return written, added, skipped


def keep_tables_apart(doc, container: etree._Element, first: etree._Element,
                      last: etree._Element) -> tuple[etree._Element | None, etree._Element | None]:
    """Empty paragraphs between new tables and tables next to them: Word merges adjacent tables."""
    spacers = []
    for block, neighbour, side in ((first, B.prev_block(first), "before"), (last, B.next_block(last), "after")):
        if block.tag == B.W_TBL and neighbour is not None and neighbour.tag == B.W_TBL:
            p = etree.Element(w("p"))
            doc.insert_block(p, container=container, **{side: block})
            spacers.append(p)
        else:
            spacers.append(None)
    return spacers[0], spacers[1]
