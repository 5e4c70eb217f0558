"""One element as text: paragraph lines with formatting marks, tables as ASCII grids.

Reads the XML (through ooxml.body) and never changes it.
"""
from __future__ import annotations

import os
import weakref

from lxml import etree

from ooxml import body as B
from ooxml.namespaces import OX_ID, w
from render.inline import marked_run_text, paragraph_line
from render.width import cut, pad, width

TEXT_COLUMNS = 80
CELL_COLUMNS = 14
MAX_TABLE_COLS = 10
MAX_TABLE_ROWS = 20


def element_id(el: etree._Element) -> str:
    return el.get(OX_ID) or "?"


def heading_level(doc, p: etree._Element) -> int | None:
    level = B.direct_outline_level(p)
    if level is None:
        sid = B.style_id(p)
        level = doc.styles.outline_level(sid) if sid else None
    return level + 1 if level is not None and level < 9 else None


def title_of(doc, el: etree._Element, grid: B.TableGrid | None = None) -> str:
    """Box title: ``Heading 2 (para_x)``, ``Paragraph (para_y) [Quote]``, ``Table (table_z) 3×2``."""
    eid = element_id(el)
    if el.tag == B.W_P:
        level = heading_level(doc, el)
        if level:
            return f"Heading {level} ({eid})"
        sid = B.style_id(el)
        style = f" [{doc.styles.name(sid)}]" if sid and doc.styles.name(sid).lower() != "normal" else ""
        return f"Paragraph ({eid}){style}"
    if el.tag == B.W_TBL:
        grid = grid or B.TableGrid(el)
        return f"Table ({eid}) {grid.n_rows}×{grid.n_cols}"
    return f"{B.kind(el)} ({eid})"


def body_lines(doc, el: etree._Element, grid: B.TableGrid | None = None) -> list[str]:
    """The content lines of one element's box."""
    if el.tag == B.W_P:
        return [cut(paragraph_line(el, doc, limit=2 * TEXT_COLUMNS), TEXT_COLUMNS) or "(empty)"]
    if el.tag == B.W_TBL:
        return table_grid_lines(grid or B.TableGrid(el))
    if el.tag == B.W_R:
        return [cut(marked_run_text(el), TEXT_COLUMNS) or "(empty)"]
    text = B.block_text(el, limit=400).replace("\n", " ↵ ")
    return [cut(text, TEXT_COLUMNS) or f"({B.kind(el)})"]


def table_grid_lines(grid: B.TableGrid) -> list[str]:
    matrix = grid.text_matrix()
    rows = matrix[:MAX_TABLE_ROWS]
    n_cols = min(grid.n_cols, MAX_TABLE_COLS)
    if not rows or n_cols == 0:
        return ["(empty table)"]
    cells = [[cut(" ".join((r[c] if c < len(r) else "").split()), CELL_COLUMNS) for c in range(n_cols)] for r in rows]
    widths = [max(3, *(width(row[c]) for row in cells)) for c in range(n_cols)]
    sep = "+" + "+".join("-" * (wd + 2) for wd in widths) + "+"
    lines = [sep]
    for row in cells:
        lines.append("| " + " | ".join(pad(text, widths[c]) for c, text in enumerate(row)) + " |")
        lines.append(sep)
    notes = []
    if grid.n_rows > MAX_TABLE_ROWS:
        notes.append(f"{grid.n_rows - MAX_TABLE_ROWS} more rows")
    if grid.n_cols > MAX_TABLE_COLS:
        notes.append(f"{grid.n_cols - MAX_TABLE_COLS} more columns")
    if notes:
        lines.append(f"... ({' and '.join(notes)} not shown)")
    return lines


def box(title: str, lines: list[str], marker: str | None = None, indent: str = "  ") -> list[str]:
    head = f"{title} ⭐ {marker}" if marker else title
    inner = max(40, width(head), *(width(line) for line in lines))
    top = indent + "┌" + "─" * (inner + 2) + "┐"
    out = [top, f"{indent}│ {pad(head, inner)} │", indent + "├" + "─" * (inner + 2) + "┤"]
    out += [f"{indent}│ {pad(line, inner)} │" for line in lines]
    out.append(indent + "└" + "─" * (inner + 2) + "┘")
    return out


class _Drawn:
    """Boxes already drawn for one document, kept across calls: a window mostly shows what the
    last one showed.

    A box is dropped when the document reports (``Document.changed``) a change to its element,
    an ancestor or a descendant; if the change log ran past us, everything is dropped. With
    OOXML_MCP_CHECK_DRAWN=1 every cached box is redrawn and compared (the test suite sets it).
    """
    check = os.environ.get("OOXML_MCP_CHECK_DRAWN") == "1"
    MAX = 256
    _by_doc: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

    def __init__(self, version: int):
        self.version = version
        self.parts: dict = {}

    @classmethod
    def of(cls, doc) -> "_Drawn":
        drawn = cls._by_doc.get(doc)
        if drawn is None:
            drawn = cls._by_doc[doc] = cls(doc.version)
        drawn.catch_up(doc)
        return drawn

    def catch_up(self, doc) -> None:
        if self.version == doc.version:
            return
        news = [el for v, el in doc.recent_changes if v > self.version]
        if len(news) < doc.version - self.version or len(self.parts) > self.MAX:
            self.parts = {}
        elif news:
            changed = set(news)
            above = {a for el in news for a in el.iterancestors()}
            self.parts = {el: drawn for el, drawn in self.parts.items()
                          if el not in changed and el not in above
                          and not any(a in changed for a in el.iterancestors())}
        self.version = doc.version


def _draw(doc, el: etree._Element) -> tuple[str, list[str]]:
    grid = B.TableGrid(el) if el.tag == B.W_TBL else None
    return title_of(doc, el, grid), body_lines(doc, el, grid)


# Lines shown under a box (the comments on its text ...): functions (doc, el) -> lines, registered
# by feature modules. Drawn fresh every time: what they show lives outside the element.
BELOW_BOX: list = []


def element_box(doc, el: etree._Element, marker: str | None = None) -> list[str]:
    drawn = _Drawn.of(doc)
    parts = drawn.parts.get(el)
    if parts is None or parts[0].find(element_id(el)) < 0:  # new, or an ID given since
        parts = drawn.parts[el] = _draw(doc, el)
    elif _Drawn.check:
        assert parts == _draw(doc, el), f"stale box for {element_id(el)}: {parts} != {_draw(doc, el)}"
    lines = box(parts[0], parts[1], marker)
    for below in BELOW_BOX:
        lines += below(doc, el)
    return lines
