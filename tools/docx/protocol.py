"""The edit protocol: one unit of work per editing call.

    @tool()
    def docx_update_paragraph_text(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, ...):
        p = e.element(element_id, {B.W_P}, "paragraph")
        e.show(p)                      # the boxes the Changes compare, drawn before
        e.change(p)                    # announced now (undo), reported changed at the end
        edits.set_paragraph_text(e.doc, p, text)
        e.done(p, marker="UPDATED", updated=p)

``@tool`` opens the ``Edit`` around the call (tools/runtime/call/registry.py ``UnitOfWork``; the operation
is the tool's name, "Update Paragraph Text") and answers with ``e.answer``. The Edit takes the
session (its lock, the undo step: tools/docx/common.session_of), draws the
before-boxes, pairs every ``change`` with ``doc.changed`` before the after-boxes are drawn (caption
numbers renumbered first when a block holding a SEQ field came, went or changed), sets the
cursor and ``last_insert``/``last_update``, and builds the answer. An exception leaves the block
untouched: dispatch puts back whatever the call changed. Tracked changes are the model's job
(ooxml/review/edits.py, ``Document.insert_block``), so a tool written this way cannot forget them.
"""
from __future__ import annotations

from lxml import etree

from ooxml.model import places as P
from ooxml.refs import renumber as RN
from ooxml.review import revisions as REV
from ooxml.review import edits
from ooxml.tabular.fill import keep_tables_apart
from ooxml.text import body as B
from render.answer import Answer
from ooxml.model.insertion import InlinePlace, Position, block_insertion, inline_place, insertion_neighbours, last_block
from tools.docx import common as C
from tools.runtime.call.registry import CallContext, UnitOfWork
from tools.runtime.sessions.sessions import Cursor


