"""The undo history (ooxml/model/history.py) as plain data and byte blobs, for a session snapshot.

Steps hold live lxml elements and ``Part`` objects. An element is written as its *place*: the
tree it is in and the child indexes from that tree's root down to it. A tree is a part's tree
(``p:<name>`` for a part of the package, ``x:<i>`` for a part the package no longer or not yet
holds, which the history keeps alive), or a tree only the history holds (``d:<i>``: a block's
saved copy, a removed or undone block), written out as XML. Places are taken all at one moment,
so every index is right for the state the snapshot holds. Nothing here copies the document:
the history keeps what each call changed, and so does its encoding.

Byte strings (part contents before/after, detached trees) go to ``blobs`` (a list the caller
stores as it likes); the rest is JSON-ready.
"""
from __future__ import annotations

from lxml import etree

from ooxml.model.history import Recorder, Step
from ooxml.opc.package import Package
from ooxml.opc.part import Part
from ooxml.xml.safexml import parse_part


def extra_parts(rec: Recorder, package: Package) -> list[Part]:
    """Parts the history refers to that are not (these very objects) in the package now."""
    seen, extras = set(), []
    for step in (*rec.undo_steps, *rec.redo_steps):
        tables = [t.values() for t in (step.parts_before, step.parts_after) if t is not None]
        for part in (*[p for t in tables for p in t], *[p for p, _ in step.clean]):
            if package.parts.get(part.name) is not part and id(part) not in seen:
                seen.add(id(part))
                extras.append(part)
    return extras



def _map_places(op: list, place) -> list:
    """An undo op with its element references mapped by ``place`` (elements to places, or back)."""
    kind = op[0]
    if kind == "swap" and len(op) > 3:  # a paragraph saved alone: found by its place in its block at play
        return [kind, None, place(op[2]), place(op[3]), list(op[4])]
    if kind == "swap":
        return [kind, place(op[1]), place(op[2])]
    if kind == "attrs":
        return [kind, place(op[1]), dict(op[2]), op[3]]
    moved = [place(op[4]), place(op[5])] if len(op) > 4 else []  # a block moved into another (history.py)
    return [kind, place(op[1]), place(op[2]), place(op[3]), *moved]

class _Encoder:
    def __init__(self, package: Package, extras: list[Part], blobs: list[bytes], encode_state):
        self.package, self.blobs, self.encode_state = package, blobs, encode_state
        self.part_keys = {id(p): f"x:{i}" for i, p in enumerate(extras)}
        self.part_keys.update({id(p): f"p:{name}" for name, p in package.parts.items()})
        self.roots: dict = {}
        for part in (*package.parts.values(), *extras):
            if part.loaded:
                self.roots[part.tree.getroot()] = self.part_keys[id(part)]
        self.detached: list = []
        self._positions: dict = {}  # parent -> {child: index}

    def blob(self, data: bytes) -> int:
        self.blobs.append(data)
        return len(self.blobs) - 1

    def place(self, el) -> list | None:
        if el is None:
            return None
        path, cur = [], el
        while (parent := cur.getparent()) is not None:
            path.append(self._index(parent, cur))
            cur = parent
        key = self.roots.get(cur)
        if key is None:
            key = self.roots[cur] = f"d:{len(self.detached)}"
            self.detached.append(cur)
        path.reverse()
        return [key, path]

    def _index(self, parent, child) -> int:
        """``parent.index(child)`` from a map of the parent's children made once per snapshot: lxml's
        ``index`` walks the children, 2-4 ms for each element a step names in a body of 50,000
        blocks, where the map costs about 50 ms once."""
        positions = self._positions.get(parent)
        if positions is None:
            positions = self._positions[parent] = {c: i for i, c in enumerate(parent)}
        return positions[child]

    def op(self, op: list) -> list:
        return _map_places(op, self.place)

    def table(self, table: dict | None) -> list | None:
        return None if table is None else [[name, self.part_keys[id(p)]] for name, p in table.items()]

    def step(self, s: Step) -> dict:
        return {"label": s.label, "tool": s.tool, "at": s.at, "size": s.size,
                "ops": [self.op(o) for o in s.ops],
                "given": [[self.place(g[0]), g[1]] if len(g) == 2 else [None, g[1], self.place(g[2]), list(g[3])]
                          for g in s.given],
                "parts": [[n, self.blob(b), self.blob(a), d] for n, b, a, d in s.parts],
                "before": self.table(s.parts_before), "after": self.table(s.parts_after),
                "clean": [[self.part_keys[id(p)], t] for p, t in s.clean],
                "state": [self.encode_state(s.state_before), self.encode_state(s.state_after)]}

    def trees(self) -> list:
        """The detached trees, written last: encoding the steps is what finds them."""
        out = []
        for root in self.detached:
            out.append([self.blob(etree.tostring(root, with_tail=False)), root.tail,
                        isinstance(root.tag, str)])
        return out


