"""Tables of contents (SPEC §10, toolset layout): insert and update, entries written in."""
from __future__ import annotations

from lxml import etree

from ooxml import body as B
from ooxml import links as L
from ooxml import parts as P
from ooxml import revisions as REV
from ooxml import sections as S
from ooxml import toc as T
from ooxml.errors import ElementNotFound, InvalidPosition, ValidationError
from ooxml.namespaces import w
from render import page_layout
from tools.docx.common import (answer, block_insertion, box_lines, clean_id, insertion_neighbours, parse_position,
                               resolve, session_of)
from tools.docx.layout_links import all_roots
from tools.runtime.registry import CallContext, tool
from tools.runtime.sessions import Cursor, Session


def _anchors(doc, found: list[T.Heading]) -> list[str]:
    roots = all_roots(doc)
    next_id = [L.next_bookmark_id(roots)]
    names = {s.get(w("name")) for s in L.bookmark_starts(roots)}
    out = []
    for h in found:
        doc.will_change(h.p)
        before = h.p.find(L.W_BM_START)
        out.append(T.toc_bookmark(h, next_id, names))
        if h.p.find(L.W_BM_START) is not before:
            doc.changed(h.p)
    return out


def _pages(doc, found: list[T.Heading], wanted: bool) -> tuple[list | None, str]:
    if not wanted:
        return None, "left out (page_numbers=false); Word fills them in when it updates fields on open"
    missing = page_layout.available()
    if missing:
        return None, f"left out: {missing}; Word fills them in when it updates fields on open"
    try:
        pages = page_layout.heading_pages(doc, [h.text for h in found])
    except (OSError, RuntimeError, ValueError) as e:  # a failed layout must not fail the TOC
        return None, f"left out: LibreOffice's layout failed ({e}); Word fills them in on open"
    return pages, f"from LibreOffice's layout ({sum(1 for p in pages if p is not None)} of {len(pages)} found)"


def _tab_pos(doc, anchor) -> int:
    return S.page_box(S.section_of(doc, anchor)).text_width


def _fill_pages(doc, content, instruction, found, anchors, title, tab_pos, page_numbers) -> str:
    """Rewrite the TOC's entries with page numbers from a layout of the state with the TOC in it."""
    pages, note = _pages(doc, found, page_numbers)
    if pages is not None:
        for child in list(content):
            doc.ids.forget(child)
            content.remove(child)
        T.fill(doc, content, instruction, found, anchors, pages, title, tab_pos)
    return note


@tool(toolset="layout", title="Insert a table of contents")
def docx_insert_toc(ctx: CallContext, session_id: str, position: str, levels: str = "1-3", title: str | None = None,
                    page_numbers: bool = True) -> str:
    """Insert a table of contents: a real TOC field whose entries (one per heading, linked to it) are written in.

    Page numbers come from LibreOffice's layout of the document when LibreOffice is installed;
    otherwise they are left out and the answer says so. Word refreshes the TOC when it opens the
    file (the document asks it to update fields).

    Args:
        session_id: The session.
        position: A body position, e.g. 'before:para_…' or 'start:document_body'.
        levels: Heading levels to include, 'FROM-TO' (default '1-3').
        title: A title paragraph above the entries (style TOC Heading), e.g. 'Contents'.
        page_numbers: Ask LibreOffice for page numbers (default true).
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    lo, hi = T.parse_levels(levels)
    if title is not None and (not title.strip() or "\n" in title):
        raise ValidationError("title must be a non-empty single line.",
                              hint="Pass a short heading such as title='Contents', or leave title out.")
    pos = parse_position(session, position)
    container, where = block_insertion(doc, pos, "table of contents")
    if container is not doc.body:
        raise InvalidPosition("A table of contents goes between blocks of the document body.",
                              hint="Use a position such as before:para_… on a body paragraph, or start:document_body.")
    instruction = f'TOC \\o "{lo}-{hi}" \\h \\z \\u'
    found = T.headings(doc, lo, hi)
    prev, nxt = insertion_neighbours(container, where)
    before = box_lines(doc, [prev, nxt])
    anchors = _anchors(doc, found)
    tab_pos = _tab_pos(doc, prev if prev is not None else (nxt if nxt is not None else doc.body))
    sdt = T.build(doc, instruction, found, anchors, None, title, tab_pos)
    doc.insert_block(sdt, container=container, **where)
    note = _fill_pages(doc, sdt.find(w("sdtContent")), instruction, found, anchors, title, tab_pos, page_numbers)
    REV.mark_inserted(doc, sdt)  # tracked: entries rewritten with page numbers are inserted too
    doc.changed(sdt)
    P.set_flag(doc, "updateFields")
    tid = doc.id_of(sdt)
    session.last_insert = tid
    session.cursor = Cursor(tid, "after")
    return answer(session, "Insert Toc", sdt, marker="NEW", before=before, after=box_lines(doc, [prev, sdt, nxt]),
                  fields={"Position": pos.text, "Entries": len(found), "Levels": f"{lo}-{hi}",
                          "Page Numbers": note})


def _toc_of(session: Session, toc_id: str | None) -> etree._Element:
    doc = session.doc
    if toc_id:
        el = resolve(session, toc_id, "toc_id")
        if el.tag == B.W_SDT and el.getparent() is doc.body and el in T.find_tocs(doc):
            return el
        raise ElementNotFound(f"{clean_id(toc_id)} is not a table of contents.",
                              hint="TOC IDs (toc_…) come from docx_insert_toc or docx_get_structure.")
    tocs = T.find_tocs(doc)
    if not tocs:
        raise ElementNotFound("The document has no table of contents.", hint="Insert one with docx_insert_toc.")
    return tocs[0]


@tool(toolset="layout", title="Update a table of contents")
def docx_update_toc(ctx: CallContext, session_id: str, toc_id: str | None = None, page_numbers: bool = True) -> str:
    """Rebuild a table of contents from the current headings (its levels and title kept).

    Args:
        session_id: The session.
        toc_id: The TOC (toc_…); omitted: the document's first.
        page_numbers: Ask LibreOffice for page numbers (default true).
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    sdt = _toc_of(session, toc_id)
    instruction = T.toc_instruction(sdt)
    lo, hi = T.levels_of(instruction)
    title = T.toc_title(doc, sdt)
    before = box_lines(doc, [sdt])
    found = T.headings(doc, lo, hi, skip=sdt)
    anchors = _anchors(doc, found)
    content = sdt.find(w("sdtContent"))
    # Tracked: a TOC we inserted ourselves stays our insertion when refreshed.
    own = any(REV.is_ours(doc, m) for m in content.iter(REV.W_INS))
    doc.will_change(sdt)
    for child in list(content):
        doc.ids.forget(child)
        content.remove(child)
    tab_pos = _tab_pos(doc, sdt)
    T.fill(doc, content, instruction, found, anchors, None, title, tab_pos)
    doc.changed(sdt)
    note = _fill_pages(doc, content, instruction, found, anchors, title, tab_pos, page_numbers)
    if own:
        REV.mark_inserted(doc, sdt)
    doc.changed(sdt)
    P.set_flag(doc, "updateFields")
    session.last_update = doc.id_of(sdt)
    untracked = ("no: the refreshed entries are the field's result, rewritten without revision marks"
                 if REV.tracker(doc) is not None and not own else None)
    return answer(session, "Update Toc", sdt, marker="UPDATED", before=before, after=box_lines(doc, [sdt]),
                  fields={"Entries": len(found), "Levels": f"{lo}-{hi}", "Page Numbers": note, "Tracked": untracked})

