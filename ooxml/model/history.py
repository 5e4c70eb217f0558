"""Undo and redo of whole tool calls, from records of what each call changed (never document copies).

While a call runs, the Recorder collects, in order:
- ``swap``: the first time anything inside a top-level block (a child of the body, or of a story
  part's root) is about to change, a deep copy of that block, its *anchor*: the state at the call's
  start. Undo swaps contents (attributes, text, children) between the live block and the copy, so the
  block keeps its identity (positions, caches and IDs pointing at it stay right) and the copy then
  holds the state redo needs. A change inside a paragraph nested in a block (a table cell's, a
  content control's) saves that paragraph only (its outermost paragraph: a text box's paragraphs
  are saved with the paragraph holding the text box), so a cell's text edit costs the cell's
  paragraph, not the table (issue 21). A change outside every paragraph of the block (a cell, a
  row, the table's properties, a paragraph going in or out of a cell) saves the whole block, with
  the paragraphs saved before it put back into its copy as they were: one record a block;
- ``ins``/``del``: blocks inserted into or removed from a top container, with their place;
- ``attrs``: the attributes of a top container (body, part root) before their first change;
- IDs of ours given during the call (taken back by undo, given again by redo);
- package changes: parts added or removed, and the bytes of touched parts that hold no story
  (rels, content types, styles, numbering, settings ...) before and after.
Undo plays a step's records backwards, redo forwards. Recording is on only between ``begin`` and
``commit``/``abandon`` (a tool call); edits made outside calls are not recorded.
"""
from __future__ import annotations

import copy
from operator import attrgetter
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ooxml.model.playback import redo_step, undo_step
from ooxml.model.undo_limits import DEFAULT_UNDO_LIMITS, UndoLimits
from ooxml.opc.part import PartTable
from ooxml.xml import clock
from ooxml.xml.namespaces import OX_ID, W

_SIZE = attrgetter("size")
NODE_BYTES = 160  # rough memory of one lxml node (element or attribute) held by a record
_P = f"{{{W}}}p"


@dataclass
class Step:
    label: str  # the tool call, shortly
    tool: str
    at: float
    ops: list = field(default_factory=list)
    given: list = field(default_factory=list)  # (element, ID[, its top-level block, its place there]) given during the call
    parts: list = field(default_factory=list)  # (name, bytes before, bytes after) of non-story parts
    parts_before: dict | None = None  # the package's part table before/after, when parts came or went
    parts_after: dict | None = None
    clean: list = field(default_factory=list)  # (story part, touches at commit): clean before the call
    state_before: Any = None  # the session's cursor and special IDs (opaque here)
    state_after: Any = None
    size: int = 0  # estimated bytes held


