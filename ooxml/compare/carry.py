"""Copies of the original's content placed in the redline (the revised document's package).

A deleted paragraph, row or run comes from the other package: it gets fresh IDs
(``wordids.prepare_copy``), its relationship references (images, links) are re-created in the
redline's part (an image part is copied over when the redline has no identical one), and a
section break keeps its settings but not its header references (they name the original's parts).
"""
from __future__ import annotations

import copy
import posixpath

from lxml import etree

from ooxml.text import notes as N
from ooxml.text import body as B
from ooxml.xml.namespaces import R, V, W14, WP, w
from ooxml.xml.numbers import file_int
from ooxml.xml.wordids import prepare_copy
from ooxml.review import comments as C
from ooxml.review.word_id_counter import new_word_id

_R_ATTR = f"{{{R}}}"
_HEADER_REFS = (w("headerReference"), w("footerReference"))
_COMMENT_MARKS = (w("commentRangeStart"), w("commentRangeEnd"), w("commentReference"))
_PARA_ID, _TEXT_ID = f"{{{W14}}}paraId", f"{{{W14}}}textId"
# What wordids.prepare_copy renumbers or drops (besides paragraph IDs).
_NEEDS_IDS = (*(w(n) for n in "bookmarkStart bookmarkEnd commentRangeStart commentRangeEnd commentReference id "
                              "ins del moveFrom moveTo".split()),
              f"{{{WP}}}docPr", f"{{{V}}}*", f"{{{W14}}}*")
# What Copier._plain leaves to the whole path: the above inside the copy (wildcards by prefix); anywhere
# in it, what the steps after prepare_copy look for.
_WALKED = {t for t in _NEEDS_IDS if not t.endswith("*")}
_WILD = tuple(t[:-1] for t in _NEEDS_IDS if t.endswith("*"))
_WALKED_ALL = {B.W_P, B.W_TR, *_HEADER_REFS, w("tblPrExChange"), *N.REF_TAGS.values()}


class Copier:
    def __init__(self, doc_a, doc_b, part_a: str, part_b: str):
        self.doc_a, self.doc_b, self.part_a, self.part_b = doc_a, doc_b, part_a, part_b
        self._rels = None
        self._mapped: dict[str, str] = {}
        self._comments: dict[str | None, str | None] = {}  # original comment id -> the redline's copy
        self._carried: dict[str, list] = {}  # the copy's id -> its marks placed in copies

    def __call__(self, el: etree._Element, near: etree._Element) -> None:
        if self._plain(el):
            return
        for x in el.iter(B.W_P, B.W_TR):  # optional, and must be unique: the copy goes without them
            x.attrib.pop(_PARA_ID, None)
            x.attrib.pop(_TEXT_ID, None)
        if next((x for x in el.iter(*_NEEDS_IDS) if x is not el), None) is not None:  # gathering the part's IDs costs a walk of it
            anchors = self._comment_anchors(el)
            holder = etree.Element(w("body"))
            holder.append(el)
            prepare_copy(holder, self.doc_b.word_ids(near), keep_notes=True)
            holder.remove(el)
            for parent, prev, mark in anchors:  # in document order: each one's neighbour is back already
                if prev is not None:
                    prev.addnext(mark)
                else:
                    parent.insert(0, mark)
        renumber_unlisted(self.doc_b, el)
        for ref in list(el.iter(*_HEADER_REFS)):
            ref.getparent().remove(ref)
        self._carry(el)
        self._notes(el)

    def _plain(self, el: etree._Element) -> bool:
        """The usual copy (deleted runs: no paragraph, ID, header or note reference in it) carried in
        one walk: its relationship references. False (nothing done) for any other."""
        refs = []
        for x in el.iter():
            tag = x.tag
            if not isinstance(tag, str):
                continue
            if x is not el and (tag in _WALKED or tag.startswith(_WILD)) or tag in _WALKED_ALL:
                return False
            for name in x.attrib:
                if name.startswith(_R_ATTR):
                    refs.append(x)
                    break
        for x in refs:
            self._carry_one(x)
        return True

    def _comment_anchors(self, el: etree._Element) -> list:
        """The comment marks of a copy of the body's, taken out (prepare_copy drops borrowed ones),
        renamed to copies of their comments in the redline: deleted text keeps its comments. A
        range may span several copies: ``finish`` drops those that did not come whole."""
        if self.part_b != self.doc_b.main_name or self.part_a != self.doc_a.main_name:
            return []
        out = []
        for mark in list(el.iter(*_COMMENT_MARKS)):
            new_id = self._comment(mark.get(w("id")))
            if new_id is not None:
                out.append((mark.getparent(), mark.getprevious(), mark))
                mark.getparent().remove(mark)
                mark.set(w("id"), new_id)
                self._carried.setdefault(new_id, []).append(mark)
        return out

    def finish(self) -> None:
        """Comments whose range or reference did not come with the copies go (unpaired marks are invalid)."""
        root = None
        for new_id, marks in self._carried.items():
            found = {m.tag for m in marks}
            if _COMMENT_MARKS[2] in found and (_COMMENT_MARKS[0] in found) == (_COMMENT_MARKS[1] in found):
                continue
            for m in marks:
                if m.getparent() is not None:
                    m.getparent().remove(m)
            root = C.Comments(self.doc_b).part_root("comments")
            for c in [c for c in root if c.get(w("id")) == new_id]:
                root.remove(c)
        self._carried.clear()

    def _comment(self, wid: str | None) -> str | None:
        """The id of the redline's copy of the original's comment ``wid`` (copied on first use)."""
        if wid not in self._comments:
            source = C.Comments(self.doc_a).by_word_id(wid) if wid is not None else None
            self._comments[wid] = None if source is None else self._copy_comment(source)
        return self._comments[wid]

    def _copy_comment(self, source: etree._Element) -> str:
        comments = C.Comments(self.doc_b)
        root = comments.part_root("comments", create=True)
        new_id = str(1 + max((file_int(c.get(w("id")), -1, -1, 2**31 - 2) for c in root), default=-1))
        dup = copy.deepcopy(source)
        dup.set(w("id"), new_id)
        holder = etree.Element(w("body"))
        holder.append(dup)
        prepare_copy(holder, self.doc_b.word_ids(root))
        root.append(dup)
        comments.touch(root)
        return new_id

    def _notes(self, el: etree._Element) -> None:
        """A copied note reference gets a copy of its note (a deleted reference takes its note
        with it when accepted); outside the body, references go (notes are the body's)."""
        for kind in N.KINDS:
            for ref in list(el.iter(N.REF_TAGS[kind])):
                note = N.note_by_id(self.doc_a, kind, ref.get(w("id")))
                if note is None or self.part_b != self.doc_b.main_name:
                    ref.getparent().remove(ref)
                    continue
                root = N.ensure_notes_root(self.doc_b, kind)
                dup = copy.deepcopy(note)
                new_id = str(N.next_id(root))
                dup.set(w("id"), new_id)
                Copier(self.doc_a, self.doc_b, self.doc_a.part_of(note).name,
                       self.doc_b.part_of(root).name)(dup, root)
                root.append(dup)
                self.doc_b.part_of(root).touch()
                ref.set(w("id"), new_id)

    def _carry(self, root: etree._Element) -> None:
        for el in root.iter():
            if isinstance(el.tag, str):
                self._carry_one(el)

    def _carry_one(self, el: etree._Element) -> None:
        for name, value in el.attrib.items():
            if name.startswith(_R_ATTR):
                el.set(name, self._rid(value))

    def _rid(self, rid: str) -> str:
        if rid not in self._mapped:
            if self._rels is None:
                self._rels = {r.get("Id"): r for r in self.doc_a.package.rels(self.part_a)}
            rel = self._rels.get(rid)
            self._mapped[rid] = self._copy(rel) if rel is not None else rid
        return self._mapped[rid]

    def _copy(self, rel: etree._Element) -> str:
        pkg_a, pkg_b = self.doc_a.package, self.doc_b.package
        if rel.get("TargetMode") == "External":
            return pkg_b.relate(self.part_b, rel.get("Type"), rel.get("Target", ""), True)
        name = pkg_a.resolve_target(self.part_a, rel.get("Target", ""))
        if not pkg_a.has_part(name):
            return pkg_b.relate(self.part_b, rel.get("Type"), rel.get("Target", ""))
        return pkg_b.relate_part(self.part_b, rel.get("Type"), _copy_part(pkg_a, pkg_b, name, {}))


