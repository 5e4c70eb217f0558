"""Two matched paragraphs: the revised one gets the differences as revisions, in place.

Tokens (words, or characters) are compared; a stretch only in the revised paragraph has its runs
wrapped in ``w:ins``, a stretch only in the original comes back as a copy of the original's runs
(cut at the stretch's edges, text as ``w:delText``) in a ``w:del``. Unchanged text keeps the
revised runs; where their formatting differs from the original's, they get a ``w:rPrChange``
holding the original's, and so does a paragraph's ``w:pPr`` (``w:pPrChange``).
"""
from __future__ import annotations

import copy
from bisect import bisect_left, bisect_right

from lxml import etree

from ooxml.text import body as B
from ooxml.review import revisions as R
from ooxml.review.format_changes import PPR_NOT_FORMAT, RPR_NOT_FORMAT, snapshot
from ooxml.compare import anchors
from ooxml.compare import fields as F
from ooxml.compare import tokens as T
from ooxml.compare.marks import W_DEL, W_DELTEXT, W_INS, Marks, to_deleted
from ooxml.xml.namespaces import OX_ID, XML, w
from ooxml.xml.order import get_or_add
from ooxml.review.tracked_text import _index, _opcodes, _shell, split_at

_XML_SPACE = f"{{{XML}}}space"


class Options:
    def __init__(self, granularity: str = "word", formatting: bool = True, moves: bool = False):
        self.granularity, self.formatting, self.moves = granularity, formatting, moves


def diff_paragraph(marks: Marks, pa: etree._Element, pb: etree._Element, ta: T.Text, tb: T.Text,
                   opts: Options, copier) -> list[tuple[etree._Element, etree._Element]]:
    """Record in ``pb`` what changed from ``pa`` (``ta``/``tb``: their texts, read before); the
    text boxes of items kept in place, (original's, revised's), for the caller to compare."""
    if opts.formatting:
        diff_props(marks, pa, pb)
    if ta.keys == tb.keys:
        ops = [("equal", 0, len(ta.keys), 0, len(tb.keys))]
    else:
        ops = _opcodes(ta.keys, tb.keys)
        if opts.granularity == "word":
            ops = _grouped(ops, ta.keys)
    comments = anchors.comment_marks(pa, ta.segs) if len(ops) > 1 or ops[0][0] != "equal" else []
    boxes: list[tuple[etree._Element, etree._Element]] = []
    for tag, i1, i2, j1, j2 in reversed(ops):
        a_lo, a_hi = ta.starts[i1], ta.starts[i2]
        b_lo, b_hi = tb.starts[j1], tb.starts[j2]
        if tag == "equal":
            for a_lo, a_hi, b_lo, b_hi in _same_lengths(ta, tb, i1, i2, j1, j2):
                if opts.formatting and a_hi > a_lo:
                    _formatting(marks, ta, tb, a_lo, b_lo, b_hi)
                _pair_items(marks, ta, tb, a_lo, a_hi, b_lo, boxes)
            continue
        _replace(marks, pb, ta, tb, (a_lo, a_hi, b_lo, b_hi), copier, comments)
    return boxes


def _grouped(ops: list, keys_a: list[str]) -> list:
    """Changes apart by spaces alone are one change ("quick brown" -> "slow red": one deletion and
    one insertion, as Word's Compare shows it, not two of each around a kept space)."""
    out: list = []
    for op in ops:
        if op[0] != "equal" and len(out) >= 2 and out[-1][0] == "equal" and out[-2][0] != "equal" \
                and all(k.isspace() for k in keys_a[out[-1][1]:out[-1][2]]):
            out.pop()
            first = out.pop()
            op = ("replace", first[1], op[2], first[3], op[4])
        out.append(op)
    return out


