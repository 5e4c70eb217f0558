"""Captions, cross-references, fields that compute, tables of figures (SPEC §12, toolset layout).

The document work is in ooxml/refs/ (captions, ref_marks, crossrefs, compute, page_fields,
updating, figures); page numbers come from one LibreOffice layout (render/page_layout.py).
"""
from __future__ import annotations

import functools
from typing import Literal

from lxml import etree

from ooxml.refs import captions as CAP
from ooxml.refs import chapters as CH
from ooxml.refs import compute as CO
from ooxml.refs import crossrefs as XR
from ooxml.refs import figures as FIG
from ooxml.refs import field_list as FLD
from ooxml.refs import fields as FL
from ooxml.refs import page_fields as PF
from ooxml.refs import updating as UP
from ooxml.layout import sections as S
from ooxml.model import places as PL
from ooxml.review import edits
from ooxml.text import body as B
from ooxml.xml.errors import ElementNotFound, InvalidPosition, LimitExceeded, OoxmlError, ValidationError
from ooxml.xml.namespaces import w
from render import page_layout
from ooxml.model.insertion import Position, block_insertion, insertion_neighbours, valid_positions
from tools.docx.protocol import Edit
from tools.office import find as office_find
from tools.office.service import to_pdf_in_budget
from tools.runtime.call.progress import heartbeats
from tools.runtime.call.registry import CallContext, tool

RENUMBERED = {"SEQ", "REF", "NOTEREF"}  # what an insert keeps right at once (no layout)


def _block_of(el: etree._Element) -> etree._Element:
    """The block holding ``el`` (an image's paragraph, a table ...) in its container."""
    cur = el
    while cur.getparent() is not None and not PL.is_placed_block(cur):
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


def _chapter(doc, block: etree._Element, level: int | None, after: bool) -> tuple[int, str] | None:
    """(level, number) of the heading a chapter caption at ``block`` counts under."""
    if level is None:
        return None
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 9:
        raise ValidationError(f"chapter must be a heading level 1-9, not {level!r}.",
                              hint="Pass chapter=1 to number captions per Heading 1 chapter, or leave it out.")
    number = CH.chapter_of(doc, block, level, include=after)
    if number is None:
        raise ValidationError(f"No numbered Heading {level} comes before the target: the chapter number "
                              "would read 'Error! No text of specified style in document.'",
                              hint=f"Number the level-{level} headings with docx_set_list, or leave chapter out.")
    return level, number


@tool(toolset="layout", title="Insert a caption")
def docx_insert_caption(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, text: str,
                        label: str = "Figure", position: Literal["after", "before"] = "after",
                        chapter: int | None = None) -> None:
    """Caption a figure, table or equation: label, SEQ number, _Ref bookmark.

    Args:
        element_id: A block, or an image in it.
        chapter: Heading level of chapters (2-1)
    """
    doc = e.doc
    label, text = CAP.check_label(label), _one_line(text, "text")
    block = _block_of(e.element(element_id))
    pos = Position(position, block, f"{position}:{doc.id_of(block)}")
    prefix = _chapter(doc, block, chapter, position == "after")
    p = CAP.build(doc, label, text, 1, doc.story_roots(), prefix)
    e.insert(p, pos, "caption")
    changes = UP.update_computed(doc, RENUMBERED, _announce_except(e, p))
    cap = CAP.caption_of(p)
    e.done(p, marker="NEW", inserted=p,
           fields={"Position": pos.text, "Caption": B.paragraph_text(p), "Field": cap.seq.instruction,
                   "Updated": _changed_lines(doc, [c for c in changes if c.field.paragraph is not p])})


