"""Hyperlinks and bookmarks (SPEC §10, toolset layout)."""
from __future__ import annotations

from lxml import etree

from ooxml.model import places as P
from ooxml.text import body as B
from ooxml.refs import links as L
from ooxml.opc.link_policy import policy_of
from ooxml.review import edits
from ooxml.xml.errors import InvalidPosition, ValidationError
from ooxml.xml.namespaces import OX_ID, w
from render.answer import success_answer
from render.width import cut
from tools.docx.common import expect, resolve, session_of
from tools.docx.common import MAX_TEXT
from tools.docx.protocol import DELETERS, Edit
from tools.runtime.call.registry import CallContext, tool

MAX_LISTED = 200
BOOKMARKS_UNTRACKED = "Word does not record bookmarks as revisions"


@tool(toolset="layout", title="Insert a hyperlink")
def docx_insert_hyperlink(ctx: CallContext, e: Edit, session_id: str | None, text: str, position: str,
                          url: str | None = None,
                          bookmark: str | None = None) -> None:
    """Insert a hyperlink among a paragraph's runs, to url or to a bookmark.

    Args:
        url: https, http, mailto (others if allowed).
        bookmark: Instead of url.
    """
    _insert_hyperlink(ctx, e, text, position, url, bookmark)


def _insert_hyperlink(ctx, e, text: str, position: str, url: str | None, bookmark: str | None) -> None:
    doc = e.doc
    if (url is None) == (bookmark is None):
        raise ValidationError("Give exactly one of url or bookmark.",
                              hint="url='https://example.com' for the web, bookmark='Intro' for a place in the document.")
    if not text or len(text) > MAX_TEXT or "\n" in text:
        raise ValidationError("text must be a non-empty single line.",
                              hint="Pass the link's visible words as text, e.g. text='our website', "
                                   "without line breaks.")
    if url is not None:
        policy_of(ctx.services.config).check_url(L.check_url(url))
    elif L.find_bookmark(doc.story_roots(), bookmark) is None:
        raise ValidationError(f"There is no bookmark named '{bookmark}'.",
                              hint="docx_list_bookmarks lists them; docx_add_bookmark adds one.")
    place = e.inline(position, "hyperlink")
    para = place.paragraph
    e.show(para)
    link = L.hyperlink(doc, doc.part_of(para).name, text, url=url, anchor=bookmark, rpr=place.model_rpr)
    e.change(para)
    place.put([link])
    edits.mark_inserted(doc, [link])  # tracked: the link's runs in a w:ins inside it
    lid = doc.id_of(link)
    e.done(para, marker="UPDATED", element_id=lid, inserted=link, cursor=(para, "after"),
           fields={"Position": place.text, "Target": L.link_target(doc, link), "Paragraph": doc.id_of(para)})


@tool(toolset="layout", read_only=True, idempotent=True, title="List hyperlinks")
def docx_list_hyperlinks(ctx: CallContext, session_id: str | None) -> str:
    """List hyperlinks of the body, headers, footers and notes."""
    session = session_of(ctx, session_id)
    doc = session.doc
    lines, total = [], 0
    for root in doc.story_roots():
        for link in root.iter(L.W_LINK):
            total += 1
            if len(lines) >= MAX_LISTED:
                continue
            text = "".join(B.run_text(r) for r in B.iter_runs(link))
            para = B.find_ancestor(link, B.W_P)
            lines.append(f"- {doc.id_of(link)}: [{cut(text, 60)}]({L.link_target(doc, link)}) in "
                         f"{doc.id_of(para) if para is not None else '-'}")
    fields = {"Hyperlinks": total}
    if total > len(lines):
        fields["Shown"] = f"first {len(lines)}"
    return success_answer("List Hyperlinks", fields=fields, content="\n".join(lines) or "The document has no hyperlinks.")


def _in_order(doc, start: etree._Element, end: etree._Element) -> bool:
    if start is end:
        return True
    if start.getparent() is end.getparent() and start.getparent() is not None:
        container = start.getparent()
        if B.is_block(start) and P.holds_blocks(container):
            order = doc.order(container)
            return order.index(start) <= order.index(end)
        return container.index(start) <= container.index(end)
    return True  # different containers (a cell and the body ...): Word allows a bookmark to cross them


@tool(toolset="layout", title="Add a bookmark")
def docx_add_bookmark(ctx: CallContext, e: Edit, session_id: str | None, name: str, element_id: str,
                      end_id: str | None = None) -> None:
    """Bookmark a paragraph or run (to end_id), for links and REF fields.

    Args:
        name: Max 40 characters: a letter, then letters, digits, _.
        end_id: Same part, not before element_id.
    """
    _add_bookmark(e, name, element_id, end_id)


