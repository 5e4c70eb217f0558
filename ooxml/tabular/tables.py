"""Tables edited through their visual grid: build, fill, rows, columns, merged cells.

Rows and columns are numbered 0-based on the *visual grid* (the ``w:tblGrid`` columns) of
``ooxml.tabular.grid.TableGrid``, the one model reading and editing share: a cell with
``w:gridSpan="2"`` covers two columns, a ``w:vMerge="continue"`` cell belongs to the cell that
restarted the merge above.

Every edit checks everything first and raises before it changes anything, keeps
``w:tblGrid`` in step with the cells, and leaves every cell ending with a paragraph.
"""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import budget
from ooxml.text.build import MARK_RPR_DROP, copy_props, make_run
from ooxml.xml.errors import InvalidPosition, ValidationError
from ooxml.tabular.grid import MAX_COLS, Cell, TableGrid, counted
from ooxml.xml.ids import IdIndex
from ooxml.xml.namespaces import M, W, w
from ooxml.xml.numbers import file_int
from ooxml.xml.order import get_or_add, insert_child, remove_child, set_child

MAX_ROWS = 10_000
MAX_CELLS = 200_000
CELL_BYTES = 60  # at least what an empty cell's XML takes: what a new table or column adds per cell
# Revision records are not formatting: a copied row or cell must not repeat them (their ids
# would clash and Word would show changes nobody made).
_TRPR_REVISIONS = ("ins", "del", "trPrChange")
_TCPR_REVISIONS = ("cellIns", "cellDel", "cellMerge", "tcPrChange")
_TCPR_MERGES = ("gridSpan", "hMerge", "vMerge")


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


def set_cell_text(doc, tc: etree._Element, text: str) -> None:
    """Make the cell hold one paragraph with ``text``: unchanged words keep their runs, new text is formatted
    like the text it replaces (an empty cell: its paragraph mark)."""
    doc.will_change(tc)
    if getattr(doc, "tracker", None) is not None:
        from ooxml.review.tracked_text import set_cell_text as tracked
        return tracked(doc, tc, text)
    keep = tc.find(w("p"))
    if keep is None:
        keep = etree.SubElement(tc, w("p"))
    for child in cell_blocks(tc):
        if child is not keep and child.tag not in B.MARKERS:
            doc.remove_block(child)
    from ooxml.review.tracked_text import set_paragraph_text as by_words
    by_words(doc, keep, text, track=False)  # unchanged words keep their runs, as tracked
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
        ppr = copy_props(ppr)
        remove_child(ppr, "sectPr")
        p.append(ppr)
    carry_run_format(p, model_rpr)


def carry_run_format(p: etree._Element, model_rpr: etree._Element | None) -> None:
    """Give an empty copied paragraph's mark the formatting of the first run it had (font, bold ...),
    as Word does for a new row: text typed or set there takes it. Revision marks stay behind."""
    ppr = p.find(w("pPr"))
    mark = ppr.find(w("rPr")) if ppr is not None else None
    if mark is not None:
        for child in [c for c in mark if c.tag in MARK_RPR_DROP]:
            mark.remove(child)
    if model_rpr is not None:
        mark = mark if mark is not None else insert_child(get_or_add(p, "pPr"), etree.Element(w("rPr")))
        for child in model_rpr:
            name = etree.QName(child).localname if isinstance(child.tag, str) else ""
            if child.tag != w(name) or child.tag in MARK_RPR_DROP:
                continue
            old = mark.find(child.tag)
            try:
                insert_child(mark, copy.deepcopy(child))
            except ValueError:  # a property the schema table does not place: left out
                continue
            if old is not None:
                mark.remove(old)
    if mark is not None and not len(mark):
        mark.getparent().remove(mark)


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
    if tblw is not None and tblw.get(w("type")) == "dxa" and file_int(tblw.get(w("w")), 0, 0, 1) > 0:
        tblw.set(w("w"), str(sum(widths)))


def fit_widths(grid: TableGrid, widths: list[int], max_width: int | None) -> list[int]:
    """Scale column widths down to ``max_width`` when an edit made the table wider than the page."""
    total = sum(widths)
    if not max_width or total <= max_width or sum(grid.widths) > max_width:
        return widths
    factor = max_width / total
    return [max(120, int(x * factor)) for x in widths]


