"""Paragraph and run tools: insert, update, copy, delete, page breaks (SPEC §7)."""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.model import places as P
from ooxml.text import body as B
from ooxml.review import revisions as REV
from ooxml.review import edits
from ooxml.text.build import make_paragraph, make_run, page_break_paragraph
from ooxml.text.copies import check_copy_size
from ooxml.xml.errors import InvalidElementType, InvalidPosition, OoxmlError
from ooxml.lists.list_copies import join_neighbour_list
from ooxml.xml.namespaces import OX_ID, w
from ooxml.stylesheet.styles_builtin import ensure_heading_style, ensure_style
from ooxml.text.notes import copy_references
from ooxml.xml.wordids import prepare_copy
from ooxml.model.insertion import Position, block_insertion, insertion_neighbours, run_place
from tools.docx.common import MAX_TEXT, call_limits
from tools.docx.protocol import DELETERS, Edit, delete_inline
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sessions import Session


def _check_text(text: str, arg: str = "text") -> None:
    if len(text) > MAX_TEXT:
        raise OoxmlError(f"{arg} has {len(text)} characters, over the limit of {MAX_TEXT}.",
                         error_type="LimitExceeded", hint="Insert the text in several calls.")


def _insert(e: Edit, new: etree._Element, pos: Position, fields: dict | None = None) -> None:
    e.insert(new, pos)
    e.done(new, marker="NEW", inserted=new, fields={"Position": pos.text, **(fields or {})})


def style_id_for(session: Session, style: str) -> str:
    sid = session.doc.styles.find_id(style)
    if sid is None:
        known = [session.doc.styles.name(s) for s, el in session.doc.styles.by_id.items()
                 if el.get(w("type")) == "paragraph"][:15]
        raise OoxmlError(f"Style '{style}' does not exist in this document.",
                         hint="Paragraph styles here: " + (", ".join(known) or "(none)"), error_type="ValidationError")
    return sid


@tool(title="Insert a paragraph")
def docx_insert_paragraph(ctx: CallContext, e: Edit, session_id: str | None, text: str, position: str,
                          style: str | None = None) -> None:
    """Insert a paragraph. Newlines become line breaks; tabs stay tabs.

    Args:
        style: Style name or ID (e.g. 'Quote'); default Normal.
    """
    _check_text(text)
    pos = e.position(position)
    if style and e.doc.styles.find_id(style) is None:
        block_insertion(e.doc, pos)  # fail before adding a style
        ensure_style(e.doc, style)  # a latent Word built-in ('List Number', 'Quote') is made real
    sid = style_id_for(e.session, style) if style else None
    _insert(e, make_paragraph(text, sid), pos, {"Style": style} if style else None)


@tool(title="Insert a heading")
def docx_insert_heading(ctx: CallContext, e: Edit, session_id: str | None, text: str, level: int,
                        position: str) -> None:
    """Insert a heading (style 'Heading N'; level 0 is Title).

    Args:
        level: 0-9.
    """
    if not 0 <= level <= 9:
        raise OoxmlError(f"level must be 0 (Title) to 9, not {level}.", error_type="ValidationError",
                         hint="level 0 is the Title, 1-9 are Heading 1 to Heading 9.")
    _check_text(text)
    pos = e.position(position)
    block_insertion(e.doc, pos)  # fail before adding a style
    sid = ensure_heading_style(e.doc, level)
    _insert(e, make_paragraph(text, sid), pos, {"Level": level})


@tool(title="Insert a page break")
def docx_insert_page_break(ctx: CallContext, e: Edit, session_id: str | None, position: str) -> None:
    """Insert a paragraph holding a page break."""
    pos = e.position(position)
    box = pos.target if pos.target.tag == B.W_TXBX else B.find_ancestor(pos.target, B.W_TXBX)
    if box is not None:  # Word offers no page break there (a box is not split across pages)
        anchor = B.find_ancestor(box, B.W_P)  # no new ID on an error path: the document stays as it was
        where = anchor.get(OX_ID) or "the paragraph holding the box"
        raise InvalidPosition("A page break cannot go inside a text box.",
                              hint=f"Use a block position outside it, e.g. after:{where}.")
    _insert(e, page_break_paragraph(), pos)