def _layout(ctx, e, fields: list[FLD.Field]) -> tuple[page_layout.LaidOut | None, str]:
    """One LibreOffice layout of the state (as the TOC's page numbers), or why there is none; only the
    blocks ``fields`` need are marked for it."""
    missing = office_find.missing()
    if missing:
        return None, f"kept: {missing}"
    e.report()  # the copy laid out is saved from the parts changed so far
    try:
        with heartbeats(ctx, 0, 1, "LibreOffice is laying out the document for page numbers"):
            convert = functools.partial(to_pdf_in_budget, ctx.services.office)
            needed = PF.PageResults(e.doc, None).blocks_needed(fields)
            return page_layout.laid_out(e.doc, convert, needed), "from LibreOffice's layout"
    except LimitExceeded:
        raise
    except (OSError, RuntimeError, ValueError, OoxmlError) as err:  # a failed layout keeps the old numbers
        return None, f"kept: LibreOffice's layout failed ({getattr(err, 'message', err)})"


def _inline(e, position: str) -> tuple[etree._Element, callable]:
    """(paragraph, put(runs)) for start:/end: a paragraph or before:/after: a run."""
    pos = e.position(position)
    t = pos.target
    if pos.mode in ("start", "end") and t.tag == B.W_P:
        ppr = t.find(w("pPr"))
        at = 0 if ppr is None else t.index(ppr) + 1
        return t, (lambda runs: [t.insert(at + i, r) for i, r in enumerate(runs)]) if pos.mode == "start" \
            else t.extend
    para = B.find_ancestor(t, B.W_P)
    if pos.mode in ("before", "after") and t.tag == B.W_R and para is not None:
        return para, (lambda runs: [t.addprevious(r) for r in runs]) if pos.mode == "before" \
            else (lambda runs: [t.addnext(r) for r in reversed(runs)])
    raise InvalidPosition(f"A cross-reference cannot go {pos.mode} a {B.kind(t)}: it goes among a paragraph's runs.",
                          hint="Valid positions here: " + valid_positions(e.doc, t, "run"))


@tool(toolset="layout", title="Insert a cross-reference")
def docx_insert_cross_reference(ctx: CallContext, e: Edit, session_id: str | None, target_id: str, position: str,
                                kind: Literal["number", "text", "label_and_number", "page", "above_below"]
                                = "number") -> None:
    """Insert a REF/NOTEREF/PAGEREF to a caption, heading, numbered paragraph, note or bookmark.

    Args:
        target_id: para_…, note_… or bkm_….
        position: Among a paragraph's runs.
    """
    doc = e.doc
    target = XR.target_of(doc, e.element(target_id, arg="target_id"))
    para, put = _inline(e, position)
    e.show(para)
    e.change(para, target.el if target.el.tag == B.W_P else B.find_ancestor(target.el, B.W_P))
    instruction = XR.instruction(doc, doc.story_roots(), target, XR.check_kind(kind))
    runs = FL.field_runs(instruction, " ")
    put(runs)
    edits.mark_inserted(doc, runs)
    field = FLD.Field(FL.begin_char(runs), instruction, doc.part_of(para).tree.getroot())
    result, note = CO.Results(doc, FLD.all_fields(doc)).of(field), None
    if field.name == "PAGEREF":
        pages, note = _layout(ctx, e, [field])
        result = PF.PageResults(doc, pages).of(field) if pages is not None else None
    if not result:  # no layout: Word computes it when it opens the file
        field.start.set(w("dirty"), "true")
    FLD.write_result(doc, field, result or "?")
    e.done(para, marker="UPDATED", element_id=doc.id_of(field.start), inserted=field.start,
           cursor=(para, "after"), fields={"Field": instruction, "Result": FLD.result_of(field),
                                           **({"Pages": note} if note else {})})


def _kinds(kinds: list[str] | None) -> set[str]:
    if kinds is None:
        return {*UP.KINDS, "TOC"}
    wanted = {k.strip().upper() for k in kinds}
    unknown = sorted(wanted - {*UP.KINDS, "TOC"})
    if unknown or not wanted:
        raise ValidationError(f"Unknown field kind(s): {', '.join(unknown) or '(none given)'}.",
                              hint="kinds holds some of: " + ", ".join(UP.KINDS) + ", TOC; leave it out for all.")
    return wanted


MAX_LINES = 200  # changed fields listed in the answer