def sync_cell_widths(grid: TableGrid) -> None:
    for line in grid.cells:
        for cell in line:
            _set_tcw(cell.tc, grid.width_of(cell.start, cell.span))


# ---- rows ----------------------------------------------------------------------------------------

def parse_row_col_position(position: str, count: int, what: str) -> tuple[int, int]:
    """``before:N``/``after:N``/``start``/``end`` -> (insert index, template index)."""
    raw = (position or "").strip().lower()
    hint = (f"Use before:N, after:N (N is a 0-based {what} index, 0-{count - 1}), start or end." if count
            else f"The table has no {what}s: use start or end.")
    if raw == "start":
        return 0, 0
    if raw == "end":
        return count, max(0, count - 1)
    mode, _, num = raw.partition(":")
    digits = num.strip().lstrip("-")
    if mode not in ("before", "after") or not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        raise InvalidPosition(f"'{position[:40]}' is not a {what} position.", hint=hint)
    n = int(num)
    if not 0 <= n < count:
        raise InvalidPosition(f"{what} {n} does not exist: the table has {counted(count, what)}.", hint=hint)
    return (n, n) if mode == "before" else (n + 1, n)


def _is_header(tr: etree._Element) -> bool:
    trpr = tr.find(w("trPr"))
    return trpr is not None and trpr.find(w("tblHeader")) is not None


def new_row(grid: TableGrid, at: int, template: int, copy_format: bool, ids) -> etree._Element:
    """A row shaped like row ``template`` for index ``at``; it continues vertical merges crossing ``at``."""
    from ooxml.xml.wordids import prepare_copy

    src = grid.rows[template]
    if copy_format:
        tr = copy.deepcopy(src)
        trpr = tr.find(w("trPr"))
        if trpr is not None:
            for name in _TRPR_REVISIONS:
                remove_child(trpr, name)
            if not (at == 0 or _is_header(grid.rows[at - 1])):
                remove_child(trpr, "tblHeader")  # repeated header rows must stay at the top
        for tc in B.row_cells(tr):
            clear_copied_cell(tc, keep_span=True)
        prepare_copy(tr, ids)
    else:
        tr = etree.Element(w("tr"))
        gb, ga = grid.before[template], grid.after[template]
        if gb:
            _set_grid_attr(tr, "gridBefore", gb)
        if ga:
            _set_grid_attr(tr, "gridAfter", ga)
        for cell in grid.cells[template]:
            tr.append(new_cell(grid.width_of(cell.start, cell.span), span=cell.span))
    for tc, cell in zip(B.row_cells(tr), grid.cells[template]):
        below = grid.at(at, cell.start)
        inside = (below is not None and below.start == cell.start and below.span == cell.span
                  and grid.continues(below))
        _set_vmerge(tc, "continue" if inside else None)
    return tr


def _mark_if_tracked(doc, tr: etree._Element) -> None:
    if getattr(doc, "tracker", None) is not None:
        from ooxml.review.revisions import mark_inserted
        mark_inserted(doc, tr)


def insert_row(doc, tbl: etree._Element, at: int, template: int, copy_format: bool) -> etree._Element:
    grid = TableGrid(tbl)
    if grid.n_rows + 1 > MAX_ROWS:
        raise ValidationError(f"The table already has {grid.n_rows} rows, the limit.",
                              hint="Split the data over several tables.")
    doc.will_change(tbl)
    if not grid.rows:  # a table without rows (Word calls it damaged) gets one from its grid
        tr = etree.Element(w("tr"))
        for width in grid.widths[:MAX_COLS] or [None]:
            tr.append(new_cell(width or None))
        tbl.append(tr)
        _mark_if_tracked(doc, tr)
        doc.changed(tbl)
        return tr
    tr = new_row(grid, at, template, copy_format, doc.word_ids(tbl))
    if at < grid.n_rows:
        grid.rows[at].addprevious(tr)
    else:
        grid.rows[-1].addnext(tr)
    _mark_if_tracked(doc, tr)
    doc.changed(tbl)
    return tr


