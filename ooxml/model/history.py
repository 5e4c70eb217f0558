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

from operator import attrgetter
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ooxml.model.capture import NODE_BYTES, Capture, place
from ooxml.model.playback import redo_step, undo_step
from ooxml.model.undo_limits import DEFAULT_UNDO_LIMITS, UndoLimits
from ooxml.opc.part import PartTable
from ooxml.xml import clock
from ooxml.xml.namespaces import OX_ID

_SIZE = attrgetter("size")


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


class Recorder(Capture):
    """A document's undo and redo stacks; while a call runs (``begin`` .. ``commit``/``abandon``), its
    records (``Capture``)."""

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
        super()._reset()
        self._touched: dict[str, bool] = {}  # part touched in the call -> whether it was dirty before

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
        return (el, key, top, place(el, top))

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
