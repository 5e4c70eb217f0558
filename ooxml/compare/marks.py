"""The revision marks of one comparison: one author, one timestamp, fresh w:ids, counted by kind."""
from __future__ import annotations

from collections import Counter

from lxml import etree

from ooxml.text import body as B
from ooxml.review import revisions as R
from ooxml.review.word_id_counter import new_word_id
from ooxml.xml.namespaces import M, w
from ooxml.xml.order import get_or_add, insert_child

W_INS, W_DEL = R.W_INS, R.W_DEL
W_DELTEXT, W_INSTR, W_DELINSTR = w("delText"), w("instrText"), w("delInstrText")
W_MOVE_FROM = w("moveFrom")
_WRAPPERS = {W_INS, W_DEL, W_MOVE_FROM, w("moveTo")}


class Marks:
    """Stamps revisions into the redline (``doc``) and counts them for the answer's head."""

    def __init__(self, doc, author: str):
        self.doc, self.author = doc, author
        self.date = R.now()  # one timestamp for the whole redline
        self.counts: Counter[str] = Counter()
        self.first: etree._Element | None = None  # the first change (in the body), for the context
        self.moves_named = 0
        self.note_pairs: list[tuple[str, str, str]] = []  # (reference tag, original id, revised id)
        self._stamps: dict[str, etree._Element] = {}  # tag -> a revision mark to copy
        self.rkeys: dict[etree._Element, str] = {}  # a run -> its formatting key (paragraphs._rkey)
        self.rshapes: dict[tuple, str] = {}  # a w:rPr's shape -> its formatting key (paragraphs._rpr_key)

    def stamp(self, tag: str, near: etree._Element | None = None) -> etree._Element:
        proto = self._stamps.get(tag)
        if proto is None:
            proto = self._stamps[tag] = etree.Element(tag, {R.W_ID: "", R.W_AUTHOR: self.author, R.W_DATE: self.date})
        mark = proto.__copy__()  # a third of the cost of a new element given its three attributes
        mark.set(R.W_ID, new_word_id(self.doc, near))
        return mark

    def note(self, kind: str, el: etree._Element) -> None:
        self.counts[kind] += 1
        if self.first is None and B.find_ancestor(el, B.W_BODY) is not None:
            self.first = el

    # ---- runs ------------------------------------------------------------------------------------
    def wrap(self, runs: list[etree._Element], tag: str) -> None:
        """Runs into w:ins / w:del: one wrapper per group of adjacent siblings. The runs of text
        boxes they anchor get the same revision (as tracked deletions do: revisions.py)."""
        current = None
        for r in runs:
            if r.getparent() is not None and r.getparent().tag in _WRAPPERS:
                continue
            if tag in (W_DEL, W_MOVE_FROM):
                to_deleted(r)
            if len(r) and next(r.iter(B.W_TXBX), None) is not None:
                self.wrap([x for x in r.iter(B.W_R) if x is not r], W_DEL if tag == W_MOVE_FROM else
                          W_INS if tag == w("moveTo") else tag)
            if current is not None and r.getprevious() is current:
                current.append(r)
                continue
            current = self.stamp(tag, r)
            r.addprevious(current)
            current.append(r)

    # ---- paragraph marks, rows ------------------------------------------------------------------
    def mark_paragraph(self, p: etree._Element, tag: str) -> None:
        insert_child(get_or_add(get_or_add(p, "pPr"), "rPr"), self.stamp(tag, p))

    def mark_row(self, tr: etree._Element, tag: str) -> None:
        insert_child(get_or_add(tr, "trPr"), self.stamp(tag, tr))

    def mark_block(self, el: etree._Element, tag: str) -> None:
        """A whole block (paragraph, table, content control) inserted or deleted."""
        paragraphs = [el] if el.tag == B.W_P else list(el.iter(B.W_P))
        for p in paragraphs:
            self.wrap(own_runs(p), tag)
            self.mark_paragraph(p, tag)
        for tr in el.iter(B.W_TR):
            self.mark_row(tr, tag)

    def property_change(self, props: etree._Element, name: str, old: etree._Element,
                        near: etree._Element) -> None:
        change = self.stamp(w(name), near)
        change.append(old)
        insert_child(props, change)


MATH = (f"{{{M}}}oMathPara", f"{{{M}}}oMath")


def own_runs(p: etree._Element) -> list[etree._Element]:
    """The runs of ``p`` itself (through links, fields, content controls), not of text boxes in
    it; an equation counts as one run (w:ins/w:del may hold m:oMath, as revisions.py writes)."""
    runs = list(B.iter_runs(p))
    maths = equations(p)
    if not maths:
        return runs
    wanted = set(runs) | set(maths)
    return [el for el in p.iter(B.W_R, *MATH) if el in wanted]


def equations(p: etree._Element) -> list[etree._Element]:
    """The outermost equations of ``p`` (not those of text boxes in it)."""
    out = []
    for m in p.iter(*MATH):
        holder = next((a for a in m.iterancestors(B.W_P, *MATH)), None)
        if holder is p:
            out.append(m)
    return out


def to_deleted(r: etree._Element) -> None:
    """Deleted text is w:delText (w:delInstrText in field codes), text boxes in the run included."""
    for child in r.iter(B.W_T, W_INSTR):
        child.tag = W_DELTEXT if child.tag == B.W_T else W_DELINSTR