def _same_lengths(ta, tb, i1: int, i2: int, j1: int, j2: int) -> list[tuple[int, int, int, int]]:
    """An equal stretch as offsets (a_lo, a_hi, b_lo, b_hi), cut around its tokens of other lengths
    on each side (cached field results, equal by their field): those stay as the revised has them."""
    sa, sb = ta.starts, tb.starts
    if sa[i2] - sa[i1] == sb[j2] - sb[j1] and (not ta.cached or i2 - i1 == 1):
        return [(sa[i1], sa[i2], sb[j1], sb[j2])]
    out, lo = [], 0
    for k in range(i2 - i1 + 1):
        if k == i2 - i1 or sa[i1 + k + 1] - sa[i1 + k] != sb[j1 + k + 1] - sb[j1 + k]:
            if k > lo:
                out.append((sa[i1 + lo], sa[i1 + k], sb[j1 + lo], sb[j1 + k]))
            lo = k + 1
    return out


def _replace(marks, pb, ta, tb, span, copier, comments) -> None:
    a_lo, a_hi, b_lo, b_hi = span
    split_at(marks.doc, tb.segs, b_hi)
    first = split_at(marks.doc, tb.segs, b_lo)
    inserted = _runs_between(tb.segs, b_lo, b_hi) if b_hi > b_lo else []
    if a_hi > a_lo:
        deleted = marks.stamp(W_DEL, pb)
        starts: list[int] = []
        fields: dict = {}
        deleted.extend(_cut_runs(ta.segs, a_lo, a_hi, starts, fields))
        if comments:  # the original's comments on the deleted words come back with them
            anchors.place(deleted, starts, anchors.within(comments, a_lo, a_hi))
        copier(deleted, pb)
        pieces = _in_fields(marks, deleted, fields, pb) if fields else [deleted]
        _place(pb, tb.segs, first, pieces[0])
        for before, piece in zip(pieces, pieces[1:]):
            before.addnext(piece)
        marks.note("deletions", deleted)
    if inserted:
        marks.wrap(inserted, W_INS)
        marks.note("insertions", inserted[0].getparent())


def _place(pb, segs, first, el) -> None:
    """Put ``el`` where the stretch starts: before ``first`` (the run there), else after the last text."""
    if first is not None:
        first.addprevious(el)
    elif segs:
        segs[-1].child.getparent().addnext(el)
    else:
        pb.append(el)


def _runs_between(segs, lo: int, hi: int) -> list[etree._Element]:
    runs: list[etree._Element] = []
    for seg in segs[_index(segs, lo):]:
        if seg.start >= hi:
            break
        run = seg.child.getparent()
        if not runs or runs[-1] is not run:
            runs.append(run)
    return runs


def _in_fields(marks, deleted, fields: dict, pb) -> list[etree._Element]:
    """``deleted`` cut where its runs came from simple fields: those go back into a copy of their
    field (``w:fldSimple`` holding a ``w:del``), so a reject gives the field back, not its text."""
    pieces: list[tuple] = []  # (simple field or None, its w:del)
    for child in list(deleted):
        holder = fields.get(child) if child.tag == B.W_R else pieces[-1][0] if pieces else None
        if not pieces or holder is not pieces[-1][0]:
            pieces.append((holder, deleted if not pieces else marks.stamp(W_DEL, pb)))
        if pieces[-1][1] is not deleted:
            pieces[-1][1].append(child)
    out = []
    for holder, wrapper in pieces:
        if holder is not None:
            shell = etree.Element(holder.tag, {k: v for k, v in holder.attrib.items() if k != OX_ID})
            shell.append(wrapper)
            wrapper = shell
        out.append(wrapper)
    return out


