"""New tables: a table of a size with its grid and widths, its cells, the checks of a size and of data."""
from __future__ import annotations

from lxml import etree

from ooxml.tabular.grid import MAX_COLS
from ooxml.text.build import make_run
from ooxml.xml import budget
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import w
from ooxml.xml.order import get_or_add, set_child


MAX_ROWS = 10_000
MAX_CELLS = 200_000
CELL_BYTES = 60  # at least what an empty cell's XML takes: what a new table or column adds per cell


def border_set(parent: etree._Element, name: str, sides: tuple[str, ...]) -> None:
    borders = get_or_add(parent, name)
    for side in sides:
        set_child(borders, side, val="single", sz="4", space="0", color="auto")


def new_cell(width: int | None, text: str = "", span: int = 1) -> etree._Element:
    tc = etree.Element(w("tc"))
    tcpr = etree.SubElement(tc, w("tcPr"))
    if width is not None:
        etree.SubElement(tcpr, w("tcW"), {w("w"): str(width), w("type"): "dxa"})
    if span > 1:
        set_child(tcpr, "gridSpan", val=str(span))
    p = etree.SubElement(tc, w("p"))
    if text:
        p.append(make_run(text))
    return tc


def build_table(rows: int, cols: int, widths: list[int], style_id: str | None,
                data: list[list[str | None]] | None = None) -> etree._Element:
    """A new table; with no table style it gets single borders so it is visible."""
    tbl = etree.Element(w("tbl"))
    tblpr = etree.SubElement(tbl, w("tblPr"))
    if style_id:
        set_child(tblpr, "tblStyle", val=style_id)
    set_child(tblpr, "tblW", w="0", type="auto")
    if not style_id:
        border_set(tblpr, "tblBorders", ("top", "left", "bottom", "right", "insideH", "insideV"))
    set_child(tblpr, "tblLook", val="04A0", firstRow="1", lastRow="0", firstColumn="1", lastColumn="0",
              noHBand="0", noVBand="1")
    grid = etree.SubElement(tbl, w("tblGrid"))
    for width in widths:
        etree.SubElement(grid, w("gridCol"), {w("w"): str(width)})
    for r in range(rows):
        if not r % 256:
            budget.check()  # 200,000 cells take seconds
        tr = etree.SubElement(tbl, w("tr"))
        values = data[r] if data and r < len(data) else []
        for c in range(cols):
            value = values[c] if c < len(values) else None
            tr.append(new_cell(widths[c], "" if value is None else str(value)))
    return tbl


def column_widths(total: int, cols: int) -> list[int]:
    """Equal widths summing to ``total`` twips (the remainder goes to the first columns)."""
    if cols <= 0:
        return []
    base, extra = divmod(max(total, cols * 120), cols)
    return [base + (1 if i < extra else 0) for i in range(cols)]


def check_size(rows: int, cols: int) -> None:
    if not 1 <= rows <= MAX_ROWS:
        raise ValidationError(f"rows must be 1-{MAX_ROWS}, not {rows}.",
                              hint="Build a table of at most 10000 rows; split larger data over several tables.")
    if not 1 <= cols <= MAX_COLS:
        raise ValidationError(f"cols must be 1-{MAX_COLS} (Word's limit), not {cols}.",
                              hint="Word tables have at most 63 columns: split the data, or turn it.")
    if rows * cols > MAX_CELLS:
        raise ValidationError(f"{rows}×{cols} is {rows * cols} cells, over the limit of {MAX_CELLS}.",
                              hint="Split the data over several tables.")


def check_data(data: list, n_rows: int | None, n_cols: int, first_row: int = 0) -> None:
    """Refuse data that does not fit: too many values in a row, or (n_rows given) too many rows."""
    if not isinstance(data, list) or any(not isinstance(row, list) for row in data):
        raise ValidationError("data must be a list of rows, each a list of cell texts.",
                              hint='Example: [["Name", "Age"], ["Ann", "31"]]')
    if n_rows is not None and first_row + len(data) > n_rows:
        raise ValidationError(f"data has {len(data)} rows but the table has {n_rows}.",
                              hint="Pass as many rows as the table has, or more rows to the table.")
    for i, row in enumerate(data):
        budget.check()
        if len(row) > n_cols:
            raise ValidationError(f"data row {i} has {len(row)} values but the table has {n_cols} columns.",
                                  hint="Add columns first with docx_insert_col_at, or shorten the row.")
