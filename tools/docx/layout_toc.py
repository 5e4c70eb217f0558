"""Tables of contents (SPEC §10, toolset layout): insert and update, entries written in; a bare TOC
field (no "Table of Contents" content control around it) is updated in place. The headings' bookmarks,
their page numbers (a LibreOffice layout) and the tab stop are shared by both."""
from __future__ import annotations

import functools

from lxml import etree

from ooxml.text import body as B
from ooxml.opc import parts as P
from ooxml.review import revisions as REV
from ooxml.refs import links as L
from ooxml.layout import sections as S
from ooxml.refs import toc as T
from ooxml.refs import toc_fields as TF
from ooxml.refs import toc_switches as SW
from ooxml.xml.errors import ElementNotFound, LimitExceeded, OoxmlError, ValidationError
from ooxml.xml.namespaces import w
from render import page_layout
from tools.docx.common import clean_id, resolve
from ooxml.model.insertion import body_insertion, insertion_neighbours
from tools.docx.protocol import Edit
from tools.office import find as office_find
from tools.office.service import to_pdf_in_budget
from tools.runtime.call.progress import heartbeats, report
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions.sessions import Session

RESULT_UNTRACKED = "the refreshed entries are the field's result, rewritten without revision marks"
SHOWN = 12  # a bare field's paragraphs drawn before and after: a long TOC is summed up by its count
LAYOUT_STEPS = 2  # progress: the layout, then the entries written with their page numbers


def _anchors(e, found: list[T.Heading]) -> list[str]:
    """Each heading's ``_Toc`` bookmark name; headings without one get one (edit protocol ``e``)."""
    doc = e.doc
    have = [T.existing_toc_bookmark(h) for h in found]
    missing = [h for h, name in zip(found, have) if name is None]
    if not missing:
        return have
    roots = doc.story_roots()
    names = {s.get(w("name")) for s in L.bookmark_starts(roots)}
    e.change(*[h.p for h in missing])
    made = {id(h): name for h, name in T.add_toc_bookmarks(missing, names, L.next_bookmark_id(roots))}
    e.report()  # now: the layout for page numbers saves the parts the bookmarks touched
    return [name if name is not None else made[id(h)] for h, name in zip(found, have)]


def _pages(ctx, doc, found: list[T.Heading], wanted: bool) -> tuple[list | None, str]:
    if not wanted:
        return None, "left out (page_numbers=false); Word fills them in when it updates fields on open"
    missing = office_find.missing()
    if missing:
        return None, f"left out: {missing}; Word fills them in when it updates fields on open"
    try:
        with heartbeats(ctx, 0, LAYOUT_STEPS, "LibreOffice is laying out the document for page numbers"):
            layout = functools.partial(to_pdf_in_budget, ctx.services.office)  # stopped at the deadline
            pages = page_layout.heading_pages(doc, [h.text for h in found], layout)
    except LimitExceeded:
        raise  # the call ends: page numbers are not worth running past the time limit
    except (OSError, RuntimeError, ValueError, OoxmlError) as e:  # a failed layout must not fail the TOC
        return None, f"left out: LibreOffice's layout failed ({getattr(e, 'message', e)}); Word fills them in on open"
    report(ctx, 1, LAYOUT_STEPS, "Writing the entries with their page numbers")
    return pages, f"from LibreOffice's layout ({sum(1 for p in pages if p is not None)} of {len(pages)} found)"


def _tab_pos(doc, anchor) -> int:
    return S.page_box(S.section_of(doc, anchor)).text_width


def _fill_pages(ctx, doc, content, instruction, found, anchors, title, tab_pos, page_numbers, spec=None) -> str:
    """Rewrite the TOC's entries with page numbers from a layout of the state with the TOC in it."""
    pages, note = _pages(ctx, doc, found, page_numbers)
    if pages is not None:
        for child in list(content):
            doc.ids.forget(child)
            content.remove(child)
        T.fill(doc, content, instruction, found, anchors, pages, title, tab_pos, spec)
        report(ctx, LAYOUT_STEPS, LAYOUT_STEPS, "Done")
    return note


@tool(toolset="layout", title="Insert a table of contents")
def docx_insert_toc(ctx: CallContext, e: Edit, session_id: str | None,
                    position: str, levels: str = "1-3", title: str | None = None,
                    page_numbers: bool = True) -> None:
    """Insert a table of contents: a TOC field with its linked entries written in.

    Args:
        levels: 'FROM-TO'.
        title: A heading above, e.g. 'Contents'.
    """
    _insert_toc(ctx, e, position, levels, title, page_numbers)


