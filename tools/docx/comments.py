"""Comment tools: add, reply, resolve, delete, list (SPEC §10, toolset review)."""
from __future__ import annotations

from lxml import etree

from ooxml.model.stories import TEXT
from ooxml.model import places as P
from ooxml.text import body as B
from ooxml.review import comments as C
from ooxml.xml.errors import InvalidElementType, InvalidPosition, ValidationError
from ooxml.xml.namespaces import w
from render.answer import success_answer
from render.width import cut
from ooxml.model.places import block_range
from tools.docx.common import clean_id, resolve, session_of
from tools.docx.common import default_author
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sessions import Session

MAX_LISTED = 100
UNTRACKED = "Word records no revision for comments"


def _comment(session: Session, raw: str) -> etree._Element:
    C.Comments(session.doc).part_root("comments")  # its IDs resolve once the part is registered
    el = resolve(session, raw, "comment_id")
    if el.tag != w("comment"):
        raise InvalidElementType(f"comment_id must be a comment, not a {B.kind(el)} ({clean_id(raw)}).",
                                 hint="docx_list_comments lists the comment IDs (comment_…).")
    return el


def _holder(el: etree._Element) -> etree._Element:
    """The block whose box shows ``el``: its paragraph's top block in its container."""
    return P.block_of(el if el.tag != B.W_R else B.find_ancestor(el, B.W_P))


def _span(session: Session, el: etree._Element, end_id: str | None) -> etree._Element | None:
    """The last element of a range comment, checked (same container / paragraph, in order)."""
    if not end_id:
        return None
    end = resolve(session, end_id, "end_id")
    if el.tag == B.W_R or end.tag == B.W_R:
        p1, p2 = B.find_ancestor(el, B.W_P), B.find_ancestor(end, B.W_P)
        if el.tag != end.tag or p1 is not p2:
            raise InvalidPosition("A range of runs must start and end in the same paragraph.",
                                  hint="For a range over paragraphs, pass paragraph IDs.")
        if el is not end and end not in set(el.itersiblings()):
            raise InvalidPosition("end_id does not come after element_id among the paragraph's runs.",
                                  hint="Pass the earlier run as element_id and the later one as end_id.")
        return end
    block_range(el, end)  # same container, in order
    return end


@tool(toolset="review", title="Add a comment")
def docx_add_comment(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, text: str,
                     anchor_text: str | None = None, end_id: str | None = None,
                     author: str | None = None) -> None:
    """Comment on a paragraph, run, span of text or range of elements.

    Args:
        text: Newlines make paragraphs.
        anchor_text: Only this span (first occurrence).
        end_id: Range end (same container).
    """
    session, doc = e.session, e.doc
    C.check_text(text)
    el = resolve(session, element_id)
    if el.tag not in (B.W_P, B.W_R, B.W_TBL, B.W_SDT) or \
            (el.tag != B.W_R and not P.holds_blocks(el.getparent())):
        raise InvalidElementType(f"A comment goes on a paragraph, run, table or content control, not a "
                                 f"{B.kind(el)}.", hint="Pass the ID of the paragraph or run that holds it.")
    end = _span(session, el, end_id)
    if anchor_text is not None:
        _check_anchor(el, end, anchor_text, element_id)
    holders = list(dict.fromkeys([_holder(el)] + ([_holder(end)] if end is not None else [])))
    e.show(*holders)
    e.change(*holders)
    comment = C.Comments(doc).new_comment(text, default_author(ctx, author))
    wid = comment.get(C.W_ID)
    if anchor_text is not None:
        C.anchor_text(doc, B.iter_runs(el) if el.tag == B.W_P else [el], anchor_text, wid)
    elif end is not None:
        C.anchor_range(el, end, wid)
    elif el.tag == B.W_P:
        C.anchor_paragraph(el, wid)
    else:
        C.anchor_range(el, el, wid)
    fields = {"Author": comment.get(C.W_AUTHOR), "Anchored": cut(anchor_text, 60) if anchor_text else
              f"{B.kind(el)} {doc.id_of(el)}" + (f" .. {doc.id_of(end)}" if end is not None else ""),
              **e.not_tracked(UNTRACKED)}
    e.done(holders[0], marker="UPDATED", element_id=doc.id_of(comment), fields=fields, inserted=comment,
           keep_cursor=True)


