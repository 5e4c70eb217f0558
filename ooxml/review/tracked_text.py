"""Tracked text edits as a word-level diff: only the words that change become w:del / w:ins.

The old text is the text as it reads with every revision accepted (deleted text is never
matched or edited). It is cut into word, space and punctuation tokens and compared with the
new text (``ooxml.text.sequence_diff``: bounded work); each differing stretch becomes a deletion of the old
characters (runs split at its edges, so the words around keep their runs and formatting)
followed by an insertion formatted like the text it replaces.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Iterable

from lxml import etree

from ooxml.text import body as B
from ooxml.text import sequence_diff
from ooxml.review import revisions as R
from ooxml.review import review_ops as RO
from ooxml.review.word_id_counter import fresh_ids
from ooxml.text.build import clean_text, copy_props, make_run, mark_rpr
from ooxml.text.replace import segment_at as _index
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import OX_ID, XML, w

# A word (or a punctuation mark) with the spaces after it: half the tokens of splitting spaces
# apart, and no token as frequent as a space (SequenceMatcher's cost grows with repeats).
TOKEN = re.compile(r"\w+\s*|[^\w\s]\s*|\s+", re.U)
BARRIER = "\x00"  # an image, field character ... : never equal to new text (clean_text drops NUL)
_XML_SPACE = f"{{{XML}}}space"
_RPR = w("rPr")
_CHARS = {w("tab"): "\t", w("br"): "\n", w("cr"): "\n", w("noBreakHyphen"): "\u2011", w("ptab"): "\t"}
# Zero-width: neither text nor a barrier; they stay where they are.
_ZERO = {w(n) for n in "rPr lastRenderedPageBreak footnoteReference endnoteReference commentReference "
                       "annotationRef footnoteRef endnoteRef separator continuationSeparator "
                       "softHyphen".split()}


@dataclass(slots=True)  # made per piece of text read: the word diff and docx_compare read many
class Seg:
    child: etree._Element  # the w:t (or tab, br, barrier element); its parent is the run
    start: int
    text: str


def segments(runs: Iterable[etree._Element], zero: set = _ZERO, on_item=None) -> tuple[list[Seg], str]:
    """The runs' text: text, tabs and breaks as themselves, other items (not ``zero``) as BARRIER,
    each also handed to ``on_item`` (docx_compare reads what they are)."""
    segs: list[Seg] = []
    texts: list[str] = []
    pos = 0
    w_t = B.W_T  # (names bound here: docx_compare reads every changed paragraph through this loop)
    for r in runs:
        for child in r:
            tag = child.tag
            if tag == w_t:
                text = child.text or ""
            elif tag in _CHARS:
                text = _CHARS[tag]
            elif not isinstance(tag, str) or tag in zero:
                continue
            else:
                text = BARRIER
                if on_item is not None:
                    on_item(child)
            if text:
                segs.append(Seg(child, pos, text))
                texts.append(text)
                pos += len(text)
    return segs, "".join(texts)


def word_edits(old: str, new: str, offset: int = 0) -> list[tuple[int, int, str]]:
    """(start, end, replacement) for every stretch of ``old`` that differs from ``new``, by words.

    Tokens are compared by their word (a changed space after an unchanged word is an edit of
    the space alone); the stretches between unchanged words come from SequenceMatcher.
    """
    a, b = TOKEN.findall(old), TOKEN.findall(new)
    starts = [0]
    for tok in a:
        starts.append(starts[-1] + len(tok))
    keys_a = [t.rstrip() or t for t in a]
    keys_b = [t.rstrip() or t for t in b]
    edits = []
    for tag, i1, i2, j1, j2 in _opcodes(keys_a, keys_b):
        if tag == "equal":
            for k in range(i2 - i1):
                ta, tb = a[i1 + k], b[j1 + k]
                if ta != tb:  # same word, other spaces after it
                    word = len(keys_a[i1 + k]) if keys_a[i1 + k] != ta or not ta.isspace() else 0
                    edits.append((offset + starts[i1 + k] + word, offset + starts[i1 + k + 1], tb[word:]))
            continue
        lo, hi, text = starts[i1], starts[i2], "".join(b[j1:j2])
        while hi > lo and text and old[hi - 1] == text[-1] and text[-1].isspace():
            hi, text = hi - 1, text[:-1]  # "quick " -> "slow ": the space after them is unchanged
        edits.append((offset + lo, offset + hi, text))
    return edits


def _opcodes(a: list[str], b: list[str]) -> list[tuple]:
    """The token lists' opcodes (SequenceMatcher's where that is cheap; bounded work always)."""
    return sequence_diff.opcodes(a, b)


# ---- splitting runs -------------------------------------------------------------------------------

def _shell(run: etree._Element) -> etree._Element:
    """An empty run with the same attributes and run properties (no ID of ours; revision marks
    get new w:ids once placed)."""
    new = _empty(run.tag)
    for name, value in run.attrib.items():
        if name != OX_ID:
            new.set(name, value)
    rpr = B.props(run, _RPR)
    if rpr is not None:
        new.append(rpr.__deepcopy__(None))  # copy.deepcopy's dispatch costs as much as the copy
    return new


_EMPTY = threading.local()  # per thread: an element copied is read in the copying thread only


def _empty(tag: str) -> etree._Element:
    """``etree.Element(tag)``, copied from one made once (half its cost: runs split by the thousand)."""
    made = getattr(_EMPTY, "made", None)
    if made is None:
        made = _EMPTY.made = {}
    proto = made.get(tag)
    if proto is None:
        proto = made[tag] = etree.Element(tag)
    return proto.__copy__()


def _set_text(t: etree._Element, text: str) -> None:
    t.text = text
    if text != text.strip():
        t.set(_XML_SPACE, "preserve")


def split_at(doc, segs: list[Seg], pos: int) -> etree._Element | None:
    """Make ``pos`` a run boundary; the run that now starts at ``pos`` (None at the end).

    THE run splitter (tracked edits, comment and note anchors): the new piece keeps the run's
    properties, its tracked format change under a fresh w:id."""
    if not segs or pos >= segs[-1].start + len(segs[-1].text):
        return None
    i = _index(segs, pos)
    seg = segs[i]
    run = seg.child.getparent()
    k = pos - seg.start
    if k == 0:
        before = [c for c in seg.child.itersiblings(preceding=True)
                  if isinstance(c.tag, str) and c.tag not in _ZERO]
        if not before:
            return run
        moving = [seg.child, *seg.child.itersiblings()]
    else:  # inside a w:t: cut its text
        right = _empty(B.W_T)
        _set_text(right, seg.text[k:])
        _set_text(seg.child, seg.text[:k])
        segs.insert(i + 1, Seg(right, pos, seg.text[k:]))  # lookups stay right after the cut
        seg.text = seg.text[:k]
        moving = [right, *seg.child.itersiblings()]
    new = _shell(run)
    for c in moving:
        new.append(c)
    run.addnext(new)
    fresh_ids(doc, new)
    return new


def _run_at(segs: list[Seg], pos: int) -> etree._Element | None:
    """The run holding the character at ``pos`` (after splits), if any."""
    if not segs or pos < 0 or pos >= segs[-1].start + len(segs[-1].text):
        return None
    seg = segs[_index(segs, pos)]
    return seg.child.getparent()


def split_after(doc, p: etree._Element, anchor_text: str) -> etree._Element:
    """The run ending exactly where the first ``anchor_text`` ends in ``p`` (splitting a run if needed)."""
    segs, text = segments(B.iter_runs(p))
    at = text.find(anchor_text) if anchor_text else -1
    if at < 0:
        raise ValidationError(f"anchor_text '{anchor_text}' is not in the paragraph's text.",
                              hint="Pass text exactly as it reads in the paragraph (case-sensitive).")
    split_at(doc, segs, at + len(anchor_text))
    return _run_at(segs, at + len(anchor_text) - 1)


# ---- applying edits ----------------------------------------------------------------------------------

def _model_rpr(run: etree._Element | None, para: etree._Element) -> etree._Element | None:
    """The formatting new text takes: the run's, else (an empty paragraph) its first run's or,
    as Word types there, its paragraph mark's."""
    if run is None:
        run = next(B.iter_runs(para), None)
        if run is None:
            return mark_rpr(para)
    rpr = run.find(w("rPr"))
    return copy_props(rpr) if rpr is not None else None  # a run formatted by its style alone stays so


