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
from render.answer import Answer, success_answer
from render.blocks import boxes_with_texts
from render.diff import render_diff
from render import text_changes
from tools.runtime.call import history
from tools.runtime.sessions.lifetime import claim
from tools.runtime.call.registry import CallContext
from tools.runtime.sessions.element_ids import clean_id, resolve
from tools.runtime.sessions.sessions import Session
from tools.docx.view import compact_context, context_text, cursor_line, empty_context
# What several tools share (issue 30: tools import only the kit from tools/docx):
from ooxml.layout import page_setup as PS
from ooxml.model.document import Document
from ooxml.opc.parts import flag_on
from ooxml.refs import fields as FL
from ooxml.review.revisions import DEFAULT_AUTHOR, Tracker
from ooxml.text import images as I
from ooxml.xml.errors import ElementNotFound, ValidationError
from tools.runtime.sessions.quotas import add_session
from tools.runtime.sessions.sandbox import object_target, resolve_in_roots
from tools.storage.documents import store_of
from tools.storage.objects import check_tenant, storage_section

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
           element_id: str | None = None, changes: str | None = None) -> Answer:
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


# ---- places several tools share ------------------------------------------------------------------

MAX_TEXT = 1_000_000  # characters of one text argument


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


def section_index(session: Session, section_id: str | None, arg: str = "section_id") -> tuple[list, int]:
    """Every section's sectPr and the index of the one ``section_id`` names (default: the first)."""
    doc = session.doc
    sections = PS.section_list(doc)
    if not section_id:
        return sections, 0
    sect = expect(resolve(session, section_id, arg), {w("sectPr")}, "section (sect_… from docx_list_sections)", arg)
    for i, s in enumerate(sections):
        if s is sect:
            return sections, i
    raise ElementNotFound(f"{clean_id(section_id)} is not a section of the body.",
                          hint="Section IDs come from docx_list_sections.")


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


# ---- sessions, authors, images several tools share -------------------------------------------------

def start_session(ctx: CallContext, doc: Document, path, view: str | None = None) -> Session:
    """A new session owned by the caller and claimed by this call; the document is closed on refusal."""
    try:
        session = add_session(ctx, doc, path)  # the caller's quota (tools/runtime/sessions/quotas.py)
    except BaseException:
        doc.close()
        raise
    claim(ctx, session)
    session.view = view  # the answer view of the session's editing calls (render/views.py)
    views.note_session(view)
    return session


def drop_session(ctx: CallContext, session: Session) -> None:
    ctx.services.sessions.discard(session)
    session.doc.close()


TRACK_SETTING = "trackRevisions"

MAX_AUTHOR = 255  # Word keeps longer names but shows them cut; no person's name is longer


def default_author(ctx: CallContext, author: str | None = None) -> str:
    """The author of a change: the argument, else --author, else the config's author, else ooxml-mcp."""
    if author and author.strip():
        if len(author.strip()) > MAX_AUTHOR:
            raise ValidationError(f"The author name is {len(author.strip())} characters long; at most {MAX_AUTHOR}.",
                                  hint="Pass a person's name, e.g. 'Ada Lovelace'.")
        return author.strip()
    services = ctx.services
    return (getattr(services, "author", None) or getattr(getattr(services, "config", None), "author", None)
            or DEFAULT_AUTHOR)


def tracking_from_settings(ctx: CallContext, doc) -> str | None:
    """A file saved with Track Changes on (w:trackRevisions) is tracked from the start, as Word would;
    returns the author then."""
    if not flag_on(doc, TRACK_SETTING):
        return None
    doc.tracker = Tracker(default_author(ctx))
    return doc.tracker.author


def raster_at(ctx, path: str) -> I.ImageFile:
    """A PNG, JPEG or GIF the roots hold, a file or an object (picture values, Markdown images)."""
    location = object_target(path, ctx.services.roots)
    if location is None:
        return I.read_image(resolve_in_roots(path, ctx.services.roots, must_exist=True))
    return object_image(ctx, location)


def object_image(ctx, location) -> I.ImageFile:
    check_tenant(ctx, location)
    return I.image_of(store_of(location, storage_section(ctx)).read(location.key, I.MAX_IMAGE_BYTES).data,
                      location.name)