class Recorder:
    def __init__(self, doc):
        self.doc = doc
        self.undo_steps: list[Step] = []
        self.redo_steps: list[Step] = []
        self.dropped = 0  # old steps dropped by the limits
        self.active = False
        self.configure(DEFAULT_UNDO_LIMITS)
        self._known: dict[str, bytes] = {}  # current bytes of non-story parts changed by steps
        self._reset()

    # ---- recording --------------------------------------------------------------------------------
    def _reset(self) -> None:
        self._ops: list = []
        self._changed = False  # a block was saved or removed (not only inserted): see changed_blocks
        self._snapped: dict = {}  # anchor -> its copy
        self._nested: dict = {}  # a paragraph saved alone (nested in a block) -> its top-level block
        self._blocks_then: dict = {}  # OOXML_MCP_CHECK_UNDO: such a block as it was, for check_nested
        self._attrs: set = set()
        self._inserted: set = set()
        self._size = 0
        self._touched: dict[str, bool] = {}  # part touched in the call -> whether it was dirty before
        self._looked = 0  # records before this index were given by newly_touched

    def configure(self, limits: UndoLimits) -> None:
        self.max_steps, self.max_bytes, self.check = limits.max_steps, limits.max_bytes, limits.check

    def begin(self, limits: UndoLimits | None = None) -> None:
        """A tool call starts using this document (under the server's ``limits``, if given)."""
        if limits is not None:
            self.configure(limits)
        self._reset()
        self.active = True
        self._modified_at_start = self.doc.modified
        package = self.doc.package
        parts = package.parts
        if type(parts) is not PartTable:  # a table set from outside (a snapshot restored)
            parts = package.parts = PartTable(parts)
        parts.watch(self._touched)  # it keeps itself as it was if the call adds or removes a part
        package.touch_log = self._touched

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
        self._ops.append(["swap", a, dup] if top is None else ["swap", a, dup, top, _place(a, top)])
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

    def commit(self, tool: str, label: str, state_before=None, state_after=None) -> Step | None:
        """End of a successful call: its records become a step (None if it changed nothing)."""
        if not self.active:
            return None
        if self._blocks_then:
            self.check_nested()
        self.active = False
        self.doc.package.touch_log = None
        # The call's clock: a journal replay pins it, so a replayed step has its first run's time.
        step = Step(label=label, tool=tool, at=clock.now().timestamp(), ops=self._ops, state_before=state_before,
                    state_after=state_after, size=self._size)
        self._package_changes(step)
        _note_moves(step.ops, self.doc._tops)
        for op in step.ops:  # an ID's namespace listed on a root alone changes nothing
            if op[0] != "attrs" or not op[3]:
                break
        else:
            if not (step.parts or step.parts_before is not None):
                self._reset()
                return None  # a read: the IDs it gave stay, like any read's
        step.given = [self._given(el, key) for el in self.doc.ids.given() if (key := el.get(OX_ID))]
        step.size += NODE_BYTES * len(step.given)
        self._reset()
        self.redo_steps.clear()
        self.undo_steps.append(step)
        self._enforce_limits()
        return step

    def abandon(self) -> None:
        """End of a failed call: whatever it changed is put back."""
        if not self.active:
            return
        self.active = False
        self.doc.package.touch_log = None
        step = Step(label="", tool="", at=0.0, ops=self._ops)
        self._package_changes(step)
        self._reset()
        undo_step(self.doc, self._known, step)
        self.doc.modified = self._modified_at_start  # a failed call leaves the document as it found it

    def _package_changes(self, step: Step) -> None:
        package = self.doc.package
        now = package.parts
        start, dirty_then = getattr(now, "before", None), getattr(now, "dirty_then", None) or {}
        if isinstance(now, PartTable):
            now.unwatch()
        if start is not None and list(now.items()) != list(start.items()):
            step.parts_before, step.parts_after = start, dict(now)
        at_start = now if start is None else start
        stories = self.doc.story_parts() if self._touched else ()
        for name in sorted(self._touched):
            part = now.get(name)
            if part is None:
                continue
            was_dirty = dirty_then[name] if name in dirty_then else self._touched[name]
            if part in stories:
                if not was_dirty and name in at_start:
                    step.clean.append((part, part.touches))
                continue
            after = part.data
            if name not in at_start:  # new in this call: the part table restores it
                self._known[name] = after
                continue
            before = self._known.get(name)
            if before is None:
                before = part.original_data()
            if before != after:
                step.parts.append((name, before, after, was_dirty))
                step.size += len(before) + len(after)
            self._known[name] = after

    def _given(self, el: etree._Element, key: str) -> tuple:
        """A given ID's record. Inside a block, the element is found again by its place there: undoing
        a later step that saved the whole block puts copies of its insides back."""
        top = self.anchor(el)
        if top is None or top is el or top in self.doc._tops:
            return (el, key)
        return (el, key, top, _place(el, top))

    def _enforce_limits(self) -> None:
        total = sum(map(_SIZE, self.undo_steps))
        while len(self.undo_steps) > 1 and (len(self.undo_steps) > self.max_steps or total > self.max_bytes):
            total -= self.undo_steps.pop(0).size
            self.dropped += 1

    # ---- undo and redo ---------------------------------------------------------------------------
    def undo(self, steps: int) -> list[Step]:
        self.active = False
        done = []
        while len(done) < steps and self.undo_steps:
            step = self.undo_steps.pop()
            undo_step(self.doc, self._known, step)
            self.redo_steps.append(step)
            done.append(step)
        return done

    def redo(self, steps: int) -> list[Step]:
        self.active = False
        done = []
        while len(done) < steps and self.redo_steps:
            step = self.redo_steps.pop()
            redo_step(self.doc, self._known, step)
            self.undo_steps.append(step)
            done.append(step)
        return done

    def clear(self) -> None:
        """Forget every step (after an internal error left the records unusable)."""
        self.active = False
        if self.doc is not None:
            self.doc.package.touch_log = None
            if isinstance(self.doc.package.parts, PartTable):
                self.doc.package.parts.unwatch()
        self.undo_steps.clear()
        self.redo_steps.clear()
        self._reset()  # _known stays: it is the parts' current bytes, still right

    # ---- listing ------------------------------------------------------------------------------------
    def memory(self) -> int:
        return sum(s.size for s in self.undo_steps) + sum(s.size for s in self.redo_steps)


def _note_moves(ops: list, tops) -> None:
    """A block taken out of a top container and put inside another block (a control wrapping a
    paragraph) is no "ins": its "del" notes where it went, so redo puts it there again."""
    for op in ops:
        if op[0] == "del" and len(op) == 4 and (parent := op[1].getparent()) is not None and parent not in tops:
            op += [parent, op[1].getprevious()]


def _place(el: etree._Element, top: etree._Element) -> list[int]:
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
