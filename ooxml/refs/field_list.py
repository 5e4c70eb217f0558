"""A document's fields in reading order, with their instructions and cached results.

A field starts at a begin ``w:fldChar`` (complex field) or is a ``w:fldSimple``. Results are read
and written only where they sit in one paragraph (a TOC's multi-paragraph result is the TOC's own
business, ooxml/refs/toc.py). Writing a result while tracking records it as Word does: the old
result deleted, the new one inserted.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from ooxml.refs import fields as FL
from ooxml.review import edits
from ooxml.text import body as B
from ooxml.text.build import make_run
from ooxml.xml.namespaces import w

W_SIMPLE, W_INS, W_DEL = w("fldSimple"), w("ins"), w("del")
_TOKEN = re.compile(r'"([^"]*)"|(\S+)')


@dataclass
class Field:
    start: etree._Element  # the begin w:fldChar, or the w:fldSimple
    instruction: str
    root: etree._Element  # the story root holding it
    in_code: bool = False  # nested in another field's instruction: its result is code, not text

    @property
    def words(self) -> list[str]:
        """The instruction's words, quotes taken off ('STYLEREF "Heading 1" \\s')."""
        return [m.group(1) if m.group(1) is not None else m.group(2) for m in _TOKEN.finditer(self.instruction)]

    @property
    def name(self) -> str:
        words = self.words
        return words[0].upper() if words else ""

    def switch(self, flag: str) -> str | None:
        """The value after switch ``flag`` ('\\*', '\\r'), '' for a bare switch, None when absent."""
        words = self.words
        for i, word in enumerate(words):
            if word.lower() == flag.lower():
                nxt = words[i + 1] if i + 1 < len(words) else ""
                return "" if nxt.startswith("\\") else nxt
        return None

    @property
    def paragraph(self) -> etree._Element | None:
        return B.find_ancestor(self.start, B.W_P)


following = FL.following


def _deleted(el: etree._Element) -> bool:
    return any(a.tag == W_DEL for a in el.iterancestors(W_DEL))


def fields_of(root: etree._Element) -> list[Field]:
    """Every field of a story root in reading order (tracked-deleted ones left out)."""
    out = []
    coding: list[bool] = []  # the open complex fields, innermost last: True while in their instruction
    for el in root.iter(FL.W_FLDCHAR, W_SIMPLE):
        kind = el.get(w("fldCharType")) if el.tag != W_SIMPLE else None
        in_code = bool(coding) and coding[-1]
        if kind == "separate" and coding:
            coding[-1] = False
        elif kind == "end" and coding:
            coding.pop()
        if el.tag == W_SIMPLE:
            instruction = (el.get(w("instr")) or "").strip()
        elif kind == "begin":
            coding.append(True)
            instruction = FL.instruction_of(el)
        else:
            continue
        if not _deleted(el):
            out.append(Field(el, instruction, root, in_code))
    return out


def all_fields(doc) -> list[Field]:
    return [f for root in doc.story_roots() for f in fields_of(root)]


def _flat(span: list[etree._Element]) -> list[etree._Element]:
    """The runs of a span, those in a w:ins included and those in a w:del left out."""
    out = []
    for el in span:
        if el.tag == B.W_R:
            out.append(el)
        elif el.tag == W_INS:
            out += [r for r in el if r.tag == B.W_R]
    return out


def _parts(f: Field) -> tuple[list[etree._Element], etree._Element | None, etree._Element | None] | None:
    """(result runs, separate run, end run) of a complex field in one paragraph; None otherwise."""
    runs = _flat(FL.field_span(f.start))
    if not runs:
        return None
    sep, result, depth = None, [], 0
    for r in runs[1:-1]:
        fc = r.find(FL.W_FLDCHAR)
        kind = fc.get(w("fldCharType")) if fc is not None else None
        if kind == "begin":
            depth += 1
        elif kind == "end":
            depth -= 1
        elif kind == "separate" and depth == 0 and sep is None:
            sep = r
        elif sep is not None:
            if depth or fc is not None or r.find(FL.W_INSTR) is not None:
                return None  # a field nested in the result: not ours to rewrite
            result.append(r)
    return result, sep, runs[-1]


def result_of(f: Field) -> str | None:
    """The field's cached result as it reads; None where it is not in one paragraph."""
    if f.start.tag == W_SIMPLE:
        return "".join(B.run_text(r) for r in _flat(list(f.start)))
    parts = _parts(f)
    return None if parts is None else "".join(B.run_text(r) for r in parts[0])


def writable(f: Field) -> bool:
    return not f.in_code and (f.start.tag == W_SIMPLE or _parts(f) is not None)


def write_result(doc, f: Field, text: str) -> None:
    """Replace the cached result (callers announced the paragraph); tracked, as a deletion and an
    insertion. The new run takes the old result's formatting, else the field's."""
    if f.start.tag == W_SIMPLE:
        old, sep, end = _flat(list(f.start)), None, None
    else:
        old, sep, end = _parts(f)
    model = old[0] if old else (f.start if f.start.tag == W_SIMPLE else f.start.getparent())
    new = make_run(text, model.find(w("rPr")))
    if end is None:
        f.start.append(new)
    else:
        if sep is None:
            sep = FL.field_runs("X", "")[2]
            end.addprevious(sep)
        end.addprevious(new)
    edits.mark_inserted(doc, [new])
    # after the new run is in: deleting the old may drop a wrapper it empties (a w:ins, a fldSimple)
    edits.delete_runs(doc, old)
