"""Fields (SPEC §10, toolset layout): PAGE, NUMPAGES, DATE, TIME, SEQ, REF or a raw instruction."""
from __future__ import annotations

from ooxml.text import body as B
from ooxml.refs import fields as FL
from ooxml.opc.link_policy import policy_of
from ooxml.review import edits
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import W
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool


def _estimated_pages(doc) -> int:
    """Pages as the document's explicit breaks count them (Word recomputes on open)."""
    body = doc.body
    breaks = len(body.xpath(".//w:br[@w:type='page'] | ./w:p/w:pPr/w:sectPr[not(w:type) or "
                            "w:type/@w:val!='continuous']", namespaces={"w": W}))
    return breaks + 1


def _result(doc, name: str, instruction: str, place) -> str:
    if name == "PAGE":
        return "1"
    if name == "NUMPAGES":
        return str(_estimated_pages(doc))
    if name in ("DATE", "TIME"):
        return FL.date_result(instruction)
    if name == "REF":
        text = FL.bookmark_text(doc.part_of(place.paragraph).tree.getroot(), instruction.split()[1])
        if text is None:
            text = FL.bookmark_text(doc.root, instruction.split()[1])
        if text is None:
            raise ValidationError(f"There is no bookmark named '{instruction.split()[1]}'.",
                                  hint="docx_list_bookmarks lists them; docx_add_bookmark adds one.")
        return text or " "
    return " " if name != "SEQ" else "1"  # SEQ: counted once in place


PAGE_FIELDS = ("PAGE", "NUMPAGES", "SECTIONPAGES", "PAGEREF")  # results only a page layout knows


def _page_note(doc, name: str, para) -> tuple[bool, str | None]:
    """(mark the field dirty, what the answer says about its result) for fields of page numbers.

    Their cached result here is a placeholder ('1', or pages counted by explicit breaks). Word and
    LibreOffice recompute PAGE in a header or footer on every page; elsewhere the field is marked
    ``w:dirty="true"``, which ECMA-376 (17.16.18/17.16.19) defines as "results stale, recalculate
    on reading" and Word honours when it opens the file (``w:updateFields`` in settings asks the same).
    """
    if name not in PAGE_FIELDS:
        return False, None
    if name == "PAGE" and B.kind(doc.part_of(para).tree.getroot()) in ("Header", "Footer"):
        return False, "recomputed on every page by Word and LibreOffice"
    return True, ("a placeholder until the file is laid out: the field is marked dirty (w:dirty), so Word "
                  "recomputes it when it opens the file; LibreOffice recomputes page fields when it lays it out")


@tool(toolset="layout", title="Insert a field")
def docx_insert_field(ctx: CallContext, e: Edit, session_id: str | None, field: str, position: str,
                      instruction: str | None = None) -> None:
    """Insert a field with its result; fetching fields (INCLUDETEXT, LINK) need the server's leave.

    Args:
        field: PAGE, NUMPAGES, DATE, TIME, SEQ, REF, or a raw instruction.
        position: start:/end: a paragraph or before:/after: a run.
        instruction: SEQ: name; REF: bookmark; DATE/TIME: picture; or raw.
    """
    doc = e.doc
    name, full = FL.instruction_for(field, instruction)
    policy_of(ctx.services.config).check_field(full)
    place = e.inline(position, "field")
    result = _result(doc, name, full, place)
    para = place.paragraph
    dirty, note = _page_note(doc, name, para)
    runs = FL.field_runs(full, result, place.model_rpr, dirty=dirty)
    e.show(para)
    e.change(para)
    place.put(runs)
    edits.mark_inserted(doc, runs)  # tracked: the field's runs in one w:ins
    begin = FL.begin_char(runs)
    if name == "SEQ":
        FL.set_result(begin, str(FL.seq_count(doc.part_of(para).tree.getroot(), full.split()[1], begin)))
    fid = doc.id_of(begin)
    e.done(para, marker="UPDATED", element_id=fid, inserted=begin, cursor=(para, "after"),
           fields={"Position": place.text, "Field": full, "Result": FL.result_text(begin),
                   **({"Result Note": note} if note else {}), "Paragraph": doc.id_of(para)})

