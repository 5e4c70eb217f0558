"""One element as text: paragraph lines with formatting marks, tables as ASCII grids.

Reads the XML (through ooxml.text.body) and never changes it.
"""
from __future__ import annotations

import os

from lxml import etree

from ooxml.text import body as B
from ooxml.tabular.grid import TableGrid
from ooxml.xml.namespaces import OX_ID, w
from ooxml.lists.numbering import label_of
from render.inline import marked_run_text, paragraph_line
import render.equations  # noqa: F401  (draws equations as $…$ in lines)
from render.width import cut, one_line, pad, plain, width

TEXT_COLUMNS = 80
CELL_COLUMNS = 14
MAX_TABLE_COLS = 10
MAX_TABLE_ROWS = 20
_STAR_WIDTH = width(" ⭐ ")


def element_id(el: etree._Element) -> str:
    return el.get(OX_ID) or "?"


def heading_level(doc, p: etree._Element) -> int | None:
    level = B.direct_outline_level(p)
    if level is None:
        sid = B.style_id(p)
        level = doc.styles.outline_level(sid) if sid else None
    return level + 1 if level is not None and level < 9 else None


def title_of(doc, el: etree._Element, grid: TableGrid | None = None) -> str:
    """Box title: ``Heading 2 (para_x)``, ``Paragraph (para_y) [Quote]``, ``Table (table_z) 3×2``."""
    eid = element_id(el)
    if el.tag == B.W_P:
        level = heading_level(doc, el)
        if level:
            return f"Heading {level} ({eid})"
        sid = B.style_id(el)
        style = f" [{cut(doc.styles.name(sid), 40)}]" if sid and doc.styles.name(sid).lower() != "normal" else ""
        return f"Paragraph ({eid}){style}"
    if el.tag == B.W_TBL:
        grid = grid or TableGrid(el)
        return f"Table ({eid}) {grid.n_rows}×{grid.n_cols}"
    if eid.startswith("toc_"):
        return f"Table of Contents ({eid})"  # a content control of Word's TOC gallery
    titled = TITLES.get(el.tag)
    return (titled(doc, el) if titled else None) or f"{B.kind(el)} ({eid})"


# Box titles of other kinds, registered by feature modules at import: tag -> (doc, el) -> title or None.
TITLES: dict = {}


# Lines shown under an element's box (a note's text, the comments on its text ...): functions
# (doc, element) -> lines, each already indented, registered by feature modules at import. Never
# cached: they show other parts, which change on their own. The lines under one box are bounded.
# A function draws only for an element holding one of BELOW_TAGS (its module adds the tags it looks
# for): a cached box without them skips every function (their walks cost more than the box).
BELOW_BOX: list = []
BELOW_TAGS: set = set()
MAX_BELOW = 6


def with_label(label: str | None, line: str) -> str:
    """A paragraph's line with its list label in front ('2. Second item'): the one place views add it."""
    return f"{label} {line}" if label else line


def labelled_line(doc, p: etree._Element) -> str:
    return with_label(label_of(doc, p), paragraph_line(p, doc))


def _own_line(p: etree._Element, doc) -> str:
    """The paragraph's line as far as a box shows it (drawing stops past twice the box's width)."""
    return paragraph_line(p, doc, limit=2 * TEXT_COLUMNS)


def _paragraph_box_line(label: str | None, line: str) -> list[str]:
    return [cut(with_label(label, line), TEXT_COLUMNS) or "(empty)"]


def body_lines(doc, el: etree._Element, grid: TableGrid | None = None) -> list[str]:
    """The content lines of one element's box."""
    if el.tag == B.W_P:
        return _paragraph_box_line(label_of(doc, el), _own_line(el, doc))
    if el.tag == B.W_TBL:
        return table_grid_lines(grid or TableGrid(el))
    if el.tag == B.W_R:
        return [cut(marked_run_text(el), TEXT_COLUMNS) or "(empty)"]
    text = B.block_text(el, limit=400).replace("\n", " ↵ ")
    return [cut(text, TEXT_COLUMNS) or f"({B.kind(el)})"]


