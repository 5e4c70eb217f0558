"""Where inline content (fields, hyperlinks, note references) goes: among a paragraph's runs.

``start:``/``end:`` a paragraph, or ``before:``/``after:`` a run, a hyperlink (link_…) or a field
(fld_…, meaning the field's whole span). Resolved and checked before anything changes.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.text import body as B
from ooxml.refs import fields as FL
from ooxml.xml.errors import InvalidPosition
from ooxml.xml.namespaces import w
from tools.docx.common import Position, valid_positions

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
    """Where a ``what`` goes among runs, for a position resolved by the call's Edit (``e.inline``)."""
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