class Edit(UnitOfWork):
    """What one call does to one session; ``answer`` is set when the block ends without an error.
    ``late``: the session is found on first use (``e.session``/``e.doc``), after the tool's checks."""

    def __init__(self, ctx: CallContext, session_id: str | None, operation: str, late: bool = False):
        self.ctx = ctx
        self.session_id = session_id
        self._session = None
        if not late:
            self._session = C.session_of(ctx, session_id)
        self.operation = operation
        self.answer: Answer | None = None
        self._shown: list = []
        self._note: list[str] = []
        self._before: list[str] | None = None
        self._after: list | None = None
        self._changing: list = []
        self._announced: list = []  # every element changed in place: a batch's earlier call may have
        # recorded its block (undo records it once), so only this list says the block changed again
        self._result: dict | None = None
        self._cursor: Cursor | None = None

    @property
    def session(self):
        if self._session is None:
            self._session = C.session_of(self.ctx, self.session_id)
        return self._session

    @property
    def doc(self):
        return self.session.doc

    # ---- finding what to edit ----------------------------------------------------------------------
    def element(self, raw: str, tags: set | None = None, what: str = "", arg: str = "element_id",
                deleted_ok: bool = False) -> etree._Element:
        """The element an ID names; of one of ``tags``; refused when it is tracked-deleted."""
        el = C.resolve(self.session, raw, arg)
        if tags is not None:
            C.expect(el, tags, what, arg)
        if not deleted_ok:
            REV.refuse_deleted(self.doc, el, arg)
        return el

    def position(self, position: str) -> Position:
        """THE reading of a position argument (every tool's): MODE:TARGET, not a tracked-deleted target."""
        pos = C.parse_position(self.session, position)
        REV.refuse_deleted(self.doc, pos.target, "position")
        return pos

    def inline(self, position: str, what: str) -> InlinePlace:
        """A position among a paragraph's runs (ooxml/model/insertion.py), read by ``position``."""
        return inline_place(self.doc, self.position(position), what)

    # ---- the change --------------------------------------------------------------------------------
    def show(self, *els, note: list[str] | None = None) -> None:
        """The elements the Changes section compares (None skipped): drawn now, and again at the end
        (those still in the document, unless ``after`` names others). ``note``: lines under both."""
        self._shown = list(els)
        self._note = note or []
        self._before = _draw(self.doc, self._shown) + self._note

    def after(self, *els) -> None:
        """The elements drawn after the change, when they are not the shown ones (an insertion's);
        a string among them is a line of its own ("... 12 more ..."), a callable gives lines drawn
        at the end (a table's excerpt)."""
        self._after = list(els)

    def change(self, *els) -> None:
        """Before changing ``els`` in place: undo saves them; ``doc.changed`` follows at the end."""
        for el in els:
            if el is not None:
                self.doc.will_change(el)
                self._changing.append(el)

    def changed(self, *els) -> None:
        """Elements a model operation changed and announced itself: reported changed at the end."""
        self._changing += [el for el in els if el is not None]

    def report(self) -> None:
        """Report the changes so far now (``doc.changed``), before reading what they affect (note
        numbers, list labels); the end of the block reports the rest."""
        doc = self.doc
        self._announced += self._changing
        for el in self._changing:
            if el.getparent() is None and el not in doc.top_containers():
                continue  # it left the tree: its removal was recorded as one
            doc.history.check_changed(el, always=True)  # cheap: a change reported is one announced
            doc.changed(el)
        self._changing = []

    def insert(self, new: etree._Element, pos: Position, what: str = "paragraph") -> etree._Element:
        """A prepared block at ``pos``, shown with its neighbours; tracked by the model."""
        container, where = block_insertion(self.doc, pos, what)
        prev, nxt = insertion_neighbours(container, where)
        self.show(prev, nxt)
        self.doc.insert_block(new, container=container, **where)
        self.after(prev, new, nxt)
        return new

    def done(self, element: etree._Element | None, *, marker: str | None = None, fields: dict | None = None,
             inserted: etree._Element | None = None, updated: etree._Element | None = None,
             cursor: tuple | None = None, element_id: str | None = None, content: str | None = None,
             head_id: bool = True, changes: str | None = None, keep_cursor: bool = False,
             dangling: str = "after") -> None:
        """What the answer shows: the context around ``element``; ``inserted``/``updated`` become
        ``last_insert``/``last_update`` (an insertion also moves the cursor after it, unless
        ``keep_cursor`` or ``cursor`` says (element, place)). A cursor the call's removals left on
        nothing goes ``dangling`` (after/before) the block holding ``element``."""
        self._result = dict(element=element, marker=marker, fields=fields, element_id=element_id,
                            content=content, head_id=head_id, changes=changes, inserted=inserted, updated=updated,
                            keep_cursor=keep_cursor, dangling=dangling)
        if cursor is not None:
            self._cursor = cursor

    def not_tracked(self, why: str) -> dict:
        """The answer field saying, while tracking, what Word records no revision for."""
        return {"Tracked": f"no: {why}"} if REV.tracker(self.doc) is not None else {}

    def plain(self, answer: Answer, inserted: etree._Element | None = None,
              updated: etree._Element | None = None) -> None:
        """An answer the tool built itself (a list, a part removed): taken as it is; ``inserted``/
        ``updated`` become last_insert/last_update (the cursor stays)."""
        self._result = {"plain": answer, "inserted": inserted, "updated": updated}

    # ---- the end -----------------------------------------------------------------------------------
    # A class, not @contextmanager: a generator per call costs microseconds on every edit.
    def __enter__(self) -> "Edit":
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:  # an error leaves the block untouched: dispatch puts the call back
            self._finish()
        return False

    def _finish(self) -> None:
        if self._result is None:
            raise AssertionError(f"{self.operation}: the tool ended its edit without done()")
        self.report()
        self._renumber()
        r = self._result
        session = self.session
        if r["inserted"] is not None:
            session.last_insert = self.doc.id_of(r["inserted"])
        if r["updated"] is not None:
            session.last_update = self.doc.id_of(r["updated"])
        if "plain" in r:
            self._retarget(None, "after")
            self.answer = r["plain"]
            return
        if r["inserted"] is not None and not r["keep_cursor"]:
            session.cursor = Cursor(session.last_insert, "after")
        if self._cursor is not None:
            el, place = self._cursor
            session.cursor = Cursor(self.doc.id_of(el), place) if el is not None else Cursor()
        self._retarget(r["element"], r["dangling"])
        before, after = self._diff()
        self.answer = C.answer(session, self.operation, r["element"], marker=r["marker"], before=before,
                               after=after, fields=r["fields"], content=r["content"], head_id=r["head_id"],
                               element_id=r["element_id"], changes=r["changes"])

    def _retarget(self, element: etree._Element | None, place: str) -> None:
        """A cursor on an element the call removed moves ``place`` the block holding ``element``
        (without one: after the body's last block), before the answer shows it."""
        session, doc = self.session, self.doc
        if session.cursor.element_id is None or doc.ids.get(session.cursor.element_id) is not None:
            return
        block = P.block_of(element) if element is not None else None
        if block is None or block.getparent() is None:  # a story root, or out of the tree
            block, place = last_block(doc.body), "after"
        session.cursor = Cursor(doc.id_of(block), place) if block is not None else Cursor()

    def _renumber(self) -> None:
        """Caption numbers (and the references to them) right after a block holding a SEQ field came,
        went or changed: in this undo step, before the after-boxes, tracked as an update."""
        if not RN.holds_seq([*self.doc.history.newly_touched(), *self._announced]):
            return
        changes = RN.renumber(self.doc, self.change)
        if changes:
            self.report()
            n = len(changes)
            if "plain" not in self._result:
                self._result["fields"] = {**(self._result["fields"] or {}), "Renumbered": f"{n} field" + "s" * (n > 1)}

    def _diff(self) -> tuple[list[str] | None, list[str] | None]:
        """The boxes before and after (None when the tool showed nothing: no Changes section)."""
        if self._before is None:
            return None, None
        shown = self._after if self._after is not None else \
            [el for el in self._shown if not isinstance(el, etree._Element) or _in_tree(el)]
        return self._before, _draw(self.doc, shown) + self._note


