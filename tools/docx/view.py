"""Choosing what an answer shows: the window around an element, the cursor line.

IDs are given here (via ooxml) to the elements shown, so render/ only reads.
"""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.model.places import block_of as focus_block
from ooxml.tabular.grid import TableGrid
from ooxml.xml.namespaces import OX_ID, w
from render.blocks import box_title, squeezed_box
from render.context import Window, render_window

SIDE = 7  # elements each side; the window holds at most 2 * SIDE + 1
_CONTAINER_LABELS = {
    "body": ("[Document Start]", "[Document End]"), "tc": ("[Cell Start]", "[Cell End]"),
    "hdr": ("[Header Start]", "[Header End]"), "ftr": ("[Footer Start]", "[Footer End]"),
    "footnote": ("[Note Start]", "[Note End]"), "endnote": ("[Note Start]", "[Note End]"),
    "comment": ("[Comment Start]", "[Comment End]"), "sdtContent": ("[Control Start]", "[Control End]"),
    "txbxContent": ("[Text Box Start]", "[Text Box End]"),
}


def cell_position(doc, tc: etree._Element) -> tuple[etree._Element, int, int]:
    tbl = B.find_ancestor(tc, B.W_TBL)
    grid = TableGrid(tbl)
    r, c = grid.position_of(tc)
    return tbl, r, c


def parent_line(doc, container: etree._Element) -> str | None:
    if container.tag == B.W_TC:
        tbl, r, c = cell_position(doc, container)
        return f"Parent: Cell {doc.id_of(container)} in Table {doc.id_of(tbl)} (row {r}, col {c})"
    if container.tag in (w("hdr"), w("ftr"), w("footnote"), w("endnote"), w("comment")):
        return f"Parent: {B.kind(container)} {doc.id_of(container)}"
    if container.tag == B.W_TXBX:
        anchor = B.find_ancestor(container, B.W_P)
        where = f" in Paragraph {doc.id_of(anchor)}" if anchor is not None else ""
        return f"Parent: Text Box {doc.id_of(container)}{where}"
    return None


def window_inside(doc, container: etree._Element, cursor) -> Window:
    """The first (or, with the cursor at its end, the last) blocks of a cell or other container."""
    blocks = list(B.iter_blocks(container))
    at_end = cursor is not None and cursor.place == "inside_end"
    items = blocks[-2 * SIDE - 1:] if at_end else blocks[:2 * SIDE + 1]
    for el in items:
        doc.id_of(el)
    start, end = _CONTAINER_LABELS.get(etree.QName(container).localname, ("[Start]", "[End]"))
    above = len(blocks) - len(items) if at_end else 0
    win = Window(items, above, len(blocks) - len(items) - above, start, end, parent_line(doc, container))
    if cursor is not None and cursor.element_id == container.get(OX_ID) and cursor.place.startswith("inside"):
        win.cursor_before = len(items) if at_end else 0
    return win


def window_around(doc, target: etree._Element, marker: str | None = None,
                  cursor=None) -> Window:
    if target.tag in (B.W_TC, B.W_TXBX, w("hdr"), w("ftr"), w("footnote"), w("endnote"), w("comment")):
        return window_inside(doc, target, cursor)
    focus = focus_block(target)
    container = focus.getparent()
    if container is None:
        return Window([], 0, 0)
    before, prv = _blocks(focus, "getprevious")
    after, nxt = _blocks(focus, "getnext")
    n_after = min(len(after), max(SIDE, 2 * SIDE - len(before)))
    n_before = min(len(before), 2 * SIDE - n_after)
    items = before[:n_before][::-1] + [focus] + after[:n_after]
    if prv is None:  # the walk reached the start: no index needed (opening shows the end, likewise)
        above = len(before) - n_before
        below = doc.block_count(container) - above - len(items)
    elif nxt is None:
        below = len(after) - n_after
        above = doc.block_count(container) - below - len(items)
    else:
        above = doc.order(container).index(items[0])
        below = doc.block_count(container) - above - len(items)
    start, end = _CONTAINER_LABELS.get(etree.QName(container).localname, ("[Start]", "[End]"))
    win = Window(items, above, max(0, below), start, end, parent_line(doc, container))
    for el in items:
        doc.id_of(el)
    if marker:
        win.markers[n_before] = marker
    place_cursor(doc, win, cursor)
    return win


def _blocks(focus: etree._Element, step: str) -> tuple[list, etree._Element | None]:
    """Up to 2 * SIDE blocks from ``focus`` one way (``step``: getprevious or getnext), and the
    next block past them (None: the container ends there)."""
    out: list = []
    el = getattr(focus, step)()
    markers = B.MARKERS
    while el is not None:
        tag = el.tag
        if isinstance(tag, str) and tag not in markers:  # B.is_block, inline: 28 steps a window
            if len(out) == 2 * SIDE:
                return out, el
            out.append(el)
        el = getattr(el, step)()
    return out, None


def place_cursor(doc, win: Window, cursor) -> None:
    if cursor is None or cursor.element_id is None:
        return
    el = doc.ids.get(cursor.element_id)
    if el is None:
        return
    holder = focus_block(el) if el.tag != B.W_TC else None  # a cell's cursor is not its table's
    for i, item in enumerate(win.items):
        if item is el or (holder is item and el is not item):
            win.cursor_before = i if cursor.place in ("before", "inside_start") else i + 1
            return


def context_text(doc, target: etree._Element, marker: str | None, cursor) -> str:
    return render_window(doc, window_around(doc, target, marker, cursor))


def compact_context(doc, target: etree._Element | None, marker: str | None) -> str | None:
    """The compact view's context: only the box of the element the call made or changed, bounded."""
    if target is None or marker is None or target.getparent() is None:
        return None
    focus = target if target.tag in (B.W_TC, w("hdr"), w("ftr")) else focus_block(target)
    doc.id_of(focus)
    return "\n".join(squeezed_box(doc, focus, marker))


def empty_context(doc, container: etree._Element, cursor_here: bool) -> str:
    start, end = _CONTAINER_LABELS.get(etree.QName(container).localname, ("[Start]", "[End]"))
    win = Window([], 0, 0, start, end, parent_line(doc, container),
                 cursor_before=0 if cursor_here else None)
    return render_window(doc, win)


def cursor_line(doc, cursor) -> str:
    if cursor.element_id is None:
        return "Cursor: at empty document start"
    el = doc.ids.get(cursor.element_id)
    if el is None:
        return f"Cursor: {cursor.place} {cursor.element_id} (element no longer exists)"
    kind = box_title(doc, el).split(" (")[0]
    if el.tag == B.W_TBL:
        kind = "Table"
    if cursor.place.startswith("inside"):
        where = "at start" if cursor.place == "inside_start" else "at end"
        return f"Cursor: inside {kind} {cursor.element_id} ({where})"
    return f"Cursor: {cursor.place} {kind} {cursor.element_id}"
