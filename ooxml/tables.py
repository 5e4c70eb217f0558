"""Tables edited through their visual grid: build, fill, rows, columns, merged cells.

Rows and columns are numbered 0-based on the *visual grid* (the ``w:tblGrid`` columns),
the way ``ooxml.body.TableGrid`` draws a table: a cell with ``w:gridSpan="2"`` covers two
columns, a ``w:vMerge="continue"`` cell belongs to the cell that restarted the merge above.

Every edit checks everything first and raises before it changes anything, keeps
``w:tblGrid`` in step with the cells, and leaves every cell ending with a paragraph.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from lxml import etree

from ooxml import body as B
from ooxml import budget
from ooxml.build import make_run, set_paragraph_text
from ooxml.errors import InvalidPosition, ValidationError
from ooxml.ids import IdIndex
from ooxml.namespaces import M, W, w
from ooxml.order import get_or_add, insert_child, remove_child, set_child

MAX_COLS = 63  # Word's limit
MAX_ROWS = 10_000
MAX_CELLS = 200_000
# Revision records are not formatting: a copied row or cell must not repeat them (their ids
# would clash and Word would show changes nobody made).
_TRPR_REVISIONS = ("ins", "del", "trPrChange")
_TCPR_REVISIONS = ("cellIns", "cellDel", "cellMerge", "tcPrChange")
_TCPR_MERGES = ("gridSpan", "hMerge", "vMerge")
_PPR_DROP_IN_COPY = ("sectPr", "pPrChange")
_MARK_RPR_DROP = {w(n) for n in ("ins", "del", "moveFrom", "moveTo", "rPrChange")}


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(float(value)) if value is not None else default
    except ValueError:
        return default


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
        return B.vmerge(self.tc)


def grid_after(tr: etree._Element) -> int:
    trpr = tr.find(w("trPr"))
    ga = trpr.find(w("gridAfter")) if trpr is not None else None
    return _int(ga.get(w("val")), 0) if ga is not None else 0


class Layout:
    """Physical cells of every row, placed on the grid columns."""

    def __init__(self, tbl: etree._Element):
        self.tbl = tbl
        self.rows = B.table_rows(tbl)
        self.cells: list[list[Cell]] = []
        for r, tr in enumerate(self.rows):
            col, line = B.grid_before(tr), []
            for tc in B.row_cells(tr):
                span = B.cell_span(tc)
                line.append(Cell(tc, r, col, span))
                col += span
            self.cells.append(line)
        grid = tbl.find(w("tblGrid"))
        self.widths = [_int(g.get(w("w"))) for g in grid.findall(w("gridCol"))] if grid is not None else []
        ends = [line[-1].end + grid_after(self.rows[r]) for r, line in enumerate(self.cells) if line]
        self.n_cols = max([len(self.widths), *ends], default=0)

    @property
    def n_rows(self) -> int:
        return len(self.rows)

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


# ---- building -------------------------------------------------------------------------------

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
        tr = etree.SubElement(tbl, w("tr"))
        values = data[r] if data and r < len(data) else []
        for c in range(cols):
            value = values[c] if c < len(values) else None
            tr.append(new_cell(widths[c], "" if value is None else str(value)))
    return tbl


def column_widths(total: int, cols: int) -> list[int]:
    """Equal widths summing to ``total`` twips (the remainder goes to the first columns)."""
    base, extra = divmod(max(total, cols * 120), cols)
    return [base + (1 if i < extra else 0) for i in range(cols)]


def check_size(rows: int, cols: int) -> None:
    if not 1 <= rows <= MAX_ROWS:
        raise ValidationError(f"rows must be 1-{MAX_ROWS}, not {rows}.")
    if not 1 <= cols <= MAX_COLS:
        raise ValidationError(f"cols must be 1-{MAX_COLS} (Word's limit), not {cols}.")
    if rows * cols > MAX_CELLS:
        raise ValidationError(f"{rows}×{cols} is {rows * cols} cells, over the limit of {MAX_CELLS}.")


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


# ---- cell content -----------------------------------------------------------------------------

def cell_blocks(tc: etree._Element) -> list[etree._Element]:
    return [c for c in tc if isinstance(c.tag, str) and c.tag != w("tcPr")]


_CONTENT = etree.XPath(".//w:r[*[not(self::w:rPr)]] | .//m:oMath | .//m:oMathPara | .//w:fldSimple"
                       " | .//w:object | .//w:pict | .//w:drawing",
                       namespaces={"w": W, "m": M})


def is_empty_cell(tc: etree._Element) -> bool:
    """No text, image, table or other content: only empty paragraphs and range markers."""
    for child in cell_blocks(tc):
        if child.tag in B.MARKERS:
            continue
        if child.tag != B.W_P or _CONTENT(child):
            return False
    return True


def mark_rpr(p: etree._Element) -> etree._Element | None:
    """The paragraph-mark run properties (``w:pPr/w:rPr``) as a run rPr, revision marks left out."""
    ppr = p.find(w("pPr"))
    rpr = ppr.find(w("rPr")) if ppr is not None else None
    if rpr is None:
        return None
    out = etree.Element(w("rPr"))
    for child in rpr:
        if child.tag not in _MARK_RPR_DROP:
            out.append(copy.deepcopy(child))
    return out if len(out) else None


def set_cell_text(doc, tc: etree._Element, text: str) -> None:
    """Make the cell hold one paragraph with ``text``, formatted like the cell's first paragraph."""
    if getattr(doc, "tracker", None) is not None:
        from ooxml.tracked_text import set_cell_text as tracked
        return tracked(doc, tc, text)
    keep = tc.find(w("p"))
    if keep is None:
        keep = etree.SubElement(tc, w("p"))
    for child in cell_blocks(tc):
        if child is not keep and child.tag not in B.MARKERS:
            doc.remove_block(child)
    had_runs = next(B.iter_runs(keep), None) is not None
    set_paragraph_text(keep, text)
    run = next(B.iter_runs(keep), None)
    model = mark_rpr(keep)
    if not had_runs and run is not None and model is not None and run.find(w("rPr")) is None:
        run.insert(0, model)  # an empty cell's typing formatting is its paragraph mark's
    doc.forget_order(tc)