@tool(title="Copy a paragraph")
def docx_copy_paragraph(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, position: str) -> None:
    """Copy a paragraph with its formatting to a position (new IDs)."""
    doc = e.doc
    src = e.element(element_id, {B.W_P}, "paragraph")
    check_copy_size([src], call_limits(ctx, doc).max_call_growth_bytes)
    dup = copy.deepcopy(src)
    pos = e.position(position)
    container, where = block_insertion(doc, pos)  # validate before preparing IDs
    prepare_copy(dup, doc.word_ids(pos.target), keep_notes=True)
    copy_references(doc, dup, pos.target)  # copied note references get notes of their own
    join_neighbour_list(doc, dup, *insertion_neighbours(container, where))  # lands in a list: joins it
    _insert(e, dup, pos, {"Source": doc.id_of(src)})


@tool(title="Replace a paragraph's text")
def docx_update_paragraph_text(ctx: CallContext, e: Edit, session_id: str | None, element_id: str,
                               new_text: str) -> None:
    """Replace a paragraph's text; unchanged words keep their runs and formatting.

    Args:
        new_text: Newlines become line breaks.
    """
    p = e.element(element_id, {B.W_P}, "paragraph")
    _check_text(new_text, "new_text")
    e.show(p)
    e.change(p)
    edits.set_paragraph_text(e.doc, p, new_text)
    e.done(p, marker="UPDATED", updated=p)


@tool(title="Insert a run")
def docx_insert_run(ctx: CallContext, e: Edit, session_id: str | None, text: str, position: str) -> None:
    """Insert a run into a paragraph ('end:para_…') or next to a run ('after:run_…')."""
    doc = e.doc
    _check_text(text)
    pos = e.position(position)
    para, model = run_place(doc, pos)
    run = make_run(text, model.find(w("rPr")) if model is not None else None)
    e.show(para)
    e.change(para)
    edits.place_run(doc, para, run, pos.mode, pos.target)
    e.done(run, marker="NEW", inserted=run, fields={"Position": pos.text, "Paragraph": doc.id_of(para)})


@tool(title="Replace a run's text")
def docx_update_run_text(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, new_text: str) -> None:
    """Replace one run's text, keeping its formatting."""
    r = e.element(element_id, {B.W_R}, "run")
    _check_text(new_text, "new_text")
    para = B.find_ancestor(r, B.W_P)
    e.show(para)
    e.change(para)  # the run's paragraph: a tracked edit splits and wraps runs around it
    kept = edits.set_run_text(e.doc, r, new_text)
    focus = r if kept else para  # our own insertion, now deleted: the paragraph stands for it
    e.done(focus, marker="UPDATED", updated=focus)


_NOT_EMPTY = {w("hdr"), w("ftr"), w("footnote"), w("endnote")}  # the schema wants a block in each
DELETABLE = {B.W_P, B.W_TBL, B.W_R, B.W_SDT, w("drawing"), w("hyperlink"), w("customXml"), w("altChunk")}


@tool(destructive=True, title="Delete an element")
def docx_delete(ctx: CallContext, e: Edit, session_id: str | None, element_id: str) -> None:
    """Delete a paragraph, table, run, image, control, note, link, bookmark ...; a cell's last paragraph stays."""
    el = e.element(element_id, deleted_ok=True)
    if el.tag in DELETERS:
        DELETERS[el.tag](e, el)
    else:
        if el.tag not in DELETABLE:
            raise InvalidElementType(f"A {B.kind(el)} cannot be deleted with docx_delete.",
                                     hint="Rows and columns: docx_delete_row / docx_delete_col.")
        REV.refuse_deleted(e.doc, el)
        if P.holds_blocks(el.getparent()):
            _delete_block(e, el)
        else:
            delete_inline(e, el)


def _delete_block(e: Edit, el: etree._Element) -> None:
    doc = e.doc
    eid = doc.id_of(el)
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
    e.show(prev, el, nxt)
    tracked = edits.tracking(doc)
    if tracked:
        e.change(el)  # tracked, the block stays marked deleted (it goes when the deletion is accepted)
    focus = prev if prev is not None else nxt
    if edits.delete_block(doc, el):
        note = " (it was our own tracked insertion)" if tracked else ""
        e.done(focus, element_id=eid, fields={"Deleted": f"{kind} {eid}{note}"},
               dangling="after" if focus is prev else "before")
    else:
        e.done(el, element_id=eid, fields={"Deleted": f"{kind} {eid} (tracked)"})


