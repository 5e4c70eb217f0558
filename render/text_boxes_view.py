"""Text boxes in views: ``[TEXT BOX tbx_…]`` in the anchoring paragraph's line, and under its box a
frame with the box's paragraphs, each with its ID (``│ para_…: text``). Reads, never edits
(IDs are given through ``doc.id_of``, as for charts)."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from render.blocks import MAX_BELOW, TEXT_COLUMNS
from render.inline import InlineKind, LineContext, paragraph_line
from render.renderer import Renderer
from render.width import cut


def _draw(box: etree._Element, ctx: LineContext) -> str:
    return f"[TEXT BOX {ctx.doc.id_of(box)}]" if ctx.doc is not None else "[TEXT BOX]"


def frame(doc, box: etree._Element, most: int = MAX_BELOW) -> list[str]:
    """The box's frame: a head line with its ID, then one line per paragraph (at most ``most`` lines)."""
    alt = _alt_text(box)
    lines = [f"┌ Text Box ({doc.id_of(box)})" + (f', alt text "{cut(alt, 60)}"' if alt else "")]
    paras = [p for p in B.iter_blocks(box)]
    for el in paras[:most - 1]:
        text = paragraph_line(el, doc, limit=2 * TEXT_COLUMNS) if el.tag == B.W_P else \
            B.block_text(el, 200).replace("\n", " ")
        lines.append(cut(f"│ {doc.id_of(el)}: {text}", TEXT_COLUMNS))
    if len(paras) > most - 1:
        lines.append(f"│ … {len(paras) - most + 1} more")
    return lines


def _alt_text(box: etree._Element) -> str | None:
    """The description of the drawing holding the box (docx_set_alt_text writes it)."""
    drawing = B.find_ancestor(box, _DRAWING)
    doc_pr = next(drawing.iter(_DOC_PR), None) if drawing is not None else None
    return doc_pr.get("descr") if doc_pr is not None else None


_DRAWING = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}drawing"
_DOC_PR = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}docPr"


def _boxes(el: etree._Element) -> list[etree._Element]:
    """The text boxes a paragraph anchors, or those in a table's cells (a table's box shows no cell
    paragraphs of its own), fallbacks and boxes inside boxes aside."""
    if el.tag == B.W_P:
        return B.text_boxes(el)
    if el.tag == B.W_TBL:
        return [t for t in el.iter(B.W_TXBX) if not B.in_fallback(t) and B.find_ancestor(t, B.W_TXBX) is None]
    return []


def box_lines(doc, el: etree._Element) -> list[str]:
    """Frames of the text boxes of ``el`` (a paragraph or table), indented under its box."""
    if doc is None:
        return []
    return ["    " + line for box in _boxes(el) for line in frame(doc, box)]


RENDERER = Renderer(inline=(InlineKind("text_box", ".//w:txbxContent", _draw),), below=box_lines,
                    below_tags=frozenset({B.W_TXBX}))
