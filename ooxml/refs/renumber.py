"""Caption numbers kept right as blocks come and go: after an edit that inserted, removed or changed a
block holding a ``SEQ`` field, the body's SEQ results are brought up to date, and so are the REF
results pointing at a caption whose number changed (the issue asks for right numbers after each edit;
Word itself waits for F9). Only results that differ are written, tracked as an update is
(field_list.write_result); other references, and page numbers, are docx_update_fields' business.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable

from lxml import etree

from ooxml.refs import captions as CAP
from ooxml.refs import compute as C
from ooxml.refs import field_list as FLD
from ooxml.refs import updating as UP
from ooxml.text import body as B
from ooxml.xml.namespaces import w

_INSTR = (w("instrText"), w("delInstrText"), FLD.W_SIMPLE)
_SEQ = re.compile(r"^\s*SEQ\s", re.IGNORECASE)


def holds_seq(blocks: Iterable[etree._Element]) -> bool:
    """Whether any of ``blocks`` holds a SEQ field: a walk of those blocks alone."""
    for block in blocks:
        for el in block.iter(*_INSTR):
            text = el.get(w("instr")) if el.tag == FLD.W_SIMPLE else el.text
            if text and _SEQ.match(text):
                return True
    return False


def renumber(doc, announce: Callable) -> list[UP.Change]:
    """The body's SEQ results in document order, then the REFs to the captions renumbered."""
    fields = FLD.all_fields(doc)
    results = C.Results(doc, fields)
    seqs = UP.stage(doc, fields, {"SEQ"}, results.of, announce)
    chapters = [f for f in fields if f.name == "STYLEREF" and _in_caption(f)]
    seqs += UP.stage(doc, chapters, {"STYLEREF"}, results.of, announce)  # a caption moved to another chapter
    if not seqs:
        return []
    renumbered = {c.field.paragraph for c in seqs}
    results = C.Results(doc, fields)  # afresh: references read the new numbers
    refs = [f for f in fields if f.name == "REF" and _points_into(results, f, renumbered)]
    return seqs + UP.stage(doc, refs, {"REF"}, results.of, announce)


def _in_caption(f: FLD.Field) -> bool:
    """A chapter number: a body STYLEREF N in a caption's paragraph."""
    cap = CAP.caption_of(f.paragraph) if f.paragraph is not None else None
    return cap is not None and cap.chapter is not None and cap.chapter.start is f.start


def _points_into(results: C.Results, f: FLD.Field, paragraphs: set) -> bool:
    start = results.mark(f.words[1]) if len(f.words) > 1 else None
    if start is None:
        return False
    p = B.find_ancestor(start, B.W_P)
    p = p if p is not None else next(start.itersiblings(B.W_P), None)
    return p in paragraphs
