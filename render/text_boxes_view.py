"""Text boxes in views: ``[TEXT BOX tbx_…]`` in the anchoring paragraph's line, and under its box a
frame with the box's paragraphs, each with its ID (``│ para_…: text``). Reads, never edits
(IDs are given through ``doc.id_of``, as for charts)."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from render.blocks import BELOW_BOX, BELOW_TAGS, MAX_BELOW, TEXT_COLUMNS
from render.inline import InlineKind, LineContext, paragraph_line, register
from render.width import cut


def _draw(box: etree._Element, ctx: LineContext) -> str:
    return f"[TEXT BOX {ctx.doc.id_of(box)}]" if ctx.doc is not None else "[TEXT BOX]"


def frame(doc, box: etree._Element, most: int = MAX_BELOW) -> list[str]:
    """The box's frame: a head line with its ID, then one line per paragraph (at most ``most`` lines)."""
    lines = [f"┌ Text Box ({doc.id_of(box)})"]
    paras = [p for p in B.iter_blocks(box)]
    for el in paras[:most - 1]:
        text = paragraph_line(el, doc, limit=2 * TEXT_COLUMNS) if el.tag == B.W_P else \
            B.block_text(el, 200).replace("\n", " ")
        lines.append(cut(f"│ {doc.id_of(el)}: {text}", TEXT_COLUMNS))
    if len(paras) > most - 1:
        lines.append(f"│ … {len(paras) - most + 1} more")
    return lines


def box_lines(doc, el: etree._Element) -> list[str]:
    """Frames of the text boxes anchored in paragraph ``el``, indented under its box."""
    if doc is None or el.tag != B.W_P:
        return []
    return ["    " + line for box in B.text_boxes(el) for line in frame(doc, box)]


register(InlineKind("text_box", ".//w:txbxContent", _draw))
BELOW_BOX.append(box_lines)
BELOW_TAGS.add(B.W_TXBX)
