"""Edits that record themselves as tracked changes while the document tracks them.

As ``Document.insert_block`` marks a new block inserted, these consult ``doc.tracker`` themselves, so
a tool cannot forget: deleting, setting text, placing a run, formatting. The caller announces the
change (``doc.will_change``) and reports it (``doc.changed``), as for any edit in place; tools do it
through the edit protocol (tools/docx/protocol.py).
"""
from __future__ import annotations

from lxml import etree

from ooxml.review import revisions as R
from ooxml.review.format_changes import PropertyChanges
from ooxml.review import tracked_text as TT
from ooxml.text import build
from ooxml.text import replace as RP
from ooxml.xml.namespaces import w

# ``with formatting(doc, runs=…, paragraphs=…, sections=…):`` around a formatting edit: tracked,
# w:rPrChange/w:pPrChange/w:sectPrChange keep the properties from before.
formatting = PropertyChanges


def tracking(doc) -> bool:
    return R.tracker(doc) is not None


def delete_block(doc, el: etree._Element) -> bool:
    """Remove a block, or mark it deleted while tracking; True if it left the tree."""
    if tracking(doc):
        return R.delete_block(doc, el)
    doc.remove_block(el)
    return True


def delete_inline(doc, el: etree._Element) -> bool:
    """Remove a run, hyperlink, image or inline control, or mark it deleted; True if it left the tree."""
    if tracking(doc):
        R.delete_inline(doc, el)
        return el.getparent() is None
    doc.remove_block(el)
    return True


def delete_runs(doc, runs: list[etree._Element]) -> None:
    """Remove runs, or mark them deleted (our own insertions just go)."""
    if tracking(doc):
        R.delete_runs(doc, runs)
        return
    for r in runs:
        if r.getparent() is not None:
            r.getparent().remove(r)


def set_paragraph_text(doc, p: etree._Element, text: str) -> None:
    """A paragraph's whole text by a word diff: unchanged words keep their runs and formatting;
    tracked, the changed words become w:del/w:ins."""
    TT.set_paragraph_text(doc, p, text, track=tracking(doc))


def set_run_text(doc, r: etree._Element, text: str) -> bool:
    """A run's text; tracked, the diff stays inside the run. False when the run left the tree (it was
    our own insertion, deleted whole)."""
    if tracking(doc):
        TT.set_run_text(doc, r, text)
        return r.getparent() is not None
    build.set_run_text(r, text)
    return True


def replace_matches(doc, found: list, old: str, new: str) -> int:
    """Replace the matches ``ooxml/text/replace.find_all`` found; tracked, word-level w:del/w:ins where
    unchanged words keep their runs. The number of replacements."""
    if tracking(doc):
        return sum(TT.replace_in_paragraph(doc, m.p, old, new) for m in found)
    return sum(RP.apply(doc, m, new) for m in found)


def place_run(doc, para: etree._Element, run: etree._Element, mode: str, target: etree._Element) -> None:
    """A new run ``mode`` (before/after/start/end) ``target`` in ``para``; tracked, in a w:ins."""
    if tracking(doc):
        R.insert_run(doc, para, run, mode, target)
    elif mode == "before":
        target.addprevious(run)
    elif mode == "after":
        target.addnext(run)
    elif mode == "start":
        ppr = para.find(w("pPr"))
        para.insert(1 if ppr is not None else 0, run)
    else:
        para.append(run)


def mark_inserted(doc, els: list[etree._Element]) -> None:
    """Inline content a tool placed itself (fields, links, note references): in a w:ins while tracking."""
    R.mark_inline_inserted(doc, els)


__all__ = ["formatting", "tracking", "delete_block", "delete_inline", "delete_runs", "set_paragraph_text",
           "set_run_text", "replace_matches", "place_run", "mark_inserted"]
