"""What every document tool does: find the session, resolve IDs and positions, answer."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import budget
from ooxml.xml.errors import InvalidElementType, InvalidPosition
from ooxml.model.insertion import Position
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
