"""List labels as Word numbers them: ``label_of(doc, p)`` -> '2.', 'b)', '•', '3.2.1' or None.

Counting: one set of nine counters per list (the abstractNum a num resolves to, so nums sharing an
abstractNum continue each other, whatever overrides they have). A num's ``startOverride`` acts once:
at the first paragraph of that num whose level has one, that level takes the override's value; the
num's overrides of other levels are then spent (Word's "Restart at (a)" writes a num overriding all
nine levels, and restarts only the level its paragraph is at). A level restarts when a higher level
is numbered (``lvlRestart``: only after the levels it names, 0: never). Templates (``%1.%2.``)
take each level's number in that level's format, all decimal under ``isLgl``.

Speed: a label depends on every list paragraph before it, yet an answer must cost O(window), not
O(document). For the body we keep *checkpoints*: the counters before every K-th top-level block,
in document order, valid up to the first change since they were taken. A label walks from the
nearest checkpoint before its block (at most K blocks) and remembers the labels it passes. A change
(``Document.changed``) drops only the checkpoints after the changed block; a detached element
(we cannot tell where it was) or a change to the definitions drops them all.
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.text.body import iter_blocks, next_block
from ooxml.opc.types import RT
from ooxml.xml.namespaces import w
from ooxml.lists.numbering_defs import LEVELS, Definitions, Level
from ooxml.lists.numbering_formats import DRAWN, bullet_text, clamp, format_number

W_P, W_BODY = w("p"), w("body")
K = 32  # top-level blocks between checkpoints
AHEAD = 24  # blocks labelled past the one asked for: the rest of a window is then remembered
_TEMPLATE = re.compile(r"%([1-9])")


class State:
    """Counters per list, and the nums whose startOverrides are spent (or that have none)."""
    __slots__ = ("counts", "seen")

    def __init__(self, counts=None, seen=None):
        self.counts: dict[str, list[int | None]] = counts or {}
        self.seen: set[int] = seen or set()

    def copy(self) -> "State":
        return State({k: list(v) for k, v in self.counts.items()}, set(self.seen))


def step(defs: Definitions, state: State, nid: int, ilvl: int) -> list[int | None] | None:
    """Count one list paragraph; the counters of its list after it (None: not counted)."""
    plan = defs.counting_plan(nid, ilvl)
    if plan is None:
        return None
    key, levels, start, restarted = plan
    counts = state.counts.get(key)
    if counts is None:
        counts = state.counts[key] = [None] * LEVELS
    override = None
    if nid not in state.seen:
        starts = defs.nums[nid].starts
        override = starts.get(ilvl)
        if override is not None or not starts:
            state.seen.add(nid)  # its overrides are spent (or it has none)
    if ilvl and None in counts[:ilvl]:  # a level shown before its parents were: they take their starts
        for k in range(ilvl):
            if counts[k] is None:
                upper = levels[k]
                counts[k] = upper.start if upper is not None else 1
    cur = counts[ilvl]
    counts[ilvl] = override if override is not None else start if cur is None else clamp(cur + 1)
    for k in restarted:
        counts[k] = None
    return counts


def render(defs: Definitions, nid: int, ilvl: int, counts: list[int | None]) -> str | None:
    level = defs.level(nid, ilvl)
    if level is None or not level.text:
        return None
    if level.fmt == "bullet":
        return bullet_text(level.text, level.font) or None

    def number(m: re.Match) -> str:
        at = int(m.group(1)) - 1
        lv: Level | None = defs.level(nid, at)
        value = counts[at]
        if value is None:
            value = lv.start if lv is not None else 1
        fmt = "decimal" if level.legal and lv is not None and lv.fmt != "none" else (lv.fmt if lv else "decimal")
        return format_number(value, fmt)

    return _TEMPLATE.sub(number, level.text).strip() or None


class _Labels:
    """Labels of one document at one version of its definitions (see the module docstring)."""

    def __init__(self, doc, key):
        self.key = key
        self.defs = Definitions(key[0], doc.styles)
        self.version = doc.version
        self.cps: list[tuple[etree._Element, State]] = []
        self.memo: dict[etree._Element, str | None] = {}

    @classmethod
    def of(cls, doc) -> "_Labels":
        # Written out (no helpers): it runs on every call that draws a box, most often cold.
        caches, styles = doc.caches, doc.styles
        lab, generation = caches.get("numbering.labels"), caches.get(_GENERATION, 0)
        if lab is not None and lab.version == doc.version and lab.key[2] == generation and lab.key[1] is styles:
            return lab  # nothing changed since the last label: the common case inside one answer
        key = (_numbering_root(doc), styles, generation)
        if lab is None or lab.key != key:
            _watch_removals(doc)
            lab = caches["numbering.labels"] = cls(doc, key)
        if lab.version != doc.version:
            lab.catch_up(doc)
        return lab

    @property
    def generation(self) -> int:
        return self.key[2]

    # ---- keeping up with changes -------------------------------------------------------------------
    def catch_up(self, doc) -> None:
        if self.version == doc.version:
            return
        if not self.defs.nums and not self.cps:  # no lists: no counts to drop, only the bookkeeping
            self.version, self.memo = doc.version, {}
            doc.caches.pop(_REMOVED_AT, None)
            doc.caches.pop(_REMOVED, None)
            return
        news = [el for _, el, _ in doc.changes_since(self.version)]
        missed = len(news) < doc.version - self.version  # the change log ran past us
        self.version = doc.version
        self.memo = {}
        cut = 0 if missed else doc.caches.pop(_REMOVED_AT, None)
        for el in news:
            if el in removed_elements(doc):
                continue  # its place was noted when it was removed (it may stand elsewhere now)
            pos = _body_position(doc, el)
            if pos is not None:  # None: another story, whose remembered labels are gone already
                cut = pos if cut is None else min(cut, pos)
        removed_elements(doc).clear()
        if cut is not None:
            self._drop_after(doc, cut)

    def _drop_after(self, doc, pos: int) -> None:
        if pos <= 0:
            self.cps = []
            return
        order = doc.order(doc.body)
        for _ in range(4):  # usually the change is near the end of what we counted
            if not self.cps or _index(order, self.cps[-1][0]) <= pos:
                return
            self.cps.pop()
        del self.cps[self._first_after(order, pos):]

    def _first_after(self, order, pos: int) -> int:
        lo, hi = 0, len(self.cps)
        while lo < hi:  # first checkpoint whose block stands after pos
            mid = (lo + hi) // 2
            if _index(order, self.cps[mid][0]) <= pos:
                lo = mid + 1
            else:
                hi = mid
        return lo

    # ---- labels ------------------------------------------------------------------------------------
    def label_of(self, doc, p: etree._Element) -> str | None:
        """``label_of`` for a paragraph, with this object already found."""
        return self.label(doc, p) if self.defs.nums else None

    def numbered(self, p: etree._Element) -> bool:
        """Whether ``p`` is a list item under these definitions: if not, it has no label whatever
        changes elsewhere (a change to it or to the definitions makes a new question)."""
        return bool(self.defs.nums) and self.defs.para_num(p) is not None

    def label(self, doc, p: etree._Element) -> str | None:
        if p in self.memo:
            return self.memo[p]
        block, root = _top_block(doc, p)
        if root is None:
            return None
        if block is None:  # a paragraph of another story (header, note ...): count that story
            self._count_story(root)
        else:
            self._walk_to(doc, block)
        return self.memo.get(p)

    def _count_story(self, root: etree._Element) -> None:
        state = State()
        for p in root.iter(W_P):
            self.memo[p] = self._count(p, state)

    def _count(self, p: etree._Element, state: State, label: bool = True) -> str | None:
        ref = self.defs.para_num(p)
        if ref is None:
            return None
        counts = step(self.defs, state, *ref)
        return render(self.defs, ref[0], ref[1], counts) if counts is not None and label else None

    def _walk_to(self, doc, block: etree._Element) -> None:
        order = doc.order(doc.body)
        target = _index(order, block)
        i = self._checkpoint_before(order, target)
        if i is None:
            el, state, at = _first_block(doc.body), State(), 0
        else:
            el, state = self.cps[i][0], self.cps[i][1].copy()
            at = _index(order, el)
        extend = i is None and not self.cps or i == len(self.cps) - 1
        since = 0
        while el is not None and at <= target + AHEAD:
            if extend and since >= K:
                self.cps.append((el, state.copy()))
                since = 0
            near = at >= target - K  # labels are drawn (and remembered) only near the target
            if el.tag == W_P:
                label = self._count(el, state, near)
                if near:
                    self.memo[el] = label
            else:
                for p in el.iter(W_P):
                    label = self._count(p, state, near)
                    if near:
                        self.memo[p] = label
            el = next_block(el)
            at += 1
            since += 1
        if extend and el is not None:
            self.cps.append((el, state))

    def _checkpoint_before(self, order, target: int) -> int | None:
        """The last checkpoint at or before ``target`` (the last one is tried first: windows
        mostly sit past the end of what was counted)."""
        if not self.cps:
            return None
        if _index(order, self.cps[-1][0]) <= target:
            return len(self.cps) - 1
        i = self._first_after(order, target)
        return i - 1 if i else None


# ---- helpers ---------------------------------------------------------------------------------------

_REMOVED_AT = "numbering.removed_at"


_REMOVED = "numbering.removed"
_GENERATION = "numbering.generation"


def removed_elements(doc) -> set:
    return doc.caches.setdefault(_REMOVED, set())


def _watch_removals(doc) -> None:
    if _note_removal not in doc.on_removed:
        doc.on_removed.append(_note_removal)


def _note_removal(doc, el) -> None:
    """Note where each removed block stood, before it goes: afterwards (detached, or put back
    elsewhere) nothing tells where the counts changed."""
    block, root = _top_block(doc, el)
    if block is not None:
        pos = _index(doc.order(doc.body), block) - 1  # a checkpoint on the block itself goes too
        doc.caches[_REMOVED_AT] = min(pos, doc.caches.get(_REMOVED_AT, pos))
        removed_elements(doc).add(el)


_SEEN = "numbering.part"  # doc.caches: what the last look at the main part's relationships found


def _numbering_root(doc):
    """numbering.xml's root, or None. Asked after every change; the main part's relationships are
    read again (8 µs) only when a part was added, removed or replaced, a relationship added or
    removed, or a tree parsed anew since the last look."""
    pkg, seen = doc.package, doc.caches.get(_SEEN)
    if seen is not None:
        parts, count, rels_name, rels, rels_root, n_rels, part, root = seen
        if pkg.parts is parts and len(parts) == count and parts.get(rels_name) is rels and \
                (rels is None or (rels.tree.getroot() is rels_root and len(rels_root) == n_rels)) and \
                (part is None or (parts.get(part.name) is part and part.tree.getroot() is root)):
            return root
    part = doc.related_part(RT.NUMBERING)
    root = part.tree.getroot() if part is not None else None
    rels_name = pkg.rels_name(doc.main_name)
    rels = pkg.parts.get(rels_name)
    rels_root = rels.tree.getroot() if rels is not None else None
    doc.caches[_SEEN] = (pkg.parts, len(pkg.parts), rels_name, rels, rels_root,
                         len(rels_root) if rels_root is not None else 0, part, root)
    return root


def _index(order, el) -> int:
    try:
        return order.index(el)
    except ValueError:
        return -1


def _first_block(container):
    return next(iter_blocks(container), None)


def _top_block(doc, el: etree._Element) -> tuple[etree._Element | None, etree._Element | None]:
    """(top-level body block holding el, None) in the body; (None, story root) elsewhere;
    (None, None) when el is detached."""
    top = doc.top_block(el)
    if top is None:  # detached, or a story root itself
        return (None, el) if el in doc.top_containers() and el is not doc.root else (None, None)
    parent = top.getparent()
    if parent is doc.body:
        return top, parent
    return (None, None) if parent is doc.root else (None, parent)  # the body itself or a sibling of it


def _body_position(doc, el: etree._Element) -> int | None:
    """Where a change happened: the index of its top-level body block (0 for the body or the
    whole document, and for a detached element: we cannot tell), None for another story."""
    if el is doc.body or el is doc.root:
        return 0
    block, root = _top_block(doc, el)
    if block is not None:
        return max(0, _index(doc.order(doc.body), block))
    return None if root is not None else 0


# ---- public ----------------------------------------------------------------------------------------

def label_of(doc, p: etree._Element) -> str | None:
    """The list label Word shows before paragraph ``p`` ('3.', 'b)', '•', '2.1.4'), or None."""
    if p.tag != W_P:
        return None
    lab = _Labels.of(doc)
    if not lab.defs.nums:
        return None  # no lists at all: nothing to count
    return lab.label(doc, p)


# The document's list labels as they stand, for drawing many paragraphs at once (``label_of``'s first
# steps done once). Valid until the document changes.
labels_now = _Labels.of


def definitions(doc) -> Definitions:
    return _Labels.of(doc).defs


def invalidate(doc) -> None:
    """numbering.xml or styles.xml changed in place: read the definitions again."""
    doc.caches[_GENERATION] = doc.caches.get(_GENERATION, 0) + 1


def fallback_formats(doc) -> list[str]:
    """Number formats in use that labels show as decimal."""
    defs = definitions(doc)
    fmts = {lv.fmt for ab in defs.abstracts.values() for lv in ab.levels if lv is not None}
    fmts |= {lv.fmt for n in defs.nums.values() for lv in n.levels.values()}
    return sorted(f for f in fmts if f not in DRAWN)
