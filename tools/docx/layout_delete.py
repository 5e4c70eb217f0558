"""docx_delete for the layout kinds: fields, section breaks, headers and footers (via protocol.DELETERS: each
takes the call's edit, tools/docx/protocol.py, and the element)."""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.refs import fields as FL
from ooxml.review import edits
from ooxml.review import revisions as REV
from ooxml.xml.errors import InvalidElementType
from ooxml.xml.namespaces import w
from ooxml.xml.order import insert_child
from ooxml.layout.page_setup import HF_REFS, header_footer_refs, section_list
from tools.docx.protocol import DELETERS


def delete_field(e, begin) -> None:
    """A field goes with all its runs; tracked, they stay under our w:del (w:delText, w:delInstrText)."""
    span = FL.field_span(begin)
    if not span:
        raise InvalidElementType("This field spans paragraphs and cannot be deleted as one piece.",
                                 hint="Delete the paragraphs it covers, or its runs one by one.")
    doc = e.doc
    eid = doc.id_of(begin)
    holder = B.find_ancestor(begin, B.W_P)
    tracked = edits.tracking(doc)
    e.show(holder)
    e.change(holder)
    if tracked:
        edits.delete_runs(doc, [r for r in span if r.tag == B.W_R])
    else:
        for el in span:
            doc.ids.forget(el)
            el.getparent().remove(el)
    e.done(holder, element_id=eid, fields={"Deleted": f"Field {eid}" + (" (tracked)" if tracked else "")})


def delete_section_break(e, sect) -> None:
    """Remove a section break: the content before it joins the following section (as in Word).
    Tracked, as Word records it: the paragraph mark holding it is marked deleted; accepted, the
    paragraph joins the next and the sections merge; rejected, all stays."""
    doc = e.doc
    holder = sect.getparent().getparent() if sect.getparent().tag == w("pPr") else None
    if holder is None:
        raise InvalidElementType("The last section has no break to delete: it is the body's own section.",
                                 hint="Delete a section break (sect_… of an earlier section) instead.")
    eid = doc.id_of(sect)
    e.show(holder)
    if edits.tracking(doc):
        e.change(holder)
        REV.mark_paragraph(doc, holder, REV.W_DEL)
        e.done(holder, element_id=eid,
               fields={"Deleted": f"Section break {eid} (tracked: its paragraph mark is marked deleted)"})
        return
    sections = section_list(doc)
    following = sections[sections.index(sect) + 1]
    e.change(holder, following)
    _carry_references(sect, following)
    doc.ids.forget(sect)
    sect.getparent().remove(sect)
    e.done(holder, element_id=eid, fields={"Deleted": f"Section break {eid}"})


def delete_header_footer(e, root) -> None:
    """Remove a header or footer: the sections referring to it show none (or inherit an earlier one)."""
    from ooxml.layout import headers as H
    from render.answer import success_answer
    doc = e.doc
    eid = doc.id_of(root)
    kind = B.kind(root)
    name = doc.part_of(root).name
    e.changed(root)
    e.report()  # views drawn of it go before its part does
    refs = H.remove(doc, root)
    fields = {"Deleted": f"{kind} {eid} ({name})", "References Removed": refs,
              **e.not_tracked(f"Word records no revision for removing a {kind} part")}
    e.plain(success_answer("Delete", element_id=eid, fields=fields))


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