def _cut_runs(segs, lo: int, hi: int, starts: list[int], fields: dict | None = None) -> list[etree._Element]:
    """Copies of the original's runs holding [lo, hi), cut at the edges, as deleted runs (the
    offset each starts at added to ``starts``; in ``fields``, copy -> the simple field it was in)."""
    out: list[etree._Element] = []
    items: list[etree._Element] = []  # runs holding a copied item: its text (a text box's) to make deleted
    current_run = None
    for seg in segs[_index(segs, lo):]:
        if seg.start >= hi:
            break
        run = seg.child.getparent()
        if run is not current_run:
            current_run = run
            out.append(_shell(run))
            starts.append(max(lo, seg.start))
            holder = F.simple_field(seg.child) if fields is not None else None
            if holder is not None:
                fields[out[-1]] = holder
        s, e = max(lo, seg.start) - seg.start, min(hi, seg.start + len(seg.text)) - seg.start
        if seg.child.tag == B.W_T:  # text is cut at the edges (deleted text: w:delText); an item goes whole
            el = etree.SubElement(out[-1], W_DELTEXT)
            el.text = seg.text[s:e]
            if el.text != el.text.strip():
                el.set(_XML_SPACE, "preserve")
        elif e > s:
            el = copy.deepcopy(seg.child)
            el.attrib.pop(OX_ID, None)
            out[-1].append(el)
            items.append(out[-1])
    for r in items:
        to_deleted(r)
    return out


def _pair_items(marks: Marks, ta, tb, a_lo: int, a_hi: int, b_lo: int, boxes: list) -> None:
    """Items kept in place: the notes of their references, and their text boxes (added to
    ``boxes``), are the ones to compare."""
    if not ta.sigs:  # no item in the original's text (references and boxes are items)
        return
    for seg in ta.segs[_index(ta.segs, a_lo):] if ta.segs else ():
        if seg.start >= a_hi:
            break
        tag = seg.child.tag
        if (tag in _NOTE_REFS or tag in _BOX_HOLDERS) and seg.start >= a_lo:
            other = tb.segs[_index(tb.segs, seg.start - a_lo + b_lo)].child
            if other.tag != tag:
                continue
            if tag in _NOTE_REFS:
                marks.note_pairs.append((tag, seg.child.get(w("id")), other.get(w("id"))))
            else:
                found = list(zip(T.boxes(seg.child), T.boxes(other)))  # as many: the items are equal
                boxes.extend(found)


_NOTE_REFS = {w("footnoteReference"), w("endnoteReference")}
_BOX_HOLDERS = {w("drawing"), w("pict"), w("object"), B.MC_ALT}


# ---- formatting ---------------------------------------------------------------------------------

def props_key(props: etree._Element | None, skip: set) -> str:
    """Properties as comparable text: tags, attributes and children, not namespace declarations."""
    if props is None:
        return ""
    return "".join(_el_key(c) for c in props if isinstance(c.tag, str) and c.tag not in skip)


def _el_key(el: etree._Element) -> str:
    inner = "".join(_el_key(c) for c in el if isinstance(c.tag, str))
    return f"<{el.tag}{sorted(el.attrib.items()) if len(el.attrib) else ''}>{inner}{el.text or ''}"


def _rkey(marks: Marks, run: etree._Element) -> str:
    """The run's formatting as comparable text, worked out once per run (a comparison only adds
    what the key leaves out to a run's properties: its rPrChange, in a w:rPr made for it if need
    be; a split run's piece is another run)."""
    key = marks.rkeys.get(run)
    if key is None:
        rpr = B.props(run, R.W_RPR)
        key = marks.rkeys[run] = "" if rpr is None else _rpr_key(marks, rpr)
    return key


def _rpr_key(marks: Marks, rpr: etree._Element) -> str:
    """``props_key`` of a run's properties, worked out once per shape (children without children
    of their own, as tag, attributes and text: a document has few formattings, and many runs)."""
    shape = tuple((c.tag, tuple(c.attrib.items()), c.text, len(c)) for c in rpr)
    if any(s[3] for s in shape):
        return props_key(rpr, RPR_NOT_FORMAT)
    key = marks.rshapes.get(shape)
    if key is None:
        key = marks.rshapes[shape] = props_key(rpr, RPR_NOT_FORMAT)
    return key


