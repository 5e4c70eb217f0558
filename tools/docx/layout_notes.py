"""Footnotes and endnotes (SPEC §10, toolset layout): insert, list, delete with the reference."""
from __future__ import annotations

from typing import Literal

from ooxml.text import body as B
from ooxml.text import notes as N
from ooxml.review import edits
from ooxml.review import revisions as REV
from ooxml.xml.errors import InvalidElementType, ValidationError
from ooxml.xml.namespaces import w
from ooxml.review.tracked_text import split_after
from render.answer import success_answer
from render.width import cut
from tools.docx.common import expect, resolve, session_of
from tools.docx.common import MAX_TEXT
from tools.docx.protocol import DELETERS, Edit
from tools.runtime.call.registry import CallContext, tool

MAX_LISTED = 200


def _later_refs_changed(doc, kind: str, ref) -> None:
    """Paragraphs whose references are numbered after ``ref`` show new numbers: redraw them."""
    refs = N.references(doc, kind)
    try:
        i = refs.index(ref)
    except ValueError:
        return
    for later in refs[i + 1:]:
        doc.redraw(B.find_ancestor(later, B.W_P))


@tool(toolset="layout", title="Insert a footnote or endnote")
def docx_insert_footnote(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, text: str,
                         anchor_text: str | None = None,
                         kind: Literal["footnote", "endnote"] = "footnote") -> None:
    """Add a footnote or endnote marked after the element (or anchor_text in it).

    Args:
        element_id: A body paragraph (mark at its end) or run.
        anchor_text: Mark after its first occurrence.
    """
    _insert_note(e, element_id, text, anchor_text, kind)


def _insert_note(e, element_id: str, text: str, anchor_text: str | None, kind: str) -> None:
    session, doc = e.session, e.doc
    if kind not in N.KINDS:
        raise ValidationError(f"kind '{kind}' is not footnote or endnote.",
                              hint="Pass kind='footnote' or kind='endnote'.")
    if not text.strip() or len(text) > MAX_TEXT:
        raise ValidationError("text must be a non-empty note text.",
                              hint="Pass the note's words as text, e.g. text='See chapter 2.'.")
    el = expect(resolve(session, element_id), {B.W_P, B.W_R}, "paragraph or run")
    para = el if el.tag == B.W_P else B.find_ancestor(el, B.W_P)
    if doc.part_of(para) is not doc.main or B.find_ancestor(para, {w("txbxContent")}) is not None:
        raise InvalidElementType("Notes can be referenced from the document body only.",
                                 hint="Use a paragraph or run of the body (not a header, footer, note or text box).")
    if anchor_text is not None:
        from ooxml.review.tracked_text import segments
        if anchor_text == "" or anchor_text not in segments(B.iter_runs(para))[1]:
            raise ValidationError(f"anchor_text '{anchor_text}' is not in the paragraph's text.",
                                  hint="Pass text exactly as it reads in the paragraph (case-sensitive).")
    e.show(para)
    N.before_reference_insert(doc, kind)
    root = N.ensure_notes_root(doc, kind)
    note_id = N.next_id(root)
    note = N.make_note(doc, kind, note_id, text)
    doc.insert_block(note, container=root)
    ref = N.make_reference(doc, kind, note_id)
    e.change(para)
    if anchor_text is not None:
        split_after(doc, para, anchor_text).addnext(ref)
    elif el.tag == B.W_R:
        el.addnext(ref)
    else:
        para.append(ref)
    edits.mark_inserted(doc, [ref])  # tracked: the reference in a w:ins (the note's text is too)
    e.report()  # the numbers below are read from the changed document
    nid = doc.id_of(note)
    ref_tag = ref.find(N.REF_TAGS[kind])
    _later_refs_changed(doc, kind, ref_tag)
    note_para = note.find(B.W_P)
    e.done(para, marker="UPDATED", element_id=nid, inserted=note, cursor=(para, "after"),
           fields={"Kind": kind, "Number": N.label(kind, N.number_of(doc, ref_tag) or 0),
                   "Note Paragraph": doc.id_of(note_para), "Paragraph": doc.id_of(para)})


