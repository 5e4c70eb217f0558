"""Cross-references as Word makes them: a REF, NOTEREF or PAGEREF field (``\\h``: a link) to a hidden
``_Ref`` bookmark on the target, the bookmark made around what the reference shows.

Targets: a caption, a heading, a numbered paragraph, a footnote or endnote, a bookmark.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.lists import numbering
from ooxml.refs import captions as CAP
from ooxml.refs import links as L
from ooxml.refs import ref_marks as RM
from ooxml.text import body as B
from ooxml.text import notes as N
from ooxml.xml.errors import InvalidElementType, ValidationError
from ooxml.xml.namespaces import w

KINDS = ("number", "text", "label_and_number", "page", "above_below")
_SWITCH = {"number": "\\r ", "label_and_number": "\\w ", "text": "", "above_below": "\\p "}
_MARKS = {L.W_BM_START, L.W_BM_END, w("pPr"), w("proofErr"), w("del")}


@dataclass
class Target:
    what: str  # caption, heading, numbered, note, bookmark
    el: etree._Element  # the paragraph, the note reference run, the bookmarkStart


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValidationError(f"Unknown kind '{kind}'.", hint="kind is one of: " + ", ".join(KINDS) + ".")
    return kind


def target_of(doc, el: etree._Element) -> Target:
    """What ``el`` is as a reference target; InvalidElementType for anything else."""
    if el.tag == L.W_BM_START:
        return Target("bookmark", el)
    if el.tag in (w("footnote"), w("endnote")):
        ref = N.reference_of(doc, el)
        if ref is not None:
            return Target("note", ref.getparent())
    if el.tag == B.W_R and any(el.find(t) is not None for t in N.REF_TAGS.values()):
        return Target("note", el)
    if el.tag == B.W_P:
        if CAP.caption_of(el) is not None:
            return Target("caption", el)
        if _level(doc, el) is not None:
            return Target("heading", el)
        if numbering.label_of(doc, el):
            return Target("numbered", el)
    raise InvalidElementType(f"{B.kind(el)} is not a caption, heading, numbered paragraph, note or bookmark.",
                             hint="Pass a caption's or heading's para_… ID, a note_… or a bkm_… ID "
                                  "(docx_get_structure, docx_list_bookmarks).")


def _level(doc, p: etree._Element) -> int | None:
    level = B.direct_outline_level(p)
    sid = B.style_id(p)
    level = level if level is not None else (doc.styles.outline_level(sid) if sid else None)
    return level if level is not None and level < 9 else None


def _content(p: etree._Element) -> tuple[etree._Element, etree._Element] | None:
    kids = [k for k in p if k.tag not in _MARKS]
    return (kids[0], kids[-1]) if kids else None


def _refused(target: Target, kind: str) -> ValidationError:
    return ValidationError(f"A reference of kind '{kind}' cannot point at a {target.what}.",
                           hint={"note": "For a note use number, label_and_number, page or above_below.",
                                 }.get(target.what, "Use text, page or above_below; number needs a numbered target."))


def instruction(doc, roots: list[etree._Element], target: Target, kind: str) -> str:
    """The field instruction of a reference of ``kind`` to ``target``, its bookmark made if needed
    (callers announced the target's paragraph)."""
    if target.what == "bookmark":
        name = target.el.get(w("name"))
    elif target.what == "note":
        if kind == "text":
            raise _refused(target, kind)
        name = RM.mark(roots, target.el, target.el)
        field = "PAGEREF" if kind == "page" else "NOTEREF"
        switch = {"label_and_number": "\\f ", "above_below": "\\p "}.get(kind, "")
        return f"{field} {name} {switch}\\h"
    elif target.what == "caption":
        name = RM.mark(roots, *_caption_range(target.el, kind))
        switch = "\\p " if kind == "above_below" else ""
        return f"PAGEREF {name} \\h" if kind == "page" else f"REF {name} {switch}\\h"
    else:
        if kind in ("number", "label_and_number") and not numbering.label_of(doc, target.el):
            raise _refused(target, kind)
        span = _content(target.el)
        if span is None:
            raise ValidationError("The target paragraph is empty: there is nothing to refer to.",
                                  hint="Give it text first, or refer to another paragraph.")
        name = RM.mark(roots, *span)
    return f"PAGEREF {name} \\h" if kind == "page" else f"REF {name} {_SWITCH[kind]}\\h"


def _caption_range(p: etree._Element, kind: str) -> tuple[etree._Element, etree._Element]:
    cap = CAP.caption_of(p)
    begin, end = cap.number_runs()
    if kind == "number":
        return (begin, end) if begin.getparent() is end.getparent() else (_child_of(p, begin), _child_of(p, end))
    if kind == "text":
        after = [r for k in _child_of(p, end).itersiblings() if k.tag not in _MARKS
                 for r in (list(k) if k.tag == w("ins") else [k]) if r.tag not in _MARKS]
        while after and not B.run_text(after[0]).strip(CAP.SEPARATORS):
            after.pop(0)  # the ': ' between number and text is not the text
        if not after:
            raise ValidationError("The caption has no text after its number.",
                                  hint="Refer to it with kind label_and_number or number.")
        first, last = after[0], after[-1]
        return (first, last) if first.getparent() is last.getparent() else (_child_of(p, first), _child_of(p, last))
    return _content(p)[0], _child_of(p, end)


def _child_of(p: etree._Element, el: etree._Element) -> etree._Element:
    """``el``, or its ancestor that is a child of ``p`` (a tracked caption's runs sit in a w:ins)."""
    while el.getparent() is not p:
        el = el.getparent()
    return el
