"""docx_update_toc on a bare TOC field (no "Table of Contents" content control around it)."""
from __future__ import annotations

from lxml import etree

from ooxml.opc import parts as P
from ooxml.refs import toc as T
from ooxml.refs import toc_fields as TF
from ooxml.refs import toc_switches as SW
from tools.docx.toc_pages import LAYOUT_STEPS
from tools.docx.toc_pages import anchors as _anchors
from tools.docx.toc_pages import pages as _pages
from tools.docx.toc_pages import tab_pos as _tab_pos
from tools.runtime.call.progress import report

RESULT_UNTRACKED = "the refreshed entries are the field's result, rewritten without revision marks"
SHOWN = 12  # paragraphs drawn before and after: a long TOC is summed up by its count


def update_field_toc(ctx, e, begin: etree._Element, page_numbers: bool) -> None:
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