def encode(rec: Recorder, package: Package, extras: list[Part], blobs: list[bytes], encode_state) -> dict:
    enc = _Encoder(package, extras, blobs, encode_state)
    undo = [enc.step(s) for s in rec.undo_steps]
    redo = [enc.step(s) for s in rec.redo_steps]
    return {"undo": undo, "redo": redo, "dropped": rec.dropped, "trees": enc.trees(),
            "known": {name: enc.blob(data) for name, data in rec._known.items()}}


class _Decoder:
    def __init__(self, package: Package, extras: list[Part], blobs, trees: list, decode_state):
        self.package, self.extras, self.blobs, self.decode_state = package, extras, blobs, decode_state
        self._trees = trees
        self._roots: dict[str, etree._Element] = {}

    def root(self, key: str):
        root = self._roots.get(key)
        if root is None:
            kind, _, name = key.partition(":")
            if kind == "p":
                root = self.package.parts[name].tree.getroot()
            elif kind == "x":
                root = self.extras[int(name)].tree.getroot()
            else:
                root = self._detached(*self._trees[int(name)])
            self._roots[key] = root
        return root

    def _detached(self, blob: int, tail: str | None, is_element: bool):
        data = self.blobs[blob]
        if is_element:
            root = parse_part(data, "(undo history)").getroot()
        else:  # a comment or processing instruction: parsed inside a wrapper, then taken out
            wrapper = parse_part(b"<x>" + data + b"</x>", "(undo history)").getroot()
            root = wrapper[0]
            wrapper.remove(root)
        root.tail = tail
        return root

    def place(self, place: list | None):
        if place is None:
            return None
        el = self.root(place[0])
        for i in place[1]:
            el = el[i]
        return el

    def part(self, key: str) -> Part:
        kind, _, name = key.partition(":")
        return self.package.parts[name] if kind == "p" else self.extras[int(name)]

    def op(self, op: list) -> list:
        return _map_places(op, self.place)

    def table(self, table: list | None) -> dict | None:
        return None if table is None else {name: self.part(key) for name, key in table}

    def step(self, d: dict) -> Step:
        return Step(label=d["label"], tool=d["tool"], at=d["at"], size=d["size"],
                    ops=[self.op(o) for o in d["ops"]],
                    given=[(self.place(g[0]), g[1]) if len(g) == 2 else (None, g[1], self.place(g[2]), g[3])
                           for g in d["given"]],
                    parts=[(n, self.blobs[b], self.blobs[a], dirty) for n, b, a, dirty in d["parts"]],
                    parts_before=self.table(d["before"]), parts_after=self.table(d["after"]),
                    clean=[(self.part(k), t) for k, t in d["clean"]],
                    state_before=self.decode_state(d["state"][0]), state_after=self.decode_state(d["state"][1]))


def decode(rec: Recorder, data: dict, package: Package, extras: list[Part], blobs, decode_state) -> None:
    """Fill a fresh recorder of the restored document (its parts' trees must be as when encoded)."""
    dec = _Decoder(package, extras, blobs, data["trees"], decode_state)
    rec.undo_steps = [dec.step(s) for s in data["undo"]]
    rec.redo_steps = [dec.step(s) for s in data["redo"]]
    rec.dropped = data["dropped"]
    rec._known = {name: blobs[i] for name, i in data["known"].items()}
