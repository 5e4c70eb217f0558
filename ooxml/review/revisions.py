"""Writing tracked changes: the revision marks Word writes for insertions, deletions and formatting.

A document tracks changes when ``doc.tracker`` is a :class:`Tracker` (author). The editing code
calls the functions here at its mutation points; each does nothing when tracking is off, so the
untracked path stays as it was. Word's rules kept here:

- ``w:ins``/``w:del`` wrap runs, never sit inside one; deleted text is ``w:delText``
  (``w:delInstrText`` in field codes);
- a paragraph's mark (``w:pPr/w:rPr``) carries its own ``w:ins``/``w:del``: a deleted mark joins
  the paragraph with the next one when accepted;
- deleting text we inserted ourselves removes it (as Word does); deleting another author's
  insertion puts our ``w:del`` inside their ``w:ins``; inserting inside another author's
  insertion splits it around ours;
- every ``w:id`` is fresh: one counter above every revision, comment and bookmark id.
"""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import clock
from ooxml.xml.errors import OoxmlError
from ooxml.xml.namespaces import M, OX_ID, w
from ooxml.xml.order import get_or_add, insert_child
from ooxml.review.review_ops import EMPTIED_GO, KEEPS_LAST, accept_within
from ooxml.review.word_id_counter import new_word_id

W_INS, W_DEL, W_ID, W_AUTHOR, W_DATE = w("ins"), w("del"), w("id"), w("author"), w("date")
W_PPR, W_RPR, W_TRPR = w("pPr"), w("rPr"), w("trPr")
W_INSTR, W_DELINSTR = w("instrText"), w("delInstrText")
DEFAULT_AUTHOR = "ooxml-mcp"
class Tracker:
    """Tracking on: who makes the changes."""

    def __init__(self, author: str):
        self.author = author


class TrackingRefused(OoxmlError):
    error_type = "ValidationError"


def tracker(doc) -> Tracker | None:
    return getattr(doc, "tracker", None)


def refuse_when_tracking(doc, what: str) -> None:
    """Raise for an edit Word cannot record as a revision (merges, column changes)."""
    if tracker(doc) is not None:
        raise TrackingRefused(f"{what} cannot be recorded as a tracked change (Word has no revision for it).",
                              hint="Turn tracking off with docx_set_track_changes(enabled=false), make the "
                                   "change, and turn it on again.")


def now() -> str:
    """The revision date: the call's clock, which a journal replay pins (ooxml/xml/clock.py)."""
    return clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")


def stamp(doc, tag: str, near: etree._Element | None = None) -> etree._Element:
    """A new revision element (``w:ins``, ``w:del``, ``w:rPrChange`` ...) by the tracking author, now."""
    t = tracker(doc)
    author = t.author if t is not None else DEFAULT_AUTHOR
    return etree.Element(tag, {W_ID: new_word_id(doc, near), W_AUTHOR: author, W_DATE: now()})


def is_ours(doc, el: etree._Element | None) -> bool:
    t = tracker(doc)
    return el is not None and t is not None and el.get(W_AUTHOR) == t.author


# ---- paragraph marks and rows ---------------------------------------------------------------

def mark_of(p: etree._Element, tag: str) -> etree._Element | None:
    """The paragraph mark's ``w:ins`` or ``w:del`` (``w:pPr/w:rPr/w:…``), if any."""
    ppr = p.find(W_PPR)
    rpr = ppr.find(W_RPR) if ppr is not None else None
    return rpr.find(tag) if rpr is not None else None


def mark_paragraph(doc, p: etree._Element, tag: str) -> None:
    if mark_of(p, tag) is None:
        insert_child(get_or_add(get_or_add(p, "pPr"), "rPr"), stamp(doc, tag, p))


def row_mark(tr: etree._Element, tag: str) -> etree._Element | None:
    trpr = tr.find(W_TRPR)
    return trpr.find(tag) if trpr is not None else None


def mark_row(doc, tr: etree._Element, tag: str) -> None:
    if row_mark(tr, tag) is None:
        insert_child(get_or_add(tr, "trPr"), stamp(doc, tag, tr))


# ---- insertions -----------------------------------------------------------------------------