def _holder(run: etree._Element) -> etree._Element:
    """The run's container (paragraph, link, field ...), revision wrappers skipped."""
    holder = run.getparent()
    while holder.tag in (R.W_INS, R.W_DEL):
        holder = holder.getparent()
    return holder


def _place(doc, run: etree._Element, *, after=None, before=None, para=None) -> None:
    """Untracked: the new run goes where a tracked one would, without a w:ins of its own."""
    if after is not None:
        after.addnext(run)
    elif before is not None:
        before.addprevious(run)
    else:
        para.append(run)


_REFERENCES = {w(n) for n in "footnoteReference endnoteReference commentReference".split()}


def _remove_runs(doc, runs: list[etree._Element]) -> None:
    """Untracked: the runs go as an accepted deletion takes them; a run holding a note or comment
    reference keeps it (and only it), so notes and comments do not dangle."""
    for r in runs:
        if r.getparent() is None:
            continue
        if any(c.tag in _REFERENCES for c in r):
            for c in [c for c in r if c.tag != w("rPr") and c.tag not in _REFERENCES]:
                r.remove(c)
            continue
        RO.remove_as_accepted(doc, r)


def apply_edits(doc, segs: list[Seg], edits: list[tuple[int, int, str]], para: etree._Element,
                empty_anchor: etree._Element | None = None, track: bool = True) -> None:
    """Apply non-overlapping edits (start, end, text) right to left: tracked changes, or (``track``
    False) the same edits made outright, so unchanged words keep their runs either way."""
    place = R.place_inserted_run if track else _place
    for lo, hi, text in sorted(edits, reverse=True):
        split_at(doc, segs, hi)
        first = split_at(doc, segs, lo) if hi > lo else None
        doomed: list[etree._Element] = []
        if hi > lo:
            doomed.append(first)
            for seg in segs[_index(segs, lo) + 1:]:
                if seg.start >= hi:
                    break
                run = seg.child.getparent()
                if run is not doomed[-1]:
                    doomed.append(run)
        if text:
            left = _run_at(segs, lo - 1) if lo > 0 else None
            model = doomed[0] if doomed else left if left is not None else _run_at(segs, lo)
            new = make_run(text, _model_rpr(model if model is not None else empty_anchor, para))
            if doomed:  # after the deleted text, in the container where it starts (not inside a link it enters)
                place(doc, new, after=[r for r in doomed if _holder(r) is _holder(doomed[0])][-1])
            elif left is not None:
                place(doc, new, after=left)
            elif _run_at(segs, lo) is not None:
                right = split_at(doc, segs, lo)
                place(doc, new, before=right if right is not None else _run_at(segs, lo))
            elif empty_anchor is not None:
                place(doc, new, after=empty_anchor)
            else:
                place(doc, new, para=para)
        if doomed:
            (R.delete_runs if track else _remove_runs)(doc, doomed)


