"""docx_delete for the layout kinds: fields, section breaks, headers and footers (via edit.DELETERS)."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.refs import fields as FL
from ooxml.review import revisions as REV
from ooxml.xml.errors import InvalidElementType
from ooxml.xml.namespaces import w
from ooxml.xml.order import insert_child
from ooxml.layout.page_setup import HF_REFS, header_footer_refs, section_list
from tools.docx.common import answer, box_lines, last_block
from tools.docx.edit import DELETERS
from tools.runtime.sessions import Cursor, Session


def delete_inline(session: Session, holder, removed: list, eid: str, what: str) -> str:
    """Remove inline elements of one paragraph and answer with the paragraph before and after."""
    doc = session.doc
    before = box_lines(doc, [holder])
    doc.will_change(holder)
    for el in removed:
        doc.ids.forget(el)
        el.getparent().remove(el)
    doc.changed(holder)
    cur = session.doc.ids.get(session.cursor.element_id) if session.cursor.element_id else None
    if session.cursor.element_id and cur is None:
        session.cursor = Cursor(doc.id_of(holder), "after")
    return answer(session, "Delete", holder, before=before, after=box_lines(doc, [holder]), element_id=eid,
                  fields={"Deleted": f"{what} {eid}"})


def delete_field(session: Session, begin) -> str:
    span = FL.field_span(begin)
    if not span:
        raise InvalidElementType("This field spans paragraphs and cannot be deleted as one piece.",
                                 hint="Delete the paragraphs it covers, or its runs one by one.")
    eid = session.doc.id_of(begin)
    if REV.tracker(session.doc) is not None:
        return _delete_runs_tracked(session, B.find_ancestor(begin, B.W_P), span, eid, "Field")
    return delete_inline(session, B.find_ancestor(begin, B.W_P), span, eid, "Field")


def _delete_runs_tracked(session: Session, holder, runs: list, eid: str, what: str) -> str:
    """Tracked: the runs stay under our w:del (w:delText, w:delInstrText) until accepted."""
    doc = session.doc
    before = box_lines(doc, [holder])
    doc.will_change(holder)
    REV.delete_runs(doc, [r for r in runs if r.tag == B.W_R])
    doc.changed(holder)
    cur = doc.ids.get(session.cursor.element_id) if session.cursor.element_id else None
    if session.cursor.element_id and cur is None:
        session.cursor = Cursor(doc.id_of(holder), "after")
    return answer(session, "Delete", holder, before=before, after=box_lines(doc, [holder]), element_id=eid,
                  fields={"Deleted": f"{what} {eid} (tracked)"})


def delete_section_break(session: Session, sect) -> str:
    """Remove a section break: the content before it joins the following section (as in Word)."""
    doc = session.doc
    holder = sect.getparent().getparent() if sect.getparent().tag == w("pPr") else None
    if holder is None:
        raise InvalidElementType("The last section has no break to delete: it is the body's own section.",
                                 hint="Delete a section break (sect_… of an earlier section) instead.")
    eid = doc.id_of(sect)
    before = box_lines(doc, [holder])
    if REV.tracker(doc) is not None:
        return _delete_break_tracked(session, holder, eid, before)
    sections = section_list(doc)
    following = sections[sections.index(sect) + 1]
    doc.will_change(holder)
    doc.will_change(following)
    _carry_references(sect, following)
    doc.ids.forget(sect)
    sect.getparent().remove(sect)
    doc.changed(holder)
    doc.changed(following)
    return answer(session, "Delete", holder, before=before, after=box_lines(doc, [holder]), element_id=eid,
                  fields={"Deleted": f"Section break {eid}"})


def _delete_break_tracked(session: Session, holder, eid: str, before: list[str]) -> str:
    """Tracked, a section break's deletion is the deletion of the paragraph mark holding it, as Word
    records it: accepted, the paragraph joins the next and the sections merge; rejected, all stays."""
    doc = session.doc
    doc.will_change(holder)
    REV.mark_paragraph(doc, holder, REV.W_DEL)
    doc.changed(holder)
    return answer(session, "Delete", holder, before=before, after=box_lines(doc, [holder]), element_id=eid,
                  fields={"Deleted": f"Section break {eid} (tracked: its paragraph mark is marked deleted)"})


def delete_header_footer(session: Session, root) -> str:
    """Remove a header or footer: the sections referring to it show none (or inherit an earlier one)."""
    from ooxml.layout import headers as H
    from render.answer import success_answer
    doc = session.doc
    eid = doc.id_of(root)
    kind = B.kind(root)
    name = doc.part_of(root).name
    if session.cursor.element_id and any(a is root for a in _ancestry(doc, session.cursor.element_id)):
        last = last_block(doc.body)
        session.cursor = Cursor(doc.id_of(last), "after") if last is not None else Cursor()
    doc.changed(root)
    refs = H.remove(doc, root)
    fields = {"Deleted": f"{kind} {eid} ({name})", "References Removed": refs}
    if REV.tracker(doc) is not None:
        fields["Tracked"] = f"no: Word records no revision for removing a {kind} part"
    return success_answer("Delete", element_id=eid, fields=fields)


def _ancestry(doc, element_id: str) -> list:
    el = doc.ids.get(element_id)
    return [el, *el.iterancestors()] if el is not None else []


def _carry_references(gone, following) -> None:
    """The joined section keeps showing the headers and footers it showed: references only the removed
    section carried (the following one inherited them) move to the following section."""
    own = header_footer_refs(following)
    for ref in [r for r in gone if r.tag in HF_REFS]:
        kind = "header" if ref.tag == HF_REFS[0] else "footer"
        if (kind, ref.get(w("type"), "default")) not in own:
            insert_child(following, ref)
    if gone.find(w("titlePg")) is not None and following.find(w("titlePg")) is None:
        insert_child(following, etree.Element(w("titlePg")))


DELETERS[FL.W_FLDCHAR] = delete_field
DELETERS[w("hdr")] = delete_header_footer
DELETERS[w("ftr")] = delete_header_footer
DELETERS[w("sectPr")] = delete_section_break
