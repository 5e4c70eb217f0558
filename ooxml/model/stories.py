"""A document's stories (python-docx's ``parts/story``): the main story, then its headers, footers,
notes and comments, in the main part's relationship order. Each caller says which it reads:
``kinds`` (``TEXT`` leaves comments out: remarks on the text, not the text) and ``body`` (the main
story as its ``w:body`` rather than the ``w:document`` root, e.g. to skip the document background)."""
from __future__ import annotations

from typing import NamedTuple

from lxml import etree

from ooxml.opc.types import RT

ALL = frozenset(("main", "header", "footer", "footnotes", "endnotes", "comments"))
TEXT = ALL - {"comments"}
_KIND = {t: t.rpartition("/")[2] for t in RT.STORIES}


class Story(NamedTuple):
    name: str  # the part's name
    kind: str  # one of ALL
    root: etree._Element  # the part's root (registered: its IDs resolve), the main part's per ``body``


def stories(doc, kinds: frozenset = ALL, body: bool = False) -> list[Story]:
    unknown = set(kinds) - ALL
    if unknown:
        raise ValueError(f"no story kind {sorted(unknown)}")  # a programming error, not the user's
    main = doc.main_name
    out = [Story(main, "main", doc.body if body else doc.root)] if "main" in kinds else []
    seen = {main}
    for rel in doc.package.rels(main):
        kind = _KIND.get(rel.get("Type"))
        if kind is None or rel.get("TargetMode") == "External":
            continue
        name = doc.package.resolve_target(main, rel.get("Target", ""))
        if name in seen or not doc.package.has_part(name):
            continue
        seen.add(name)
        if kind in kinds:
            out.append(Story(name, kind, doc.register_part_root(doc.package.part(name))))
    return out
