"""What a table of contents needs from the document and from LibreOffice: the headings' bookmarks,
their page numbers (a layout) and the tab stop; shared by the TOC tools (layout_toc, layout_toc_fields)."""
from __future__ import annotations

import functools

from ooxml.refs import links as L
from ooxml.layout import sections as S
from ooxml.refs import toc as T
from ooxml.xml.errors import LimitExceeded, OoxmlError
from ooxml.xml.namespaces import w
from render import page_layout
from tools.office import find as office_find
from tools.office.service import to_pdf_in_budget
from tools.runtime.progress import heartbeats, report


def anchors(e, found: list[T.Heading]) -> list[str]:
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


LAYOUT_STEPS = 2  # progress: the layout, then the entries written with their page numbers


def pages(ctx, doc, found: list[T.Heading], wanted: bool) -> tuple[list | None, str]:
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


def tab_pos(doc, anchor) -> int:
    return S.page_box(S.section_of(doc, anchor)).text_width
