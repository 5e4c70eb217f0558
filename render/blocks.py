"""One element as text: paragraph lines with formatting marks, tables as ASCII grids.

Reads the XML (through ooxml.text.body) and never changes it.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

from lxml import etree

from ooxml.text import body as B
from ooxml.tabular.grid import TableGrid
from ooxml.xml.namespaces import OX_ID, w
from ooxml.lists.numbering import label_of, labels_now
from render import text_changes, views
from render.inline import marked_run_text, paragraph_line
from render.width import cut, one_line, pad, plain, width

TEXT_COLUMNS = 80
CELL_COLUMNS = 14
MAX_TABLE_COLS = 10
MAX_TABLE_ROWS = 20
_STAR_WIDTH = width(" ⭐ ")


def element_id(el: etree._Element) -> str:
    return el.get(OX_ID) or "?"


def heading_level(doc, p: etree._Element, sid: str | None | bool = False) -> int | None:
    """``sid``: the paragraph's style ID, if the caller has read it already."""
    level = B.direct_outline_level(p)
    if level is None:
        sid = B.style_id(p) if sid is False else sid
        level = doc.styles.outline_level(sid) if sid else None
    return level + 1 if level is not None and level < 9 else None


def title_of(doc, el: etree._Element, grid: TableGrid | None = None) -> str:
    """Box title: ``Heading 2 (para_x)``, ``Paragraph (para_y) [Quote]``, ``Table (table_z) 3×2``."""
    eid = element_id(el)
    if el.tag == B.W_P:
        sid = B.style_id(el)
        level = heading_level(doc, el, sid)
        if level:
            return f"Heading {level} ({eid})"
        name = doc.styles.name(sid) if sid else None
        style = f" [{cut(name, 40)}]" if name is not None and name.lower() != "normal" else ""
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
    shown, widths = [], []
    inner = max(40, head_width)
    for line in lines:
        line = one_line(line)
        wd = width(line)
        shown.append(line)
        widths.append(wd)
        if wd > inner:
            inner = wd
    rule = "─" * (inner + 2)
    out = [f"{indent}┌{rule}┐", f"{indent}│ {head}{' ' * (inner - head_width)} │", f"{indent}├{rule}┤"]
    for line, wd in zip(shown, widths):
        out.append(f"{indent}│ {line}{' ' * (inner - wd)} │")
    out.append(f"{indent}└{rule}┘")
    return out


class _Drawn:
    """Boxes already drawn for one document, kept across calls: a window mostly shows what the
    last one showed.

    A box is dropped when the document reports (``Document.changed``) a change to its element,
    an ancestor or a descendant; if the change log ran past us, everything is dropped. In a call
    made ``checking(True)`` every cached box is redrawn and compared (the test suite's
    OOXML_MCP_CHECK_DRAWN=1, read by tools/runtime/sessions/limits.py).
    """
    check: ContextVar[bool] = ContextVar("ooxml_check_drawn", default=False)
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
        # Loops, not comprehensions: each is a function of its own in Python 3.11, and what a call
        # runs for the first time in a while costs cache misses (see docs/performance.md).
        if self.version == doc.version:
            return
        news = doc.changes_since(self.version)
        parts = self.parts
        if len(news) < doc.version - self.version or len(parts) > self.MAX:
            self.parts = {}
        elif news:
            tops = doc.top_containers()
            gone: list = []
            for _, el, ancestors in news:
                if el in tops:  # a changed body or story root drops everything
                    self.parts = {}
                    break
                gone.append(el)
                gone += ancestors
                # Boxes inside a changed element go too: walk the few changed subtrees rather than
                # the ancestors of every cached box.
                for d in el.iter():
                    if d in parts:
                        gone.append(d)
            else:
                for el in gone:  # in place: a copy of up to MAX boxes on every call cost more
                    parts.pop(el, None)
        self.version = doc.version


def _draw(doc, el: etree._Element) -> tuple[str, list[str]]:
    grid = TableGrid(el) if el.tag == B.W_TBL else None
    return title_of(doc, el, grid), body_lines(doc, el, grid)


_NOTE_REFS = (w("footnoteReference"), w("endnoteReference"))


class _Box:
    """What the cache keeps of a box: its title and lines, the list label and the paragraph's own
    line (a label moves apart from the line), the frame and its text, the ID it was drawn with,
    whether it holds any of BELOW_TAGS, whether it is a list paragraph under ``defs``, and the
    element's text for the Changes (render/text_changes.py), read once."""
    __slots__ = ("title", "lines", "label", "own", "frame", "text", "eid", "below", "defs", "numbered", "texts")

    def __init__(self, title, lines, label, own, eid, below, defs, numbered):
        self.title, self.lines, self.label, self.own, self.eid = title, lines, label, own, eid
        self.frame = box(title, lines)
        self.text = "\n".join(self.frame)
        self.below, self.defs, self.numbered, self.texts = below, defs, numbered, None


@contextmanager
def checking(on: bool):
    """Within: cached boxes are redrawn and compared (too costly outside tests)."""
    token = _Drawn.check.set(on)
    try:
        yield
    finally:
        _Drawn.check.reset(token)


