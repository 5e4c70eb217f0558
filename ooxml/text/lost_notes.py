"""Notes whose reference went: dropped at the end of the call that removed it, as Word drops a note
with its reference mark.

A reference goes in many ways (docx_delete of its paragraph or table, a range delete, a copy
replaced ...). As for hyperlink relationships (ooxml/refs/link_rels.py), the end of a call reads the
blocks the undo recorder saw change or go (``History.gone_and_changed``): a footnote or endnote whose
reference stood in the old state of such a block and that the body no longer refers to is removed
(``doc.remove_block``: undo puts it back). A tracked deletion keeps the reference inside its w:del, so
its note stays until the deletion is accepted (review_ops drops it then): accepted, tracked edits give
what the same edits give untracked.
"""
from __future__ import annotations

from lxml import etree

from ooxml.text import notes as N
from ooxml.xml.namespaces import w

_W_ID = w("id")
_KIND_OF = {tag: kind for kind, tag in N.REF_TAGS.items()}


def _refs(el: etree._Element | None) -> set[tuple[str, str]]:
    if el is None:
        return set()
    return {(_KIND_OF[r.tag], r.get(_W_ID)) for r in el.iter(*N.REF_TAGS.values())}


def _gone(doc) -> set[tuple[str, str]]:
    """(kind, note id) of the references gone from the blocks this call changed or removed."""
    out: set = set()
    for old, live, _ in doc.history.gone_and_changed():
        before = _refs(old)
        if before:
            out |= before - (_refs(live) if live is not None and live.getparent() is not None else set())
    return out


def drop_lost(doc) -> int:
    """Remove the notes the current call left without a reference; how many went."""
    gone = _gone(doc)
    removed = 0
    for kind in N.KINDS:
        ids = {nid for k, nid in gone if k == kind}
        if not ids:
            continue
        in_use = {r.get(_W_ID) for r in N.references(doc, kind)}
        for nid in sorted(ids - in_use):
            note = N.note_by_id(doc, kind, nid)
            if note is not None and note.getparent() is not None and N.is_user_note(note):
                doc.remove_block(note)
                removed += 1
    return removed
