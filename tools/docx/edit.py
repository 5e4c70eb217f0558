"""Paragraph and run tools: insert, update, copy, delete, page breaks (SPEC §7)."""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.text import body as B
from ooxml.review import revisions as REV
from ooxml.review import tracked_text as TT
from ooxml.text.build import make_paragraph, make_run, page_break_paragraph, set_paragraph_text, set_run_text
from ooxml.text.copies import check_copy_size
from ooxml.xml.errors import InvalidElementType, InvalidPosition, OoxmlError
from ooxml.lists.list_copies import join_neighbour_list
from ooxml.xml.namespaces import OX_ID, w
from ooxml.stylesheet.styles_builtin import ensure_heading_style, ensure_style
from ooxml.text.notes import copy_references
from ooxml.xml.wordids import prepare_copy
from tools.docx.common import (BLOCK_CONTAINERS, answer, block_insertion, box_lines, call_limits, expect,
                               insertion_neighbours, parse_position, resolve, session_of, valid_positions)
from tools.runtime.registry import CallContext, tool
from tools.runtime.sessions import Cursor, Session

MAX_TEXT = 1_000_000


def _check_text(text: str, arg: str = "text") -> None:
    if len(text) > MAX_TEXT:
        raise OoxmlError(f"{arg} has {len(text)} characters, over the limit of {MAX_TEXT}.",
                         error_type="LimitExceeded", hint="Insert the text in several calls.")


def insert_block(session: Session, new: etree._Element, position: str, operation: str,
                 what: str = "paragraph", fields: dict | None = None) -> str:
    """Insert a prepared block at a position and answer with context, diff and cursor."""
    doc = session.doc
    pos = parse_position(session, position)
    REV.refuse_deleted(doc, pos.target, "position")
    container, where = block_insertion(doc, pos, what)
    prev, nxt = insertion_neighbours(container, where)
    before = box_lines(doc, [prev, nxt])
    doc.insert_block(new, container=container, **where)
    new_id = doc.id_of(new)
    after = box_lines(doc, [prev, new, nxt])
    session.last_insert = new_id
    session.cursor = Cursor(new_id, "after")
    return answer(session, operation, new, marker="NEW", before=before, after=after,
                  fields={"Position": pos.text, **(fields or {})})


def style_id_for(session: Session, style: str) -> str:
    sid = session.doc.styles.find_id(style)
    if sid is None:
        known = [session.doc.styles.name(s) for s, el in session.doc.styles.by_id.items()
                 if el.get(w("type")) == "paragraph"][:15]
        raise OoxmlError(f"Style '{style}' does not exist in this document.",
                         hint="Paragraph styles here: " + (", ".join(known) or "(none)"), error_type="ValidationError")
    return sid


@tool(title="Insert a paragraph")
def docx_insert_paragraph(ctx: CallContext, session_id: str, text: str, position: str,
                          style: str | None = None) -> str:
    """Insert a paragraph of text. Newlines become line breaks and tabs become tabs.

    Args:
        style: Paragraph style name or ID (e.g. 'Quote', 'List Paragraph'); default: the document's normal style.
    """
    session = session_of(ctx, session_id)
    _check_text(text)
    if style and session.doc.styles.find_id(style) is None:
        block_insertion(session.doc, parse_position(session, position))  # fail before adding a style
        ensure_style(session.doc, style)  # a latent Word built-in ('List Number', 'Quote') is made real
    sid = style_id_for(session, style) if style else None
    return insert_block(session, make_paragraph(text, sid), position, "Insert Paragraph",
                        fields={"Style": style} if style else None)


@tool(title="Insert a heading")
def docx_insert_heading(ctx: CallContext, session_id: str, text: str, level: int, position: str) -> str:
    """Insert a heading paragraph (style 'Heading N'; level 0 is the Title style).

    Args:
        level: 0 (Title) to 9.
    """
    session = session_of(ctx, session_id)
    if not 0 <= level <= 9:
        raise OoxmlError(f"level must be 0 (Title) to 9, not {level}.", error_type="ValidationError",
                         hint="level 0 is the Title, 1-9 are Heading 1 to Heading 9.")
    _check_text(text)
    block_insertion(session.doc, parse_position(session, position))  # fail before adding a style
    sid = ensure_heading_style(session.doc, level)
    return insert_block(session, make_paragraph(text, sid), position, "Insert Heading",
                        fields={"Level": level})


@tool(title="Insert a page break")
def docx_insert_page_break(ctx: CallContext, session_id: str, position: str) -> str:
    """Insert a page break (a paragraph holding a page break) at a block position."""
    session = session_of(ctx, session_id)
    return insert_block(session, page_break_paragraph(), position, "Insert Page Break")


