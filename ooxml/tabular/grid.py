"""The visual grid of a table: one model for reading (drawing, listing) and editing.

Rows and columns are numbered 0-based on the grid (the ``w:tblGrid`` columns). A cell with
``w:gridSpan="2"`` covers two columns; a ``w:vMerge="continue"`` cell belongs to the cell that
restarted the merge above; ``w:gridBefore``/``w:gridAfter`` leave columns empty at a row's ends.

Every count read from the file is clamped (``ooxml.xml.numbers``): a span never reaches past the
grid's limit (Word's 63 columns, or more when the file declares more ``w:gridCol``), so
nothing is ever sized by an unchecked number from the document.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from lxml import etree

from ooxml.text.body import cell_text, row_cells, table_rows
from ooxml.xml.namespaces import w
from ooxml.xml.numbers import MAX_TWIPS, file_int

MAX_COLS = 63  # Word's limit
_VAL = w("val")


def _prop(el: etree._Element, pr: str, name: str) -> etree._Element | None:
    props = el.find(w(pr))
    return props.find(w(name)) if props is not None else None


def cell_span(tc: etree._Element, limit: int = MAX_COLS) -> int:
    gs = _prop(tc, "tcPr", "gridSpan")
    return file_int(gs.get(_VAL), 1, 1, max(1, limit)) if gs is not None else 1


def vmerge(tc: etree._Element) -> str | None:
    """'restart', 'continue' or None."""
    vm = _prop(tc, "tcPr", "vMerge")
    if vm is None:
        return None
    return "restart" if vm.get(_VAL) == "restart" else "continue"


def grid_before(tr: etree._Element, limit: int = MAX_COLS) -> int:
    gb = _prop(tr, "trPr", "gridBefore")
    return file_int(gb.get(_VAL), 0, 0, limit) if gb is not None else 0


def grid_after(tr: etree._Element, limit: int = MAX_COLS) -> int:
    ga = _prop(tr, "trPr", "gridAfter")
    return file_int(ga.get(_VAL), 0, 0, limit) if ga is not None else 0


def counted(count: int, what: str) -> str:
    """'3 rows (0-2)', '1 row (0)' or 'no rows': never '(0--1)'."""
    if count <= 0:
        return f"no {what}s"
    return f"1 {what} (0)" if count == 1 else f"{count} {what}s (0-{count - 1})"


@dataclass
class Cell:
    """A physical ``w:tc`` and the grid columns it covers in its row."""
    tc: etree._Element
    row: int
    start: int
    span: int

    @property
    def end(self) -> int:  # exclusive
        return self.start + self.span

    @property
    def vmerge(self) -> str | None:
        return vmerge(self.tc)


class TableGrid:
    """Physical cells of every row placed on the grid columns, and who covers each slot."""

    def __init__(self, tbl: etree._Element):
        self.tbl = tbl
        self.rows = table_rows(tbl)
        declared = tbl.find(w("tblGrid"))
        cols = declared.findall(w("gridCol")) if declared is not None else []
        self.widths = [file_int(g.get(w("w")), 0, 0, MAX_TWIPS) for g in cols]
        limit = max(MAX_COLS, len(self.widths))
        self.cells: list[list[Cell]] = []
        self.before: list[int] = []
        self.after: list[int] = []
        for r, tr in enumerate(self.rows):
            tcs = row_cells(tr)
            col = grid_before(tr, max(0, limit - len(tcs)))
            self.before.append(col)
            line = []
            for i, tc in enumerate(tcs):  # each span leaves room for the cells after it
                span = cell_span(tc, limit - col - (len(tcs) - i - 1))
                line.append(Cell(tc, r, col, span))
                col += span
            self.after.append(grid_after(tr, max(0, limit - col)))
            self.cells.append(line)
        ends = [line[-1].end + self.after[r] for r, line in enumerate(self.cells) if line]
        self.n_cols = max([len(self.widths), *ends], default=0)

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    # ---- physical cells (editing) ----

    def at(self, r: int, c: int) -> Cell | None:
        """The physical cell of row ``r`` covering grid column ``c``."""
        if not 0 <= r < len(self.cells):
            return None
        return next((cell for cell in self.cells[r] if cell.start <= c < cell.end), None)

    def continues(self, cell: Cell) -> bool:
        """True when ``cell`` continues a vertical merge from the row above."""
        return cell.vmerge == "continue" and cell.row > 0 and self.at(cell.row - 1, cell.start) is not None

    def origin(self, cell: Cell) -> Cell:
        """The cell that starts the (vertical) merge ``cell`` belongs to."""
        while self.continues(cell):
            cell = self.at(cell.row - 1, cell.start)
        return cell

    def last_row_of(self, cell: Cell) -> int:
        r = cell.row
        while True:
            below = self.at(r + 1, cell.start)
            if below is None or below.start != cell.start or not self.continues(below):
                return r
            r += 1

    def width_of(self, start: int, span: int) -> int | None:
        if start + span > len(self.widths):
            return None
        return sum(self.widths[start:start + span])

    def cell_of(self, tc: etree._Element) -> Cell | None:
        return next((cell for line in self.cells for cell in line if cell.tc is tc), None)

    # ---- visual slots (reading) ----

    @cached_property
    def owners(self) -> list[list[etree._Element | None]]:
        """Per row, the ``w:tc`` showing in each grid column up to the row's last cell."""
        out: list[list[etree._Element | None]] = []
        for r, line in enumerate(self.cells):
            slots: list[etree._Element | None] = [None] * self.before[r]
            for cell in line:
                owner = cell.tc
                if self.continues(cell):
                    above = out[r - 1]
                    owner = above[cell.start] if cell.start < len(above) and above[cell.start] is not None else owner
                slots.extend([owner] * cell.span)  # spans are clamped: at most the grid's width
            out.append(slots)
        return out

    def cell(self, row: int, col: int) -> etree._Element | None:
        """The cell shown in slot (row, col): a vertically merged slot shows the merge's top cell."""
        if 0 <= row < len(self.owners) and 0 <= col < len(self.owners[row]):
            return self.owners[row][col]
        return None

    @cached_property
    def _tops(self) -> set[tuple[int, int]]:
        return {(cell.row, cell.start) for line in self.cells for cell in line if not self.continues(cell)}

    def is_top_left(self, row: int, col: int) -> bool:
        """True when slot (row, col) is where the cell shown there starts."""
        return (row, col) in self._tops

    def position_of(self, tc: etree._Element) -> tuple[int, int]:
        """The top-left slot of the cell ``w:tc`` ((0, 0) when it is not in this table)."""
        cell = self.cell_of(tc)
        return (cell.row, cell.start) if cell is not None else (0, 0)

    def text_matrix(self) -> list[list[str]]:
        out = []
        for r, line in enumerate(self.owners):
            texts = []
            for c in range(self.n_cols):
                tc = line[c] if c < len(line) else None
                if tc is None:
                    texts.append("")
                elif self.is_top_left(r, c):
                    texts.append(cell_text(tc))
                elif c > 0 and line[c - 1] is tc:
                    texts.append("\u2190")  # merged with the cell to the left
                else:
                    texts.append("\u2191")  # merged with the cell above
            out.append(texts)
        return out
