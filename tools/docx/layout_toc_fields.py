"""docx_update_toc on a bare TOC field (no "Table of Contents" content control around it)."""
from __future__ import annotations

from lxml import etree

from ooxml.opc import parts as P
from ooxml.review import revisions as REV
from ooxml.refs import toc as T
from ooxml.refs import toc_fields as TF
from ooxml.refs import toc_switches as SW
from tools.docx.common import answer, box_lines
from tools.docx.toc_pages import LAYOUT_STEPS
from tools.docx.toc_pages import anchors as _anchors
from tools.docx.toc_pages import pages as _pages
from tools.docx.toc_pages import tab_pos as _tab_pos
from tools.runtime.progress import report
from tools.runtime.sessions import Session

SHOWN = 12  # paragraphs drawn before and after: a long TOC is summed up by its count


def update_field_toc(ctx, session: Session, begin: etree._Element, page_numbers: bool) -> str:
    doc = session.doc
    spec = SW.parse(doc, TF.instruction(begin))
    TF.check(doc, begin)
    old = TF.paragraphs(begin)
    before = box_lines(doc, old[:SHOWN])
    lo, hi = spec.outline or (None, None)
    own = set(old)
    found = [h for h in T.headings(doc, lo, hi, styles=spec.styles) if h.p not in own]
    anchors = _anchors(doc, found)
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
    fid = doc.id_of(begin)
    session.last_update = fid
    return answer(session, "Update Toc", paras[0], marker="UPDATED", before=before,
                  after=box_lines(doc, paras[:SHOWN]), element_id=fid,
                  fields={"Entries": len(found), "Levels": spec.describe(doc), "Paragraphs": len(paras),
                          "Page Numbers": note,
                          "Tracked": "no: the refreshed entries are the field's result, rewritten without revision marks"
                          if REV.tracker(doc) is not None else None})
