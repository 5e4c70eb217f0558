"""What every document tool does: find the session, resolve IDs and positions, answer."""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.model import places as P
from ooxml.text import body as B
from ooxml.xml import budget
from ooxml.xml.errors import InvalidElementType, InvalidPosition
from ooxml.xml.namespaces import OX_ID, w
from ooxml.opc.package import Limits
from render import views
from render.answer import success_answer
from render.blocks import boxes_with_texts
from render.diff import render_diff
from render import text_changes
from tools.runtime import history
from tools.runtime.lifetime import claim
from tools.runtime.registry import CallContext
from tools.runtime.element_ids import clean_id, resolve
from tools.runtime.sessions import Session
from tools.docx.view import compact_context, context_text, cursor_line, empty_context

MODES = ("before", "after", "inside", "start", "end")


def session_of(ctx: CallContext, session_id: str | None) -> Session:
    """The call's session; IDs it gives from now on are taken back if the call fails."""
    session = ctx.services.sessions.get(ctx.caller, session_id)
    claim(ctx, session)  # one call at a time per session, within the call's budget
    first = not ctx.touched or not any(s is session for s in ctx.touched)
    if first:  # a batch's later calls keep its earlier IDs marked
        session.doc.ids.mark()
    session.doc.caches.pop(text_changes.KEY, None)  # what earlier calls drew does not count
    views.note_session(session.view)
    if first:
        history.begin(ctx, session)  # the call becomes an undo step if it changes the document
    ctx.touched.append(session)
    return session


def expect(el: etree._Element, tags: set[str], what: str, arg: str = "element_id") -> etree._Element:
    """``el`` if it is one of ``tags``, else InvalidElementType naming what was expected."""
    if el.tag not in tags:
        raise InvalidElementType(f"{arg} must be a {what}, not a {B.kind(el)} ({el.get(OX_ID)}).",
                                 hint="docx_get_context shows each element's ID and kind.")
    return el


# ---- positions ----------------------------------------------------------------------------------

@dataclass
class Position:
    mode: str  # before, after, start, end
    target: etree._Element  # an element, or the body for document_body
    text: str  # as given, for the answer head


def parse_position(session: Session, position: str) -> Position:
    raw = (position or "").strip()
    mode, sep, target = raw.partition(":")
    mode = mode.strip().lower()
    if not sep or mode not in MODES or not target.strip():
        raise InvalidPosition(f"Position '{position}' is not MODE:TARGET.",
                              hint="MODE is before, after, inside, start or end; TARGET is an element ID, "
                                   "a special ID (last_insert, last_update, cursor) or document_body. "
                                   "Example: after:para_3f9a2c or end:document_body.")
    mode = "end" if mode == "inside" else mode
    target_id = clean_id(target)
    if target_id == "document_body":
        if mode in ("before", "after"):
            raise InvalidPosition(f"'{mode}:document_body' is not a position: the body has no siblings.",
                                  hint="Valid positions for document_body: start:document_body, end:document_body.")
        return Position(mode, session.doc.body, raw)
    return Position(mode, resolve(session, target_id, "position", clean=False), raw)


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


# ---- answers ------------------------------------------------------------------------------------

def box_lines(doc, els: list[etree._Element | None]) -> list[str]:
    """Boxes of the given elements (None skipped), for the before/after of a diff."""
    lines: list[str] = []
    budget.check()  # drawing a huge block takes long: a late call is put back instead of drawn
    shown, ids = [], []
    for el in els:
        if el is not None:
            # The IDs first: a neighbour drawn without one before the change and with one after
            # would read as changed ("Paragraph (?)" -> "Paragraph (para_x)").
            ids.append(doc.id_of(el))
            shown.append(el)
    if views.current() == "none":  # the answer shows no Changes: the IDs alone, as a drawing gives
        return lines
    for el, eid, (box, texts) in zip(shown, ids, boxes_with_texts(doc, shown)):
        text_changes.record(doc, el, eid, box, texts)
        lines += box
    return lines


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


def answer(session: Session, operation: str, element: etree._Element | None, *, marker: str | None = None,
           before: list[str] | None = None, after: list[str] | None = None,
           fields: dict | None = None, content: str | None = None, head_id: bool = True,
           element_id: str | None = None, changes: str | None = None) -> str:
    """A success answer with the context around ``element`` (or the empty body), diff and cursor."""
    doc = session.doc
    budget.check()
    eid = element_id or (doc.id_of(element) if element is not None and head_id else None)
    view = views.current()
    if view != "full":  # compact: the box of what the call made or changed; none: no context
        context = compact_context(doc, element, marker) if view == "compact" else None
    elif element is not None and element.getparent() is not None:
        context = context_text(doc, element, marker, session.cursor)
    else:
        context = empty_context(doc, doc.body, session.cursor.element_id is None)
    if view == "none":  # the head alone (Tracked says whether the Changes were recorded)
        changes = "" if before is not None and after is not None else changes
        return success_answer(operation, element_id=eid, fields=_tracked(doc, fields, changes))
    if before is not None and after is not None:  # compact: each box one line, one line around
        changes = render_diff(*((views.squeeze(before), views.squeeze(after), 1) if view == "compact"
                                else (before, after)))
        hidden = text_changes.hidden_changes(doc, views.squeeze if view == "compact" else None)
        if hidden:  # past a box's cut: a window around each change
            changes = "\n".join(hidden) if changes == render_diff([], []) else changes + "\n" + "\n".join(hidden)
    return success_answer(operation, element_id=eid, fields=_tracked(doc, fields, changes), context=context,
                          changes=changes, content=content, cursor=cursor_line(doc, session.cursor))


def _tracked(doc, fields: dict | None, changes: str | None) -> dict | None:
    if changes is not None and getattr(doc, "tracker", None) is not None:
        fields = {**(fields or {})}
        if fields.get("Tracked") is None:  # recorded as revisions (a tool may say what it did not record)
            fields["Tracked"] = "yes"
    return fields


def call_limits(ctx: CallContext, doc) -> Limits:
    """The document limits in force now: the operator's (config reloads apply), else the document's."""
    return getattr(ctx.services.config, "document_limits", None) or doc.package.limits