def _insert_toc(ctx, e, position: str, levels: str, title: str | None, page_numbers: bool) -> None:
    doc = e.doc
    lo, hi = T.parse_levels(levels)
    if title is not None and (not title.strip() or "\n" in title):
        raise ValidationError("title must be a non-empty single line.",
                              hint="Pass a short heading such as title='Contents', or leave title out.")
    pos, container, where = body_insertion(
        doc, e.position(position), "table of contents", "A table of contents goes between blocks of the document body.",
        "Use a position such as before:para_… on a body paragraph, or start:document_body.")
    instruction = f'TOC \\o "{lo}-{hi}" \\h \\z \\u'
    found = T.headings(doc, lo, hi)
    prev, nxt = insertion_neighbours(container, where)
    e.show(prev, nxt)
    anchors = _anchors(e, found)
    tab_pos = _tab_pos(doc, prev if prev is not None else (nxt if nxt is not None else doc.body))
    sdt = T.build(doc, instruction, found, anchors, None, title, tab_pos)
    doc.insert_block(sdt, container=container, **where)
    note = _fill_pages(ctx, doc, sdt.find(w("sdtContent")), instruction, found, anchors, title, tab_pos, page_numbers)
    REV.mark_inserted(doc, sdt)  # tracked: entries rewritten with page numbers are inserted too
    e.changed(sdt)
    P.set_flag(doc, "updateFields")
    e.after(prev, sdt, nxt)
    e.done(sdt, marker="NEW", inserted=sdt,
           fields={"Position": pos.text, "Entries": len(found), "Levels": f"{lo}-{hi}", "Page Numbers": note})


def _toc_of(session: Session, toc_id: str | None) -> etree._Element:
    """A TOC content control, or the begin fldChar / fldSimple of a bare TOC field."""
    doc = session.doc
    tocs = TF.find_all(doc)
    if toc_id:
        el = resolve(session, toc_id, "toc_id")
        if any(el is t for t in tocs):
            return el
        raise ElementNotFound(f"{clean_id(toc_id)} is not a table of contents.",
                              hint="TOC IDs (toc_…, or fld_… for a TOC field outside a content control) come "
                                   "from docx_insert_toc, docx_update_toc or docx_get_structure.")
    if not tocs:
        raise ElementNotFound("The document has no table of contents.", hint="Insert one with docx_insert_toc.")
    return tocs[0]


@tool(toolset="layout", title="Update a table of contents")
def docx_update_toc(ctx: CallContext, e: Edit, session_id: str | None,
                    toc_id: str | None = None, page_numbers: bool = True) -> None:
    """Rebuild a table of contents from the headings.

    Args:
        toc_id: toc_… or fld_…; default the first.
        page_numbers: From LibreOffice.
    """
    sdt = _toc_of(e.session, toc_id)
    if sdt.tag != B.W_SDT:
        _update_field_toc(ctx, e, sdt, page_numbers)
    else:
        _update_toc(ctx, e, sdt, page_numbers)


def _update_toc(ctx, e, sdt: etree._Element, page_numbers: bool) -> None:
    doc = e.doc
    instruction = T.toc_instruction(sdt)
    spec = SW.parse(doc, instruction)
    lo, hi = spec.outline or (None, None)
    title = T.toc_title(doc, sdt)
    e.show(sdt)
    found = T.headings(doc, lo, hi, skip=sdt, styles=spec.styles)
    anchors = _anchors(e, found)
    content = sdt.find(w("sdtContent"))
    # Tracked: a TOC we inserted ourselves stays our insertion when refreshed.
    own = any(REV.is_ours(doc, m) for m in content.iter(REV.W_INS))
    e.change(sdt)
    for child in list(content):
        doc.ids.forget(child)
        content.remove(child)
    tab_pos = _tab_pos(doc, sdt)
    T.fill(doc, content, instruction, found, anchors, None, title, tab_pos, spec)
    e.report()  # the layout that finds the page numbers reads the refilled TOC
    note = _fill_pages(ctx, doc, content, instruction, found, anchors, title, tab_pos, page_numbers, spec)
    if own:
        REV.mark_inserted(doc, sdt)
    e.changed(sdt)
    P.set_flag(doc, "updateFields")
    untracked = {} if own else e.not_tracked(RESULT_UNTRACKED)
    e.done(sdt, marker="UPDATED", updated=sdt,
           fields={"Entries": len(found), "Levels": spec.describe(doc), "Page Numbers": note, **untracked})


def _update_field_toc(ctx, e, begin: etree._Element, page_numbers: bool) -> None:
    """The TOC field's entries rebuilt (edit protocol ``e``, tools/docx/protocol.py)."""
    doc = e.doc
    spec = SW.parse(doc, TF.instruction(begin))
    TF.check(doc, begin)
    old = TF.paragraphs(begin)
    e.show(*old[:SHOWN])
    lo, hi = spec.outline or (None, None)
    own = set(old)
    found = [h for h in T.headings(doc, lo, hi, styles=spec.styles) if h.p not in own]
    anchors = _anchors(e, found)
    tab_pos = _tab_pos(doc, old[0])
    begin, paras = TF.rebuild(doc, begin, T.entries(doc, found, anchors, None, tab_pos, spec))
    if any(spec.page_at(h.level) for h in found) or not found:
        pages, note = _pages(ctx, doc, found, page_numbers)
    else:
        pages, note = None, "none: the field's \\n switch leaves them out"
    if pages is not None:
        begin, paras = TF.rebuild(doc, begin, T.entries(doc, found, anchors, pages, tab_pos, spec))
        report(ctx, LAYOUT_STEPS, LAYOUT_STEPS, "Done")
    P.set_flag(doc, "updateFields")
    e.after(*paras[:SHOWN])
    e.done(paras[0], marker="UPDATED", element_id=doc.id_of(begin), updated=begin,
           fields={"Entries": len(found), "Levels": spec.describe(doc), "Paragraphs": len(paras),
                   "Page Numbers": note, **e.not_tracked(RESULT_UNTRACKED)})
