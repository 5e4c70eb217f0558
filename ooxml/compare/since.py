"""What a session changed since it opened (or since a step of its undo history), block by block.

The earlier state is read from the undo history's records, without changing the document: each
record of the steps since then is played backwards on lists of the containers' children and on
copies of the blocks the records saved (``_Before``). Blocks are then paired by identity (a
top-level block keeps its identity through every step) with ``align`` (anchors on unique keys): a
block in both states but out of order moved; one only before was deleted, one only after inserted
(a deletion and an insertion of the same text are one move); a block a step touched that is in both
states had its text, formatting or inline content (notes, images, fields ...) changed. No copy of the
document is made or compared: the work grows with what the steps touched (and one pass over each
story's children), and it holds after undo, redo and a journal replay alike (the history is the same).
"""
from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field

from lxml import etree

from ooxml.compare.align import align
from ooxml.model import stories as story_kinds
from ooxml.text import body as B
from ooxml.xml.namespaces import MC, OX_ID, W, w

_PROPS = {w("pPr"): "paragraph", w("rPr"): "run", w("tblPr"): "table", w("trPr"): "row", w("tcPr"): "cell",
          w("sectPr"): "section"}
# Revision marks, a paragraph mark's own section and run properties, a section's header and footer
# references (their parts are listed by their blocks): not formatting a reader sees.
_NOT_FORMAT = {w(n) for n in ("ins del moveFrom moveTo rPrChange pPrChange tblPrChange trPrChange tcPrChange "
                              "sectPrChange sectPr rPr cellIns cellDel cellMerge headerReference "
                              "footerReference").split()}
_CHANGES = {w(n) for n in "rPrChange pPrChange tblPrChange trPrChange tcPrChange sectPrChange".split()}
_RSID = f"{{{W}}}rsid"
_M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
# Inline content besides text, by what a reader calls it (a field counts once, at its begin mark).
_INLINE = {w("drawing"): "image", w("pict"): "image", w("object"): "object", w("footnoteReference"): "footnote",
           w("endnoteReference"): "endnote", w("commentReference"): "comment", w("fldSimple"): "field",
           w("fldChar"): "field", w("hyperlink"): "link", w("bookmarkStart"): "bookmark", w("sdt"): "content control",
           f"{{{_M}}}oMath": "equation"}
_BEGIN = f"{{{W}}}fldCharType"
_STORIES = story_kinds.ALL - {"main"}
_BOX, _FALLBACK = w("txbxContent"), f"{{{MC}}}Fallback"


@dataclass
class Change:
    change: str  # inserted, deleted, moved, text, formatting
    kind: str  # Paragraph, Table ... (body.kind)
    element_id: str | None
    before: str | None = None
    after: str | None = None
    formatting: list[str] = field(default_factory=list)  # "run b: none -> on"
    was_id: str | None = None  # a move: the ID of the block that went
    inline: list[str] = field(default_factory=list)  # inline content that came or went: "+1 footnote"
    story: str | None = None  # the part, outside the main document part

    def as_dict(self) -> dict:
        out = {"change": self.change, "kind": self.kind, "id": self.element_id}
        if self.story:
            out["part"] = self.story
        if self.was_id:
            out["from_id"] = self.was_id
        if self.before is not None:
            out["before"] = self.before
        if self.after is not None:
            out["after"] = self.after
        if self.formatting:
            out["formatting"] = self.formatting
        if self.inline:
            out["inline"] = self.inline
        return out


@dataclass
class _Shot:
    """What a touched block read as at one state."""
    kind: str
    text: str
    props: Counter
    inline: Counter


def first_step(history, since: int | None) -> tuple[int, int]:
    """(steps to undo, number of the first step listed). ``since``: a step number as docx_get_history
    numbers them (the first kept step is ``dropped + 1``); None: since open, as far as the kept steps go."""
    first = history.dropped + 1
    return (len(history.undo_steps) if since is None else len(history.undo_steps) - (since - first)), \
        (first if since is None else since)