def clear_copied_cell(tc: etree._Element, keep_span: bool = False) -> None:
    """Reduce a copied cell to one empty paragraph keeping its formatting (pPr, first run's rPr).

    Merges and revision records go; a copied row keeps its cells' spans (``keep_span``).
    """
    tcpr = tc.find(w("tcPr"))
    if tcpr is not None:
        for name in _TCPR_REVISIONS + (("hMerge", "vMerge") if keep_span else _TCPR_MERGES):
            remove_child(tcpr, name)
    first = tc.find(w("p"))
    model_rpr = None
    ppr = None
    if first is not None:
        ppr = first.find(w("pPr"))
        run = next((r for r in B.iter_runs(first) if r.find(w("rPr")) is not None), None)
        model_rpr = run.find(w("rPr")) if run is not None else None
    for child in cell_blocks(tc):
        tc.remove(child)
    p = etree.SubElement(tc, w("p"))
    if ppr is not None:
        ppr = copy.deepcopy(ppr)
        for name in _PPR_DROP_IN_COPY:
            remove_child(ppr, name)
        p.append(ppr)
    if model_rpr is not None and (ppr is None or ppr.find(w("rPr")) is None):
        mark = copy.deepcopy(model_rpr)
        remove_child(mark, "rPrChange")
        if len(mark):
            insert_child(get_or_add(p, "pPr"), mark)


def move_content(src: etree._Element, dst: etree._Element) -> None:
    """Append the blocks (and markers) of cell ``src`` to cell ``dst``; ``src`` is left empty."""
    for child in cell_blocks(src):
        dst.append(child)


def ensure_final_paragraph(tc: etree._Element) -> None:
    blocks = [c for c in cell_blocks(tc) if c.tag not in B.MARKERS]
    if not blocks or blocks[-1].tag != B.W_P:
        tc.append(etree.Element(w("p")))


# ---- widths ---------------------------------------------------------------------------------------

