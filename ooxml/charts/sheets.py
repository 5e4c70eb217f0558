"""The embedded workbook of a chart (Word's "Edit Data"), read and written with openpyxl.

Formulas are what a series' ``c:f`` holds: ``Sheet1!$B$2:$B$5`` or ``'My data'!$A$1``.
"""
from __future__ import annotations

import io
import re
import warnings
import zipfile
from datetime import timezone

from openpyxl.utils.cell import column_index_from_string, get_column_letter

from ooxml.xml import budget, clock

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
    """The workbook's bytes, the same for the same call: openpyxl stamps the wall clock into its
    properties and zip entries, so a journal replay (which pins ``clock``) would write other bytes."""
    when = clock.now().astimezone(timezone.utc).replace(tzinfo=None, microsecond=0)
    book.properties.created = book.properties.created or when  # a new workbook's (ooxml/charts/build.py)
    buf = io.BytesIO()
    book.save(buf)  # sets properties.modified to the wall clock: _stamped puts the call's time back
    return _stamped(buf.getvalue(), when.strftime("%Y-%m-%dT%H:%M:%SZ"))


def _stamped(data: bytes, when: str) -> bytes:
    """The zip with every entry dated 1980-01-01 (as the package writer dates parts) and the core
    properties' modified date ``when``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            fixed.compress_type, fixed.external_attr = info.compress_type, info.external_attr
            body = src.read(info)
            if info.filename == "docProps/core.xml":
                body = _MODIFIED.sub(lambda m: m.group(1) + when.encode() + m.group(2), body)
            dst.writestr(fixed, body)
    return out.getvalue()


_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


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