def _add_bookmark(e, name: str, element_id: str, end_id: str | None) -> None:
    session, doc = e.session, e.doc
    L.check_bookmark_name(name)
    start_el = expect(resolve(session, element_id), {B.W_P, B.W_R}, "paragraph or run")
    end_el = expect(resolve(session, end_id, "end_id"), {B.W_P, B.W_R}, "paragraph or run", "end_id") \
        if end_id else start_el
    if doc.part_of(start_el) is not doc.part_of(end_el):
        raise InvalidPosition("A bookmark starts and ends in the same part (body, header, note ...).",
                              hint="Pick an end_id in the same body, header, footer or note as element_id, "
                                   "or leave end_id out.")
    if not _in_order(doc, start_el, end_el):
        raise InvalidPosition("end_id comes before element_id.", hint="Swap them.")
    roots = doc.story_roots()
    existing = L.find_bookmark(roots, name)
    if existing is not None:
        raise ValidationError(f"A bookmark named '{name}' already exists.",
                              hint="Choose another name, or delete the old one (docx_delete with its bkm_ ID from "
                                   "docx_list_bookmarks).")
    holders = [x if x.tag == B.W_P else B.find_ancestor(x, B.W_P) for x in (start_el, end_el)]
    shown = [holders[0]] if holders[0] is holders[1] else holders
    e.show(*shown)
    e.change(*shown)
    start = L.add_bookmark(start_el, end_el, name, L.next_bookmark_id(roots))
    e.done(holders[0], marker="UPDATED", element_id=doc.id_of(start), inserted=start, keep_cursor=True,
           fields={"Name": name, "Start": doc.id_of(start_el), "End": doc.id_of(end_el),
                   **e.not_tracked(BOOKMARKS_UNTRACKED)})


@tool(toolset="layout", read_only=True, idempotent=True, title="List bookmarks")
def docx_list_bookmarks(ctx: CallContext, session_id: str | None) -> str:
    """List bookmarks, named ones first, then hidden ones (_Toc, _Ref ...)."""
    session = session_of(ctx, session_id)
    doc = session.doc
    named, hidden = [], []
    for start in L.bookmark_starts(doc.story_roots()):
        name = start.get(w("name"), "")
        (hidden if name.startswith("_") else named).append(start)
    lines = []
    for start in (named + hidden)[:MAX_LISTED]:
        name = start.get(w("name"), "")
        para = B.find_ancestor(start, B.W_P)
        where = para if para is not None else B.next_block(start)
        text = B.paragraph_text(para) if para is not None else ""
        mark = " (hidden)" if name.startswith("_") else ""
        lines.append(f"- {doc.id_of(start)}: {name}{mark} at {doc.id_of(where) if where is not None else '-'}"
                     f" — {cut(text, 50) or '(empty)'}")
    fields = {"Bookmarks": len(named) + len(hidden), "Named": len(named), "Hidden": len(hidden)}
    return success_answer("List Bookmarks", fields=fields, content="\n".join(lines) or "The document has no bookmarks.")


# ---- docx_delete ------------------------------------------------------------------------------------

def delete_hyperlink(e, link) -> None:
    """Remove the link, keep its text (its relationship goes at the end of the call if unused:
    ooxml/refs/link_rels.py)."""
    doc = e.doc
    para = B.find_ancestor(link, B.W_P)
    lid = doc.id_of(link)
    e.show(para)
    e.change(para)
    del link.attrib[OX_ID]  # the link goes, its runs (and their IDs) stay; its relationship may be shared
    L.unwrap(link)
    e.done(para, element_id=lid, fields={"Deleted": f"Hyperlink {lid} (its text kept)",
                                         **e.not_tracked("OOXML has no revision mark for removing a link")})


def delete_bookmark(e, start) -> None:
    """Remove the bookmark's start and end; its content stays."""
    doc = e.doc
    end = L.bookmark_end(start)
    holder = B.find_ancestor(start, B.W_P)
    eid = doc.id_of(start)
    removed = [start] + ([end] if end is not None else [])
    fields = {"Deleted": f"Bookmark {eid} (its content kept)", **e.not_tracked(BOOKMARKS_UNTRACKED)}
    if holder is None:  # between blocks: removed as a block is, so undo puts it back
        for el in removed:
            doc.remove_block(el)
        e.plain(success_answer("Delete", element_id=eid, fields=fields))
        return
    e.show(holder)
    e.change(holder, *[el.getparent() for el in removed])
    for el in removed:
        doc.ids.forget(el)
        el.getparent().remove(el)
    e.done(holder, element_id=eid, fields=fields)


DELETERS[L.W_LINK] = delete_hyperlink
DELETERS[L.W_BM_START] = delete_bookmark