def _set_tcw(tc: etree._Element, width: int | None) -> None:
    if width is None:
        return
    tcpr = get_or_add(tc, "tcPr")
    tcw = tcpr.find(w("tcW"))
    if tcw is not None and tcw.get(w("type"), "dxa") not in ("dxa",):
        return  # pct/auto widths are not ours to turn into fixed ones
    set_child(tcpr, "tcW", w=str(width), type="dxa")


def _set_span(tc: etree._Element, span: int) -> None:
    tcpr = get_or_add(tc, "tcPr")
    if span > 1:
        set_child(tcpr, "gridSpan", val=str(span))
    else:
        remove_child(tcpr, "gridSpan")


def _set_vmerge(tc: etree._Element, value: str | None) -> None:
    tcpr = get_or_add(tc, "tcPr")
    if value is None:
        remove_child(tcpr, "vMerge")
    elif value == "restart":
        set_child(tcpr, "vMerge", val="restart")
    else:
        set_child(tcpr, "vMerge")  # no val: continue


def _set_grid_attr(tr: etree._Element, name: str, value: int) -> None:
    trpr = get_or_add(tr, "trPr")
    if value > 0:
        set_child(trpr, name, val=str(value))
        return
    remove_child(trpr, name)
    remove_child(trpr, "wBefore" if name == "gridBefore" else "wAfter")  # the gap's width goes with it
    if not len(trpr):
        tr.remove(trpr)


def write_grid(tbl: etree._Element, widths: list[int]) -> None:
    grid = tbl.find(w("tblGrid"))
    if grid is None:
        grid = insert_child(tbl, etree.Element(w("tblGrid")))
    for gc in grid.findall(w("gridCol")):
        grid.remove(gc)
    change = grid.find(w("tblGridChange"))
    for width in widths:
        gc = etree.Element(w("gridCol"), {w("w"): str(width)})
        if change is not None:
            change.addprevious(gc)
        else:
            grid.append(gc)
    tblpr = tbl.find(w("tblPr"))
    tblw = tblpr.find(w("tblW")) if tblpr is not None else None
    if tblw is not None and tblw.get(w("type")) == "dxa" and _int(tblw.get(w("w"))) > 0:
        tblw.set(w("w"), str(sum(widths)))


def fit_widths(layout: Layout, widths: list[int], max_width: int | None) -> list[int]:
    """Scale column widths down to ``max_width`` when an edit made the table wider than the page."""
    total = sum(widths)
    if not max_width or total <= max_width or sum(layout.widths) > max_width:
        return widths
    factor = max_width / total
    return [max(120, int(x * factor)) for x in widths]


def sync_cell_widths(layout: Layout) -> None:
    for line in layout.cells:
        for cell in line:
            _set_tcw(cell.tc, layout.width_of(cell.start, cell.span))


# ---- rows ----------------------------------------------------------------------------------------

def parse_row_col_position(position: str, count: int, what: str) -> tuple[int, int]:
    """``before:N``/``after:N``/``start``/``end`` -> (insert index, template index)."""
    raw = (position or "").strip().lower()
    hint = f"Use before:N, after:N (N is a 0-based {what} index, 0-{count - 1}), start or end."
    if raw == "start":
        return 0, 0
    if raw == "end":
        return count, count - 1
    mode, _, num = raw.partition(":")
    if mode not in ("before", "after") or not num.strip().lstrip("-").isdigit():
        raise InvalidPosition(f"'{position}' is not a {what} position.", hint=hint)
    n = int(num)
    if not 0 <= n < count:
        raise InvalidPosition(f"{what} {n} does not exist: the table has {count} {what}s (0-{count - 1}).",
                              hint=hint)
    return (n, n) if mode == "before" else (n + 1, n)


def _is_header(tr: etree._Element) -> bool:
    trpr = tr.find(w("trPr"))
    return trpr is not None and trpr.find(w("tblHeader")) is not None


