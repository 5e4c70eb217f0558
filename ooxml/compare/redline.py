"""The redline: the revised document with every difference from the original as Word revisions."""
from __future__ import annotations

from dataclasses import dataclass, field
from collections import Counter

from lxml import etree

from ooxml.opc.parts import settings_root
from ooxml.xml import gc_pause
from ooxml.opc.types import RT
from ooxml.text import notes as N
from ooxml.xml.namespaces import w
from ooxml.text import body as B
from ooxml.compare.blocks import SECT_SKIP, Comparer
from ooxml.compare.carry import Copier, renumber_unlisted
from ooxml.compare.marks import Marks
from ooxml.compare.media import Images
from ooxml.compare.paragraphs import Options
from ooxml.compare.headers import HeaderPass
from ooxml.compare.stories import note_pairs


@dataclass
class Result:
    counts: Counter = field(default_factory=Counter)
    first: etree._Element | None = None
    matched: int = 0


def build(doc_a, doc_b, author: str, opts: Options, body_pairs: list | None = None) -> Result:
    """Write into ``doc_b`` (both documents' accepted views) how it differs from ``doc_a``
    (``body_pairs``: the bodies' blocks aligned already, as ``Comparer.pairs`` would)."""
    with gc_pause.paused():  # collections walked the comparison's objects again and again: 6 % of its CPU
        return _build(doc_a, doc_b, author, opts, body_pairs)


def _build(doc_a, doc_b, author: str, opts: Options, body_pairs) -> Result:
    marks = Marks(doc_b, author)
    images = Images(doc_a, doc_b)  # one for every story: each image part hashed once
    renumber_unlisted(doc_b, doc_b.body)
    matched = _story(doc_a, doc_b, marks, opts, doc_a.main_name, doc_b.main_name, [(doc_a.body, doc_b.body)], images,
                     {} if body_pairs is None else {doc_b.body: body_pairs})
    final_a, final_b = doc_a.body.find(B.W_SECTPR), doc_b.body.find(B.W_SECTPR)
    if final_b is None and final_a is not None:
        # an empty last section (the defaults, as none) holds the change, and sections merging
        # into it on accept take its properties, not those of the original's last break
        final_b = etree.SubElement(doc_b.body, B.W_SECTPR)
    if opts.formatting and final_b is not None:  # page setup of the last section
        Comparer(marks, opts, None).properties(final_a, final_b, "sectPr", "sectPrChange", SECT_SKIP)
    HeaderPass(doc_a, doc_b, lambda name_a, root_a, name_b, root_b: _story(
        doc_a, doc_b, marks, opts, name_a or doc_a.main_name, name_b, [(root_a, root_b)], images)).run()
    for kind in N.KINDS:
        pairs = note_pairs(doc_a, doc_b, kind, marks.note_pairs)
        if pairs:
            name_a = doc_a.part_of(pairs[0][0]).name
            name_b = doc_b.part_of(pairs[0][1]).name
            _story(doc_a, doc_b, marks, opts, name_a, name_b, pairs, images)
    _show_markup(doc_b)
    return Result(marks.counts, marks.first, matched)


def _show_markup(doc) -> None:
    """A redline opens with its revisions shown: the revised document's w:revisionView (which may
    hide insertions, deletions or formatting changes) loses its attributes (all default to shown;
    the element stays where it is, so a file's own order problems stay what they were)."""
    root = settings_root(doc, create=False)
    view = root.find(w("revisionView")) if root is not None else None
    if view is not None and len(view.attrib):
        view.attrib.clear()
        doc.related_part(RT.SETTINGS).touch()


def _story(doc_a, doc_b, marks, opts, name_a, name_b, containers, images, given=None) -> int:
    copier = Copier(doc_a, doc_b, name_a, name_b)
    comparer = Comparer(marks, opts, copier)
    comparer.images, comparer.given = images, given or {}
    comparer.notes = any(N.notes_root(doc, kind) is not None for doc in (doc_a, doc_b) for kind in N.KINDS)
    before = sum(marks.counts.values())
    for ca, cb in containers:
        comparer.container(ca, cb)
    copier.finish()
    if sum(marks.counts.values()) != before:
        doc_b.package.part(name_b).touch()
    return comparer.matched
