"""Headers and footers compared section by section, as a reader sees them.

A section shows its own header of a kind, else the previous section's. For each section and
kind, what the revised document shows is compared with what the original shows: the revised
section's own part directly; where the revised section inherits a part that was compared with
another original part (or shows none), the redline gets a part of its own for that section (a
copy of what it inherits, or one empty paragraph), compared with what the original shows there.
A part the original lacks is compared with an empty one: all of it inserted (rejected: an empty
header, which a reader sees as none).
"""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.compare import stories
from ooxml.compare.carry import Copier
from ooxml.layout.headers import CT_OF, ROOT_TAG, RT_OF
from ooxml.opc import parts as P
from ooxml.xml.namespaces import R, W, w
from ooxml.xml.order import insert_child

_KIND = {"headerReference": "header", "footerReference": "footer"}


class HeaderPass:
    def __init__(self, doc_a, doc_b, compare):
        """``compare(name_a or None, root_a, name_b, root_b)`` records one pair's differences."""
        self.doc_a, self.doc_b, self.compare = doc_a, doc_b, compare
        self.originals: dict[str, etree._Element] = {}  # revised part -> its content before revisions
        self.sources: dict[str, tuple] = {}  # redline part -> (revised part it shows, original part)

    def run(self) -> None:
        """After the body's pass: its section breaks are the revised document's, and the original's
        that were deleted (they come back on reject, and go on accept)."""
        sects = stories.sections(self.doc_b)
        sides = [_side(sect) for sect in sects]
        rels = {r.get("Id"): r for r in self.doc_b.package.rels(self.doc_b.main_name)}
        owns = [stories.own_refs(self.doc_b, sect, rels) for sect in sects]
        shown_a = stories.effective(stories.section_refs(self.doc_a))
        shown_b = stories.effective([own for own, side in zip(owns, sides) if side != "a"])
        if not any(shown_a) and not any(shown_b):
            return
        current: dict = {}  # key -> the redline part a section shows (its own, else inherited)
        ia = ib = 0
        for sect, side, own in zip(sects, sides, owns):
            want_a = _at(shown_a, ia) if side != "b" else None
            want_b = _at(shown_b, ib) if side != "a" else None
            for key in stories.KEYS:
                current[key] = self._shown(sect, key, own.get(key) or current.get(key),
                                           want_a.get(key) if want_a is not None else _ANY,
                                           want_b.get(key) if want_b is not None else _ANY)
            ia, ib = ia + (side != "b"), ib + (side != "a")

    def _shown(self, sect, key, part: str | None, want_a, want_b) -> str | None:
        """The part ``sect`` shows for ``key``: ``part`` when it shows what both documents want,
        else a new part of its own that does."""
        if part is not None and part not in self.sources and self.doc_b.package.has_part(part):
            self._pair(want_a if want_a is not _ANY else None, part)  # a revised part met first here
        got_b, got_a = self.sources.get(part, (None, None)) if part else (None, None)
        if (want_b is _ANY or got_b == want_b) and (want_a is _ANY or got_a == want_a):
            return part
        return self._own_part(sect, key, None if want_b is _ANY else want_b, None if want_a is _ANY else want_a)

    def _pair(self, name_a: str | None, name_b: str, shows: str | None = ...) -> None:
        root_b = self._root(self.doc_b, name_b)
        self.sources[name_b] = (name_b if shows is ... else shows, name_a)
        if shows is ...:
            self.originals[name_b] = copy.deepcopy(root_b)
        root_a = self._root(self.doc_a, name_a) if name_a else _empty(root_b)
        self.compare(name_a, root_a, name_b, root_b)

    def _own_part(self, sect: etree._Element, key, shows: str | None, name_a: str | None) -> str:
        """A new part of the section's own: a copy of ``shows`` (a revised part, before revisions)
        or an empty paragraph, compared with ``name_a``."""
        source = self.originals.get(shows) if shows else None
        like = source if source is not None else self._root(self.doc_a, name_a) if name_a else None
        shell = etree.Element(like.tag, dict(like.attrib), nsmap=like.nsmap) if like is not None else \
            etree.Element(w(ROOT_TAG[_KIND[key[0]]]), nsmap={"w": W})
        name = P.new_part_name(self.doc_b.package, _KIND[key[0]])
        rid, root = P.add_story_part(self.doc_b, name, etree.tostring(shell, encoding=str),
                                     CT_OF[_KIND[key[0]]], RT_OF[_KIND[key[0]]])
        if source is not None:
            copier = Copier(self.doc_b, self.doc_b, shows, name)
            for child in source:
                dup = copy.deepcopy(child)
                copier(dup, root)
                root.append(dup)
        else:
            root.append(etree.Element(w("p")))
        ref = etree.Element(w(key[0]), {w("type"): key[1], f"{{{R}}}id": rid})
        present = [c for c in sect if c.tag in (w("headerReference"), w("footerReference"))]
        if present:
            present[-1].addnext(ref)
        else:
            insert_child(sect, ref)
        self._pair(name_a, name, shows)
        return name

    @staticmethod
    def _root(doc, name: str) -> etree._Element:
        return doc.register_part_root(doc.package.part(name))


def _empty(like: etree._Element) -> etree._Element:
    root = etree.Element(like.tag, nsmap=like.nsmap)
    etree.SubElement(root, w("p"))
    return root


_ANY = object()  # a section one of the documents lacks: anything it shows will do


def _at(shown: list, index: int) -> dict:
    return shown[min(index, len(shown) - 1)] if shown else {}


def _side(sect: etree._Element) -> str:
    """'a' for a section break only in the original (its paragraph mark deleted), 'b' only in the
    revised (inserted), else 'ab'."""
    rpr = sect.getparent().find(w("rPr")) if sect.getparent().tag == w("pPr") else None
    if rpr is not None:
        if rpr.find(w("del")) is not None or rpr.find(w("moveFrom")) is not None:
            return "a"
        if rpr.find(w("ins")) is not None or rpr.find(w("moveTo")) is not None:
            return "b"
    return "ab"