def new_row(layout: Layout, at: int, template: int, copy_format: bool, ids) -> etree._Element:
    """A row shaped like row ``template`` for index ``at``; it continues vertical merges crossing ``at``."""
    from ooxml.wordids import prepare_copy

    src = layout.rows[template]
    if copy_format:
        tr = copy.deepcopy(src)
        trpr = tr.find(w("trPr"))
        if trpr is not None:
            for name in _TRPR_REVISIONS:
                remove_child(trpr, name)
            if not (at == 0 or _is_header(layout.rows[at - 1])):
                remove_child(trpr, "tblHeader")  # repeated header rows must stay at the top
        for tc in B.row_cells(tr):
            clear_copied_cell(tc, keep_span=True)
        prepare_copy(tr, ids)
    else:
        tr = etree.Element(w("tr"))
        gb, ga = B.grid_before(src), grid_after(src)
        if gb:
            _set_grid_attr(tr, "gridBefore", gb)
        if ga:
            _set_grid_attr(tr, "gridAfter", ga)
        for cell in layout.cells[template]:
            tr.append(new_cell(layout.width_of(cell.start, cell.span), span=cell.span))
    for tc, cell in zip(B.row_cells(tr), layout.cells[template]):
        below = layout.at(at, cell.start)
        inside = (below is not None and below.start == cell.start and below.span == cell.span
                  and layout.continues(below))
        _set_vmerge(tc, "continue" if inside else None)
    return tr


def insert_row(doc, tbl: etree._Element, at: int, template: int, copy_format: bool) -> etree._Element:
    layout = Layout(tbl)
    if layout.n_rows + 1 > MAX_ROWS:
        raise ValidationError(f"The table already has {layout.n_rows} rows, the limit.")
    tr = new_row(layout, at, template, copy_format, doc.word_ids(tbl))
    if at < layout.n_rows:
        layout.rows[at].addprevious(tr)
    else:
        layout.rows[-1].addnext(tr)
    if getattr(doc, "tracker", None) is not None:
        from ooxml.revisions import mark_inserted
        mark_inserted(doc, tr)
    doc.changed(tbl)
    return tr


def delete_row(doc, tbl: etree._Element, r: int) -> None:
    layout = Layout(tbl)
    if not 0 <= r < layout.n_rows:
        raise InvalidPosition(f"Row {r} does not exist: the table has {layout.n_rows} rows (0-{layout.n_rows - 1}).")
    if layout.n_rows == 1:
        raise ValidationError("A table must keep at least one row.", hint="Delete the whole table with docx_delete.")
    if getattr(doc, "tracker", None) is not None:  # the row stays, marked deleted
        from ooxml.revisions import delete_row as tracked_delete
        doc.will_change(tbl)
        tracked_delete(doc, layout.rows[r])
        doc.changed(tbl)
        return
    for cell in layout.cells[r]:
        below = layout.at(r + 1, cell.start)
        if below is None or below.start != cell.start or not layout.continues(below):
            continue
        if not layout.continues(cell):  # this row starts the merge: the row below starts it now
            _set_vmerge(below.tc, "restart")
            if not is_empty_cell(cell.tc):
                for child in cell_blocks(below.tc):
                    if child.tag not in B.MARKERS:
                        doc.remove_block(child)
                move_content(cell.tc, below.tc)
                doc.forget_order(below.tc)
    tr = layout.rows[r]
    holder = tr.getparent()
    doc.remove_block(tr)
    _drop_empty_row_wrapper(doc, holder, tbl)
    normalise_vmerge(Layout(tbl), {r})
    doc.changed(tbl)


def _drop_empty_row_wrapper(doc, holder: etree._Element, tbl: etree._Element) -> None:
    """A content control or custom XML that wrapped the row goes when it holds no row any more."""
    while holder is not tbl and next(holder.iter(B.W_TR), None) is None:
        outer = holder.getparent()
        if holder.tag in (B.W_SDT, w("customXml")):
            doc.remove_block(holder)
        holder = outer


def normalise_vmerge(layout: Layout, rows: set[int] | None = None) -> None:
    """In ``rows`` (default all), a 'continue' with nothing above to continue becomes a restart."""
    for r, line in enumerate(layout.cells):
        if rows is not None and r not in rows:
            continue
        for cell in line:
            if cell.vmerge != "continue" or cell.row == 0:
                if cell.vmerge == "continue":
                    _set_vmerge(cell.tc, "restart")
                continue
            above = layout.at(cell.row - 1, cell.start)
            if above is None or above.start != cell.start:
                _set_vmerge(cell.tc, "restart")


# ---- columns --------------------------------------------------------------------------------------

