"""Review tools: tracking mode, listing, accepting and rejecting revisions (SPEC §10)."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.review import review_ops as RO
from ooxml.xml.errors import InvalidElementType, ValidationError
from ooxml.opc.parts import clear_flag, set_flag
from ooxml.review.revisions import W_AUTHOR, W_DATE, Tracker
from ooxml.model.stories import TEXT
from render.answer import success_answer
from render.width import cut
from tools.docx.common import box_lines, clean_id, resolve, session_of
from tools.docx.common import TRACK_SETTING, default_author
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sessions import Session

PAGE = 50
SHOWN = 10


@tool(toolset="review", idempotent=True, context=False, title="Turn change tracking on or off")
def docx_set_track_changes(ctx: CallContext, e: Edit, session_id: str | None, enabled: bool,
                           author: str | None = None) -> None:
    """Turn tracked changes on or off: while on, every edit is a Word revision by author."""
    e.plain(_set_tracking(ctx, e.doc, enabled, author))


def _set_tracking(ctx: CallContext, doc, enabled: bool, author: str | None) -> str:
    # w:trackRevisions in settings.xml: Word opens the saved file with Track Changes as we leave it.
    if enabled:
        tracker = Tracker(default_author(ctx, author))
        set_flag(doc, TRACK_SETTING)  # first: a document whose settings cannot change stays untracked
        doc.tracker = tracker
        fields = {"Tracking": "on", "Author": doc.tracker.author, "Tracked": "yes",
                  "Word Setting": "w:trackRevisions on"}
        note = (f"Changes are now tracked as revisions by '{doc.tracker.author}'. Reading shows them as "
                "[+inserted+] and [-deleted-]. Word opens the saved file with Track Changes on.")
    else:
        doc.tracker = None
        clear_flag(doc, TRACK_SETTING)
        fields = {"Tracking": "off", "Word Setting": "w:trackRevisions off"}
        note = "Changes are no longer tracked; existing revisions stay until accepted or rejected."
    return success_answer("Set Track Changes", fields=fields, content=note)


# ---- choosing revisions -----------------------------------------------------------------------

def _scope_roots(session: Session, scope_id: str | None) -> list[etree._Element]:
    if scope_id and clean_id(scope_id) == "document_body":
        return [session.doc.body]
    if scope_id:
        return [resolve(session, scope_id, "scope_id")]
    return session.doc.story_roots(TEXT, body=True)


def select(session: Session, revision_ids: list[str] | None, author: str | None,
           scope_id: str | None, scopes: list[etree._Element] | None = None) -> list[etree._Element]:
    if revision_ids:
        chosen = []
        for raw in revision_ids:
            el = resolve(session, raw, "revision_ids")
            if el.tag not in RO.CHANGES | RO.CELL_MARKS | {RO.W_INS, RO.W_DEL, RO.W_MOVE_TO, RO.W_MOVE_FROM}:
                raise InvalidElementType(f"'{clean_id(raw)}' is a {B.kind(el)}, not a revision.",
                                         hint="docx_list_revisions lists the revision IDs (rev_…).")
            chosen.append(el)
    else:
        scopes = _scope_roots(session, scope_id) if scopes is None else scopes
        chosen = [el for root in scopes for el in RO.all_revisions(root)]
    if author:
        chosen = [el for el in chosen if el.get(W_AUTHOR) == author]
    return chosen


# ---- listing ------------------------------------------------------------------------------------

@tool(toolset="review", read_only=True, idempotent=True, title="List tracked changes")
def docx_list_revisions(ctx: CallContext, session_id: str | None, scope_id: str | None = None,
                        author: str | None = None, start: int = 0) -> str:
    """List revisions: ID, kind, author, date, text and element.

    Args:
        start: First index (next page).
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    revs = select(session, None, author, scope_id)
    if start < 0 or (revs and start >= len(revs)):
        raise ValidationError(f"start {start} is outside the list of {len(revs)} revisions.",
                              hint="Use start=0, or the 'Next Page' value of the last answer.")
    lines = []
    for el in revs[start:start + PAGE]:
        holder = RO.holder_of(el)
        where = f"{B.kind(holder)} {doc.id_of(holder)}" if holder is not None else "-"
        text = cut(" ".join(RO.text_of(el).split()), 60)
        lines.append(f"- {doc.id_of(el)} | {RO.kind_name(el)} | {el.get(W_AUTHOR) or '(no author)'} | "
                     f"{el.get(W_DATE) or '(no date)'} | \"{text}\" | in {where}")
    fields = {"Revisions": len(revs), "Shown": f"{start}-{start + len(lines) - 1}" if lines else "none",
              "Author Filter": author, "Scope": scope_id}
    authors = sorted({el.get(W_AUTHOR) or "" for el in revs})
    if authors:
        fields["Authors"] = ", ".join(a or "(none)" for a in authors[:10])
    if start + PAGE < len(revs):
        fields["Next Page"] = f"start={start + PAGE}"
    body = "\n".join(lines) if lines else "No revisions" + (" match." if author or scope_id else " in this document.")
    return success_answer("List Revisions", fields=fields, content=body)