def _wrap_runs(doc, runs: list[etree._Element]) -> None:
    """Wrap runs in our w:ins: one per group of adjacent siblings; runs already in ours stay."""
    current: etree._Element | None = None
    for r in runs:
        parent = r.getparent()
        if parent.tag == W_INS and is_ours(doc, parent):
            current = None
            continue
        prev = r.getprevious()
        if current is not None and prev is current:
            current.append(r)
            continue
        current = stamp(doc, W_INS, r)
        r.addprevious(current)
        current.append(r)


_MATH = (f"{{{M}}}oMathPara", f"{{{M}}}oMath")


def _own_runs(el: etree._Element) -> list[etree._Element]:
    """The runs to wrap, in document order; an equation counts as one run (w:ins may hold m:oMath,
    so a reject removes it whole rather than leaving an empty skeleton of math structures)."""
    return [r for r in el.iter(B.W_R, *_MATH) if r.getparent().tag not in (W_INS, W_DEL)
            and r.getparent().tag != w("moveTo") and not _in_math(r, el)]


def _in_math(r: etree._Element, top: etree._Element) -> bool:
    for a in r.iterancestors():
        if a.tag in _MATH:
            return True
        if a is top:
            return False
    return False


def mark_inserted(doc, el: etree._Element) -> None:
    """Record a new block (paragraph, table, content control) or a new run as inserted by us."""
    if tracker(doc) is None:
        return
    if el.tag == B.W_R:
        _wrap_runs(doc, [el])
        return
    accept_within(el)  # a copy's old revisions become plain content inside our insertion
    _wrap_runs(doc, _own_runs(el))
    for p in el.iter(B.W_P):
        mark_paragraph(doc, p, W_INS)
    for tr in el.iter(B.W_TR):
        mark_row(doc, tr, W_INS)


def place_inserted_run(doc, run: etree._Element, *, after: etree._Element | None = None,
                       before: etree._Element | None = None, para: etree._Element | None = None) -> None:
    """Put a new run next to a run (or at the end of ``para``) inside our own w:ins.

    Next to a run in our insertion it joins that insertion; next to a run in another author's
    insertion, that insertion is split around ours.
    """
    ref = after if after is not None else before
    if ref is None:
        ins = stamp(doc, W_INS, para)
        ins.append(run)
        para.append(ins)
        return
    holder = ref.getparent()
    if holder.tag == W_INS and is_ours(doc, holder):
        (ref.addnext if after is not None else ref.addprevious)(run)
        return
    ins = stamp(doc, W_INS, ref)
    ins.append(run)
    if holder.tag == W_INS:  # another author's insertion: split it around ours
        _split_wrapper(doc, holder, ref, after is not None)
        (holder.addnext if after is not None else holder.addprevious)(ins)
        return
    (ref.addnext if after is not None else ref.addprevious)(ins)


def mark_inline_inserted(doc, els: list[etree._Element]) -> None:
    """New inline content already placed among a paragraph's runs (field runs, a note reference, a
    hyperlink): recorded as our insertion. Runs go into one w:ins; a hyperlink keeps its place and
    its runs go into a w:ins inside it (a w:ins holds runs, never links), as Word writes them."""
    if tracker(doc) is None or not els:
        return
    holder = els[0].getparent()
    if holder.tag == W_INS and (not is_ours(doc, holder) or any(el.tag != B.W_R for el in els)):
        _lift_out(doc, holder, els)  # inside another insertion: it is split around ours
    for group in _run_groups(els):
        if group[0].getparent().tag != W_INS:
            ins = stamp(doc, W_INS, group[0])
            group[0].addprevious(ins)
            ins.extend(group)
    for el in els:
        if el.tag != B.W_R:
            _wrap_runs(doc, [r for r in el if r.tag == B.W_R])


def _run_groups(els: list[etree._Element]) -> list[list[etree._Element]]:
    groups: list[list[etree._Element]] = []
    for el in els:
        if el.tag != B.W_R:
            groups.append([])
        elif groups and groups[-1] and groups[-1][-1].getnext() is el:
            groups[-1].append(el)
        else:
            groups.append([el])
    return [g for g in groups if g]