@tool(toolset="layout", title="Update fields")
def docx_update_fields(ctx: CallContext, e: Edit, session_id: str | None, kinds: list[str] | None = None) -> None:
    """Recompute SEQ, REF, PAGE, PAGEREF, TOC and other fields; lists the changed."""
    doc = e.doc
    wanted = _kinds(kinds)
    fields = FLD.all_fields(doc)
    changes = UP.update_computed(doc, wanted, e.change, fields)
    rebuilt = _rebuild_figure_tables(e) if "TOC" in wanted else 0
    fields = FLD.all_fields(doc) if rebuilt else fields
    note = None
    if UP.needs_layout(fields, wanted):
        pages, note = _layout(ctx, e, fields)
        if pages is not None:
            changes += UP.update_paged(doc, wanted, pages, e.change, fields)
    lines = [f"- {doc.id_of(c.field.start)} {c.field.instruction}: {c.old!r} -> {c.new!r}"
             for c in changes[:MAX_LINES]]
    if len(changes) > MAX_LINES:
        lines.append(f"... {len(changes) - MAX_LINES} more")
    first = next((c.field.paragraph for c in changes if c.field.paragraph is not None), None)
    e.done(first, marker="UPDATED", changes="\n".join(lines) or "No result changed.", head_id=False,
           fields={"Fields": len(fields), "Changed": len(changes), "Tables Of Figures Rebuilt": rebuilt or None,
                   "Pages": note})


def _tab_pos(doc, anchor) -> int:
    return S.page_box(S.section_of(doc, anchor)).text_width


def _figure_table(doc, e, label: str, found, at: dict) -> list[etree._Element]:
    """A table of figures' paragraphs inserted ``at`` (insert_block's where, in the body)."""
    e.change(*FIG.unmarked(found))
    paras = FIG.build(doc, label, found, FIG.anchors(doc, found), _tab_pos(doc, next(iter(at.values()), doc.body)))
    for i, p in enumerate(paras):
        doc.insert_block(p, container=doc.body, **(at if i == 0 else {"after": paras[i - 1]}))
    return paras


def _rebuild_figure_tables(e) -> int:
    """Tables of figures whose entries no longer read as their captions, written again: the new
    field inserted before the old one, which is deleted (both tracked while tracking, as Word's
    update records them). One without captions of its label keeps what it says."""
    doc, n = e.doc, 0
    for label, old in FIG.tables(doc):
        found = FIG.entries_of(doc, label)
        if not found or FIG.texts(old) == [h.text for h in found]:
            continue
        _figure_table(doc, e, label, found, {"before": old[0]})
        tracked = edits.tracking(doc)
        for p in old:
            if tracked:
                e.change(p)  # marked deleted in place
            edits.delete_block(doc, p)
        n += 1
    return n


@tool(toolset="layout", title="Insert a table of figures")
def docx_insert_table_of_figures(ctx: CallContext, e: Edit, session_id: str | None, position: str,
                                 label: str = "Figure", page_numbers: bool = True) -> None:
    """Insert a table of figures (TOC \\c field) of the label's captions."""
    doc = e.doc
    label = CAP.check_label(label)
    found = FIG.entries_of(doc, label)
    if not found:
        raise ElementNotFound(f"No caption uses the label '{label}'.",
                              hint="Insert captions with docx_insert_caption first, or pass their label.")
    container, where = block_insertion(doc, e.position(position), "table of figures")
    if container is not doc.body:
        raise InvalidPosition("A table of figures goes between blocks of the document body.",
                              hint="Use a position such as before:para_… on a body paragraph.")
    prev, nxt = insertion_neighbours(container, where)
    e.show(prev, nxt)
    paras = _figure_table(doc, e, label, found, where)
    refs = [f for p in paras for f in FLD.fields_of(p) if f.name == "PAGEREF"]
    pages, note = _layout(ctx, e, refs) if page_numbers else (None, "left out (page_numbers=false)")
    if pages is not None:
        UP.update_paged(doc, {"PAGEREF"}, pages, lambda *ps: None, refs)
    e.after(prev, *paras, nxt)
    e.done(paras[0], marker="NEW", inserted=paras[-1],
           fields={"Position": position, "Entries": len(found), "Pages": note})