# ---- accept / reject ------------------------------------------------------------------------------

def _top_block(doc, el: etree._Element, roots: tuple) -> etree._Element | None:
    """The block of one of ``roots`` holding ``el``."""
    top = doc.top_block(el)
    return top if top is not None and top.getparent() in roots and B.is_block(top) else None


def _decide(e: Edit, revision_ids, author, scope_id, accept: bool) -> None:
    session, doc = e.session, e.doc
    scopes = _scope_roots(session, scope_id)  # resolved once: the scope itself may go with its revisions
    revs = select(session, revision_ids, author, scope_id, scopes)
    operation = "Accept Revisions" if accept else "Reject Revisions"
    all_roots = tuple(session.doc.story_roots(TEXT, body=True))
    roots = doc.registered_roots()
    if not revs:
        e.plain(success_answer(operation, fields={"Revisions": 0}, content="No revisions matched: nothing changed."))
        return
    holders: list[etree._Element] = []
    seen = set()
    for el in revs:
        h = RO.holder_of(el)
        h = h if h is not None else el.getparent()
        if h is not None and h not in seen:
            seen.add(h)
            holders.append(h)
    tops: list[etree._Element] = []
    seen_tops = set()
    for h in holders:
        t = _top_block(doc, h, all_roots)
        if t is not None and t not in seen_tops:
            seen_tops.add(t)
            tops.append(t)
    e.show(*_boxes(doc, tops[:SHOWN]))
    for t in tops:  # not e.change: a block may go with its revisions, so only attached ones are reported
        doc.will_change(t)
    done = RO.decide(doc, revs, accept, roots)
    if revision_ids is None and author is None:
        for root in scopes:
            RO.drop_move_ranges(root)
    # a top block whose row or paragraph went must be redrawn too; one that went is not reported
    e.changed(*[t for t in tops if RO.attached(t, roots)])
    shown = [t for t in tops[:SHOWN] if RO.attached(t, roots)]
    e.after(lambda: _boxes(doc, shown))
    left = sum(len(RO.all_revisions(r)) for r in all_roots)
    fields = {"Accepted" if accept else "Rejected": done, "Remaining Revisions": left}
    focus = shown[0] if shown else next(B.iter_blocks(doc.body), None)
    e.done(focus, fields=fields, head_id=False)


def _boxes(doc, blocks: list[etree._Element]) -> list[str]:
    lines: list[str] = []
    for b in blocks:
        if lines:
            lines.append("")
        lines += box_lines(doc, [b])
    return lines


@tool(toolset="review", destructive=True, title="Accept tracked changes")
def docx_accept_revisions(ctx: CallContext, e: Edit, session_id: str | None, revision_ids: list[str] | None = None,
                          author: str | None = None, scope_id: str | None = None) -> None:
    """Accept revisions: insertions stay, deletions go, formatting changes stay.

    Args:
        revision_ids: rev_… IDs.
    """
    _decide(e, revision_ids, author, scope_id, True)


@tool(toolset="review", destructive=True, title="Reject tracked changes")
def docx_reject_revisions(ctx: CallContext, e: Edit, session_id: str | None, revision_ids: list[str] | None = None,
                          author: str | None = None, scope_id: str | None = None) -> None:
    """Reject revisions: insertions go, deletions come back, formatting reverts.

    Args:
        revision_ids: rev_… IDs.
    """
    _decide(e, revision_ids, author, scope_id, False)