@tool(title="Copy a paragraph")
def docx_copy_paragraph(ctx: CallContext, session_id: str, element_id: str, position: str) -> str:
    """Copy a paragraph with its formatting to a position; the copy gets new IDs.

    Args:
        element_id: The paragraph to copy.
    """
    session = session_of(ctx, session_id)
    src = expect(resolve(session, element_id), {B.W_P}, "paragraph")
    REV.refuse_deleted(session.doc, src)
    check_copy_size([src], call_limits(ctx, session.doc).max_call_growth_bytes)
    dup = copy.deepcopy(src)
    pos = parse_position(session, position)
    container, where = block_insertion(session.doc, pos)  # validate before preparing IDs
    prepare_copy(dup, session.doc.word_ids(pos.target), keep_notes=True)
    copy_references(session.doc, dup, pos.target)  # copied note references get notes of their own
    join_neighbour_list(session.doc, dup, *insertion_neighbours(container, where))  # lands in a list: joins it
    return insert_block(session, dup, position, "Copy Paragraph",
                        fields={"Source": session.doc.id_of(src)})


@tool(title="Replace a paragraph's text")
def docx_update_paragraph_text(ctx: CallContext, session_id: str, element_id: str, new_text: str) -> str:
    """Replace all text of a paragraph, keeping its paragraph style and the formatting of its first run.

    Args:
        element_id: The paragraph.
        new_text: The new text; newlines become line breaks.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    p = expect(resolve(session, element_id), {B.W_P}, "paragraph")
    REV.refuse_deleted(doc, p)
    _check_text(new_text, "new_text")
    before = box_lines(doc, [p])
    doc.will_change(p)
    if REV.tracker(doc) is not None:
        TT.set_paragraph_text(doc, p, new_text)
    else:
        set_paragraph_text(p, new_text)
    doc.changed(p)
    after = box_lines(doc, [p])
    session.last_update = doc.id_of(p)
    return answer(session, "Update Paragraph Text", p, marker="UPDATED", before=before, after=after)


@tool(title="Insert a run")
def docx_insert_run(ctx: CallContext, session_id: str, text: str, position: str) -> str:
    """Insert a run of text into a paragraph ('end:para_…', 'start:para_…') or next to a run ('after:run_…')."""
    session = session_of(ctx, session_id)
    doc = session.doc
    _check_text(text)
    pos = parse_position(session, position)
    t = pos.target
    REV.refuse_deleted(doc, t, "position")
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
    run = make_run(text, model.find(w("rPr")) if model is not None else None)
    before = box_lines(doc, [para])
    doc.will_change(para)
    if REV.tracker(doc) is not None:
        REV.insert_run(doc, para, run, pos.mode, t)
    else:
        _place_run(para, run, pos.mode, t)
    doc.changed(para)
    rid = doc.id_of(run)
    session.last_insert = rid
    session.cursor = Cursor(rid, "after")
    return answer(session, "Insert Run", run, marker="NEW", before=before, after=box_lines(doc, [para]),
                  fields={"Position": pos.text, "Paragraph": doc.id_of(para)})


def _place_run(para: etree._Element, run: etree._Element, mode: str, target: etree._Element) -> None:
    if mode == "before":
        target.addprevious(run)
    elif mode == "after":
        target.addnext(run)
    elif mode == "start":
        ppr = para.find(w("pPr"))
        para.insert(1 if ppr is not None else 0, run)
    else:
        para.append(run)


@tool(title="Replace a run's text")
def docx_update_run_text(ctx: CallContext, session_id: str, element_id: str, new_text: str) -> str:
    """Replace the text of one run, keeping its formatting.

    Args:
        element_id: The run.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    r = expect(resolve(session, element_id), {B.W_R}, "run")
    REV.refuse_deleted(doc, r)
    _check_text(new_text, "new_text")
    para = B.find_ancestor(r, B.W_P)
    before = box_lines(doc, [para])
    doc.will_change(para)  # the run's paragraph: a tracked edit splits and wraps runs around it
    if REV.tracker(doc) is not None:
        TT.set_run_text(doc, r, new_text)
        doc.changed(para)
        if r.getparent() is None:  # it was our own insertion, now deleted: the paragraph stands for it
            session.last_update = doc.id_of(para)
            return answer(session, "Update Run Text", para, marker="UPDATED", before=before,
                          after=box_lines(doc, [para]))
    else:
        set_run_text(r, new_text)
        doc.changed(r)
    session.last_update = doc.id_of(r)
    return answer(session, "Update Run Text", r, marker="UPDATED", before=before, after=box_lines(doc, [para]))


