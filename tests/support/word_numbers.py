"""The list numbers Word itself wrote into a file, next to our labels of the paragraphs they name.

Word caches two such numbers: a TOC entry (a hyperlink to a ``_Toc`` bookmark) starts with the
label of its heading ("2.<tab>General Provisions<tab>5"), and a ``REF <bookmark> \\w`` field's
result is the bookmarked paragraph's number in full context ("26.3.1"). Both were right when Word
last updated the field, so a file saved by Word checks our labels against Word's own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ooxml.text import body as B
from ooxml.refs import fields as F
from ooxml.model.document import Document
from ooxml.xml.namespaces import w
from ooxml.lists.numbering import label_of

W_HYPERLINK, W_BOOKMARK, W_FLDCHAR = w("hyperlink"), w("bookmarkStart"), w("fldChar")
_PAGE = re.compile(r"^\s*(\d+|[ivxlcdm]+|[IVXLCDM]+)?\s*$")
_TEXT = {w("t"): None, w("tab"): "\t"}


@dataclass
class WordCheck:
    checked: int = 0  # cached numbers compared with our label
    agree: int = 0
    unreadable: int = 0  # entries whose text does not end with their heading's text (edited by hand)
    differences: list[tuple[str, str | None, str | None]] = field(default_factory=list)  # (what, ours, Word's)


def _text(el) -> str:
    """Text with tabs, field instructions left out (w:instrText is no w:t)."""
    return "".join(e.text or "" if _TEXT[e.tag] is None else "\t" for e in el.iter(*_TEXT))


def _bookmarked_paragraphs(doc) -> dict[str, object]:
    """Bookmark name -> the paragraph it starts in (a bookmark standing between blocks marks the next)."""
    out = {}
    for bm in doc.body.iter(W_BOOKMARK):
        name = bm.get(w("name")) or ""
        p = bm.getparent()
        if p is not None and p.tag != B.W_P:
            nxt = bm.getnext()
            while nxt is not None and nxt.tag != B.W_P:
                nxt = nxt.getnext()
            p = nxt
        if p is not None and name not in out:
            out[name] = p
    return out


def _toc_label(entry: str, heading: str) -> tuple[bool, str | None]:
    """(readable, the label Word wrote before the heading's text) for a TOC entry's text."""
    parts = entry.split("\t")
    if len(parts) > 1 and _PAGE.match(parts[-1]):
        parts = parts[:-1]  # the page number
    text = "\t".join(parts).strip()
    heading = " ".join(heading.split())
    flat = " ".join(text.split())
    if not heading or not flat.endswith(heading):
        return False, None
    return True, flat[: len(flat) - len(heading)].strip() or None


def _ref_results(doc):
    """(bookmark name, cached result) of every REF field with the \\w switch in the body."""
    for fc in doc.body.iter(W_FLDCHAR):
        if fc.get(w("fldCharType")) != "begin":
            continue
        instr = F.instruction_of(fc).split()
        if len(instr) >= 3 and instr[0].upper() == "REF" and "\\w" in instr:
            yield instr[1], F.result_text(fc).strip()


def check(path: Path) -> WordCheck:
    doc = Document.open(path)
    try:
        out = WordCheck()
        marks = _bookmarked_paragraphs(doc)
        for link in doc.body.iter(W_HYPERLINK):
            anchor = link.get(w("anchor")) or ""
            target = marks.get(anchor) if anchor.startswith("_Toc") else None
            if target is None:
                continue
            ours = label_of(doc, target)
            readable, word = _toc_label(_text(link), B.paragraph_text(target))
            if not readable:
                out.unreadable += 1
                continue
            _note(out, f"TOC {anchor}", ours, word)
        for name, result in _ref_results(doc):
            target = marks.get(name)
            if target is None or not result:
                continue
            ours = label_of(doc, target)
            # \w is the number in full context, without the label's closing punctuation: "26.3.1" for "26.3.1."
            _note(out, f"REF {name}", ours.rstrip(".)") if ours else None, result.rstrip(".)"))
        return out
    finally:
        doc.close()


def _note(out: WordCheck, what: str, ours: str | None, word: str | None) -> None:
    out.checked += 1
    if ours == word:
        out.agree += 1
    else:
        out.differences.append((what, ours, word))
