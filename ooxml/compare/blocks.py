"""Block containers compared: blocks aligned on content keys, then matched pairs diffed.

A container (the body, a cell, a header, a note, a content control's content) is a list of
blocks. Their keys are their content (text with its non-text items; a table: its cells'),
never IDs, rsids or formatting. Blocks only in the revised document are marked inserted in
place; blocks only in the original are copied in (from the original) where they stood, marked
deleted. Matched paragraphs are diffed by words, matched tables by rows then cells.
"""
from __future__ import annotations

import copy
from collections import Counter

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import budget
from ooxml.review import revisions as R
from ooxml.compare import moves
from ooxml.compare import tokens as T
from ooxml.compare.align import align, refine
from ooxml.compare.marks import MATH, W_DEL, W_INS, Marks, own_runs
from ooxml.compare.paragraphs import Options, diff_paragraph, diff_props, props_key
from ooxml.compare.serial import Plain, blocks_of, without_save_marks, word_prefixes
from ooxml.compare import similarity as S
from ooxml.xml.namespaces import A, MC, w
from ooxml.xml.order import get_or_add

THRESHOLD = 0.5  # below this similarity two blocks are a deletion and an insertion, not an edit
_SDT_CONTENT, _TBL_PR = w("sdtContent"), w("tblPr")
_NOTE_REFS = (w("footnoteReference"), w("endnoteReference"))
_TBL_PR_SKIP = {w("tblPrChange")}
_TR_PR, _TC_PR = w("trPr"), w("tcPr")
_TR_PR_SKIP = {w("ins"), w("del"), w("trPrChange")}  # a row's own revision marks are no formatting
_TC_PR_SKIP = {w(n) for n in ("tcPrChange", "cellIns", "cellDel", "cellMerge")}
_BLIP, _CHART = f"{{{A}}}blip", "{http://schemas.openxmlformats.org/drawingml/2006/chart}chart"


def _has_media(xml: str) -> bool:  # a picture or chart whose part may differ under the same IDs
    return "blip" in xml or "drawingml/2006/chart" in xml
SECT_SKIP = {w("headerReference"), w("footerReference"), w("sectPrChange")}


