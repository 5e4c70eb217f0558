"""Fields (SPEC §10, toolset layout): PAGE, NUMPAGES, DATE, TIME, SEQ, REF or a raw instruction."""
from __future__ import annotations

from ooxml import fields as FL
from ooxml import revisions as REV
from ooxml.errors import ValidationError
from ooxml.namespaces import W
from tools.docx.common import answer, box_lines, session_of
from tools.docx.inline_place import inline_place
from tools.runtime.registry import CallContext, tool
from tools.runtime.sessions import Cursor


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


@tool(toolset="layout", title="Insert a field")
def docx_insert_field(ctx: CallContext, session_id: str, field: str, position: str,
                      instruction: str | None = None) -> str:
    """Insert a Word field among a paragraph's runs, with its result already filled in.

    PAGE (page number; in a header or footer it numbers every page), NUMPAGES, DATE, TIME,
    SEQ (with instruction = the sequence name, e.g. 'Figure'), REF (instruction = a bookmark name),
    or any other field given as a raw instruction ('AUTHOR', 'FILENAME \\p'). Word refreshes results
    when it updates fields. Views show the result, never the instruction.

    Args:
        session_id: The session.
        field: PAGE, NUMPAGES, DATE, TIME, SEQ, REF, or a raw field instruction.
        position: start:/end: a paragraph, or before:/after: a run (e.g. 'end:para_…' of a footer paragraph).
        instruction: For SEQ the sequence name, for REF the bookmark name, for DATE/TIME a picture switch
            ('\\@ "d MMMM yyyy"'); or a whole raw instruction.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    name, full = FL.instruction_for(field, instruction)
    place = inline_place(session, position, "field")
    result = _result(doc, name, full, place)
    runs = FL.field_runs(full, result, place.model_rpr)
    para = place.paragraph
    before = box_lines(doc, [para])
    doc.will_change(para)
    place.put(runs)
    REV.mark_inline_inserted(doc, runs)  # tracked: the field's runs in one w:ins
    begin = FL.begin_char(runs)
    if name == "SEQ":
        FL.set_result(begin, str(FL.seq_count(doc.part_of(para).tree.getroot(), full.split()[1], begin)))
    doc.changed(para)
    fid = doc.id_of(begin)
    session.last_insert = fid
    session.cursor = Cursor(doc.id_of(para), "after")
    return answer(session, "Insert Field", para, marker="UPDATED", before=before, after=box_lines(doc, [para]),
                  element_id=fid, fields={"Position": place.text, "Field": full, "Result": FL.result_text(begin),
                                          "Paragraph": doc.id_of(para)})