def _draw(doc, items: list) -> list[str]:
    """Boxes of the elements (None skipped), lines given as strings kept in their place."""
    out: list[str] = []
    run: list = []
    for item in items:
        if isinstance(item, str) or callable(item):
            out += C.box_lines(doc, run) + ([item] if isinstance(item, str) else item())
            run = []
        else:
            run.append(item)
    return out + C.box_lines(doc, run)


def _in_tree(el: etree._Element) -> bool:
    return el.getparent() is not None


# ---- edits several tools share ---------------------------------------------------------------------

# Kinds that feature modules delete their own way (a field with all its runs, a note with its
# reference ...): tag -> (edit, element), docx_delete's. Filled in when the tool modules load.
DELETERS: dict = {}
SHOWN = 10  # new blocks drawn after an insert of many


def delete_inline(e: Edit, el: etree._Element) -> None:
    doc = e.doc
    eid = doc.id_of(el)
    holder = B.find_ancestor(el, B.W_P)
    e.show(holder)
    e.change(holder)
    edits.delete_inline(doc, el)
    tracked = " (tracked)" if edits.tracking(doc) else ""
    e.done(holder, element_id=eid, fields={"Deleted": f"{B.kind(el)} {eid}{tracked}"})


def place_blocks(e, blocks: list[etree._Element], pos, fields: dict | None = None,
                 first_field: str | None = None) -> None:
    """Insert prepared blocks (and markers between them) in order at a block position (edit protocol)."""
    doc = e.doc
    last_block = next(el for el in reversed(blocks) if B.is_block(el))
    what = "paragraph" if last_block.tag == B.W_P else B.kind(last_block).lower()
    container, where = block_insertion(doc, pos, what)
    prev, nxt = insertion_neighbours(container, where)
    e.show(prev, nxt)
    anchor = None
    for el in blocks:
        doc.insert_block(el, container=container, **({"after": anchor} if anchor is not None else where))
        anchor = el
    new_blocks = [el for el in blocks if B.is_block(el)]
    lead, trail = keep_tables_apart(doc, container, new_blocks[0], new_blocks[-1])
    more = [f"  ... ({len(new_blocks) - SHOWN} more new blocks) ..."] if len(new_blocks) > SHOWN else []
    e.after(prev, lead, *new_blocks[:SHOWN], *more, trail, nxt)
    fields = {"Position": pos.text, **(fields or {})}
    if first_field:
        fields[first_field] = doc.id_of(new_blocks[0])
    e.done(new_blocks[-1], marker="NEW", inserted=new_blocks[-1], fields=fields)
