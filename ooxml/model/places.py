"""Where blocks and runs may go: THE container table, block and inline slots, the range rules.

One table for every reader and editor (python-docx's ``blkcntnr``): a container's children are
blocks (paragraphs, tables, block-level content controls), ranged by the markers of ``body.MARKERS``.
"""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.errors import InvalidPosition, ValidationError
from ooxml.xml.namespaces import w

MAX_RANGE = 2_000  # blocks in one range (a copy, a list made of paragraphs)

# Each tag whose element holds blocks (CT_Body, CT_Tc, CT_HdrFtr, CT_FtnEdn, CT_Comment,
# CT_TxbxContent, CT_SdtContentBlock, CT_DocPartBody in the schema), and why.
WHY = {
    "body": "the main story",
    "tc": "a table cell (it must end with a paragraph)",
    "hdr": "a header part's root", "ftr": "a footer part's root",
    "footnote": "a footnote", "endnote": "an endnote", "comment": "a comment's text",
    "txbxContent": "a text box's story (a DrawingML Choice's or a VML shape's)",
    "sdtContent": "a content control's content: blocks only when the control is a block "
                  "(in a paragraph it holds runs, in a row cells, in a table rows): see holds_blocks",
    "docPartBody": "a glossary building block: no story of ours, so nothing there has an ID "
                   "and no tool places into it; counted so reading stops at its blocks",
}
CONTAINERS = frozenset(w(n) for n in WHY)
# Not containers: w:document (its one child is the body), w:tbl/w:tr (rows and cells, not blocks),
# w:p (runs), w:footnotes/w:endnotes/w:comments (notes and comments, each a container).

# The containers whose last paragraph a reject keeps are ooxml/review/review_ops.KEEPS_LAST (review
# lies below this folder).


def holds_blocks(el: etree._Element) -> bool:
    """``el``'s children are blocks: a container, a content control's content only where the control
    itself is a block."""
    if el.tag != B.W_SDTCONTENT:
        return el.tag in CONTAINERS
    sdt = el.getparent()
    return sdt is not None and sdt.getparent() is not None and holds_blocks(sdt.getparent())


def is_placed_block(el: etree._Element) -> bool:
    """``el`` is a block standing in a block slot (a paragraph, table or control of a container)."""
    parent = el.getparent()
    return parent is not None and B.is_block(el) and holds_blocks(parent)


def block_slot(target: etree._Element) -> etree._Element | None:
    """The container ``start:``/``end:`` of ``target`` puts a block into (a control's content), else None."""
    container = target.find(B.W_SDTCONTENT) if target.tag == B.W_SDT else target
    return container if container is not None and holds_blocks(container) else None


def first_slot(container: etree._Element) -> etree._Element | None:
    """What a block put at the start of ``container`` goes before: its first block, else the body's
    sectPr (which must stay last), else nothing."""
    first = next(B.iter_blocks(container), None)
    return first if first is not None else container.find(B.W_SECTPR)


def must_end_with_paragraph(container: etree._Element) -> bool:
    """A cell's last block is a paragraph: nothing else may go last there."""
    return container.tag == B.W_TC


def block_of(el: etree._Element) -> etree._Element:
    """The block (child of its nearest container) that holds ``el``: a run's paragraph, a cell's table;
    ``el`` itself when no container is above it. The tag table alone decides (fast: every view asks)."""
    cur = el
    while cur.getparent() is not None and cur.getparent().tag not in CONTAINERS:
        cur = cur.getparent()
    return el if cur.getparent() is None else cur


def inline_slot(el: etree._Element) -> bool:
    """``el`` stands among runs (its nearest paragraph or container above is a paragraph)."""
    for a in el.iterancestors():
        if a.tag == B.W_P:
            return True
        if holds_blocks(a) or a.tag in (B.W_TBL, B.W_TR):
            return False
    return False


# ---- ranges: two ends in one container, the end not before the start --------------------------

def block_range(start: etree._Element, end: etree._Element) -> list[etree._Element]:
    """The children from ``start`` to ``end`` inclusive (markers between them too)."""
    if start.getparent() is not end.getparent():
        raise InvalidPosition("start_id and end_id are in different containers (body, cell, header ...).",
                              hint="Copy a range whose two ends have the same parent.")
    out, cur, blocks = [start], start, 1
    while cur is not end:
        cur = cur.getnext()
        if cur is None:
            raise InvalidPosition("end_id does not come after start_id.", hint="Swap start_id and end_id.")
        out.append(cur)
        blocks += B.is_block(cur)
        if blocks > MAX_RANGE:
            raise ValidationError(f"The range holds more than {MAX_RANGE} blocks, the limit for one copy.",
                                  hint="Copy the range in several smaller pieces.")
    return out