def set_paragraph_text(doc, p: etree._Element, new_text: str, track: bool = True) -> None:
    """docx_update_paragraph_text: a word diff, tracked or (``track`` False) made outright."""
    segs, old = segments(B.iter_runs(p))
    apply_edits(doc, segs, word_edits(old, clean_text(new_text)), p, track=track)


def set_run_text(doc, r: etree._Element, new_text: str) -> None:
    """docx_update_run_text, tracked: the diff stays inside the run. A run that is all our own
    insertion is rewritten in place (Word records no deletion of one's own new text), so it stays
    one run holding the new text, as untracked."""
    holder = r.getparent()
    if new_text and holder.tag == R.W_INS and R.is_ours(doc, holder):
        from ooxml.text.build import set_run_text as rewrite
        rewrite(r, clean_text(new_text))
        return
    segs, old = segments([r])
    apply_edits(doc, segs, word_edits(old, clean_text(new_text)), B.find_ancestor(r, B.W_P), empty_anchor=r)


def replace_in_paragraph(doc, p: etree._Element, old_text: str, new_text: str) -> int:
    """docx_replace_text in one paragraph, tracked; the number of replacements."""
    segs, text = segments(B.iter_runs(p))
    new_text = clean_text(new_text)
    edits, at = [], text.find(old_text)
    count = 0
    while at >= 0:
        edits += word_edits(old_text, new_text, at)
        count += 1
        at = text.find(old_text, at + len(old_text))
    apply_edits(doc, segs, edits, p)
    return count


def set_cell_text(doc, tc: etree._Element, text: str) -> None:
    """docx_fill_table / a cell's text, tracked: the first paragraph gets the text by a word diff,
    the cell's other blocks are marked deleted."""
    paragraphs = [c for c in tc if c.tag == B.W_P]
    if not paragraphs:
        return
    keep = paragraphs[0]
    for child in [c for c in tc if c is not keep and B.is_block(c) and c.tag != w("tcPr")]:
        R.delete_block(doc, child)
    set_paragraph_text(doc, keep, text)
    doc.forget_order(tc)
