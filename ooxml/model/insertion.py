"""Where new content goes, for a position (``MODE:TARGET``, its target already resolved): a block's
container and neighbours, a run's paragraph, inline content among a paragraph's runs. Anything else
is an InvalidPosition naming the positions that are valid there; nothing changes before it is known."""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.model import places as P
from ooxml.refs import fields as FL
from ooxml.text import body as B
from ooxml.xml.errors import InvalidPosition
from ooxml.xml.namespaces import OX_ID, w


@dataclass
class Position:
    mode: str  # before, after, start, end
    target: etree._Element  # an element, or the body for document_body
    text: str  # as given, for the answer head

def _shown_id(el: etree._Element) -> str:
    # Error paths must not change the document, so no new ID is given here.
    return "document_body" if el.tag == w("body") else el.get(OX_ID) or f"<the {B.kind(el).lower()}'s ID>"


def valid_positions(doc, el: etree._Element, kind: str) -> str:
    eid = _shown_id(el)
    if kind == "block":
        if P.block_slot(el) is not None:
            return f"start:{eid}, end:{eid}"
        if P.is_placed_block(el):
            return f"before:{eid}, after:{eid}"
        para = B.find_ancestor(el, B.W_P)
        if para is not None:
            return f"before:{_shown_id(para)}, after:{_shown_id(para)} (the paragraph holding it)"
        return "a paragraph, table or container ID"
    if el.tag == B.W_P:
        return f"start:{eid}, end:{eid} (inside the paragraph)"
    if el.tag == B.W_R:
        return f"before:{eid}, after:{eid}"
    return "start:/end: a paragraph, or before:/after: a run"


def block_insertion(doc, pos: Position, what: str = "paragraph") -> tuple[etree._Element, dict]:
    """Where a block goes: (container, insert_block kwargs). Raises InvalidPosition."""
    t = pos.target
    if pos.mode in ("start", "end"):
        container = P.block_slot(t)
        if container is None:
            raise InvalidPosition(f"A {what} cannot go inside a {B.kind(t)}.",
                                  hint="Valid positions here: " + valid_positions(doc, t, "block"))
        if pos.mode == "start":
            first_child = P.first_slot(container)
            return container, {"before": first_child} if first_child is not None else {}
        if P.must_end_with_paragraph(container) and what != "paragraph":
            last = list(B.iter_blocks(container))[-1:] or [None]
            raise InvalidPosition(f"A {what} cannot be the last element of a cell: a cell must end with a paragraph.",
                                  hint=f"Use before:{_shown_id(last[0])} to put it before the cell's last paragraph."
                                  if last[0] is not None else None)
        return container, {}
    parent = t.getparent()
    if not P.is_placed_block(t):
        raise InvalidPosition(f"A {what} cannot go {pos.mode} a {B.kind(t)}.",
                              hint="Valid positions here: " + valid_positions(doc, t, "block"))
    if pos.mode == "after" and P.must_end_with_paragraph(parent) and what != "paragraph" and B.next_block(t) is None:
        raise InvalidPosition(f"A {what} cannot be the last element of a cell: a cell must end with a paragraph.",
                              hint=f"Use before:{_shown_id(t)}.")
    return parent, {pos.mode: t}

def last_block(container: etree._Element) -> etree._Element | None:
    try:
        el = container[-1]  # lxml finds the last child without walking the list
    except IndexError:
        return None
    return el if B.is_block(el) else B.prev_block(el)


def insertion_neighbours(container: etree._Element, where: dict) -> tuple:
    """The blocks that will stand before and after a block inserted at ``where``."""
    if "after" in where:
        return where["after"], B.next_block(where["after"])
    if "before" in where:
        ref = where["before"]
        return B.prev_block(ref), ref if B.is_block(ref) else None
    return last_block(container), None

def run_place(doc, pos: Position) -> tuple:
    """(paragraph, run whose formatting a new run takes or None) for a run position."""
    t = pos.target
    if pos.mode in ("start", "end"):
        if t.tag != B.W_P:
            raise InvalidPosition(f"A run must go inside a paragraph, not inside a {B.kind(t)}.",
                                  hint="Valid positions here: " + valid_positions(doc, t, "run"))
        para, model = t, None
    elif t.tag == B.W_R:
        para, model = B.find_ancestor(t, B.W_P), t
    else:
        raise InvalidPosition(f"A run cannot go {pos.mode} a {B.kind(t)}: runs live inside paragraphs.",
                              hint="Valid positions here: " + valid_positions(doc, t, "run"))
    return para, model

def body_insertion(doc, pos: Position, what: str, message: str, hint: str) -> tuple:
    """Where a block that only the document body may hold goes, for a position the call's Edit read:
    (position, container, insert_block kwargs)."""
    container, where = block_insertion(doc, pos, what)
    if container is not doc.body:
        raise InvalidPosition(message, hint=hint)
    return pos, container, where



# Where inline content (fields, hyperlinks, note references) goes: among a paragraph's runs.
# ``start:``/``end:`` a paragraph, or ``before:``/``after:`` a run, a hyperlink (link_…) or a field
# (fld_…, meaning the field's whole span). Resolved and checked before anything changes.
_INLINE_TARGETS = {B.W_R, w("hyperlink"), w("fldSimple")}


@dataclass
class InlinePlace:
    paragraph: etree._Element
    mode: str  # start, end, before, after
    anchor: etree._Element  # the paragraph (start/end) or the sibling to insert next to
    text: str

    def put(self, els: list[etree._Element]) -> None:
        if self.mode == "after":
            for el in reversed(els):
                self.anchor.addnext(el)
        elif self.mode == "before":
            for el in els:
                self.anchor.addprevious(el)
        elif self.mode == "start":
            ppr = self.paragraph.find(w("pPr"))
            at = 1 if ppr is not None and ppr.getparent() is self.paragraph else 0
            for i, el in enumerate(els):
                self.paragraph.insert(at + i, el)
        else:
            for el in els:
                self.paragraph.append(el)

    @property
    def model_rpr(self) -> etree._Element | None:
        """The formatting new text takes: the run it goes next to, if any."""
        if self.anchor.tag == B.W_R:
            return self.anchor.find(w("rPr"))
        return None


def inline_place(doc, pos: Position, what: str) -> InlinePlace:
    """Where a ``what`` goes among runs, for a position the call's Edit read (``e.inline``)."""
    t = pos.target
    if pos.mode in ("start", "end"):
        if t.tag != B.W_P:
            raise InvalidPosition(f"A {what} goes inside a paragraph, not inside a {B.kind(t)}.",
                                  hint="Valid positions here: " + valid_positions(doc, t, "run"))
        return InlinePlace(t, pos.mode, t, pos.text)
    if t.tag == FL.W_FLDCHAR:  # a field: next to its whole span
        span = FL.field_span(t)
        if not span:
            raise InvalidPosition("This field spans paragraphs: place the new content next to a run instead.",
                                  hint="Use a position such as 'after:run_…' on a run outside the field, "
                                       "or 'end:para_…'.")
        anchor = span[0] if pos.mode == "before" else span[-1]
        return InlinePlace(B.find_ancestor(t, B.W_P), pos.mode, anchor, pos.text)
    if t.tag in _INLINE_TARGETS:
        para = B.find_ancestor(t, B.W_P)
        if para is not None:
            return InlinePlace(para, pos.mode, t, pos.text)
    raise InvalidPosition(f"A {what} cannot go {pos.mode} a {B.kind(t)}: it goes among a paragraph's runs.",
                          hint="Valid positions here: " + valid_positions(doc, t, "run"))
