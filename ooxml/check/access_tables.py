"""Accessibility rules on tables: a header row (w:tblHeader on the first row), and no merged cells in a
data table (one with a header row): screen readers lose their way in them."""
from __future__ import annotations

from lxml import etree

from ooxml.check.findings import ERROR, WARNING, Finding
from ooxml.text import body as B
from ooxml.xml.namespaces import MC, W

TBL = f"{{{W}}}tbl"
TAGS = (TBL,)
_HEADER, _VAL = f"{{{W}}}trPr/{{{W}}}tblHeader", f"{{{W}}}val"
_MERGES = (f"{{{W}}}tcPr/{{{W}}}gridSpan", f"{{{W}}}tcPr/{{{W}}}vMerge", f"{{{W}}}tcPr/{{{W}}}hMerge")
_FALLBACK = f"{{{MC}}}Fallback"


def findings(name: str, scan) -> list[Finding]:
    out = []
    for tbl in scan.get(TBL):
        rows = B.table_rows(tbl)
        if len(rows) < 2 or max((len(B.row_cells(r)) for r in rows[:3]), default=0) < 2:
            continue  # one row or one column: layout, not data
        if not has_header(rows[0]):
            out.append(Finding("accessibility", "table-header", ERROR, name, "table without a header row",
                               "Mark its first row as the header row (w:tblHeader: 'Repeat as header row').", tbl))
            continue
        merged = next((tc for r in rows for tc in B.row_cells(r) if _merged(tc)), None)
        if merged is not None:
            out.append(Finding("accessibility", "merged-cells", WARNING, name, "merged cells in a data table",
                               "Split the merged cells (give each its own value) so every cell has one row and "
                               "one column header.", merged))
    return out


def has_header(tr: etree._Element) -> bool:
    mark = tr.find(_HEADER)
    return mark is not None and mark.get(_VAL, "1") not in ("0", "false", "off")


def _merged(tc: etree._Element) -> bool:
    for path in _MERGES:
        el = tc.find(path)
        if el is not None and (not path.endswith("gridSpan") or el.get(_VAL, "1") not in ("0", "1")):
            return True
    return False