def _copy_part(pkg_a, pkg_b, name: str, done: dict) -> str:
    """The redline's part with the bytes of the original's ``name`` (the same part, or a copy under a
    free name), with the parts it relates to copied too under the same Ids: a chart's workbook,
    colours and style."""
    if name not in done:
        data = pkg_a.part(name).data
        target = name if pkg_b.has_part(name) and pkg_b.part(name).data == data else _free_name(pkg_b, name)
        done[name] = target
        if not pkg_b.has_part(target):
            pkg_b.add_part(target, data)
            _content_type(pkg_a, pkg_b, name, target)
            _copy_rels(pkg_a, pkg_b, name, target, done)
    return done[name]


def _copy_rels(pkg_a, pkg_b, name: str, target: str, done: dict) -> None:
    rels = pkg_a.rels(name)
    if not rels:
        return
    root = pkg_b.rels_root(target)
    for rel in rels:
        attrs = dict(rel.attrib)
        inner = pkg_a.resolve_target(name, rel.get("Target", ""))
        if rel.get("TargetMode") != "External" and pkg_a.has_part(inner):
            copied = _copy_part(pkg_a, pkg_b, inner, done)
            attrs["Target"] = posixpath.relpath(copied, posixpath.dirname(target) or ".")
        etree.SubElement(root, rel.tag, attrs)


# Revisions in Word's one id space that accepting the documents' revisions leaves (the counter
# counts them: word_id_counter): a copy from the original gets a fresh id, or it could repeat one of
# the revised document's.
_UNLISTED = (w("tblPrExChange"),)


def renumber_unlisted(doc, el: etree._Element) -> None:
    for x in el.iter(*_UNLISTED):
        x.set(w("id"), new_word_id(doc, x))


def _free_name(pkg, name: str) -> str:
    stem, ext = posixpath.splitext(name)
    n = 1
    while pkg.has_part(f"{stem}_c{n}{ext}"):
        n += 1
    return f"{stem}_c{n}{ext}"


def _content_type(pkg_a, pkg_b, name: str, target: str) -> None:
    ct = pkg_a.content_type_of(name)
    ext = posixpath.splitext(target)[1].lstrip(".")
    if ct is None:
        return
    if pkg_b.content_type_of(target) == ct:
        return
    if ext and pkg_b.set_default(ext, ct) and pkg_b.content_type_of(target) == ct:
        return
    pkg_b.set_override(target, ct)