def _check_deletable(i: int, n: int, what: str) -> None:
    """Line ``i`` of ``n`` (rows or columns) exists and is not the table's last one."""
    if not 0 <= i < n:
        raise InvalidPosition(f"{what.capitalize()} {i} does not exist: the table has {counted(n, what)}.",
                              hint=f"{what.capitalize()} indexes are 0-based; docx_get_table shows them.")
    if n == 1:
        raise ValidationError(f"A table must keep at least one {what}.",
                              hint="Delete the whole table with docx_delete.")


def delete_row(doc, tbl: etree._Element, r: int) -> None:
    grid = TableGrid(tbl)
    _check_deletable(r, grid.n_rows, "row")
    doc.will_change(tbl)
    if getattr(doc, "tracker", None) is not None:  # the row stays, marked deleted
        from ooxml.review.revisions import delete_row as tracked_delete
        tracked_delete(doc, grid.rows[r])
        doc.changed(tbl)
        return
    for cell in grid.cells[r]:
        below = grid.at(r + 1, cell.start)
        if below is None or below.start != cell.start or not grid.continues(below):
            continue
        if not grid.continues(cell):  # this row starts the merge: the row below starts it now
            _set_vmerge(below.tc, "restart")
            if not is_empty_cell(cell.tc):
                for child in cell_blocks(below.tc):
                    if child.tag not in B.MARKERS:
                        doc.remove_block(child)
                move_content(cell.tc, below.tc)
                doc.forget_order(below.tc)
    tr = grid.rows[r]
    holder = tr.getparent()
    doc.remove_block(tr)
    _drop_empty_row_wrapper(doc, holder, tbl)
    normalise_vmerge(TableGrid(tbl), {r})
    doc.changed(tbl)


def _drop_empty_row_wrapper(doc, holder: etree._Element, tbl: etree._Element) -> None:
    """A content control or custom XML that wrapped the row goes when it holds no row any more."""
    while holder is not tbl and next(holder.iter(B.W_TR), None) is None:
        outer = holder.getparent()
        if holder.tag in (B.W_SDT, w("customXml")):
            doc.remove_block(holder)
        holder = outer


def normalise_vmerge(grid: TableGrid, rows: set[int] | None = None) -> None:
    """In ``rows`` (default all), a 'continue' with nothing above to continue becomes a restart."""
    for r, line in enumerate(grid.cells):
        if rows is not None and r not in rows:
            continue
        for cell in line:
            if cell.vmerge != "continue" or cell.row == 0:
                if cell.vmerge == "continue":
                    _set_vmerge(cell.tc, "restart")
                continue
            above = grid.at(cell.row - 1, cell.start)
            if above is None or above.start != cell.start:
                _set_vmerge(cell.tc, "restart")


# ---- columns --------------------------------------------------------------------------------------

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
        _set_tcw(tc, width)
    if widths != grid.widths[:k] + [width] + grid.widths[k:]:
        sync_cell_widths(new_grid)
    else:
        for line in new_grid.cells:
            for cell in line:
                if cell.start < k < cell.end:
                    _set_tcw(cell.tc, new_grid.width_of(cell.start, cell.span))
    doc.changed(tbl)
    return created


def _insert_col_in_row(grid: TableGrid, r: int, line: list[Cell], k: int, template: int,
                       copy_format: bool, width: int) -> etree._Element | None:
    tr = grid.rows[r]
    gb, ga = grid.before[r], grid.after[r]
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
    _check_deletable(c, grid.n_cols, "column")
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
                _set_tcw(cell.tc, new_grid.width_of(cell.start, cell.span))
    normalise_vmerge(new_grid)
    doc.changed(tbl)


def _delete_col_in_row(doc, grid: TableGrid, r: int, line: list[Cell], c: int) -> etree._Element | None:
    """Take column c out of row r; returns the cell that narrowed, if one did."""
    tr = grid.rows[r]
    cell = grid.at(r, c)
    if cell is not None:
        if cell.span > 1:
            _set_span(cell.tc, cell.span - 1)  # the column leaves a merged cell: it narrows
            return cell.tc
        doc.remove_block(cell.tc)
        return None
    gb, ga = grid.before[r], grid.after[r]
    if c < gb:
        _set_grid_attr(tr, "gridBefore", gb - 1)
    elif line and c >= line[-1].end and ga:
        _set_grid_attr(tr, "gridAfter", ga - 1)
    return None


# ---- merging ---------------------------------------------------------------------------------------

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
