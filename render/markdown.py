"""Body blocks as GitHub-flavoured Markdown (reads the document, never changes it).

Headings (outline levels), list items (numbering: bullet or numbered, nesting by level),
tables (GFM pipe tables: the first row is the header; a merged cell's content is repeated in
every slot it covers), links, bold/italic/strikethrough/code marks, footnotes (``[^n]``),
images (``![alt](name)``), revisions in Critic Markup (``{++ ++}``/``{-- --}``), block quotes
and code blocks (from their paragraph styles). With ``id_of`` each block carries its ID in an
HTML comment, ``<!-- para_3f9a2c -->``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ooxml.text import body as B
from ooxml.tabular.grid import TableGrid
from ooxml.markdown.mdlists import ListItem
from ooxml.lists.numbering import definitions, label_of
from ooxml.opc.types import RT
from ooxml.xml.namespaces import w
from ooxml.charts import locate
from render import charts_view
from render.blocks import heading_level, with_label
from render.markdown_inline import ESCAPE, ESCAPE_CELL, Segment, longest_run, render_segments
from render.markdown_segments import CHART, Segments

CODE_STYLES = {"source code", "html preformatted", "code", "macro text", "code block"}
QUOTE_STYLES = {"quote", "intense quote", "block text", "block quotation"}


_MD_ORDERED = re.compile(r"\d{1,9}[.)]")  # a label Markdown can write as an ordered marker


@dataclass
class Exporter:
    doc: object
    id_of: Callable | None = None  # element -> ID, when block IDs are wanted
    notes: list = field(default_factory=list)  # (label, kind, note id) in order of reference
    _indents: dict = field(default_factory=dict)

    def __post_init__(self):
        self.reader = Segments(self.doc, self.notes)  # the notes it meets are listed here too

    # ---- blocks ------------------------------------------------------------------------------
    def blocks(self, els) -> str:
        """Markdown for consecutive body blocks, footnote definitions after them."""
        chunks: list[tuple[str, list[str]]] = []  # (kind, lines): kinds decide the blank lines
        for el in els:
            self.block(el, chunks)
        out: list[str] = []
        prev = None
        for kind, lines in chunks:
            if out and not (kind == prev and kind.startswith("list:")):
                out.append("")
            out += lines
            prev = kind
        out += self.note_lines()
        return "\n".join(out) + ("\n" if out else "")

    def block(self, el, chunks: list) -> None:
        if el.tag == B.W_P:
            self.paragraph(el, chunks)
        elif el.tag == B.W_TBL:
            self._indents.clear()
            chunks.append(("table", self._comment_line(el) + self.table(el)))
        elif el.tag in (B.W_SDT, w("customXml")):
            content = el.find(B.W_SDTCONTENT) if el.tag == B.W_SDT else el
            for child in B.iter_blocks(content) if content is not None else ():
                self.block(child, chunks)
        if el.tag == B.W_P:
            for ref in el.iter(CHART):  # a chart's data follows the paragraph holding it
                chart = locate.read(self.doc, ref) if self.doc is not None else None
                if chart is not None and chart.series:
                    chunks.append(("table", charts_view.markdown_table(chart)))
            for box in B.text_boxes(el):  # a text box's paragraphs follow the one anchoring it
                for child in B.iter_blocks(box):
                    self.block(child, chunks)

    def paragraph(self, p, chunks: list) -> None:
        style = self._style_name(p)
        if style in CODE_STYLES:
            text = "".join(s.text if s.kind != "break" else "\n" for s in self.segments(p))
            if chunks and chunks[-1][0] == "code" and not self.id_of and "`" * 3 not in text:
                fence = chunks[-1][1][-1]
                chunks[-1][1][-1:] = text.split("\n") + [fence]  # one fence for neighbouring code lines
                return
            fence = "`" * max(3, longest_run(text, "`") + 1)
            chunks.append(("code", self._comment_line(p) + [fence, *text.split("\n"), fence]))
            return
        text = self.inline(p).strip(" \t")  # leading spaces would make code, trailing ones breaks
        label, item = self.numbered(p)
        level = heading_level_of(self.doc, p)
        comment = f" <!-- {self.id_of(p)} -->" if self.id_of else ""
        if level:
            self._indents.clear()
            line = with_label(label, text.replace("\\\n", " "))
            chunks.append(("heading", ["#" * min(level, 6) + " " + line + comment]))
            return
        if label:
            marker = _marker(item, label)
            kind = f"list:{item.num_id}" if marker else "para"  # a label Markdown cannot write: a paragraph
            chunks.append((kind, self.list_lines(item, _guard_line_start(with_label(None if marker else label, text))
                                                 + comment, marker)))
            return
        self._indents.clear()
        text = with_label(label, text)
        if not text.strip() and self._is_rule(p):
            # '***', not '---': answers use '---' lines as section separators.
            chunks.append(("rule", self._comment_line(p) + ["***"]))
            return
        lines = _guard_line_start(text).split("\n") if text.strip() else []
        if not lines:
            return  # empty paragraphs are spacing, not content
        lines[0] += comment
        if style in QUOTE_STYLES:
            quoted = ["> " + line if line else ">" for line in lines]
            if chunks and chunks[-1][0] == "quote":
                chunks[-1][1].extend([">", *quoted])
            else:
                chunks.append(("quote", quoted))
            return
        chunks.append(("para", lines))

    def numbered(self, p, table=ESCAPE) -> tuple[str | None, ListItem | None]:
        """The label the views show before ``p`` (render/blocks.py with_label), escaped, and its list
        and level as the labels count them (ooxml/lists/numbering.py); (None, None) for no label."""
        defs = definitions(self.doc)
        ref = defs.para_num(p)  # cheap: most paragraphs are no list item, and need no label_of
        label = label_of(self.doc, p) if ref is not None else None
        if not label:
            return None, None
        level = defs.level(*ref)
        return label.translate(table), ListItem(str(ref[0]), ref[1], level is None or level.fmt != "bullet")

    def list_lines(self, item, text: str, marker: str | None) -> list[str]:
        """A list item's lines. Its marker is its label (``- `` for a bullet, Word's own ``3.``,
        ``3)``); an item whose label Markdown cannot write as a marker (``a)``, ``2.1.``, ``iv.``)
        is a paragraph holding its label, indented under its parent item."""
        level = item.level
        for deeper in [k for k in self._indents if k > level]:
            del self._indents[deeper]
        parent = max((k for k in self._indents if k < level), default=None)
        base = self._indents[parent][1] if parent is not None else 0
        marker = marker or ""
        self._indents[level] = (base, base + len(marker))
        lines = text.split("\n") if text else [""]
        pad = " " * (base + len(marker))
        return [" " * base + marker + lines[0]] + [pad + line for line in lines[1:]]

    def table(self, tbl) -> list[str]:
        grid = TableGrid(tbl)
        if not grid.n_rows or not grid.n_cols:
            return []
        rendered: dict = {}
        rows = []
        for r, line in enumerate(grid.owners):
            cells = []
            for c in range(grid.n_cols):
                tc = line[c] if c < len(line) else None
                if tc is not None and tc not in rendered:
                    rendered[tc] = self.cell(tc)
                cells.append(rendered.get(tc, "") if tc is not None else "")
            rows.append("| " + " | ".join(cells) + " |")
        align = [self._align(grid.cell(0, c)) for c in range(grid.n_cols)]
        return [rows[0], "| " + " | ".join(align) + " |", *rows[1:]]

    def cell(self, tc) -> str:
        parts: list[str] = []
        self._cell_parts(tc, parts)
        return "<br>".join(p for p in parts if p) if any(parts) else ""

    def _cell_parts(self, container, parts: list) -> None:
        """A cell's lines: its paragraphs, those of content controls and text boxes; nested tables as text."""
        for child in container:
            if child.tag == B.W_P:
                text = self.inline(child, cell=True)
                label, item = self.numbered(child, ESCAPE_CELL) if text else (None, None)
                if label:  # GFM cells hold no lists: the label goes in front of the text
                    text = "\u00a0" * (2 * item.level) + with_label(label, text)
                parts.append(text)
                for box in B.text_boxes(child):
                    self._cell_parts(box, parts)
            elif child.tag in (B.W_SDT, w("customXml")):
                content = child.find(B.W_SDTCONTENT) if child.tag == B.W_SDT else child
                if content is not None:
                    self._cell_parts(content, parts)
            elif child.tag == B.W_TBL:
                parts.append(B.block_text(child, limit=1_000_000).replace("\n", " ").replace("\t", " ")
                             .translate(ESCAPE_CELL))

    # ---- inline ------------------------------------------------------------------------------
    def inline(self, p, cell: bool = False) -> str:
        return render_segments(self.segments(p), cell)

    def segments(self, p) -> list[Segment]:
        return self.reader.of(p)

    # ---- notes, helpers ---------------------------------------------------------------------
    def note_lines(self) -> list[str]:
        if not self.notes:
            return []
        lines = [""]
        parts = {"footnote": self.doc.related_part(RT.FOOTNOTES), "endnote": self.doc.related_part(RT.ENDNOTES)}
        seen = set()
        for label, kind, note_id in self.notes:
            if label in seen:
                continue
            seen.add(label)
            part = parts[kind]
            note = None
            if part is not None:
                self.doc.register_part_root(part)  # so links in notes resolve against the notes' rels
                note = next((n for n in part.tree.getroot().iter(w(kind)) if n.get(w("id")) == note_id), None)
            text = " ".join(self.inline(p).replace("\\\n", " ") for p in note.iter(B.W_P)) if note is not None else ""
            lines.append(f"[^{label}]: {text.strip()}")
        self.notes.clear()
        return lines

    def _style_name(self, p) -> str:
        sid = B.style_id(p)
        return self.doc.styles.name(sid).lower() if sid else ""

    @staticmethod
    def _is_rule(p) -> bool:
        ppr = p.find(w("pPr"))
        borders = ppr.find(w("pBdr")) if ppr is not None else None
        return borders is not None and borders.find(w("bottom")) is not None

    def _comment_line(self, el) -> list[str]:
        return [f"<!-- {self.id_of(el)} -->"] if self.id_of else []

    @staticmethod
    def _align(tc) -> str:
        p = tc.find(B.W_P) if tc is not None else None
        ppr = p.find(w("pPr")) if p is not None else None
        jc = ppr.find(w("jc")) if ppr is not None else None
        return {"center": ":---:", "right": "---:", "end": "---:"}.get(jc.get(w("val")) if jc is not None else "",
                                                                       "---")


def heading_level_of(doc, p) -> int | None:
    return heading_level(doc, p)


def _marker(item: ListItem, label: str) -> str | None:
    """The Markdown marker that is the item's label, or None when Markdown has none for it."""
    if not item.ordered:
        return "- "
    return label + " " if _MD_ORDERED.fullmatch(label) else None


def _guard_line_start(text: str) -> str:
    """Escape what would make a paragraph's first character start another block."""
    stripped = text.lstrip(" ")
    if not stripped:
        return text
    first = stripped[0]
    if first in "#>+-=" or (first.isdigit() and _ordered_marker(stripped)):
        lead = len(text) - len(stripped)
        if first.isdigit():
            digits = len(stripped) - len(stripped.lstrip("0123456789"))
            return text[:lead + digits] + "\\" + text[lead + digits:]
        return text[:lead] + "\\" + text[lead:]
    return text


def _ordered_marker(text: str) -> bool:
    """CommonMark's ordered list marker: 1-9 digits, '.' or ')', then white space or the end
    ('2.2.2 Term' and '1.1.' start no list)."""
    digits = text.lstrip("0123456789")
    return digits[:1] in (".", ")") and len(text) - len(digits) <= 9 and digits[1:2] in ("", " ", "\t", "\n")