@tool(toolset="layout", read_only=True, idempotent=True, title="List footnotes and endnotes")
def docx_list_notes(ctx: CallContext, session_id: str | None,
                    kind: Literal["footnote", "endnote"] | None = None) -> str:
    """List footnotes and endnotes in Word's order: number, ID, text, reference.

    Args:
        kind: Default both.
    """
    session = session_of(ctx, session_id)
    doc = session.doc
    kinds = [kind] if kind else list(N.KINDS)
    lines, total = [], 0
    for k in kinds:
        if k not in N.KINDS:
            raise ValidationError(f"kind '{k}' is not footnote or endnote.",
                                  hint="Pass kind='footnote' or kind='endnote', or leave kind out to list both.")
        root = N.notes_root(doc, k)
        if root is None:
            continue
        by_id = {n.get(w("id")): n for n in root if n.tag == w(k) and N.is_user_note(n)}
        shown = set()
        for ref in N.references(doc, k):
            note = by_id.get(ref.get(w("id")))
            if note is None or note in shown:
                continue
            shown.add(note)
            total += 1
            if len(lines) < MAX_LISTED:
                n = N.number_of(doc, ref)
                where = doc.id_of(B.find_ancestor(ref, B.W_P))
                first = note.find(B.W_P)
                lines.append(f"- [^{N.label(k, n) if n else '*'}] {doc.id_of(note)} ({k}, paragraph "
                             f"{doc.id_of(first) if first is not None else '-'}) in {where}: "
                             f"{cut(N.note_text(note), 80)}")
        for note in by_id.values():
            if note not in shown:
                total += 1
                lines.append(f"- (no reference) {doc.id_of(note)} ({k}): {cut(N.note_text(note), 80)}")
    fields = {"Notes": total}
    return success_answer("List Notes", fields=fields, content="\n".join(lines) or "The document has no notes.")


def delete_note(e, note) -> None:
    """A note with its reference; tracked, as Word records it: the reference is deleted (w:del) and
    accepting that removes the note. Our own new note just goes."""
    doc = e.doc
    kind = N.kind_of(note)
    if not N.is_user_note(note):
        raise InvalidElementType("Separator notes belong to Word's notes part and cannot be deleted.",
                                 hint="Delete only the notes that docx_list_notes shows; separator notes stay.")
    nid = doc.id_of(note)
    ref = N.reference_of(doc, note)
    para = B.find_ancestor(ref, B.W_P) if ref is not None else None
    e.show(para)
    run = ref.getparent() if ref is not None else None
    own = run is not None and run.getparent().tag == REV.W_INS and REV.is_ours(doc, run.getparent())
    if ref is not None and edits.tracking(doc) and not own:
        e.change(para)
        edits.delete_runs(doc, [run])
        e.done(para, element_id=nid, fields={"Deleted": f"{kind.capitalize()} {nid} (tracked: its reference is "
                                                       "marked deleted; accepting removes the note)"})
        return
    if ref is not None:
        _later_refs_changed(doc, kind, ref)
        e.change(para)
        if all(c.tag in (w("rPr"), ref.tag) for c in run):
            doc.ids.forget(run)
            holder = run.getparent()
            holder.remove(run)
            if holder.tag == REV.W_INS and not len(holder):
                holder.getparent().remove(holder)
        else:
            run.remove(ref)
        e.report()
    doc.remove_block(note)
    fields = {"Deleted": f"{kind.capitalize()} {nid}"}
    if para is None:
        e.plain(success_answer("Delete", element_id=nid, fields=fields))
    else:
        e.done(para, element_id=nid, fields=fields)


DELETERS[w("footnote")] = delete_note
DELETERS[w("endnote")] = delete_note