def _lift_out(doc, wrapper: etree._Element, els: list[etree._Element]) -> None:
    """Move adjacent children ``els`` out of ``wrapper``, splitting it around them."""
    _split_wrapper(doc, wrapper, els[-1], True)
    _split_wrapper(doc, wrapper, els[0], False)
    for el in els:
        wrapper.addprevious(el)
    doc.ids.forget(wrapper)
    wrapper.getparent().remove(wrapper)


def _split_wrapper(doc, wrapper: etree._Element, ref: etree._Element, after: bool) -> None:
    """Split ``wrapper`` at ``ref``: the part after (or before) ``ref`` moves to a copy of the wrapper."""
    children = list(wrapper)
    i = children.index(ref)
    moving = children[i + 1:] if after else children[:i]
    if not moving:
        return
    twin = copy.copy(wrapper)
    for c in list(twin):
        twin.remove(c)
    twin.attrib.pop(OX_ID, None)
    twin.set(W_ID, new_word_id(doc, wrapper))
    for c in moving:
        twin.append(c)
    (wrapper.addnext if after else wrapper.addprevious)(twin)


# ---- deletions ------------------------------------------------------------------------------

def _to_deleted_text(r: etree._Element) -> None:
    for child in r:
        if child.tag == B.W_T:
            child.tag = B.W_DELTEXT
        elif child.tag == W_INSTR:
            child.tag = W_DELINSTR


def delete_runs(doc, runs: list[etree._Element]) -> None:
    """Tracked deletion of runs: our own insertions go, the rest go under our w:del."""
    current: etree._Element | None = None
    for r in runs:
        parent = r.getparent()
        if parent.tag == W_DEL:
            continue  # already deleted
        if parent.tag == W_INS and is_ours(doc, parent):
            remove_run(doc, r)
            current = None
            continue
        _to_deleted_text(r)
        _delete_box_text(doc, r)
        if current is not None and r.getprevious() is current:
            current.append(r)
            continue
        current = stamp(doc, W_DEL, r)
        r.addprevious(current)
        current.append(r)


def remove_run(doc, r: etree._Element) -> None:
    """Take a run out of the tree (range markers stay), then the wrappers it leaves empty."""
    parent = r.getparent()
    doc.ids.forget(r)
    _remove_keeping_markers(r)
    _drop_emptied(parent)


def _delete_box_text(doc, r: etree._Element) -> None:
    """A deleted run anchoring a text box deletes the box's text too (no w:t may sit inside a w:del);
    its runs get deletions of their own, which a reject undoes like any other."""
    inner = [x for x in r.iter(B.W_R) if x is not r]
    if inner:
        delete_runs(doc, inner)  # runs in nested boxes are handled once: a run already in w:del is skipped


def _drop_emptied(el: etree._Element) -> None:
    """Remove ``el`` and then its wrappers while they hold nothing but range markers."""
    while el is not None and el.tag in EMPTIED_GO and el.getparent() is not None and \
            all(c.tag in B.MARKERS or not isinstance(c.tag, str) for c in el):
        parent = el.getparent()
        _remove_keeping_markers(el)
        el = parent


def _remove_keeping_markers(el: etree._Element) -> None:
    from ooxml.text.ranges import rescue_markers
    rescue_markers(el)
    el.getparent().remove(el)


def paragraph_is_empty(p: etree._Element) -> bool:
    """No runs or other content left: only properties and range markers."""
    for child in p:
        if child.tag == W_PPR or child.tag in B.MARKERS or not isinstance(child.tag, str):
            continue
        return False
    return True


def delete_paragraph(doc, p: etree._Element) -> bool:
    """Tracked deletion of a whole paragraph; True if it went away (it was all our own insertion)."""
    delete_runs(doc, [r for r in p.iter(B.W_R) if B.find_ancestor(r, B.W_P) is p])
    own = mark_of(p, W_INS)
    if own is not None and is_ours(doc, own) and paragraph_is_empty(p) and not _last_in_cell(p):
        doc.remove_block(p)
        return True
    mark_paragraph(doc, p, W_DEL)
    return False


def _last_in_cell(p: etree._Element) -> bool:
    return p.getparent() is not None and p.getparent().tag in KEEPS_LAST and B.next_block(p) is None


