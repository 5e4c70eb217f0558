"""docx_insert_text_box (toolset content): a text box as Word writes it (ooxml/text/text_boxes.py).
Text boxes get ``tbx_`` IDs; their paragraphs are edited by every tool through ``start:``/``end:tbx_…``."""
from __future__ import annotations

import render.text_boxes_view  # noqa: F401  (views draw text boxes with their IDs)
from lxml import etree

from ooxml.review import edits
from ooxml.text import body as B
from ooxml.text import images as I
from ooxml.text import text_boxes as T
from ooxml.xml import growth
from ooxml.xml.errors import InvalidElementType, InvalidPosition, ValidationError
from ooxml.xml.namespaces import w
from ooxml.xml.units import emu
from tools.docx.common import call_limits
from ooxml.model.insertion import run_place
from tools.docx.protocol import DELETERS, delete_inline, Edit
from tools.runtime.call.registry import CallContext, tool

# Word offers no text box inside these (nor a text box inside a text box).
_NO_BOXES = {B.W_TXBX, w("footnote"), w("endnote"), w("comment")}


@tool(toolset="content", title="Insert a text box")
def docx_insert_text_box(ctx: CallContext, e: Edit, session_id: str | None, position: str, text: str,
                         width: float | str | None = None, height: float | str | None = None) -> None:
    """Insert an inline text box (a paragraph per line) at a block or run position; its tbx_ ID takes
    start:/end:.

    Args:
        width: Default 3 inches.
        height: Default fits the lines.
    """
    doc = e.doc
    if not isinstance(text, str) or not text.strip():
        raise ValidationError("text is empty: a text box needs some text.",
                              hint="Pass the box's text; newlines start new paragraphs.")
    lines = T.lines(text)
    cx = emu(width, "width") if width is not None else T.DEFAULT_WIDTH
    cy = emu(height, "height") if height is not None else T.default_height(len(lines))
    I.check_length(cx, "width")
    I.check_length(cy, "height")
    pos = e.position(position)
    _check_place(pos.target)
    growth.spend(T.size_estimate(lines), call_limits(ctx, doc).max_call_growth_bytes, "The text box",
                 hint="Insert less text per call; the operator sets limits.max_call_growth_bytes.")
    paras = T.paragraphs(lines)
    ids = doc.word_ids(pos.target if pos.target.tag != w("body") else doc.body)
    run = T.text_box_run(paras, cx, cy, ids.new_doc_pr(), ids)
    box = T.choice_box(run)
    fields = {"Position": pos.text, "Size": f"{cx / 914400:.2f}in × {cy / 914400:.2f}in",
              "Paragraphs": len(paras)}
    if _run_mode(pos):
        para, _ = run_place(doc, pos)
        e.show(para)
        e.change(para)
        edits.place_run(doc, para, run, pos.mode, pos.target)
        e.done(para, marker="NEW", inserted=run, element_id=doc.id_of(box), fields=fields)
    else:
        para = etree.Element(B.W_P)
        para.append(run)
        e.insert(para, pos)
        e.done(para, marker="NEW", inserted=para, element_id=doc.id_of(box), fields=fields)


def _run_mode(pos) -> bool:
    t = pos.target
    return (t.tag == B.W_P and pos.mode in ("start", "end")) or t.tag == B.W_R


def _check_place(target: etree._Element) -> None:
    holder = target if target.tag in _NO_BOXES else B.find_ancestor(target, _NO_BOXES)
    if holder is not None:
        raise InvalidPosition(f"A text box cannot go inside a {B.kind(holder).lower()}: Word allows none there.",
                              hint="Use a position in the body, a table cell, a header or a footer.")


def delete_text_box(e, box: etree._Element) -> None:
    """docx_delete of a tbx_ ID: the run holding the box goes (tracked while tracking, its text too)."""
    run = B.find_ancestor(box, B.W_R)
    if run is None or B.find_ancestor(run, B.W_TXBX) is not B.find_ancestor(box, B.W_TXBX):
        raise InvalidElementType("This text box is not in a run and cannot be deleted here.",
                                 hint="Delete the paragraph holding it with docx_delete.")
    delete_inline(e, run)


DELETERS[B.W_TXBX] = delete_text_box