class Comparer:
    def __init__(self, marks: Marks, opts: Options, copier):
        self.marks, self.opts, self.copier = marks, opts, copier
        self._texts: dict[etree._Element, T.Text] = {}
        self._keys: dict[etree._Element, str] = {}
        self._words: dict[etree._Element, Counter] = {}
        self.matched = 0  # blocks found on both sides (none: unrelated documents)
        self.move_writer = moves.MoveWriter(marks)
        self.notes = True  # whether the documents have notes (their references are looked for)
        self.images = None  # blip -> hash of its image's bytes (media.Images of both documents)
        self.given: dict = {}  # revised container -> its blocks' alignment, found already

    # ---- reading -----------------------------------------------------------------------------------
    def text(self, p: etree._Element) -> T.Text:
        t = self._texts.get(p)
        if t is None:
            t = self._texts[p] = T.read(p, self.opts.granularity, self.images)
        return t

    def key(self, el: etree._Element) -> str:
        """The content key alignment matches on: the text as it reads (cheap: lxml's own walk).
        Equal keys only make two blocks candidates; the diff of a pair decides what changed."""
        k = self._keys.get(el)
        if k is None:
            if el.tag == B.W_TBL:
                k = "t\x01" + "\x02".join(self.key(tr) for tr in B.table_rows(el))
            elif el.tag == B.W_TR:
                k = "\x03".join(_text(tc) for tc in B.row_cells(el))
            else:  # a section break is part of what a paragraph is: with and without it, never paired
                odd = next(el.iter(B.MC_FALLBACK, B.W_SECTPR), None) is not None  # (neither, the usual: one walk)
                k = _local(el.tag) + ("\u00a7" if odd and el.tag == B.W_P and B.section_mark(el) else "") + \
                    "\x01" + _text(el, odd)
            self._keys[el] = k
        return k

    def words(self, el: etree._Element) -> Counter:
        c = self._words.get(el)
        if c is None:
            c = self._words[el] = S.counts(self.key(el).split("\x01", 1)[-1], self.opts.granularity)
        return c

    def _alike(self, a: etree._Element, b: etree._Element) -> bool:
        """``similar(a, b) >= THRESHOLD``; two paragraphs' words not counted where their common ends settle it."""
        ka, kb = self.key(a), self.key(b)
        if a.tag == B.W_P == b.tag and self.opts.granularity == "word" and ka[1] == kb[1] and \
                S.surely_similar(ka.split("\x01", 1)[-1], kb.split("\x01", 1)[-1]):
            return True
        return self.similar(a, b) >= THRESHOLD

    def similar(self, a: etree._Element, b: etree._Element) -> float:
        if a.tag != b.tag or a.tag == B.W_P and self.key(a)[1] != self.key(b)[1]:  # a section break
            return 0.0
        return S.share(self.words(a), self.words(b))

    # ---- containers --------------------------------------------------------------------------------
    def container(self, ca: etree._Element, cb: etree._Element) -> None:
        """Record in ``cb`` (the revised container) how it differs from ``ca``."""
        given = self.given.pop(cb, None)  # the alignment found on bytes (spliced.py): the body's
        (blocks_a, xml_a), (blocks_b, xml_b) = blocks_of(ca, given is not None), blocks_of(cb, given is not None)
        if xml_a is None or xml_b is None or ca.nsmap != cb.nsmap:
            xml_a = xml_b = None
        elif word_prefixes(ca):
            xml_a, xml_b = Plain(xml_a), Plain(xml_b)  # equal without save marks counts as equal
        pairs = self.pairs(blocks_a, blocks_b, cb.tag in R.KEEPS_LAST, xml_a, xml_b, given)
        # moves are looked for in the flow of the text, not inside text boxes
        moved = moves.find(pairs, blocks_a, blocks_b, self.key) \
            if self.opts.moves and B.find_ancestor(cb, B.W_TXBX) is None and cb.tag != B.W_TXBX else set()
        names = {}
        for i, j in moved:
            names[("a", i)] = names[("b", j)] = self.move_writer.name()
        end = _story_end(pairs, blocks_a, blocks_b) if cb.tag in R.KEEPS_LAST else None
        prev = None  # the last revised block placed: original-only blocks go after it
        plain = isinstance(xml_a, Plain)
        for i, j in pairs:
            if i is not None and j is not None:  # (the loop of every block: inlined checks)
                self.matched += 1
                if xml_a is not None and (xml_a[i] == xml_b[j] or plain and self._same_text(blocks_a[i], blocks_b[j])
                                          and xml_a.one(i) == xml_b.one(j)) and (
                        not _has_media(xml_a[i]) or self._same_images(blocks_a[i], blocks_b[j])):
                    if self.notes:
                        self._unchanged(blocks_a[i], blocks_b[j])
                else:
                    budget.check()
                    self.block(blocks_a[i], blocks_b[j], xml_a is not None and (xml_a[i], xml_b[j]))
                prev = blocks_b[j]
                continue
            budget.check()
            if ("a", i) in names and j is None:
                prev = self.moved_from(blocks_a[i], cb, prev, blocks_b, names[("a", i)])
            elif ("b", j) in names and i is None:
                self.move_writer.mark(blocks_b[j], moves.W_MOVE_TO, names[("b", j)])
                prev = blocks_b[j]
            elif j is None and end is not None and end[0] == "a" and i == len(blocks_a) - 1:
                prev = self._remove(blocks_a[i], cb, prev, blocks_b)
            elif j is None:
                prev = self.deleted_block(blocks_a[i], cb, prev, blocks_b)
            elif end is not None and end[0] == "b" and j == len(blocks_b) - 1:
                self._append(blocks_a[-1], blocks_b[end[1]], blocks_b[j])
            else:
                self.marks.mark_block(blocks_b[j], W_INS)
                self.marks.note("insertions", blocks_b[j])
                prev = blocks_b[j]

    def pairs(self, blocks_a, blocks_b, keep_last: bool, xml_a=None, xml_b=None, given=None) -> list:
        """The blocks' alignment: on their XML first when it is known (blocks byte for byte the
        same are the usual case between two versions of one file), then what lies between on
        their text, paired by similarity."""
        # A cell, header or note keeps its last paragraph (Word never deletes that mark): the last
        # paragraphs are paired, so no insertion or deletion ends the container.
        last = keep_last and blocks_a and blocks_b and blocks_a[-1].tag == B.W_P == blocks_b[-1].tag
        n, m = len(blocks_a) - bool(last), len(blocks_b) - bool(last)
        a, b = blocks_a[:n], blocks_b[:m]

        def by_text(lo_a, hi_a, lo_b, hi_b) -> list:
            if hi_a - lo_a == 1 == hi_b - lo_b:  # the usual gap: one block edited
                one = self.key(a[lo_a]) == self.key(b[lo_b]) or self._alike(a[lo_a], b[lo_b])
                return [(lo_a, lo_b)] if one else [(lo_a, None), (None, lo_b)]
            part_a, part_b = a[lo_a:hi_a], b[lo_b:hi_b]
            found = align([self.key(x) for x in part_a], [self.key(x) for x in part_b],
                          lambda i, j: self.similar(part_a[i], part_b[j]), THRESHOLD)
            return [(None if i is None else i + lo_a, None if j is None else j + lo_b) for i, j in found]

        def by_plain(lo_a, hi_a, lo_b, hi_b) -> list:
            """A gap on the blocks' XML without save marks, what still differs on text."""
            if not isinstance(xml_a, Plain) or hi_a - lo_a == 1 == hi_b - lo_b:
                return by_text(lo_a, hi_a, lo_b, hi_b)
            found = align(xml_a.plain(lo_a, hi_a), xml_b.plain(lo_b, hi_b))
            found = [(None if i is None else i + lo_a, None if j is None else j + lo_b) for i, j in found]
            return refine(found, by_text)
        if xml_a is None:
            pairs = by_text(0, n, 0, m)
        else:
            pairs = refine(align(xml_a[:n], xml_b[:m]) if given is None else given, by_plain)
        if last:
            pairs = self._story_end(pairs, blocks_a, blocks_b) or [*pairs, (n, m)]
        return pairs

    def _story_end(self, pairs: list, blocks_a: list, blocks_b: list) -> list | None:
        """Paragraphs appended after the original's last (or removed after the one the revised
        ends with): that one pairs with the block it matches best among them, not with the
        container's last; the rest are insertions (deletions). The alignment then ends in one:
        ``container`` marks it as Word does (``_append``, ``_remove``)."""
        a_last, b_last = blocks_a[-1], blocks_b[-1]
        if self.opts.moves or self.key(a_last) == self.key(b_last):
            return None
        for side in (1, 0):  # 1: blocks only in the revised end the alignment; 0: only in the original
            run = 0
            while run < len(pairs) and pairs[-1 - run][1 - side] is None:
                run += 1
            if not run:
                continue
            mine, other = (blocks_b, a_last) if side else (blocks_a, b_last)
            tail = [pair[side] for pair in pairs[len(pairs) - run:]]
            best = max(tail, key=lambda k: (self.key(mine[k]) == self.key(other), self.similar(other, mine[k])))
            if mine[best].tag != B.W_P or self.key(mine[best]) != self.key(other) and \
                    self.similar(other, mine[best]) < max(THRESHOLD, self.similar(a_last, b_last)):
                continue

            def lone(k, side=side):
                return (None, k) if side else (k, None)
            paired = (len(blocks_a) - 1, best) if side else (best, len(blocks_b) - 1)
            return [*pairs[:len(pairs) - run], *(lone(k) for k in tail if k < best), paired,
                    *(lone(k) for k in tail if k > best), lone(len(mine) - 1)]
        return None

    def _append(self, a_last, partner, b_last) -> None:
        """The container's last paragraph, after paragraphs appended to the original's last (which
        ``partner`` shows): its mark stays (Word never removes a container's last mark), its content
        is inserted and ``partner``'s mark is the inserted one. Rejected, ``partner``'s text joins
        this mark, which then has the original's paragraph properties back."""
        self.marks.wrap(own_runs(b_last), W_INS)
        self.marks.mark_paragraph(partner, W_INS)
        if self.opts.formatting:
            diff_props(self.marks, a_last, b_last)
        self.marks.note("insertions", b_last)

    def _remove(self, a_last, cb, prev, blocks_b) -> etree._Element:
        """The original's last paragraph, removed with others after the one the revised ends with
        (the revised container's last, ``b_last``): a deleted copy ends the container, its mark
        kept with ``b_last``'s paragraph properties, and ``b_last``'s mark is the deleted one.
        Accepted, ``b_last``'s text joins this mark; rejected, all stand as they were."""
        b_last = blocks_b[-1]
        el = copy.deepcopy(a_last)
        self.copier(el, cb)
        self.marks.wrap(own_runs(el), W_DEL)
        old = el.find(R.W_PPR)
        if old is not None:
            el.remove(old)
        new = b_last.find(R.W_PPR)
        if new is not None:
            new = copy.deepcopy(new)
            for change in new.findall(w("pPrChange")):
                new.remove(change)
            el.insert(0, new)
        self.marks.mark_paragraph(b_last, W_DEL)
        if self.opts.formatting:
            diff_props(self.marks, a_last, el)
        _place_after(cb, prev, el, blocks_b)
        self.marks.note("deletions", el)
        return el

    def moved_from(self, el_a, cb, prev, blocks_b, name: str) -> etree._Element:
        el = copy.deepcopy(el_a)
        self.copier(el, cb)
        self.move_writer.mark(el, moves.W_MOVE_FROM, name)
        _place_after(cb, prev, el, blocks_b)
        return el

    def deleted_block(self, el_a, cb, prev, blocks_b) -> etree._Element:
        el = copy.deepcopy(el_a)
        self.copier(el, cb)
        self.marks.mark_block(el, W_DEL)
        _place_after(cb, prev, el, blocks_b)
        self.marks.note("deletions", el)
        return el

    def _same_text(self, a: etree._Element, b: etree._Element) -> bool:  # False: keys made and apart (so is the XML)
        ka, kb = self._keys.get(a), self._keys.get(b)
        return ka is None or kb is None or ka == kb

    def _same_images(self, a: etree._Element, b: etree._Element) -> bool:
        """Whether two blocks of the same XML show the same pictures (one relationship ID, one
        media name, can hold another picture's bytes in the other file)."""
        if self.images is None:
            return True
        return [self.images(x) for x in a.iter(_BLIP)] == [self.images(x) for x in b.iter(_BLIP)] and \
            [self.images.chart(x) for x in a.iter(_CHART)] == [self.images.chart(x) for x in b.iter(_CHART)]

    def _unchanged(self, a: etree._Element, b: etree._Element) -> None:
        """A block byte for byte the same: its notes (by their references) are still compared."""
        for ref_a, ref_b in zip(a.iter(*_NOTE_REFS), b.iter(*_NOTE_REFS)) if self.notes else ():
            self.marks.note_pairs.append((ref_a.tag, ref_a.get(w("id")), ref_b.get(w("id"))))

    def block(self, a: etree._Element, b: etree._Element, compared: tuple | bool = False) -> None:
        """``compared``: their XML (xml, xml_b), which the caller found different already (or their pictures)."""
        if a.tag != b.tag:  # not paired by alignment; kept safe anyway: a deletion and an insertion
            self._replaced(a, b)
            return
        if not compared:  # each serialized alone: with every namespace declaration in scope
            xml, xml_b = compared = etree.tostring(a, encoding=str), etree.tostring(b, encoding=str)
            if (xml == xml_b or word_prefixes(a) and without_save_marks(xml) == without_save_marks(xml_b)) and (
                    not _has_media(xml) or self._same_images(a, b)):
                self._unchanged(a, b)
                return
        if a.tag == B.W_P and (compared is True or any("oMath" in x for x in compared)) and _maths(a) != _maths(b):
            self._new_content(a, b)
        elif a.tag == B.W_P:
            for box_a, box_b in diff_paragraph(self.marks, a, b, self.text(a), self.text(b), self.opts, self.copier):
                self.text_box(box_a, box_b)
        elif a.tag == B.W_TBL:
            self.table(a, b)
        elif a.tag == B.W_SDT and a.find(_SDT_CONTENT) is not None and b.find(_SDT_CONTENT) is not None:
            self.container(a.find(_SDT_CONTENT), b.find(_SDT_CONTENT))
        elif self.key(a) != self.key(b):
            self._replaced(a, b)

    def text_box(self, box_a: etree._Element, box_b: etree._Element) -> None:
        """A text box kept in place is compared like the body. Its VML copy for older readers
        (``mc:Fallback``) would keep the revised text whatever is decided: a box that got
        revisions loses it, as an edit of a box does (ooxml/text/alt_content.py)."""
        before = sum(self.marks.counts.values())
        self.container(box_a, box_b)
        if sum(self.marks.counts.values()) == before:
            return
        alt = next(box_b.iterancestors(B.MC_ALT), None)
        fallback = alt.find(B.MC_FALLBACK) if alt is not None else None
        if fallback is not None:
            alt.remove(fallback)

    def _replaced(self, a: etree._Element, b: etree._Element) -> None:
        """A block that cannot be diffed inside (an embedded document ...): deleted, then inserted."""
        self.marks.mark_block(b, W_INS)
        self.marks.note("insertions", b)
        self.deleted_block(a, b.getparent(), B.prev_block(b), [b])

    def _new_content(self, a: etree._Element, b: etree._Element) -> None:
        """A paragraph whose equations changed: its content is replaced (a deleted copy of the
        original's, then the revised content inserted); the paragraph mark stays."""
        if self.opts.formatting:
            diff_props(self.marks, a, b)
        inserted = own_runs(b)
        old = copy.deepcopy(a)
        self.copier(old, b)
        deleted = own_runs(old)
        self.marks.wrap(deleted, W_DEL)
        self.marks.wrap(inserted, W_INS)
        at = b.find(R.W_PPR)
        for child in [c for c in old if c.tag != R.W_PPR]:
            if at is None:
                b.insert(0, child)
            else:
                at.addnext(child)
            at = child
        if deleted:
            self.marks.note("deletions", b)
        if inserted:
            self.marks.note("insertions", b)

    # ---- tables ------------------------------------------------------------------------------------
    def table(self, ta: etree._Element, tb: etree._Element) -> None:
        if self.opts.formatting:
            self.properties(ta.find(_TBL_PR), tb, "tblPr", "tblPrChange", _TBL_PR_SKIP)
        rows_a, rows_b = B.table_rows(ta), B.table_rows(tb)
        if self.key(ta) == self.key(tb) and not self.opts.formatting:
            return
        pairs = align([self.key(r) for r in rows_a], [self.key(r) for r in rows_b],
                      lambda i, j: self.similar(rows_a[i], rows_b[j]), THRESHOLD)
        prev = None
        for i, j in pairs:
            if i is not None and j is not None and len(B.row_cells(rows_a[i])) == len(B.row_cells(rows_b[j])):
                if self.opts.formatting:
                    self.properties(rows_a[i].find(_TR_PR), rows_b[j], "trPr", "trPrChange", _TR_PR_SKIP)
                for tc_a, tc_b in zip(B.row_cells(rows_a[i]), B.row_cells(rows_b[j])):
                    if self.opts.formatting:
                        self.properties(tc_a.find(_TC_PR), tc_b, "tcPr", "tcPrChange", _TC_PR_SKIP)
                    self.container(tc_a, tc_b)
                prev = rows_b[j]
                continue
            if i is not None:
                prev = self._deleted_row(rows_a[i], tb, prev, rows_b)
            if j is not None:
                self.marks.mark_block(rows_b[j], W_INS)
                self.marks.note("table changes", rows_b[j])
                prev = rows_b[j]

    def properties(self, old, holder, props_name: str, change: str, skip: set) -> None:
        """A properties element (tblPr, sectPr) that differs gets a ``*Change`` holding the old one."""
        new = holder if props_name == "sectPr" else holder.find(w(props_name))
        if props_key(old, skip) == props_key(new, skip):
            return
        if new is None:  # the properties went: an empty element holds the change
            new = get_or_add(holder, props_name)
        snapshot = etree.Element(w(props_name))
        for child in old if old is not None else ():
            if isinstance(child.tag, str) and child.tag not in skip:
                snapshot.append(copy.deepcopy(child))
        self.marks.property_change(new, change, snapshot, holder)
        self.marks.note("formatting changes", holder)

    def _deleted_row(self, tr_a, tb, prev, rows_b) -> etree._Element:
        tr = copy.deepcopy(tr_a)
        self.copier(tr, tb)
        self.marks.mark_block(tr, W_DEL)
        if prev is not None:
            prev.addnext(tr)
        elif rows_b:
            rows_b[0].addprevious(tr)
        else:
            tb.append(tr)
        self.marks.note("table changes", tr)
        return tr