# Kinds that feature modules delete their own way (a field with all its runs, a note with its
# reference ...): tag -> (session, element) -> answer. Filled in at import by those modules.
DELETERS: dict = {}
_NOT_EMPTY = {w("hdr"), w("ftr"), w("footnote"), w("endnote")}  # the schema wants a block in each
DELETABLE = {B.W_P, B.W_TBL, B.W_R, B.W_SDT, w("drawing"), w("hyperlink"), w("customXml"), w("altChunk")}


@tool(destructive=True, title="Delete an element")
def docx_delete(ctx: CallContext, session_id: str, element_id: str) -> str:
    """Delete a paragraph, table, run, image or content control. A cell's last paragraph cannot be deleted.

    Args:
        element_id: The element to delete.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    el = resolve(session, element_id)
    if el.tag in DELETERS:
        return DELETERS[el.tag](session, el)
    if el.tag not in DELETABLE:
        raise InvalidElementType(f"A {B.kind(el)} cannot be deleted with docx_delete.",
                                 hint="Rows and columns: docx_delete_row / docx_delete_col.")
    REV.refuse_deleted(doc, el)
    eid = doc.id_of(el)
    parent = el.getparent()
    if parent.tag in BLOCK_CONTAINERS:
        return _delete_block(session, el, eid)
    holder = B.find_ancestor(el, B.W_P)
    before = box_lines(doc, [holder])
    if REV.tracker(doc) is not None:
        doc.will_change(holder)
        REV.delete_inline(doc, el)
        doc.changed(holder)
        return answer(session, "Delete", holder, before=before, after=box_lines(doc, [holder]),
                      element_id=eid, fields={"Deleted": f"{B.kind(el)} {eid} (tracked)"})
    _retarget_cursor(session, el, holder, "after")
    doc.remove_block(el)
    return answer(session, "Delete", holder, before=before, after=box_lines(doc, [holder]),
                  element_id=eid, fields={"Deleted": f"{B.kind(el)} {eid}"})


def _delete_block(session: Session, el: etree._Element, eid: str) -> str:
    doc = session.doc
    container = el.getparent()
    prev, nxt = B.prev_block(el), B.next_block(el)
    if container.tag == w("tc") and el.tag == B.W_P and nxt is None:
        raise InvalidPosition("A cell must end with a paragraph, so its last paragraph cannot be deleted.",
                              hint="Clear its text with docx_update_paragraph_text instead.")
    if container.tag == w("tc") and prev is not None and nxt is None:
        raise InvalidPosition("Deleting this would leave the cell without a final paragraph.",
                              hint="Delete the whole cell's content with another paragraph left, or delete the row.")
    if container.tag in _NOT_EMPTY and prev is None and nxt is None:
        what = B.kind(container).lower()
        raise InvalidPosition(f"A {what} keeps at least one paragraph, so its only one cannot be deleted.",
                              hint=f"Clear its text with docx_update_paragraph_text, or delete the whole {what} "
                                   f"with docx_delete and its ID ({container.get(OX_ID) or 'from its answers'}).")
    kind = B.kind(el)
    before = box_lines(doc, [prev, el, nxt])
    if REV.tracker(doc) is not None:
        return _delete_block_tracked(session, el, eid, kind, prev, nxt, before)
    focus = prev if prev is not None else nxt
    _retarget_cursor(session, el, focus, "after" if focus is prev else "before")
    doc.remove_block(el)
    after = box_lines(doc, [prev, nxt])
    return answer(session, "Delete", focus, before=before, after=after, element_id=eid,
                  fields={"Deleted": f"{kind} {eid}"})


def _delete_block_tracked(session: Session, el, eid: str, kind: str, prev, nxt, before: list[str]) -> str:
    """Tracked: the block stays, marked deleted (it goes when the deletion is accepted)."""
    doc = session.doc
    doc.will_change(el)
    gone = REV.delete_block(doc, el)
    if not gone:
        doc.changed(el)
        return answer(session, "Delete", el, before=before, after=box_lines(doc, [prev, el, nxt]),
                      element_id=eid, fields={"Deleted": f"{kind} {eid} (tracked)"})
    focus = prev if prev is not None else nxt
    _retarget_cursor(session, el, focus, "after" if focus is prev else "before")
    return answer(session, "Delete", focus, before=before, after=box_lines(doc, [prev, nxt]), element_id=eid,
                  fields={"Deleted": f"{kind} {eid} (it was our own tracked insertion)"})


def _retarget_cursor(session: Session, removed: etree._Element, focus, place: str) -> None:
    cur = session.doc.ids.get(session.cursor.element_id) if session.cursor.element_id else None
    if cur is None:
        return
    inside = cur is removed or any(a is removed for a in cur.iterancestors())
    if inside:
        session.cursor = Cursor(session.doc.id_of(focus), place) if focus is not None else Cursor()