def insert_col(doc, tbl: etree._Element, k: int, template: int, copy_format: bool,
               max_width: int | None) -> list[etree._Element]:
    """Insert a grid column at index ``k``; returns the new cells, top to bottom."""
    layout = Layout(tbl)
    if layout.n_cols + 1 > MAX_COLS:
        raise ValidationError(f"The table already has {layout.n_cols} columns, Word's limit is {MAX_COLS}.")
    widths = list(layout.widths) or column_widths(max_width or 9360, layout.n_cols)
    widths += [widths[-1] if widths else 1440] * (layout.n_cols - len(widths))
    width = widths[template] if template < len(widths) else widths[-1]
    created = []
    for r, line in enumerate(layout.cells):
        tc = _insert_col_in_row(layout, r, line, k, template, copy_format, width)
        if tc is not None:
            created.append(tc)
    new_layout = Layout(tbl)  # spans changed; the grid gets the new column now
    widths.insert(k, width)
    widths = fit_widths(layout, widths, max_width)
    write_grid(tbl, widths)
    new_layout.widths = widths
    for tc in created:
        _set_tcw(tc, width)
    if widths != layout.widths[:k] + [width] + layout.widths[k:]:
        sync_cell_widths(new_layout)
    else:
        for line in new_layout.cells:
            for cell in line:
                if cell.start < k < cell.end:
                    _set_tcw(cell.tc, new_layout.width_of(cell.start, cell.span))
    doc.changed(tbl)
    return created


def _insert_col_in_row(layout: Layout, r: int, line: list[Cell], k: int, template: int,
                       copy_format: bool, width: int) -> etree._Element | None:
    tr = layout.rows[r]
    gb, ga = B.grid_before(tr), grid_after(tr)
    row_end = line[-1].end if line else gb
    inside = next((c for c in line if c.start < k < c.end), None)
    if inside is not None:
        _set_span(inside.tc, inside.span + 1)  # the column goes through a merged cell: it widens
        return None
    if k < gb:
        _set_grid_attr(tr, "gridBefore", gb + 1)
        return None
    if k > row_end or (k == row_end and ga):
        if ga:
            _set_grid_attr(tr, "gridAfter", ga + 1)
        return None
    model = layout.at(r, template) if copy_format else None
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
    layout = Layout(tbl)
    if not 0 <= c < layout.n_cols:
        raise InvalidPosition(f"Column {c} does not exist: the table has {layout.n_cols} columns "
                              f"(0-{layout.n_cols - 1}).")
    if layout.n_cols == 1:
        raise ValidationError("A table must keep at least one column.", hint="Delete the whole table with docx_delete.")
    for r, line in enumerate(layout.cells):
        cell = layout.at(r, c)
        if cell is not None and cell.span == 1 and len(line) == 1:
            raise ValidationError(f"Deleting column {c} would leave row {r} without any cell.",
                                  hint=f"Delete row {r} first (docx_delete_row), or delete the table.")
    narrowed = [_delete_col_in_row(doc, layout, r, line, c) for r, line in enumerate(layout.cells)]
    widths = list(layout.widths)
    if c < len(widths):
        del widths[c]
        write_grid(tbl, widths)
    new_layout = Layout(tbl)
    for line in new_layout.cells:
        for cell in line:
            if cell.tc in narrowed:
                _set_tcw(cell.tc, new_layout.width_of(cell.start, cell.span))
    normalise_vmerge(new_layout)
    doc.changed(tbl)


def _delete_col_in_row(doc, layout: Layout, r: int, line: list[Cell], c: int) -> etree._Element | None:
    """Take column c out of row r; returns the cell that narrowed, if one did."""
    tr = layout.rows[r]
    cell = layout.at(r, c)
    if cell is not None:
        if cell.span > 1:
            _set_span(cell.tc, cell.span - 1)  # the column leaves a merged cell: it narrows
            return cell.tc
        doc.remove_block(cell.tc)
        return None
    gb = B.grid_before(tr)
    if c < gb:
        _set_grid_attr(tr, "gridBefore", gb - 1)
    elif line and c >= line[-1].end and grid_after(tr):
        _set_grid_attr(tr, "gridAfter", grid_after(tr) - 1)
    return None


