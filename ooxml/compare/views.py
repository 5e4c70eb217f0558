"""The documents as compared: their accepted views, and the redline's bytes."""
from __future__ import annotations

import copy

from ooxml.review import review_ops as RO
from ooxml.xml import gc_pause
from ooxml.xml.id_bytes import predeclared, undeclare_ours
from ooxml.xml.ids import strip_ids
from ooxml.xml.namespaces import MC, OX_PREFIX
from ooxml.xml.safexml import serialize
from ooxml.model.document import Document
from ooxml.opc.package import Package
from ooxml.opc.strict import to_transitional
from ooxml.model.stories import TEXT

_OURS = f" {OX_PREFIX}:id=".encode()
_IGNORABLE = f"{{{MC}}}Ignorable"


def revision_count(doc) -> int:
    return sum(len(RO.all_revisions(root)) for root in doc.story_roots(TEXT, body=True))


def decide_all(doc, accept: bool) -> int:
    """Every revision accepted (the view the comparison reads) or rejected, move ranges dropped."""
    roots = doc.story_roots(TEXT, body=True)
    revisions = [el for root in roots for el in RO.all_revisions(root)]
    if revisions:
        RO.decide(doc, revisions, accept, tuple(r.getroottree().getroot() for r in roots))
        for root in roots:
            RO.drop_move_ranges(root)
            doc.part_of(root).touch()
    return len(revisions)


def accept_all(doc) -> None:
    decide_all(doc, True)


def part_bytes(doc, keep: bool = False) -> dict[str, bytes]:
    """Every part's bytes, without our IDs (the redline opens as a new document); ``keep``: the
    document stays as it is (a session's), else its trees lose our IDs."""
    out = {}
    for name, part in doc.package.parts.items():
        if part.loaded:  # the tree is the truth (it may differ from the bytes read)
            out[name] = _without_ids(part, keep)
        elif doc.package.strict and name.endswith((".xml", ".rels")):
            out[name] = to_transitional(part.data)  # the redline is a Transitional package
        else:
            out[name] = part.data
    return out


def as_new_document(doc):
    """``doc`` (closed after this) as a new document, as if opened from ``part_bytes(doc)``: its
    story parts keep their trees (parsing the body again cost a tenth of docx_compare's time)."""
    with gc_pause.paused():
        return _as_new_document(doc)


def _as_new_document(doc):
    pkg = Package(None)
    for name, data in part_bytes(doc).items():
        part, new = doc.package.parts[name], pkg.add_part(name, data)
        pre = part.loaded and part.prepared and predeclared(data, part.tree.getroot())
        if pre:  # story parts (parsed with our namespace declared): the tree is what a parse gives
            new.adopt(part.tree, pre)
    return Document(pkg)


def _without_ids(part, keep: bool) -> bytes:
    data = serialize(part.tree, part.head)
    root = part.tree.getroot()
    if _OURS not in data and OX_PREFIX not in root.get(_IGNORABLE, "").split():
        return undeclare_ours(data, part.prepared)  # no ID of ours in it: no walk to strip them
    tree = copy.deepcopy(part.tree) if keep else part.tree
    strip_ids(tree.getroot())
    return undeclare_ours(serialize(tree, part.head), part.prepared)
