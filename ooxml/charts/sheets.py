"""The embedded workbook of a chart (Word's "Edit Data"), read and written with openpyxl.

Formulas are what a series' ``c:f`` holds: ``Sheet1!$B$2:$B$5`` or ``'My data'!$A$1``.
"""
from __future__ import annotations

import io
import re
import warnings

from openpyxl.utils.cell import column_index_from_string, get_column_letter

from ooxml.xml import budget

MAX_CELLS = 100_000
# "Unknown extension ... will be removed": Excel's extras, not chart data (set once: catch_warnings is
# not thread-safe, and calls run in worker threads).
warnings.filterwarnings("ignore", message="Unknown extension", category=UserWarning, module="openpyxl")
_REF = re.compile(r"^(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$")


def parse_formula(formula: str) -> tuple[str, int, int, int, int] | None:
    """(sheet, first column, first row, last column, last row), 1-based; None if not one range."""
    m = _REF.match(formula.strip().lstrip("="))
    if not m:
        return None
    sheet = m.group(1).replace("''", "'") if m.group(1) else m.group(2)
    c1, r1 = column_index_from_string(m.group(3)), int(m.group(4))
    c2 = column_index_from_string(m.group(5)) if m.group(5) else c1
    r2 = int(m.group(6)) if m.group(6) else r1
    return sheet, min(c1, c2), min(r1, r2), max(c1, c2), max(r1, r2)


def formula(sheet: str, col1: int, row1: int, col2: int | None = None, row2: int | None = None) -> str:
    """A range as Word writes it: ``Sheet1!$A$2:$A$5`` (a sheet name with spaces quoted)."""
    name = sheet if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", sheet) else "'" + sheet.replace("'", "''") + "'"
    ref = f"${get_column_letter(col1)}${row1}"
    if col2 is not None and (col2, row2) != (col1, row1):
        ref += f":${get_column_letter(col2)}${row2}"
    return f"{name}!{ref}"


def load(data: bytes):
    """The workbook in ``data`` (an .xlsx), or None when openpyxl cannot read it."""
    from openpyxl import load_workbook  # only charts need it: the server starts without its import
    try:
        return load_workbook(io.BytesIO(data))
    except Exception:  # openpyxl raises many kinds for a damaged or foreign file
        return None


def read_range(book, text: str) -> list:
    """The cell values of a one-row or one-column range (row-major); [] when it does not resolve."""
    ref = parse_formula(text)
    if ref is None or ref[0] not in book.sheetnames:
        return []
    sheet, c1, r1, c2, r2 = ref
    if (c2 - c1 + 1) * (r2 - r1 + 1) > MAX_CELLS:
        return []
    ws = book[sheet]
    return [ws.cell(row=r, column=col).value for r in range(r1, r2 + 1) for col in range(c1, c2 + 1)]


def save(book) -> bytes:
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def write_data(ws, categories: list, pairs: list[tuple[str, list]]) -> None:
    """Word's layout of a chart's data: categories in column A from row 2, one series a column from
    B with its name in row 1 (the series formulas point there)."""
    for i, cat in enumerate(categories):
        ws.cell(row=i + 2, column=1, value=cat)
    for j, (name, values) in enumerate(pairs):
        budget.check()
        ws.cell(row=1, column=j + 2, value=name)
        for i, v in enumerate(values):
            ws.cell(row=i + 2, column=j + 2, value=v)


def fit_tables(ws, cols: int, rows: int) -> None:
    """Word's data table (and its filter) spans the new block A1:(cols, rows), columns named by row 1."""
    from openpyxl.worksheet.table import TableColumn
    ref = f"A1:{get_column_letter(cols)}{rows}"
    for table in ws.tables.values():
        table.ref = ref
        if table.autoFilter is not None:
            table.autoFilter.ref = ref
        names, seen = [], set()
        for col in range(1, cols + 1):
            cell = ws.cell(row=1, column=col)
            if cell.value is None:  # a table's header cells hold its columns' names
                cell.value = " " if col == 1 else f"Column{col}"
            name = str(cell.value)
            while name in seen:
                name += " "
            seen.add(name)
            names.append(name)
        table.tableColumns = [TableColumn(id=i + 1, name=n) for i, n in enumerate(names)]