def _box(doc, drawn: "_Drawn", labels, el: etree._Element) -> _Box:
    """The cached box of ``el`` (``drawn`` caught up, ``labels`` the document's list labels now)."""
    b = drawn.parts.get(el)
    eid = el.get(OX_ID)
    # Redrawn: new, an ID given or taken back since, or holding note references, whose numbers
    # follow the document order that a change elsewhere (a copied note before it) moves.
    if b is None or b.eid != eid or (b.below and next(el.iter(*_NOTE_REFS), None) is not None):
        b = drawn.parts[el] = _new_box(doc, labels, el, eid)
    elif b.own is not None and (b.numbered or b.defs is not labels.defs):  # a paragraph's
        # A list label depends on other paragraphs, which a change to them does not drop: it is
        # compared; a paragraph that is no list item under the same definitions has none.
        label = labels.label_of(doc, el)
        if b.defs is not labels.defs:
            b.defs, b.numbered = labels.defs, labels.numbered(el)
        if b.label != label:  # renumbered by a change elsewhere: only the label moves
            b = drawn.parts[el] = _Box(b.title, _paragraph_box_line(label, b.own), label, b.own, eid,
                                       b.below, b.defs, b.numbered)
    if _Drawn.check.get():
        assert (b.title, b.lines) == _draw(doc, el), f"stale box for {element_id(el)}: {b.title, b.lines} != {_draw(doc, el)}"
        assert b.frame == box(b.title, b.lines) and b.text == "\n".join(b.frame)
        assert b.below == _holds_below(el), f"stale BELOW_TAGS flag for {element_id(el)}"
        assert b.texts is None or b.texts == text_changes.texts(doc, el), f"stale text for {element_id(el)}"
    return b


def _new_box(doc, labels, el: etree._Element, eid: str | None) -> _Box:
    if el.tag == B.W_P:
        label = labels.label_of(doc, el)
        own = _own_line(el, doc)
        return _Box(title_of(doc, el), _paragraph_box_line(label, own), label, own, eid, _holds_below(el),
                    labels.defs, labels.numbered(el))
    grid = TableGrid(el) if el.tag == B.W_TBL else None
    return _Box(title_of(doc, el, grid), body_lines(doc, el, grid), None, None, eid, _holds_below(el),
                labels.defs, False)


def element_box(doc, el: etree._Element, marker: str | None = None) -> list[str]:
    b = _box(doc, _Drawn.of(doc), labels_now(doc), el)
    # The frame is kept with the parts (padding every line costs more than the rest of a cached box).
    frame = b.frame if marker is None else box(b.title, b.lines, marker)
    return frame + below_box(doc, el) if b.below else frame[:]


def boxes_with_texts(doc, els: list[etree._Element]) -> list[tuple[list[str], dict | None]]:
    """``element_box`` of each element and, for a paragraph or table, its text as the Changes
    compare it (render/text_changes.py), read once and kept with the box."""
    drawn, labels = _Drawn.of(doc), labels_now(doc)
    out = []
    for el in els:
        b = _box(doc, drawn, labels, el)
        if b.texts is None and el.tag in _TEXTS_KEPT:
            b.texts = text_changes.texts(doc, el)
        out.append(((b.frame + below_box(doc, el) if b.below else b.frame[:]), b.texts))
    return out


_TEXTS_KEPT = (B.W_P, B.W_TBL)


def boxes_text(doc, items: list[etree._Element], markers: dict[int, str]) -> list[str]:
    """The boxes of a window, each one string (the lines joined): cached boxes are not re-split."""
    drawn, labels = _Drawn.of(doc), labels_now(doc)
    out = []
    for i, el in enumerate(items):
        b = _box(doc, drawn, labels, el)
        marker = markers.get(i)
        if marker is None and not b.below:
            out.append(b.text)
        else:
            frame = b.frame if marker is None else box(b.title, b.lines, marker)
            out.append("\n".join(frame + below_box(doc, el) if b.below else frame))
    return out


def squeezed_box(doc, el: etree._Element, marker: str | None = None) -> list[str]:
    """``views.squeeze(element_box(doc, el, marker))``, without drawing the frame it would read."""
    b = _box(doc, _Drawn.of(doc), labels_now(doc), el)
    head = one_line(f"{b.title} ⭐ {marker}" if marker else b.title)
    text = []
    for line in b.lines:
        text.append(one_line(line).strip())
    line = views.squeezed(head.strip(), text)
    out = [line] + views.squeeze(below_box(doc, el)) if b.below else [line]
    if _Drawn.check.get():
        assert out == views.squeeze(element_box(doc, el, marker)), f"squeezed box of {element_id(el)}: {out}"
    return out


def box_title(doc, el: etree._Element) -> str:
    """``title_of``, read from the box drawn of ``el`` if there is one."""
    b = _Drawn.of(doc).parts.get(el)
    if b is None or b.eid != el.get(OX_ID):
        return title_of(doc, el)
    if _Drawn.check.get():
        assert b.title == title_of(doc, el), f"stale title for {element_id(el)}"
    return b.title


def _holds_below(el: etree._Element) -> bool:
    return next(el.iter(*BELOW_TAGS), None) is not None if BELOW_TAGS else False


def below_box(doc, el: etree._Element) -> list[str]:
    """The BELOW_BOX lines of ``el``, at most MAX_BELOW of them, each cut to the box's width."""
    lines = [line for below in BELOW_BOX for line in below(doc, el)]
    if len(lines) > MAX_BELOW:
        lines = lines[:MAX_BELOW] + [f"    ... ({len(lines) - MAX_BELOW} more lines not shown)"]
    return [cut(line, TEXT_COLUMNS + 4) for line in lines]