def _story_end(pairs: list, blocks_a: list, blocks_b: list) -> tuple[str, int] | None:
    """How the alignment ends when ``Comparer._story_end`` made it: ("b", j) when paragraphs were
    appended after the original's last (paired with ``blocks_b[j]``), ("a", i) when paragraphs were
    removed after the revised's last (paired with ``blocks_a[i]``); else None."""
    if not pairs or not blocks_a or not blocks_b or not blocks_a[-1].tag == blocks_b[-1].tag == B.W_P:
        return None
    n, m = len(blocks_a) - 1, len(blocks_b) - 1
    for side, lone in ((1, (None, m)), (0, (n, None))):
        if pairs[-1] != lone:
            continue
        for pair in reversed(pairs):
            if pair[1 - side] is not None:
                ok = pair[side] is not None and pair[1 - side] == (n if side else m) \
                    and (blocks_b if side else blocks_a)[pair[side]].tag == B.W_P
                return ("b" if side else "a", pair[side]) if ok else None
    return None


_LOCAL: dict[str, str] = {}


def _local(tag: str) -> str:
    name = _LOCAL.get(tag)
    if name is None:
        name = _LOCAL[tag] = etree.QName(tag).localname
    return name


def _maths(p: etree._Element) -> list[bytes]:
    return [etree.tostring(m) for m in p.iter(*MATH)]


# What a reader sees: not a text box's VML copy (an edit drops a stale one, so a box edited on one side
# would read as twice the text on the other and the blocks would not pair).
_SHOWN_TEXT = etree.XPath(".//text()[not(ancestor::mc:Fallback)]", namespaces={"mc": MC})


def _text(el: etree._Element, odd: bool = True) -> str:
    if not odd or next(el.iter(B.MC_FALLBACK), None) is None:
        return etree.tostring(el, encoding=str, method="text", with_tail=False)
    return "".join(_SHOWN_TEXT(el))


def _place_after(container, prev, el, blocks_b) -> None:
    if prev is not None:
        prev.addnext(el)
    elif blocks_b:
        blocks_b[0].addprevious(el)
    else:
        last = container[-1] if len(container) else None
        if last is not None and last.tag == B.W_SECTPR:
            last.addprevious(el)
        else:
            container.append(el)
