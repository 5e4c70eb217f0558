"""Captions as Word writes them: a ``Caption`` paragraph holding the label, a ``SEQ`` field with its
number, and a ``_Ref`` bookmark around label and number (what references point at).

    Figure {SEQ Figure \\* ARABIC}: text
    Figure {STYLEREF 1 \\s}-{SEQ Figure \\* ARABIC \\s 1}: text    (chapter numbers; '-' a w:noBreakHyphen)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from ooxml.refs import fields as FL
from ooxml.refs import field_list as FLD
from ooxml.refs import links as L
from ooxml.refs import ref_marks as RM
from ooxml.stylesheet.styles_builtin import ensure_style
from ooxml.text import body as B
from ooxml.text.build import make_paragraph, make_run
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import w

LABELS = ("Figure", "Table", "Equation")  # Word's own; others once a caption uses them
_LABEL = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,39}$")
SEPARATOR = ": "
SEPARATORS = " :.-\u2013\u2014\t"  # what may stand between a caption's number and its text


def check_label(label: str) -> str:
    label = (label or "").strip()
    if not _LABEL.match(label):
        raise ValidationError(f"Unknown caption label '{label}': a label is one word of letters, digits or _.",
                              hint="Use Figure, Table or Equation, or a one-word label of your own, e.g. 'Chart'.")
    return label


def seq_instruction(label: str, chapter: int | None = None) -> str:
    return f"SEQ {label} \\* ARABIC" + (f" \\s {chapter}" if chapter else "")


def chapter_runs(level: int, number: str) -> list[etree._Element]:
    """Word's chapter prefix: STYLEREF to the level's heading number, then a non-breaking hyphen."""
    hyphen = etree.Element(w("r"))
    etree.SubElement(hyphen, w("noBreakHyphen"))
    return [*FL.field_runs(f"STYLEREF {level} \\s", number), hyphen]


def build(doc, label: str, text: str, number: int, roots: list[etree._Element],
          chapter: tuple[int, str] | None = None) -> etree._Element:
    """The caption paragraph, its number written in and label+number bookmarked; ``chapter`` is
    (heading level, its number) for chapter numbering."""
    p = make_paragraph("", ensure_style(doc, "caption"))
    lead = make_run(f"{label} ")
    p.append(lead)
    if chapter:
        p.extend(chapter_runs(*chapter))
    runs = FL.field_runs(seq_instruction(label, chapter[0] if chapter else None), str(number))
    p.extend(runs)
    if text:
        p.extend([make_run(SEPARATOR), make_run(text)])
    names = {s.get(w("name")) for s in L.bookmark_starts(roots)}
    L.add_bookmark(lead, runs[-1], RM.new_name(names), L.next_bookmark_id(roots))
    return p


@dataclass
class Caption:
    p: etree._Element
    seq: FLD.Field
    label: str
    chapter: FLD.Field | None = None  # the STYLEREF before the SEQ (chapter numbering)

    def runs(self) -> list[etree._Element]:
        return [r for r in self.p.iter(B.W_R) if r.getparent().tag != FLD.W_DEL]

    def seq_runs(self) -> tuple[etree._Element, etree._Element]:
        """(begin run, end run) of its SEQ field."""
        begin = self.seq.start if self.seq.start.tag == FLD.W_SIMPLE else self.seq.start.getparent()
        end = begin if begin.tag == FLD.W_SIMPLE else FL.end_run(self.seq.start)
        return begin, end

    def number_runs(self) -> tuple[etree._Element, etree._Element]:
        """(first, last) run of the number as it reads: the chapter's STYLEREF through the SEQ."""
        begin, end = self.seq_runs()
        if self.chapter is not None:
            start = self.chapter.start
            begin = start if start.tag == FLD.W_SIMPLE else start.getparent()
        return begin, end

    def text(self) -> str:
        """The caption's text after label, number and separator."""
        _, end = self.seq_runs()
        after = "".join(B.run_text(r) for r in end.itersiblings() if r.tag == B.W_R)
        return after.lstrip(SEPARATORS)


def caption_of(p: etree._Element) -> Caption | None:
    """The caption a paragraph is: its first SEQ field (not a \\c repeat)."""
    if p.tag != B.W_P:
        return None
    chapter = None
    for f in FLD.fields_of(p):
        if f.name == "STYLEREF" and len(f.words) > 1 and f.words[1].isdigit():
            chapter = f
        elif f.name == "SEQ" and len(f.words) > 1 and f.switch("\\c") is None:
            return Caption(p, f, f.words[1], chapter if f.switch("\\s") else None)
    return None
