"""Captions, cross-references, fields that compute, tables of figures (SPEC §12, toolset layout).

The document work is in ooxml/refs/ (captions, ref_marks, crossrefs, compute, page_fields,
updating, figures); page numbers come from one LibreOffice layout (render/page_layout.py).
"""
from __future__ import annotations

from typing import Literal

from lxml import etree

from ooxml.refs import captions as CAP
from ooxml.refs import field_list as FLD
from ooxml.refs import updating as UP
from ooxml.text import body as B
from ooxml.xml.errors import ValidationError
from tools.docx import common as C
from tools.docx.protocol import editing
from tools.runtime.registry import CallContext, tool

RENUMBERED = {"SEQ", "REF", "NOTEREF"}  # what an insert keeps right at once (no layout)


def _block_of(el: etree._Element) -> etree._Element:
    """The block holding ``el`` (an image's paragraph, a table ...) in its container."""
    cur = el
    while cur.getparent() is not None and not (cur.getparent().tag in C.BLOCK_CONTAINERS and B.is_block(cur)):
        cur = cur.getparent()
    return cur if cur.getparent() is not None else el


def _one_line(text: str, arg: str) -> str:
    if "\n" in text or "\r" in text:
        raise ValidationError(f"{arg} must be one line.", hint=f"Pass {arg} without line breaks.")
    return text.strip()


def _changed_lines(doc, changes: list[UP.Change], limit: int = 20) -> str | None:
    if not changes:
        return None
    shown = [f"{doc.id_of(c.field.start)} {c.field.name} {c.old!r}->{c.new!r}" for c in changes[:limit]]
    return "; ".join(shown) + (f"; +{len(changes) - limit} more" if len(changes) > limit else "")


def _announce_except(e, new: etree._Element):
    return lambda *ps: e.change(*[p for p in ps if p is not new])


@tool(toolset="layout", title="Insert a caption")
def docx_insert_caption(ctx: CallContext, session_id: str | None, element_id: str, text: str,
                        label: str = "Figure", position: Literal["after", "before"] = "after") -> str:
    """Caption a figure, table or equation as Word does: label, SEQ number, bookmark for references.

    Args:
        element_id: The block (or an image in it) captioned.
    """
    with editing(ctx, session_id, "Insert Caption") as e:
        doc = e.doc
        label, text = CAP.check_label(label), _one_line(text, "text")
        block = _block_of(e.element(element_id))
        pos = C.Position(position, block, f"{position}:{doc.id_of(block)}")
        p = CAP.build(doc, label, text, 1, FLD.story_roots(doc))
        e.insert(p, pos, "caption")
        changes = UP.update_computed(doc, RENUMBERED, _announce_except(e, p))
        cap = CAP.caption_of(p)
        e.done(p, marker="NEW", inserted=p,
               fields={"Position": pos.text, "Caption": B.paragraph_text(p), "Field": cap.seq.instruction,
                       "Updated": _changed_lines(doc, [c for c in changes if c.field.paragraph is not p])})
    return e.answer