def table_grid_lines(grid: TableGrid) -> list[str]:
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
    # Each width once: a ⭐ head or CJK text goes through wcwidth, tens of µs a line.
    head = one_line(f"{title} ⭐ {marker}" if marker else title)
    if marker and plain(title) and plain(marker):  # the star alone needs wcwidth: counted once
        head_width = len(title) + len(marker) + _STAR_WIDTH
    else:
        head_width = width(head)
    shown = [one_line(line) for line in lines]
    widths = [width(line) for line in shown]
    inner = max(40, head_width, *widths)
    rule = "─" * (inner + 2)
    out = [f"{indent}┌{rule}┐", f"{indent}│ {head}{' ' * (inner - head_width)} │", f"{indent}├{rule}┤"]
    out += [f"{indent}│ {line}{' ' * (inner - w)} │" for line, w in zip(shown, widths)]
    out.append(f"{indent}└{rule}┘")
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

    def __init__(self, version: int):
        self.version = version
        self.parts: dict = {}

    @classmethod
    def of(cls, doc) -> "_Drawn":
        drawn = doc.caches.get("blocks.drawn")
        if drawn is None:
            drawn = doc.caches["blocks.drawn"] = cls(doc.version)
        drawn.catch_up(doc)
        return drawn

    def catch_up(self, doc) -> None:
        if self.version == doc.version:
            return
        news = [(el, ancestors) for _, el, ancestors in doc.changes_since(self.version)]
        if len(news) < doc.version - self.version or len(self.parts) > self.MAX:
            self.parts = {}
        elif news:
            changed = {el for el, _ in news}
            gone = changed | {a for _, ancestors in news for a in ancestors}
            # Boxes inside a changed element go too: walk the few changed subtrees rather than
            # the ancestors of every cached box (a changed body or story root drops everything).
            tops = doc.top_containers()
            if any(el in tops for el in changed):
                self.parts = {}
            else:
                parts = self.parts
                gone.update(d for el in changed for d in el.iter() if d in parts)
                for el in gone:  # in place: a copy of up to MAX boxes on every call cost more
                    parts.pop(el, None)
        self.version = doc.version


def _draw(doc, el: etree._Element) -> tuple[str, list[str]]:
    grid = TableGrid(el) if el.tag == B.W_TBL else None
    return title_of(doc, el, grid), body_lines(doc, el, grid)


_NOTE_REFS = (w("footnoteReference"), w("endnoteReference"))


def element_box(doc, el: etree._Element, marker: str | None = None) -> list[str]:
    drawn = _Drawn.of(doc)
    parts = drawn.parts.get(el)
    # A list label depends on other paragraphs, which a change to them does not drop: it is kept
    # apart from the paragraph's own line (parts: title, lines, label, own line) and compared.
    label = label_of(doc, el) if el.tag == B.W_P else None
    # Redrawn: new, an ID given since, or holding note references, whose numbers follow the
    # document order that a change elsewhere (a copied note before it) moves.
    if parts is None or parts[0].find(element_id(el)) < 0 or \
            (parts[5] and next(el.iter(*_NOTE_REFS), None) is not None):
        own = _own_line(el, doc) if el.tag == B.W_P else None
        grid = TableGrid(el) if el.tag == B.W_TBL else None
        lines = _paragraph_box_line(label, own) if own is not None else body_lines(doc, el, grid)
        parts = drawn.parts[el] = _parts(title_of(doc, el, grid), lines, label, own, _holds_below(el))
    elif parts[2] != label:  # renumbered by a change elsewhere: only the label moves
        parts = drawn.parts[el] = _parts(parts[0], _paragraph_box_line(label, parts[3]), label, parts[3], parts[5])
    if _Drawn.check:
        assert parts[:2] == _draw(doc, el), f"stale box for {element_id(el)}: {parts} != {_draw(doc, el)}"
        assert parts[4] == box(parts[0], parts[1])
        assert parts[5] == _holds_below(el), f"stale BELOW_TAGS flag for {element_id(el)}"
    # The frame is kept with the parts (padding every line costs more than the rest of a cached box).
    frame = parts[4] if marker is None else box(parts[0], parts[1], marker)
    return frame + below_box(doc, el) if parts[5] else frame[:]


def _holds_below(el: etree._Element) -> bool:
    return next(el.iter(*BELOW_TAGS), None) is not None if BELOW_TAGS else False


def _parts(title: str, lines: list[str], label, own, below: bool) -> tuple:
    """What the cache keeps of a box: title, lines, list label, the paragraph's own line, the frame,
    and whether it holds any of BELOW_TAGS."""
    return title, lines, label, own, box(title, lines), below


def below_box(doc, el: etree._Element) -> list[str]:
    """The BELOW_BOX lines of ``el``, at most MAX_BELOW of them, each cut to the box's width."""
    lines = [line for below in BELOW_BOX for line in below(doc, el)]
    if len(lines) > MAX_BELOW:
        lines = lines[:MAX_BELOW] + [f"    ... ({len(lines) - MAX_BELOW} more lines not shown)"]
    return [cut(line, TEXT_COLUMNS + 4) for line in lines]