# ---- merging ---------------------------------------------------------------------------------------

def _row_cells_in(layout: Layout, r: int, c0: int, c1: int) -> list[Cell]:
    """The cells of row r exactly covering columns c0..c1, or a ValidationError saying why not."""
    cells = [cell for cell in layout.cells[r] if cell.start <= c1 and cell.end > c0]
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


def check_merge(layout: Layout, r0: int, c0: int, r1: int, c1: int) -> list[list[Cell]]:
    if not (0 <= r0 <= r1 < layout.n_rows):
        raise ValidationError(f"Rows {r0}-{r1} are not a range of this table's rows (0-{layout.n_rows - 1}).",
                              hint="start_row <= end_row, both 0-based.")
    if not (0 <= c0 <= c1 < layout.n_cols):
        raise ValidationError(f"Columns {c0}-{c1} are not a range of this table's columns (0-{layout.n_cols - 1}).",
                              hint="start_col <= end_col, both 0-based.")
    rows = [_row_cells_in(layout, r, c0, c1) for r in range(r0, r1 + 1)]
    if len(rows) == 1 and len(rows[0]) == 1:
        raise ValidationError("The range is a single cell: nothing to merge.")
    for cell in rows[0]:
        if layout.continues(cell):
            top = layout.origin(cell).row
            raise ValidationError(f"The cell at row {r0}, column {cell.start} is merged with row {top} "
                                  "above the range.",
                                  hint=f"Start the range at row {top}.")
    for cell in rows[-1]:
        last = layout.last_row_of(layout.origin(cell))
        if last > r1:
            raise ValidationError(f"The cell at row {r1}, column {cell.start} is merged down to row {last}, "
                                  "beyond the range.", hint=f"End the range at row {last}.")
    return rows


def merge_cells(doc, tbl: etree._Element, r0: int, c0: int, r1: int, c1: int) -> etree._Element:
    """Merge the rectangle into its top-left cell; the other cells' content is appended to it."""
    layout = Layout(tbl)
    rows = check_merge(layout, r0, c0, r1, c1)
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
    width = layout.width_of(c0, c1 - c0 + 1)
    for i, line in enumerate(rows):
        keep = line[0].tc
        for cell in line[1:]:
            doc.remove_block(cell.tc)
        remove_child(get_or_add(keep, "tcPr"), "hMerge")
        _set_span(keep, c1 - c0 + 1)
        _set_tcw(keep, width)
        _set_vmerge(keep, None if r0 == r1 else ("restart" if i == 0 else "continue"))
        if keep is not top:
            ensure_final_paragraph(keep)
            doc.forget_order(keep)
    doc.changed(tbl)
    return top


# ---- filling ----------------------------------------------------------------------------------------

def fill(doc, tbl: etree._Element, data: list[list[str | None]], start_row: int) -> tuple[int, int, int]:
    """Write ``data`` from row ``start_row``; rows are added (like the last row) when needed.

    Values falling on a slot covered by a merged cell (not its top-left) are skipped.
    Returns (cells written, rows added, values skipped).
    """
    layout = Layout(tbl)
    if not 0 <= start_row <= layout.n_rows:
        raise ValidationError(f"start_row {start_row} is outside the table (0-{layout.n_rows}).")
    check_data(data, None, layout.n_cols)
    added = max(0, start_row + len(data) - layout.n_rows)
    if layout.n_rows + added > MAX_ROWS:
        raise ValidationError(f"Filling needs {layout.n_rows + added} rows, over the limit of {MAX_ROWS}.")
    budget.check()  # the last moment to stop: from here on the table changes
    for _ in range(added):
        n = len(B.table_rows(tbl))
        insert_row(doc, tbl, n, n - 1, copy_format=True)
    layout = Layout(tbl)
    written = skipped = 0
    for i, values in enumerate(data):
        for c, value in enumerate(values):
            if value is None:
                continue
            cell = layout.at(start_row + i, c)
            if cell is None or cell.start != c or layout.continues(cell):
                skipped += 1 if str(value) else 0
                continue
            set_cell_text(doc, cell.tc, str(value))
            written += 1
    doc.changed(tbl)
    return written, added, skipped
