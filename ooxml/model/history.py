"""Undo and redo of whole tool calls, from records of what each call changed (never document copies).

While a call runs, the Recorder collects, in order:
- ``swap``: the first time anything inside a top-level block (a child of the body, or of a story
  part's root) is about to change, a deep copy of that block, its *anchor*: the state at the call's
  start. Undo swaps contents (attributes, text, children) between the live block and the copy, so the
  block keeps its identity (positions, caches and IDs pointing at it stay right) and the copy then
  holds the state redo needs;
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
import os
from operator import attrgetter
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ooxml.xml import clock
from ooxml.xml.namespaces import OX_ID
from ooxml.xml.unlink import move_children

_SIZE = attrgetter("size")
NODE_BYTES = 160  # rough memory of one lxml node (element or attribute) held by a record


def _limit(name: str, default: int) -> int:
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        return default


@dataclass
class Step:
    label: str  # the tool call, shortly
    tool: str
    at: float
    ops: list = field(default_factory=list)
    given: list = field(default_factory=list)  # (element, ID) given during the call
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
        self.max_steps = _limit("OOXML_MCP_UNDO_STEPS", 100)
        self.max_bytes = _limit("OOXML_MCP_UNDO_BYTES", 64 * 1024 * 1024)
        self.active = False
        self.check = os.environ.get("OOXML_MCP_CHECK_UNDO") == "1"
        self._known: dict[str, bytes] = {}  # current bytes of non-story parts changed by steps
        self._reset()

    # ---- recording --------------------------------------------------------------------------------
    def _reset(self) -> None:
        self._ops: list = []
        self._changed = False  # a block was saved or removed (not only inserted): see changed_blocks
        self._snapped: dict = {}  # anchor -> its copy
        self._attrs: set = set()
        self._inserted: set = set()
        self._size = 0
        self._touched: set[str] = set()
        self._parts_at_start: dict = {}
        self._dirty_at_start: set[str] = set()

    def begin(self) -> None:
        """A tool call starts using this document."""
        self._reset()
        self.active = True
        self._modified_at_start = self.doc.modified
        package = self.doc.package
        self._parts_at_start = dict(package.parts)
        self._dirty_at_start = {name for name, part in package.parts.items() if part.dirty}
        package.touch_log = self._touched

    def anchor(self, el: etree._Element):
        """The top-level block holding ``el``; ``el`` itself when it is a top container; None when
        ``el`` is outside every story (detached, or in a part such as styles.xml)."""
        tops = self.doc._tops
        if el in tops:
            return el
        cur = el
        while (parent := cur.getparent()) is not None:
            if parent in tops:
                return cur
            cur = parent
        return None

    def will_change(self, el: etree._Element, for_id: bool = False) -> None:
        """``for_id``: only our namespace is about to be listed on a root, for a new ID; alone,
        that does not make the call a step (reads give IDs too)."""
        if not self.active:
            return
        a = self.anchor(el)
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
        dup = copy.deepcopy(a)
        dup.tail = None
        given = self.doc.ids.given()
        if given:  # IDs given earlier in this call are not part of the state before it
            given = set(given)
            for live, saved in zip(a.iter(), dup.iter()):
                if live in given:
                    saved.attrib.pop(OX_ID, None)
        self._snapped[a] = dup
        self._ops.append(["swap", a, dup])
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
        raise AssertionError(f"{etree.QName(el).localname} changed without doc.will_change() first: "
                             "the change cannot be undone")

    def changed_blocks(self) -> bool:
        """Whether ``gone_and_changed`` may list anything: a call that only inserted blocks has none."""
        return self._changed

    def gone_and_changed(self) -> list[tuple[etree._Element, etree._Element | None, etree._Element]]:
        """While a call records: (block as it was, the live block or None when removed, its top
        container) for each block the call changed or removed so far. Read-only."""
        parents = {id(op[1]): op[2] for op in self._ops if op[0] == "del"}
        out = []
        for op in self._ops:
            if op[0] == "swap":
                live = op[1]
                container = live.getparent()
                out.append((op[2], live, container if container is not None else parents.get(id(live))))
            elif op[0] == "del" and op[1] not in self._snapped:
                out.append((op[1], None, op[2]))
        return [entry for entry in out if entry[2] is not None]

    def commit(self, tool: str, label: str, state_before=None, state_after=None) -> Step | None:
        """End of a successful call: its records become a step (None if it changed nothing)."""
        if not self.active:
            return None
        self.active = False
        self.doc.package.touch_log = None
        # The call's clock: a journal replay pins it, so a replayed step has its first run's time.
        step = Step(label=label, tool=tool, at=clock.now().timestamp(), ops=self._ops, state_before=state_before,
                    state_after=state_after, size=self._size)
        self._package_changes(step)
        for op in step.ops:  # an ID's namespace listed on a root alone changes nothing
            if op[0] != "attrs" or not op[3]:
                break
        else:
            if not (step.parts or step.parts_before is not None):
                self._reset()
                return None  # a read: the IDs it gave stay, like any read's
        step.given = [(el, el.get(OX_ID)) for el in self.doc.ids.given() if el.get(OX_ID)]
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
        self._undo_one(step)
        self.doc.modified = self._modified_at_start  # a failed call leaves the document as it found it

    def _package_changes(self, step: Step) -> None:
        package = self.doc.package
        now = package.parts
        if list(now.items()) != list(self._parts_at_start.items()):
            step.parts_before, step.parts_after = self._parts_at_start, dict(now)
        stories = self.doc.story_parts() if self._touched else ()
        for name in sorted(self._touched):
            part = now.get(name)
            if part is None:
                continue
            if part in stories:
                if name not in self._dirty_at_start and name in self._parts_at_start:
                    step.clean.append((part, part.touches))
                continue
            after = part.data
            if name not in self._parts_at_start:  # new in this call: the part table restores it
                self._known[name] = after
                continue
            before = self._known.get(name)
            if before is None:
                before = part.original_data()
            if before != after:
                step.parts.append((name, before, after, name in self._dirty_at_start))
                step.size += len(before) + len(after)
            self._known[name] = after

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
            self._undo_one(step)
            self.redo_steps.append(step)
            done.append(step)
        return done

    def redo(self, steps: int) -> list[Step]:
        self.active = False
        done = []
        while len(done) < steps and self.redo_steps:
            step = self.redo_steps.pop()
            self._redo_one(step)
            self.undo_steps.append(step)
            done.append(step)
        return done

    def _undo_one(self, step: Step) -> None:
        doc = self.doc
        for el, key in step.given:
            el.attrib.pop(OX_ID, None)
            doc.ids.drop(key, el)
        clean = [part for part, touches in step.clean if part.touches == touches]  # untouched since
        for op in reversed(step.ops):
            self._play(op, forward=False)
        self._restore_parts(step, before=True)
        for part in clean:
            part.dirty = part.content_changed = False  # as opened: saved as the original bytes again
        doc.after_history()

    def _redo_one(self, step: Step) -> None:
        doc = self.doc
        self._restore_parts(step, before=False)
        for op in step.ops:
            self._play(op, forward=True)
        for el, key in step.given:
            el.set(OX_ID, key)
            doc.ids.adopt(el, own_only=True)
        step.clean = [(part, part.touches) for part, _ in step.clean]
        doc.after_history()

    def _play(self, op: list, forward: bool) -> None:
        kind, el = op[0], op[1]
        doc = self.doc
        if kind == "swap":
            _swap(el, op[2])
            doc.ids.adopt(el)
            doc.changed(el)
        elif kind == "attrs":
            now = dict(el.attrib)
            el.attrib.clear()
            el.attrib.update(op[2])
            op[2] = now
            doc.changed(el)
        elif (kind == "ins") == forward:  # put the block (back) in its place
            parent, prev = op[2], op[3]
            if prev is not None:
                prev.addnext(el)
            else:
                parent.insert(0, el)
            doc.block_back(el)
        else:  # take it out, noting its place for the way back
            op[3] = el.getprevious()
            doc.block_gone(el)

    def _restore_parts(self, step: Step, before: bool) -> None:
        package = self.doc.package
        table = step.parts_before if before else step.parts_after
        if table is not None:
            package.parts.clear()
            package.parts.update(table)
        for name, old, new, was_dirty in step.parts:
            data = old if before else new
            part = package.parts.get(name)
            if part is None:
                continue
            if before and not was_dirty:
                part.unload()  # as opened: saved as the original bytes again
                self._known.pop(name, None)
            else:
                part.restore(part.parse(data))
                self._known[name] = data

    def clear(self) -> None:
        """Forget every step (after an internal error left the records unusable)."""
        self.active = False
        if self.doc is not None:
            self.doc.package.touch_log = None
        self.undo_steps.clear()
        self.redo_steps.clear()
        self._reset()  # _known stays: it is the parts' current bytes, still right

    # ---- listing ------------------------------------------------------------------------------------
    def memory(self) -> int:
        return sum(s.size for s in self.undo_steps) + sum(s.size for s in self.redo_steps)


def _nodes(el: etree._Element) -> int:
    return NODE_BYTES * sum(1 + len(e.attrib) for e in el.iter())


def _swap(live: etree._Element, other: etree._Element) -> None:
    """Exchange attributes, text and children of two elements (tails stay)."""
    live_attrs, other_attrs = dict(live.attrib), dict(other.attrib)
    live.attrib.clear()
    live.attrib.update(other_attrs)
    other.attrib.clear()
    other.attrib.update(live_attrs)
    live.text, other.text = other.text, live.text
    live_kids, other_kids = list(live), list(other)
    move_children(live_kids, other)  # moves them out of live (linear: ooxml/xml/unlink.py)
    move_children(other_kids, live)

