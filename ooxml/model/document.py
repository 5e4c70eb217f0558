"""A Word document held in memory: package + main part tree + ID index."""
from __future__ import annotations

import copy
import operator
import os
from bisect import bisect_right
from pathlib import Path

from lxml import etree

from ooxml.text.body import MARKERS, W_BODY
from ooxml.xml.errors import ElementNotFound, InvalidDocument
from ooxml.xml.id_bytes import predeclare, undeclare_ours
from ooxml.xml.ids import IdIndex, strip_ids
from ooxml.opc.types import RT
from ooxml.xml.namespaces import MC, OX, OX_ID, OX_PREFIX, W
from ooxml.opc.package import DEFAULT_LIMITS, KEEP, Limits, Package
from ooxml.opc.part import Part
from ooxml.opc.parts import story_part_names
from ooxml.model.positions import BlockOrder
from ooxml.model.history import Recorder
from ooxml.model import stories as stories_of
from ooxml.text.ranges import orphans_if_removed, rescue_markers
from ooxml.xml.safexml import serialize
from ooxml.stylesheet.styles import Styles
from ooxml.opc.template import new_package_parts
from ooxml.xml.unlink import detach
from ooxml.xml.wordids import WordIds, doc_pr_floor


IGNORABLE = f"{{{MC}}}Ignorable"
# Children that are not blocks: range markers, comments, processing instructions.
_NOT_BLOCKS = frozenset((*MARKERS, etree.Comment, etree.ProcessingInstruction))  # an lxml child's .tag
RECENT_CHANGES = 128  # how many changed elements a view can catch up on
_VERSION_OF = operator.itemgetter(0)