def _keys_over(marks: Marks, t, lo: int, hi: int, shift: int) -> list[tuple[int, str]]:
    """The formatting of [lo, hi) as (offset - ``shift``, key) where it changes."""
    starts, keys = t.formats or _formats(marks, t)
    if not starts:
        return []
    return [(max(starts[k], lo) - shift, keys[k]) for k in range(bisect_right(starts, lo) - 1, bisect_left(starts, hi))]


def _formats(marks: Marks, t) -> tuple[list[int], list[str]]:
    """Where the formatting of ``t``'s text changes (offsets, keys), read once per paragraph: a split
    piece of a run has its properties, so the offsets hold after the comparison splits runs."""
    starts: list[int] = []
    keys: list[str] = []
    for seg in t.segs:
        key = _rkey(marks, seg.child.getparent())
        if not keys or keys[-1] != key:
            starts.append(seg.start)
            keys.append(key)
    t.formats = starts, keys
    return t.formats


def _formatting(marks: Marks, ta, tb, a_lo: int, b_lo: int, b_hi: int) -> None:
    """rPrChange on the revised runs of [b_lo, b_hi) whose formatting differs from the original's."""
    keys_a, keys_b = (ta.formats or _formats(marks, ta))[1], (tb.formats or _formats(marks, tb))[1]
    if len(keys_a) == 1 and keys_a == keys_b:  # one formatting all along both paragraphs
        return
    shift = a_lo - b_lo
    if _keys_over(marks, ta, a_lo, a_lo + (b_hi - b_lo), shift) == _keys_over(marks, tb, b_lo, b_hi, 0):
        return  # the same formatting all along (the usual case): no piece to look at
    cuts = {b_lo, b_hi}
    ia, ib = _index(ta.segs, a_lo), _index(tb.segs, b_lo)
    for seg in ta.segs[ia:]:
        if seg.start >= a_lo + (b_hi - b_lo):
            break
        cuts.add(max(seg.start - shift, b_lo))
    for seg in tb.segs[ib:]:
        if seg.start >= b_hi:
            break
        cuts.add(max(seg.start, b_lo))
    points = sorted(cuts)
    changed: list[tuple[int, int, etree._Element]] = []
    for s, e in zip(points, points[1:]):
        run_a = ta.segs[_index(ta.segs, s + shift)].child.getparent()
        run_b = tb.segs[_index(tb.segs, s)].child.getparent()
        if _rkey(marks, run_a) != _rkey(marks, run_b):
            if changed and changed[-1][1] == s and changed[-1][2] is run_a:
                changed[-1] = (changed[-1][0], e, run_a)
            else:
                changed.append((s, e, run_a))
    for s, e, run_a in reversed(changed):
        split_at(marks.doc, tb.segs, e)
        split_at(marks.doc, tb.segs, s)
        old = snapshot(B.props(run_a, R.W_RPR), RPR_NOT_FORMAT, R.W_RPR)
        for run in _runs_between(tb.segs, s, e):
            if run.find(f"{R.W_RPR}/{w('rPrChange')}") is None:
                marks.property_change(get_or_add(run, "rPr"), "rPrChange", copy.deepcopy(old), run)
        marks.note("formatting changes", run)


_PPR_SKIP = {R.W_RPR, w("sectPr"), w("pPrChange")}


def diff_props(marks: Marks, pa, pb) -> None:
    """A pPrChange on ``pb`` when its paragraph properties differ from ``pa``'s."""
    if props_key(B.props(pa, R.W_PPR), _PPR_SKIP) == props_key(B.props(pb, R.W_PPR), _PPR_SKIP):
        return
    old = snapshot(B.props(pa, R.W_PPR), PPR_NOT_FORMAT, R.W_PPR)
    marks.property_change(get_or_add(pb, "pPr"), "pPrChange", old, pb)
    marks.note("formatting changes", pb)