def changes(doc, steps: int) -> list[Change]:
    """The changes of the last ``steps`` steps of ``doc``'s undo history, in document order."""
    if steps <= 0:
        return []
    undoing = doc.history.undo_steps[-steps:]
    touched = _touched(undoing)
    after_lists = {c: _blocks(c) for c in _containers(doc)}
    after = {b: _shot(b) for blocks in after_lists.values() for b in blocks if b in touched}
    then = _Before(doc, undoing)
    out: list[Change] = []
    for container, blocks in after_lists.items():
        old = _blocks_of(then.children(container)) if then.existed(container) else []
        before = {b: _shot(then.state(b)) for b in old if b in touched}
        found = _compare(doc, old, blocks, before, after) + _in_boxes(doc, then, blocks, touched)
        if container is not doc.body:
            story = _story_name(doc, container)
            for change in found:
                change.story = story
        out += found
    return _moves(out) + _parts(then.part_bytes(), _part_bytes(doc, set(then.part_bytes())))


class _Before:
    """The state before ``steps`` (oldest first), read from their records without changing anything:
    each record is played backwards on a list of each container's children (blocks in and out) and on
    copies of the blocks a step saved (a nested paragraph saved alone is put into a copy of its block),
    as undo would play it on the document."""

    def __init__(self, doc, steps):
        self.doc, self.steps = doc, steps
        self._lists: dict = {}
        self._state: dict = {}  # block -> what it held before (a record's copy, or a copy of ours)
        self._ours: set = set()  # copies made here (the records' own copies are never changed)
        for step in reversed(steps):
            for op in reversed(step.ops):
                self._back(op)

    def _list(self, container) -> list:
        if container not in self._lists:
            self._lists[container] = [c for c in container if isinstance(c.tag, str)]
        return self._lists[container]

    def _back(self, op: list) -> None:
        kind = op[0]
        if kind == "swap" and len(op) > 3:  # a paragraph nested in block op[3], at place op[4]
            state = self._own(op[3])
            try:
                target = _at(state, op[4])
            except IndexError:
                return  # a place the record no longer names: the block reads as it does now
            copied = copy.deepcopy(op[2])
            copied.tail = target.tail
            target.getparent().replace(target, copied)
        elif kind == "swap":
            self._state[op[1]] = op[2]
            self._ours.discard(op[1])
        elif kind == "ins":
            children = self._list(op[2])
            if any(c is op[1] for c in children):
                children.pop(next(i for i, c in enumerate(children) if c is op[1]))
        elif kind == "del":
            children, prev = self._list(op[2]), op[3]
            at = next((i + 1 for i, c in enumerate(children) if c is prev), 0) if prev is not None else 0
            children.insert(at, op[1])

    def _own(self, block):
        """A copy of ``block``'s earlier state this reading may change."""
        if block not in self._ours:
            self._state[block] = copy.deepcopy(self._state.get(block, block))
            self._ours.add(block)
        return self._state[block]

    def state(self, block):
        return self._state.get(block, block)

    def children(self, container) -> list:
        return self._list(container)

    def existed(self, container) -> bool:
        """False for a story whose part a step added (its blocks are all new)."""
        table = next((s.parts_before for s in self.steps if s.parts_before is not None), None)
        if table is None or container is self.doc.body:
            return True
        try:
            part = self.doc.part_of(container)
        except Exception:
            return True
        return any(p is part for p in table.values())

    def part_bytes(self) -> dict[str, bytes | None]:
        """Listed parts the steps changed: their bytes before the first step that changed them."""
        out: dict = {}
        for step in self.steps:
            for name, old, *_ in step.parts:
                if name in _LISTED_PARTS and name not in out:
                    out[name] = old
        return out


def _at(top: etree._Element, path: list[int]) -> etree._Element:
    for i in path:
        top = top[i]
    return top


def _blocks_of(children: list) -> list:
    return [c for c in children if B.is_block(c) or c.tag == B.W_SECTPR]


def _blocks(container: etree._Element) -> list[etree._Element]:
    """The blocks of a story and its section properties (the body's last ``w:sectPr``: page setup)."""
    return _blocks_of([c for c in container if isinstance(c.tag, str)])


def _story_name(doc, container) -> str | None:
    try:
        return doc.part_of(container).name
    except Exception:  # a story part the steps removed: its root is in no part now
        return None


