"""What one tool call changes, recorded as it happens: the records ``history.Recorder`` makes a step of.

The editing code announces each change before making it (``will_change``, ``will_insert``,
``will_remove``) and each insertion after (``inserted``); the first announcement inside a top-level
block saves a copy of it (or of its outermost paragraph), so undo can swap the state back (see
``history``'s docstring for the kinds of record). The Recorder owns ``doc``, ``active`` (recording
between ``begin`` and ``commit``/``abandon``) and ``check`` (OOXML_MCP_CHECK_UNDO)."""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.xml.namespaces import OX_ID, W

NODE_BYTES = 160  # rough memory of one lxml node (element or attribute) held by a record
_P = f"{{{W}}}p"


class Capture:
    """The current call's records (``_ops``) and what they saved."""

    doc = None
    active = False
    check = False

    def _reset(self) -> None:
        self._ops: list = []
        self._changed = False  # a block was saved or removed (not only inserted): see changed_blocks
        self._snapped: dict = {}  # anchor -> its copy
        self._nested: dict = {}  # a paragraph saved alone (nested in a block) -> its top-level block
        self._blocks_then: dict = {}  # OOXML_MCP_CHECK_UNDO: such a block as it was, for check_nested
        self._attrs: set = set()
        self._inserted: set = set()
        self._size = 0
        self._looked = 0  # records before this index were given by newly_touched

    def anchor(self, el: etree._Element):
        """The top-level block holding ``el``; ``el`` itself when it is a top container; None when
        ``el`` is outside every story (detached, or in a part such as styles.xml)."""
        return self._anchors(el)[0]

    def _anchors(self, el: etree._Element):
        """(top-level block or top container holding ``el``, or None; the outermost paragraph
        holding ``el`` below that block, or None)."""
        tops = self.doc._tops
        if el in tops:
            return el, None
        cur, outer = el, None
        while (parent := cur.getparent()) is not None:
            if cur.tag == _P:
                outer = cur
            if parent in tops:  # a top-level paragraph is its own outermost paragraph: saved whole
                return cur, (outer if outer is not cur else None)
            cur = parent
        return None, None

    def will_change(self, el: etree._Element, for_id: bool = False) -> None:
        """``for_id``: only our namespace is about to be listed on a root, for a new ID; alone,
        that does not make the call a step (reads give IDs too)."""
        if not self.active:
            return
        a, nested = self._anchors(el)
        if a is None:
            return
        if a in self.doc._tops:
            if a not in self._attrs:
                self._attrs.add(a)
                attrs = dict(a.attrib)
                if a in set(self.doc.ids.given()):
                    attrs.pop(OX_ID, None)  # given in this call: not part of the state before it
                self._ops.append(["attrs", a, attrs, for_id])
            return
        if a in self._snapped or a in self._inserted:
            return
        if nested is not None:
            if nested not in self._snapped:
                if self.check and a not in self._blocks_then:
                    self._blocks_then[a] = _bare(a)
                self._nested[nested] = a
                self._save(nested, a)
            return
        self._save(a)

    def _save(self, a: etree._Element, top: etree._Element | None = None) -> None:
        """A copy of ``a`` as at the call's start, recorded as a swap. Paragraphs inside ``a``
        saved alone earlier in the call go into the copy as they were saved, and their swaps go:
        the block's swap alone puts them back (two nested swaps would undo into a detached copy)."""
        dup = copy.deepcopy(a)
        dup.tail = None
        given = self.doc.ids.given()
        inner = [p for p, top in self._nested.items() if top is a] if self._nested else ()
        if given or inner:  # IDs given earlier in this call are not part of the state before it
            given, inner = set(given), set(inner)
            saved_inner = []
            for live, saved in zip(a.iter(), dup.iter()):
                if live in given:
                    saved.attrib.pop(OX_ID, None)
                if live in inner:
                    saved_inner.append((live, saved))
            for live, saved in saved_inner:
                before = self._snapped.pop(live)
                del self._nested[live]
                before.tail = saved.tail
                saved.getparent().replace(saved, before)
                self._size -= _nodes(before)
            if inner:
                gone = [i for i, op in enumerate(self._ops) if op[0] == "swap" and op[1] in inner]
                self._looked -= sum(1 for i in gone if i < self._looked)  # newly_touched's place kept
                self._ops = [op for op in self._ops if not (op[0] == "swap" and op[1] in inner)]
        self._snapped[a] = dup
        # A paragraph saved alone is found again by its place in its block: undoing a later step
        # that saved the whole block puts copies of the block's insides back, not these elements.
        self._ops.append(["swap", a, dup] if top is None else ["swap", a, dup, top, place(a, top)])
        self._changed = True
        self._size += _nodes(dup)

    def will_insert(self, container: etree._Element) -> None:
        """Before a block goes into ``container``: inside a top-level block, that block is saved."""
        if self.active and container not in self.doc._tops:
            self.will_change(container)

    def inserted(self, el: etree._Element) -> None:
        """After ``el`` went into a container (recorded when the container is a top container)."""
        if self.active and el.getparent() in self.doc._tops:
            self._inserted.add(el)
            self._ops.append(["ins", el, el.getparent(), None])

    def will_remove(self, el: etree._Element) -> None:
        """Before ``el`` leaves its container."""
        if not self.active:
            return
        parent = el.getparent()
        if parent not in self.doc._tops:
            self.will_change(parent)
            return
        self._ops.append(["del", el, parent, el.getprevious()])
        self._changed = True
        self._size += _nodes(el)

    def check_changed(self, el: etree._Element, always: bool = False) -> None:
        """Fail when an element changed without will_change first: with OOXML_MCP_CHECK_UNDO=1 on
        every ``Document.changed``; ``always``: the edit protocol's own pairing (tools/docx/protocol.py)."""
        if not (self.active and (self.check or always)):
            return
        a = self.anchor(el)
        if a is None or a in self.doc._tops or a in self._snapped or a in self._inserted:
            return
        if any(op[0] == "del" and op[1] is a for op in self._ops):
            return
        if self._nested and any(cur in self._nested for cur in _up_to(el, a)):
            return  # inside a paragraph saved alone (not one of its ancestors: that changed outside it)
        raise AssertionError(f"{etree.QName(el).localname} changed without doc.will_change() first: "
                             "the change cannot be undone")

    def check_nested(self) -> None:
        """OOXML_MCP_CHECK_UNDO=1: fail when a block whose paragraphs were saved alone changed outside
        them (an edit announced a paragraph, then changed its cell or table: undo would miss it)."""
        blocks, self._blocks_then = self._blocks_then, {}
        for block, then in blocks.items():
            if block in self._snapped:
                continue  # saved whole later in the call
            now = copy.deepcopy(block)
            saved = {live: self._snapped[live] for live, top in self._nested.items() if top is block}
            swaps = [(copied, saved[live]) for live, copied in zip(block.iter(), now.iter()) if live in saved]
            for copied, before in swaps:
                before = copy.deepcopy(before)
                before.tail = copied.tail
                copied.getparent().replace(copied, before)
            if _bare(now) != then:
                raise AssertionError(f"{etree.QName(block).localname} changed outside the paragraphs announced "
                                     "with doc.will_change(): the change cannot be undone")

    def changed_blocks(self) -> bool:
        """Whether ``gone_and_changed`` may list anything: a call that only inserted blocks has none."""
        return self._changed

    def newly_touched(self) -> list[etree._Element]:
        """While a call records: the blocks of the records made since the last ask in this call (a
        batch's calls each see their own): inserted, changed (live and as it was) or removed."""
        out = []
        for op in self._ops[self._looked:]:
            if op[0] != "attrs":
                out += [op[1], op[2]] if op[0] == "swap" else [op[1]]
        self._looked = len(self._ops)
        return out

    def gone_and_changed(self) -> list[tuple[etree._Element, etree._Element | None, etree._Element]]:
        """While a call records: (block as it was, the live block or None when removed, its top
        container) for each block the call changed or removed so far. Read-only."""
        parents = {id(op[1]): op[2] for op in self._ops if op[0] == "del"}
        out = []
        for op in self._ops:
            if op[0] == "swap":
                live = op[1]
                top = self._nested.get(live)
                if top is not None:  # a paragraph saved alone: gone when its block is
                    live = live if top.getparent() is not None else None
                else:
                    top = live
                container = top.getparent()
                out.append((op[2], live, container if container is not None else parents.get(id(top))))
            elif op[0] == "del" and op[1] not in self._snapped:
                out.append((op[1], None, op[2]))
        return [entry for entry in out if entry[2] is not None]


def place(el: etree._Element, top: etree._Element) -> list[int]:
    """Child indexes from ``top`` down to ``el``."""
    path = []
    while el is not top:
        parent = el.getparent()
        path.append(parent.index(el))
        el = parent
    path.reverse()
    return path


def _up_to(el: etree._Element, top: etree._Element):
    """``el`` and its ancestors below ``top``."""
    cur = el
    while cur is not None and cur is not top:
        yield cur
        cur = cur.getparent()


def _bare(el: etree._Element) -> bytes:
    """``el`` written without our IDs (given at any time, they are no change of content), namespaces
    declared where used (a copy declares them elsewhere than the tree it came from)."""
    dup = copy.deepcopy(el)
    dup.tail = None
    for sub in dup.iter():
        if isinstance(sub.tag, str):
            sub.attrib.pop(OX_ID, None)
    return etree.tostring(dup, method="c14n", exclusive=True)


def _nodes(el: etree._Element) -> int:
    return NODE_BYTES * sum(1 + len(e.attrib) for e in el.iter())