def delete_row(doc, tr: etree._Element) -> bool:
    """Tracked deletion of a table row with its content; True if it went away (our own new row)."""
    own = row_mark(tr, W_INS)
    if own is not None and is_ours(doc, own):
        tbl = B.find_ancestor(tr, B.W_TBL)
        doc.remove_block(tr)
        doc.changed(tbl)
        return True
    for p in list(tr.iter(B.W_P)):
        delete_paragraph(doc, p)
    mark_row(doc, tr, W_DEL)
    return False


def delete_block(doc, el: etree._Element) -> bool:
    """Tracked deletion of a block (paragraph, table, content control); True if it went away."""
    if el.tag == B.W_P:
        return delete_paragraph(doc, el)
    if el.tag == B.W_TBL:
        gone = [delete_row(doc, tr) for tr in B.table_rows(el)]
        if all(gone) and el.getparent() is not None:
            doc.remove_block(el)
            return True
        return False
    if el.tag == w("altChunk"):
        raise TrackingRefused("An embedded document (altChunk) cannot be deleted as a tracked change.",
                              hint="Turn tracking off to delete it.")
    for tr in list(el.iter(B.W_TR)):
        delete_row(doc, tr)
    for p in list(el.iter(B.W_P)):
        if p.getparent() is not None:
            delete_paragraph(doc, p)
    return False


def delete_inline(doc, el: etree._Element) -> None:
    """Tracked deletion of a run, hyperlink, image or inline content control."""
    if el.tag == B.W_R:
        delete_runs(doc, [el])
    elif el.tag in (w("drawing"), w("pict")):
        delete_runs(doc, [B.find_ancestor(el, B.W_R)])
    else:
        delete_runs(doc, list(el.iter(B.W_R)))


# ---- the block-insert hook ------------------------------------------------------------------

def on_block_inserted(doc, el: etree._Element) -> None:
    """Called by Document.insert_block for every new block while tracking is on."""
    mark_inserted(doc, el)


def runs_of_wrapper(el: etree._Element) -> list[etree._Element]:
    return list(el.iter(B.W_R))


def wrapper_of(run: etree._Element) -> etree._Element | None:
    parent = run.getparent()
    return parent if parent is not None and parent.tag in (W_INS, W_DEL) else None






def insert_run(doc, para: etree._Element, run: etree._Element, mode: str, target: etree._Element) -> None:
    """Place a new run (docx_insert_run, inline images) as our tracked insertion."""
    if mode == "before":
        place_inserted_run(doc, run, before=target)
    elif mode == "after":
        place_inserted_run(doc, run, after=target)
    elif mode == "start":
        ins = stamp(doc, W_INS, para)
        ins.append(run)
        ppr = para.find(W_PPR)
        para.insert(1 if ppr is not None else 0, ins)
    else:
        place_inserted_run(doc, run, para=para)


def is_deleted(el: etree._Element) -> bool:
    """A tracked deletion took ``el`` whole: a deleted run, a paragraph whose mark and text are
    deleted, a table whose rows are all deleted. It reads as gone until the deletion is rejected."""
    if el.tag == B.W_R:
        return next(el.iterancestors(W_DEL, w("moveFrom")), None) is not None
    if el.tag == B.W_P:
        return mark_of(el, W_DEL) is not None and next(
            (r for r in B.iter_runs(el) if len(r) > (r.find(W_RPR) is not None)), None) is None
    if el.tag == B.W_TBL:
        rows = B.table_rows(el)
        return bool(rows) and all(row_mark(tr, W_DEL) is not None for tr in rows)
    return False


def refuse_deleted(doc, el: etree._Element, arg: str = "element_id") -> None:
    """Editing tools treat a tracked-deleted element as gone (as it reads), whether tracking is on or not."""
    if el is not None and is_deleted(el):
        from ooxml.xml.errors import ElementNotFound
        raise ElementNotFound(f"{arg}: {B.kind(el)} {el.get(OX_ID) or ''} is deleted (a tracked deletion), so "
                              "it cannot be edited or used as a position.".replace("  ", " "),
                              hint="Reject that deletion with docx_reject_revisions to bring it back, or use "
                                   "a neighbouring element.")