# ---- parts that hold no blocks: styles, list definitions, settings ... ----------------------------

_LISTED_PARTS = {"word/styles.xml": "styles", "word/numbering.xml": "list definitions",
                 "word/settings.xml": "settings", "docProps/core.xml": "document properties",
                 "docProps/app.xml": "application properties", "docProps/custom.xml": "custom properties"}


def _part_bytes(doc, names: set[str]) -> dict[str, bytes | None]:
    parts = doc.package.parts
    return {name: (parts[name].data if name in parts else None) for name in names}


def _parts(before: dict, after: dict) -> list[Change]:
    out = []
    for name in sorted(after):
        old, new = before.get(name), after[name]
        if old == new:
            continue
        change = "inserted" if old is None else "deleted" if new is None else "changed"
        out.append(Change(change, "Part", None, story=name, before=None, after=_LISTED_PARTS[name]))
    return out


def _containers(doc) -> list[etree._Element]:
    """The body, the other stories in relationship order, then the roots of story parts a step removed
    (the stories loaded: their order is the document's, not a set's)."""
    roots = [doc.body, *(s.root for s in doc.stories(_STORIES))]
    return roots + [c for c in doc.top_containers() if c is not doc.root and c not in roots]


def _touched(steps) -> set:
    """The top-level blocks the steps saved, inserted or removed."""
    out = set()
    for step in steps:
        for op in step.ops:
            if op[0] == "swap":
                out.add(op[3] if len(op) > 3 else op[1])
            elif op[0] in ("ins", "del"):
                out.add(op[1])
    return out


def _compare(doc, old: list, new: list, before: dict, after: dict) -> list[Change]:
    out = []
    in_old, in_new = set(old), set(new)
    for i, j in align(old, new):
        if i is not None and j is not None:
            el = new[j]
            if el in after and el in before:
                change = _changed(doc, el, before[el], after[el])
                if change is not None:
                    out.append(change)
        elif j is not None:
            el = new[j]
            shot = after.get(el) or _shot(el)
            if el in in_old:  # the same block, elsewhere: moved (its text may have changed too)
                was = before.get(el) or shot
                out.append(Change("moved", shot.kind, doc.id_of(el), was.text, shot.text,
                                  inline=_inline(was.inline, shot.inline)))
            else:
                out.append(Change("inserted", shot.kind, doc.id_of(el), None, shot.text))
        elif old[i] not in in_new:
            el = old[i]
            shot = before.get(el) or _shot(el)
            out.append(Change("deleted", shot.kind, el.get(OX_ID), shot.text, None))
    return out


def _in_boxes(doc, then: _Before, blocks: list, touched: set) -> list[Change]:
    """The paragraphs of the text boxes of touched blocks (a box is a story of its own inside its host
    block, whose text leaves it out): the box's earlier copy paired with the box by its ID, and its
    blocks by theirs; a box that came or went is its host's change."""
    out = []
    for el in blocks:
        was = then.state(el) if el in touched else el
        if was is el:
            continue
        earlier = {box.get(OX_ID): box for box in was.iter(_BOX) if box.get(OX_ID)}
        for box in el.iter(_BOX):
            old_box = earlier.get(box.get(OX_ID)) if box.get(OX_ID) else None
            if old_box is None:
                continue
            new = _blocks(box)
            live = {b.get(OX_ID): b for b in new if b.get(OX_ID)}
            pairs = [(live.get(b.get(OX_ID), b), b) for b in _blocks(old_box)]
            before = {now: _shot(copied) for now, copied in pairs}
            out += _compare(doc, [now for now, _ in pairs], new, before, {b: _shot(b) for b in new})
    return out


def _changed(doc, el, was: _Shot, now: _Shot) -> Change | None:
    same_text = was.text == now.text
    formatting = _formatting(was.props, now.props, same_text)
    inline = _inline(was.inline, now.inline)
    if same_text and not formatting and not inline:
        return None
    change = "text" if not same_text else "content" if inline else "formatting"
    return Change(change, now.kind, doc.id_of(el), was.text, now.text, formatting, inline=inline)