class Document:
    def __init__(self, package: Package):
        self.package = package
        self.main_name = package.main_part_name()
        self.main: Part = package.part(self.main_name)
        self._stories: set[str] | None = None
        package.prepare_hook = self._prepare_for
        root = self.main.tree.getroot()
        if root.tag != f"{{{W}}}document":
            raise InvalidDocument(f"Main part '{self.main_name}' is not a WordprocessingML document "
                                  f"(root element {root.tag}).",
                                  hint="Open the document itself (.docx), not another kind of Office file.")
        self.body = root.find(W_BODY)
        if self.body is None:
            raise InvalidDocument(f"Main part '{self.main_name}' has no w:body.",
                                  hint="The file may be damaged; open it in Word and save it again.")
        self.ids = IdIndex()
        self.ids.add_root(root, self.main.prepared.had_ids, self.main.prepared.marks)
        self._part_of_root: dict[etree._Element, Part] = {root: self.main}
        self._orders: dict[etree._Element, BlockOrder] = {}
        self._counts: dict[etree._Element, tuple[int, int]] = {}  # container -> (version, blocks)
        self._styles: Styles | None = None
        self._word_ids: dict[etree._Element, WordIds] = {}
        self._doc_pr: list[int] | None = None
        self.modified = False  # changed since open or last save
        self.version = 0  # bumped by every change: lets views cache what they drew
        self.recent_changes: list[tuple] = []  # (version, element changed, its ancestors then)
        self._tops = {self.body, root}  # containers whose children are recorded one by one for undo
        self.history = Recorder(self)
        self.tracker = None  # ooxml.review.revisions.Tracker while changes are tracked
        # What other modules derive from this document and keep while it lives (list labels, drawn
        # boxes, word ids, ...): one key per owning module ("numbering.labels"), dropped with it.
        self.caches: dict[str, object] = {}
        # Called as listener(doc, el) before remove_block takes ``el`` out, while it still stands where
        # it stood (Open XML SDK's per-package features): list labels note where their counts change.
        self.on_removed: list = []

    # ---- life cycle ------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike, limits: Limits = DEFAULT_LIMITS) -> "Document":
        return cls._checked(Package.open(path, limits))

    @classmethod
    def from_bytes(cls, data: bytes, limits: Limits = DEFAULT_LIMITS) -> "Document":
        """A document read from a file's bytes (e.g. the copy a session took at open)."""
        return cls._checked(Package.from_bytes(data, None, limits))

    @classmethod
    def _checked(cls, package: Package) -> "Document":
        try:
            doc = cls(package)
            package.verify()  # every member's CRC-32, before anyone edits a damaged file
            return doc
        except Exception:
            package.close()
            raise

    @classmethod
    def create(cls) -> "Document":
        return cls(Package.from_parts(new_package_parts()))

    def save(self, path: str | os.PathLike, strip: bool = False, *, overwrite: bool = False, check_dir=None):
        """Save (see ``Package.save``); returns the new file's stamp.

        With ``strip``, a part whose only change was our IDs is written as its original bytes,
        and a part that carries IDs from an earlier save loses them, touched or not.
        """
        stamp = self.package.save(Path(path), self._saved_form(strip), overwrite=overwrite, check_dir=check_dir)
        self.modified = False
        return stamp

    def to_bytes(self, strip: bool = False) -> bytes:
        """The bytes ``save`` would write (for object stores); the caller marks it saved once stored."""
        return self.package.to_bytes(self._saved_form(strip))

    def _saved_form(self, strip: bool):
        def transform(part: Part):
            if not strip or not (part.dirty and part.loaded or self._carries_ids(part)):
                return None  # nothing of ours in it (a new image, an untouched part)
            tree = copy.deepcopy(part.tree)
            strip_ids(tree.getroot())
            data = undeclare_ours(serialize(tree, part.head), part.prepared)
            if not part.content_changed and part.same_as_original(data):
                return KEEP
            return data
        return transform

    def free_trees(self) -> None:
        """Free the story trees' nodes now (those no element object holds), for a closed document
        nothing else uses (docx_close): otherwise they go whenever the session's last reference does."""
        for root in list(self._part_of_root):
            for holder in (*root, root):
                holder.clear()

    def close(self) -> None:
        self.package.close()
        # Break the reference cycles (package hook -> document, history -> document) so the
        # trees go as soon as the session does, not at the next cyclic garbage collection.
        self.package.prepare_hook = None
        self.package.parts = {}  # parts point back at their package
        self.on_removed.clear()  # a listener may close over the document
        self.history.clear()
        self.history.doc = None

    def _carries_ids(self, part: Part) -> bool:
        """Whether an untouched part holds our IDs from an earlier save (only story parts can)."""
        if part.loaded:
            return part.prepared is not None and part.prepared.had_ids
        if self._prepare_for(part.name) is None:
            return False
        original = part.original()
        return original is not None and OX.encode() in original

    # ---- parts -----------------------------------------------------------------------------------
    @property
    def root(self) -> etree._Element:
        return self.main.tree.getroot()

    def related_part(self, rel_type: str, source: str | None = None) -> Part | None:
        source = source or self.main_name
        for rel in self.package.rels(source):
            if rel.get("Type") == rel_type and rel.get("TargetMode") != "External":
                name = self.package.resolve_target(source, rel.get("Target", ""))
                if self.package.has_part(name):
                    return self.package.part(name)
        return None

    def _prepare_for(self, name: str):
        """Story parts (main, headers, footers, notes) get our namespace declared before parsing."""
        if name == self.main_name:
            return predeclare
        if self._stories is None:  # read the main part's rels only once another part is parsed
            self._stories = set()  # parsing the rels part comes back here: it is no story
            self._stories = set(story_part_names(self.package, self.main_name))
        return predeclare if name in self._stories else None

    def register_part_root(self, part: Part) -> etree._Element:
        """Make a part's elements addressable by ID (headers, footers, notes ...)."""
        root = part.tree.getroot()  # story parts get predeclare through _prepare_for
        if root not in self._part_of_root:
            self._part_of_root[root] = part
            self._tops.add(root)
            pre = part.prepared
            self.ids.add_root(root, pre.had_ids if pre else True, pre.marks if pre else None)
        return root

    @staticmethod
    def _top(el: etree._Element) -> etree._Element:
        while (parent := el.getparent()) is not None:
            el = parent
        return el

    def part_of(self, el: etree._Element) -> Part:
        return self._part_of_root.get(self._top(el), self.main)

    @property
    def styles(self) -> Styles:
        if self._styles is None:
            part = self.related_part(RT.STYLES)
            self._styles = Styles(part.tree.getroot() if part else None)
        return self._styles

    def word_ids(self, el: etree._Element) -> WordIds:
        """Word's ID counters for the part holding ``el`` (gathered once)."""
        root = self.part_of(el).tree.getroot()
        if root not in self._word_ids:
            if self._doc_pr is None:  # docPr ids are unique document-wide: one counter for all parts
                self._doc_pr = [doc_pr_floor(self.package, story_part_names(self.package, self.main_name))]
            self._word_ids[root] = WordIds(root, self._doc_pr)
        return self._word_ids[root]

    def reset_styles(self) -> None:
        self._styles = None

    # ---- IDs ---------------------------------------------------------------------------------------
    def id_of(self, el: etree._Element) -> str:
        """The element's stable ID, given now (and saved with its part) if it has none."""
        had = el.get(OX_ID)
        if had is not None:  # the common case: read, no walk to the root
            return self.ids.known(el, had)
        top = self._top(el)
        part = self._part_of_root.get(top)
        if part is None:
            raise ValueError("id_of() needs an element inside the document: insert it first")
        if OX_PREFIX not in top.get(IGNORABLE, "").split():
            self.history.will_change(top, for_id=True)  # the root gets our namespace listed
        element_id = self.ids.id_of(el, top)
        part.touch(ids_only=True)  # the new attribute must be saved
        return element_id

    def register_stories(self) -> None:
        """Index every header, footer and notes part: their IDs resolve once they are registered."""
        for name in story_part_names(self.package, self.main_name)[1:]:
            self.register_part_root(self.package.part(name))

    def story_added(self, name: str) -> None:
        """A story part (header, footer, notes) was just added: parse it with our namespace declared."""
        if self._stories is not None:
            self._stories.add(name)

    def find(self, element_id: str) -> etree._Element:
        el = self.ids.get(element_id)
        if el is None and len(self._part_of_root) < len(story_part_names(self.package, self.main_name)):
            self.register_stories()  # an ID from a header, footer or note part not loaded yet
            el = self.ids.get(element_id)
        if el is None:
            raise ElementNotFound(f"Element '{element_id}' not found",
                                  hint="IDs come from earlier answers; call docx_get_structure or "
                                       "docx_read_content to see the current ones.")
        return el

    # ---- edits ---------------------------------------------------------------------------------------
    def will_change(self, el: etree._Element) -> None:
        """Call BEFORE changing ``el`` (or anything inside it) in place, so the change can be undone.

        Inserts and removals through insert_block/remove_block need no call. Package parts changed
        outside an element (rels, content types, new parts) are announced with ``Part.touch()``.
        The undo history (ooxml/model/history.py) saves the top-level block holding ``el`` once per call,
        or only the paragraph holding ``el`` when that paragraph is nested in the block (a table
        cell's): an edit announced so must stay inside that paragraph.
        """
        self.history.will_change(el)

    def top_containers(self) -> set:
        """The body and the story parts' roots: their children are the units undo saves."""
        return self._tops

    def story_parts(self) -> set:
        return set(self._part_of_root.values())

    def registered_roots(self) -> tuple:
        """The roots of the story parts registered so far, the body's part first."""
        return tuple(self._part_of_root)

    def stories(self, kinds: frozenset = stories_of.ALL, *, body: bool = False) -> list[stories_of.Story]:
        """The stories of ``kinds`` (``stories_of.TEXT``: without comments), main first, registered;
        ``body``: the main story as its w:body (ooxml/model/stories.py)."""
        return stories_of.stories(self, kinds, body)

    def story_roots(self, kinds: frozenset = stories_of.ALL, *, body: bool = False) -> list[etree._Element]:
        return [s.root for s in stories_of.stories(self, kinds, body)]

    def top_block(self, el: etree._Element) -> etree._Element | None:
        """The block of the body or of a story part's root holding ``el`` (``el`` itself if it is one;
        the body for the body); None when ``el`` is in no story (detached, a part of no story)."""
        tops, cur = self._tops, el
        while (parent := cur.getparent()) is not None:
            if parent in tops:
                return cur
            cur = parent
        return None

    def after_history(self) -> None:
        """Undo or redo changed the trees: drop what was derived from them."""
        for container in [c for c in self._orders if c not in self._tops]:
            del self._orders[container]
        self._styles = None
        self._stories = None
        self.modified = True

    def block_back(self, el: etree._Element) -> None:
        """Undo/redo put ``el`` back into its container."""
        order = self._orders.get(el.getparent())
        if order is not None:
            order.inserted(el)
        self.ids.adopt(el)
        self.changed(el)

    def block_gone(self, el: etree._Element) -> None:
        """Undo/redo takes ``el`` out of its container."""
        container = el.getparent()
        order = self._orders.get(container)
        if order is not None:
            order.removed(el)
        self.ids.forget(el)
        self.changed(el)
        detach(el)  # not container.remove: quadratic in lxml for large blocks (ooxml/xml/unlink.py)

    def redraw(self, el: etree._Element) -> None:
        """Views drawn of ``el`` are out of date although ``el`` itself did not change (a note
        number it shows moved because of an edit elsewhere): nothing to save, nothing to undo."""
        self.version += 1
        self.recent_changes.append((self.version, el, tuple(el.iterancestors())))

    def changed(self, el: etree._Element) -> None:
        """Record that ``el`` (or something inside it) changed: its part must be saved, and views
        drawn of it, its ancestors or its descendants are out of date."""
        if self.history.check:  # OOXML_MCP_CHECK_UNDO=1 (tests)
            self.history.check_changed(el)
        self.part_of(el).touch()
        self.modified = True
        self.version += 1
        # Its ancestors are noted now: a removed element has none by the time a view catches up.
        self.recent_changes.append((self.version, el, tuple(el.iterancestors())))
        if len(self.recent_changes) > 2 * RECENT_CHANGES:
            del self.recent_changes[:RECENT_CHANGES]

    def changes_since(self, version: int) -> list[tuple]:
        """The change log's entries newer than ``version`` (the log is in version order: a view
        catching up reads its few new entries, not the whole log, on every call)."""
        log = self.recent_changes
        return log[bisect_right(log, version, key=_VERSION_OF):]

    def order(self, container: etree._Element) -> BlockOrder:
        """The block order of a container, kept up to date by insert_block/remove_block."""
        order = self._orders.get(container)
        if order is None:
            order = self._orders[container] = BlockOrder(container)
        return order

    def block_count(self, container: etree._Element) -> int:
        """How many blocks the container holds, without building its order index."""
        order = self._orders.get(container)
        if order is not None:
            return len(order)
        version, count = self._counts.get(container, (-1, 0))
        if version != self.version and version >= 0:
            # Counted before and changed since: an edit at either end of a long body would walk it
            # again every call (13 ms at 50,000 paragraphs); the order index is kept by the edits.
            return len(self.order(container))
        if version != self.version:
            # One walk of the children: each step is a cache miss (siblings lie far apart in memory),
            # so len() and iterchildren() in C, two walks, cost more (issue 21, docs/performance.md).
            count = sum(1 for child in container if child.tag not in _NOT_BLOCKS)
            self._counts[container] = (self.version, count)
        return count

    def insert_block(self, new: etree._Element, *, container: etree._Element,
                     before: etree._Element | None = None, after: etree._Element | None = None,
                     track: bool = True) -> None:
        """Insert a block into a container, keeping sectPr last and the order index current.

        Undo records the insertion. While changes are tracked the new block is also marked as
        inserted (``track=False``: a restore that is no new content; undo itself puts blocks
        back through ``block_back``, which never tracks).
        """
        self.history.will_insert(container)
        if after is not None:
            after.addnext(new)
        elif before is not None:
            before.addprevious(new)
        else:
            try:
                tail = container[-1]  # found without walking the children, unlike len()
            except IndexError:
                tail = None
            if tail is not None and tail.tag == f"{{{W}}}sectPr":
                tail.addprevious(new)
            else:
                container.append(new)
        order = self._orders.get(container)
        if order is not None:
            order.inserted(new)
        self.history.inserted(new)  # before marking: the mark is part of the inserted block
        if track and self.tracker is not None:
            from ooxml.review.revisions import on_block_inserted
            on_block_inserted(self, new)
        self.changed(new)  # the container and its ancestors changed too; siblings did not

    def remove_block(self, el: etree._Element) -> None:
        """Remove a block (or run); half-ranges inside it move out so ranges stay paired."""
        for listener in self.on_removed:
            listener(self, el)
        container = el.getparent()
        top = container in self._tops
        orphans = orphans_if_removed(el)
        if orphans and top:
            self.history.will_change(el)  # its half-ranges move out of it
        self.history.will_remove(el)
        rescue_markers(el, orphans)
        if top:
            for marker in orphans:
                self.history.inserted(marker)
        order = self._orders.get(container)
        if order is not None:
            order.removed(el)
        self.ids.forget(el)
        self.changed(el)
        if not top:  # views find ancestors only later, when ``el`` has none: name the container too
            self.changed(container)
        detach(el)

    def forget_order(self, container: etree._Element) -> None:
        """Drop a cached block order after edits that bypassed insert_block/remove_block."""
        self._orders.pop(container, None)