def _check_anchor(el, end, anchor_text: str, element_id: str) -> None:
    if end is not None or el.tag not in (B.W_P, B.W_R):
        raise ValidationError("anchor_text works on one paragraph or run, without end_id.",
                              hint="Use either anchor_text or end_id.")
    p = el if el.tag == B.W_P else B.find_ancestor(el, B.W_P)
    from ooxml.review.tracked_text import segments
    scope = [el] if el.tag == B.W_R else B.iter_runs(p)
    if not anchor_text or anchor_text not in segments(scope)[1]:
        raise ValidationError(f"anchor_text '{anchor_text}' does not occur in {B.kind(el).lower()} "
                              f"{clean_id(element_id)}.", hint="Pass an exact, case-sensitive span of its text.")


def _anchor_holder(session: Session, wid: str) -> etree._Element | None:
    for root in session.doc.story_roots(TEXT, body=True):
        found = C.markers(root, wid)
        if found:
            return _holder(B.find_ancestor(found[0], B.W_P) if found[0].tag != B.W_P else found[0]) \
                if B.find_ancestor(found[0], B.W_P) is not None else None
    return None


def _thread_done(e, operation: str, comment: etree._Element, fields: dict, holder: etree._Element | None,
                 new: bool = False) -> None:
    """The answer of a thread edit: the box of the commented block (its comment lines changed), or none.
    ``new``: the comment is new (last_insert)."""
    cid = e.doc.id_of(comment)
    fields = {**fields, **e.not_tracked(UNTRACKED)}
    if holder is not None:
        e.done(holder, marker="UPDATED", element_id=cid, fields=fields, inserted=comment if new else None,
               keep_cursor=True)
    else:
        e.plain(success_answer(operation, element_id=cid, fields=fields), inserted=comment if new else None)


def _show_holder(e, holder: etree._Element | None) -> None:
    if holder is not None:
        e.show(holder)
        e.change(holder)  # unchanged itself (its comment is): announced so undo's check allows the redraw


@tool(toolset="review", title="Reply to a comment")
def docx_reply_comment(ctx: CallContext, e: Edit, session_id: str | None, comment_id: str, text: str,
                       author: str | None = None) -> None:
    """Reply to a comment, in its thread."""
    session, doc = e.session, e.doc
    parent = _comment(session, comment_id)
    C.check_text(text)
    holder = _anchor_holder(session, parent.get(C.W_ID))
    _show_holder(e, holder)
    reply = C.Comments(doc).new_comment(text, default_author(ctx, author), parent=parent)
    for root in session.doc.story_roots(TEXT, body=True):
        if C.copy_anchor(root, parent.get(C.W_ID), reply.get(C.W_ID)):
            break
    _thread_done(e, "Reply Comment", reply, {"Author": reply.get(C.W_AUTHOR), "In Reply To": doc.id_of(parent)},
                 holder, new=True)


@tool(toolset="review", idempotent=True, title="Resolve a comment")
def docx_resolve_comment(ctx: CallContext, e: Edit, session_id: str | None, comment_id: str,
                         resolved: bool = True) -> None:
    """Resolve a comment's thread, or reopen it with resolved=false.

    Args:
        comment_id: A reply resolves its thread.
    """
    comment = _comment(e.session, comment_id)
    comments = C.Comments(e.doc)
    root = comment
    seen = set()
    while (parent := comments.parent_of(root)) is not None and id(parent) not in seen:
        seen.add(id(parent))
        root = parent
    holder = _anchor_holder(e.session, root.get(C.W_ID))
    if holder is not None:
        e.show(holder)
    comments.set_resolved(root, resolved)
    e.change(holder)  # unchanged itself (its comment is): announced so undo's check allows the redraw
    _thread_done(e, "Resolve Comment", root, {"Resolved": "yes" if resolved else "no"}, holder)