def _inline(was: Counter, now: Counter) -> list[str]:
    """``+1 footnote``, ``-2 image``: inline content that came or went."""
    out = []
    for name in sorted(set(was) | set(now)):
        n = now[name] - was[name]
        if n:
            out.append(f"{n:+d} {name}")
    return out


def _moves(changes: list[Change]) -> list[Change]:
    """A deletion and an insertion of the same text (a copy, then the original deleted) are one move."""
    gone: dict[str, list[int]] = {}
    for i, c in enumerate(changes):
        if c.change == "deleted" and c.before and c.before.strip():
            gone.setdefault(c.before, []).append(i)
    drop = set()
    for c in changes:
        if c.change == "inserted" and c.after and len(gone.get(c.after, ())) == 1:
            i = gone.pop(c.after)[0]
            drop.add(i)
            c.change, c.before, c.was_id = "moved", changes[i].before, changes[i].element_id
    return [c for i, c in enumerate(changes) if i not in drop]


# ---- what a block reads as ---------------------------------------------------------------------

def _shot(el: etree._Element) -> _Shot:
    return _Shot(B.kind(el), B.block_text(el), _props(el), _inline_content(el))


def _inline_content(el: etree._Element) -> Counter:
    out: Counter = Counter()
    for found in el.iter(*_INLINE):
        if _in_fallback(found, el):
            continue  # a fallback repeats its Choice (and goes when stale): one image, not two
        if found.tag != w("fldChar") or found.get(_BEGIN) == "begin":
            out[_INLINE[found.tag]] += 1
    return out


def _props(el: etree._Element) -> Counter:
    """(scope, property, value) -> weight: the characters a run property covers, one for the others
    (run splits from text edits change no weight)."""
    out: Counter = Counter()
    for pr in el.iter(*_PROPS):
        parent = pr.getparent()
        if parent is None or (pr.tag == w("rPr") and parent.tag != w("r")) or _in_change(pr, el):
            continue  # a paragraph mark's run properties, or the properties before a tracked change
        scope = _PROPS[pr.tag]
        weight = len(B.run_text(parent)) if scope == "run" else 1
        if not weight:
            continue  # a run without text (a note's reference, an image): its formatting is no one's to read
        for prop in pr:
            if isinstance(prop.tag, str) and prop.tag not in _NOT_FORMAT:
                out[(scope, etree.QName(prop).localname, _value(prop))] += weight
    return out


def _in_fallback(el: etree._Element, top: etree._Element) -> bool:
    for up in el.iterancestors():
        if up.tag == _FALLBACK:
            return True
        if up is top:
            return False
    return False


def _in_change(pr: etree._Element, top: etree._Element) -> bool:
    for up in pr.iterancestors():
        if up.tag in _CHANGES:
            return True
        if up is top:
            return False
    return False


def _value(prop: etree._Element) -> str:
    attrs = [(etree.QName(k).localname, v) for k, v in prop.attrib.items() if not k.startswith(_RSID)]
    if not attrs:
        return "on"
    if len(attrs) == 1:
        return attrs[0][1]
    return " ".join(f"{k}={v}" for k, v in sorted(attrs))


def _formatting(was: Counter, now: Counter, same_text: bool) -> list[str]:
    """What changed, per property: ``run b: none -> on``. With the text changed too, only values that
    came or went count (a value's reach changes with the text)."""
    keys = {(s, p) for s, p, _ in was} | {(s, p) for s, p, _ in now}
    out = []
    for scope, prop in sorted(keys):
        old = {v: n for (s, p, v), n in was.items() if (s, p) == (scope, prop)}
        new = {v: n for (s, p, v), n in now.items() if (s, p) == (scope, prop)}
        if old == new or (not same_text and set(old) == set(new)):
            continue
        shown = (lambda d: ", ".join(sorted(d)) or "none")
        if set(old) == set(new):
            reach = "characters" if scope == "run" else "places"
            out.append(f"{scope} {prop}: {shown(old)} ({sum(old.values())} -> {sum(new.values())} {reach})")
        else:
            out.append(f"{scope} {prop}: {shown(old)} -> {shown(new)}")
    return out