@tool(toolset="review", destructive=True, title="Delete a comment")
def docx_delete_comment(ctx: CallContext, e: Edit, session_id: str | None, comment_id: str) -> None:
    """Delete a comment with its replies and marks."""
    session, doc = e.session, e.doc
    comment = _comment(session, comment_id)
    cid = doc.id_of(comment)
    comments = C.Comments(doc)
    thread = comments.thread(comment)
    holder = _anchor_holder(session, comment.get(C.W_ID))
    _show_holder(e, holder)
    for c in thread:
        for root in session.doc.story_roots(TEXT, body=True):
            C.remove_anchor(doc, root, c.get(C.W_ID))
    comments.remove(thread)
    fields = {"Deleted": f"comment {cid}" + (f" and {len(thread) - 1} replies" if len(thread) > 1 else "")}
    if holder is not None:
        e.done(holder, element_id=cid, fields={**fields, **e.not_tracked(UNTRACKED)})
    else:
        e.plain(success_answer("Delete Comment", element_id=cid, fields={**fields, **e.not_tracked(UNTRACKED)}))


@tool(toolset="review", read_only=True, idempotent=True, title="List comments")
def docx_list_comments(ctx: CallContext, session_id: str | None, scope_id: str | None = None) -> str:
    """List comment threads: ID, author, date, resolved, commented text, text."""
    session = session_of(ctx, session_id)
    doc = session.doc
    comments = C.Comments(doc)
    all_comments = comments.all()
    ext = comments.extended()
    by_para = {comments.last_para_id(c): c for c in all_comments}
    roots = session.doc.story_roots(TEXT, body=True)
    wanted = None
    if scope_id:
        scope = resolve(session, scope_id, "scope_id")
        wanted = set(scope.xpath(".//w:commentRangeStart/@w:id | .//w:commentReference/@w:id",
                                 namespaces={"w": C.W}))
    replies: dict = {}
    tops = []
    for c in all_comments:
        parent = comments.parent_of(c, ext, by_para)
        (replies.setdefault(parent, []).append(c) if parent is not None else tops.append(c))
    lines = []
    shown = 0
    for top in tops:
        if wanted is not None and top.get(C.W_ID) not in wanted:
            continue
        shown += 1
        if shown > MAX_LISTED:
            continue
        anchored = next((C.anchored_text(r, top.get(C.W_ID)) for r in roots
                         if C.markers(r, top.get(C.W_ID))), "")
        state = "resolved" if comments.resolved(top, ext) else "open"
        lines.append(f"- {doc.id_of(top)} | {top.get(C.W_AUTHOR) or '?'} | {top.get(C.W_DATE) or '-'} | {state} | "
                     f"on \"{cut(' '.join(anchored.split()), 50)}\": {cut(' '.join(C.comment_text(top).split()), 80)}")
        stack = [(r, 1) for r in reversed(replies.get(top, []))]
        while stack:
            r, depth = stack.pop()
            lines.append(f"{'  ' * depth}- ↳ {doc.id_of(r)} | {r.get(C.W_AUTHOR) or '?'} | {r.get(C.W_DATE) or '-'}: "
                         f"{cut(' '.join(C.comment_text(r).split()), 80)}")
            stack += [(x, depth + 1) for x in reversed(replies.get(r, []))]
    fields = {"Comments": len(all_comments), "Threads": shown}
    if shown > MAX_LISTED:
        fields["Shown"] = f"first {MAX_LISTED} threads"
    return success_answer("List Comments", fields=fields, content="\n".join(lines) or "No comments.")
