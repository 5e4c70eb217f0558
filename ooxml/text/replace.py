"""Find and replace text that Word may have split across runs.

A paragraph's visible text is the concatenation of the ``w:t`` of its runs in reading order
(through hyperlinks, insertions, content controls, simple fields; never ``w:del``/``w:moveFrom``,
so deleted text is never touched). Everything else a run shows (tabs, breaks, images, field
characters and field instructions) is a barrier: a match never spans it, and it is never
changed. A match may span runs; the new text goes into the run where the match starts (so it
takes that run's formatting) and the matched text is cut out of the following runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import budget
from ooxml.xml import growth as GROWTH
from ooxml.text.build import text_children
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import XML, w

BARRIER = "\x00"  # stands for a tab, break, image ... in the searched text
_XML_SPACE = f"{{{XML}}}space"
_INVISIBLE = {w("rPr"), w("lastRenderedPageBreak")}  # neither text nor a barrier


def _special(text: str) -> bool:
    """Whether ``text`` holds a tab or a line break (no generator: one function less a call)."""
    return "\n" in text or "\r" in text or "\t" in text


@dataclass
class Segment:
    t: etree._Element  # a w:t
    start: int  # offset in the paragraph's searched text
    text: str


@dataclass
class ParagraphMatches:
    p: etree._Element
    segments: list[Segment]
    spans: list[tuple[int, int]] = field(default_factory=list)


def check_old_text(old_text: str) -> None:
    if not old_text:
        raise ValidationError("old_text is empty: there is nothing to look for.",
                              hint="Pass the exact text to replace (case-sensitive).")
    if BARRIER in old_text or _special(old_text):
        raise ValidationError("old_text cannot contain tabs, line breaks or NUL characters: a match never "
                              "spans a tab or a break.", hint="Replace the text on each side separately.")


def segments(p: etree._Element) -> tuple[list[Segment], str]:
    segs: list[Segment] = []
    parts: list[str] = []
    pos = 0
    for r in B.iter_runs(p):
        for child in r:
            if child.tag == B.W_T:
                text = child.text or ""
                segs.append(Segment(child, pos, text))
                parts.append(text)
                pos += len(text)
            elif isinstance(child.tag, str) and child.tag not in _INVISIBLE:
                parts.append(BARRIER)
                pos += 1
    return segs, "".join(parts)


def find_in(p: etree._Element, old: str) -> ParagraphMatches | None:
    segs, text = segments(p)
    if old not in text:
        return None
    found = ParagraphMatches(p, segs)
    at = text.find(old)
    while at >= 0:
        found.spans.append((at, at + len(old)))
        at = text.find(old, at + len(old))
    return found


def find_all(paragraphs: Iterable[etree._Element], old: str) -> list[ParagraphMatches]:
    out = []
    for p in paragraphs:
        budget.check()  # finding reads only: running out of time here changes nothing
        m = find_in(p, old)
        if m is not None:
            out.append(m)
    return out


def find_in_scope(scope: etree._Element, old: str) -> list[ParagraphMatches]:
    """``find_all(paragraphs_of(scope), old)``, a paragraph's segments made only when its text holds
    ``old`` (reading a large document's runs was most of a replace's time)."""
    fallbacks = next(scope.iter(B.MC_FALLBACK), None) is not None or B.in_fallback(scope)
    out = []
    for p in scope.iter(B.W_P):
        budget.check()  # finding reads only: running out of time here changes nothing
        parts: list[str] = []
        _read(p, parts)
        if old in "".join(parts) and not (fallbacks and B.in_fallback(p)):
            m = find_in(p, old)
            if m is not None:
                out.append(m)
    return out


def _read(container: etree._Element, parts: list[str]) -> None:
    """``segments``' text of the runs in ``container`` (``B.iter_runs``' order) into ``parts``."""
    for child in container:
        tag = child.tag
        if tag == B.W_R:
            for c in child:
                tag = c.tag
                if tag == B.W_T:
                    parts.append(c.text or "")
                elif tag not in _INVISIBLE and isinstance(tag, str):
                    parts.append(BARRIER)
        elif tag == B.W_SDT:
            content = child.find(B.W_SDTCONTENT)
            if content is not None:
                _read(content, parts)
        elif tag in B.RUN_CONTAINERS:
            _read(child, parts)


def paragraphs_of(scope: etree._Element) -> Iterator[etree._Element]:
    """Every paragraph in ``scope`` (itself included), nested tables and text boxes too."""
    return B.shown_paragraphs(scope)


def segment_at(segs: list, pos: int) -> int:
    """The index of the segment holding ``pos``: the last one starting at or before it (segments of
    any kind with a ``start``: these, tracked_text's, the fill's placeholders')."""
    lo, hi = 0, len(segs) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if segs[mid].start <= pos:
            lo = mid
        else:
            hi = mid - 1
    return lo


def growth(found: list[ParagraphMatches], old: str, new: str) -> int:
    """Bytes (UTF-8) replacing every match would add to the document; negative when it shrinks."""
    return sum(len(m.spans) for m in found) * (len(new.encode("utf-8", "surrogatepass"))
                                                - len(old.encode("utf-8", "surrogatepass")))


def check_growth(found: list[ParagraphMatches], old: str, new: str, limit: int) -> None:
    """Refuse, before any change, a replace that would add more than ``limit`` bytes."""
    count = sum(len(m.spans) for m in found)
    GROWTH.spend(growth(found, old, new), limit, f"Replacing {count:,} occurrence(s)",
                 hint="Narrow the replace with scope_id, or use a shorter new_text; the operator sets "
                      "the limit (limits.max_call_growth_bytes).")


def apply(doc, found: ParagraphMatches, new: str) -> int:
    """Replace every span of ``found`` in one pass: each touched segment's text is built once
    from its kept pieces (linear in the paragraph's text, however many matches)."""
    doc.will_change(found.p)
    segs = found.segments
    pieces: dict[int, list[str]] = {}
    consumed: dict[int, int] = {}  # segment -> offset in its old text up to which it is used
    for s, e in found.spans:
        i, j = segment_at(segs, s), segment_at(segs, e - 1)
        for k in range(i, j + 1):
            pieces.setdefault(k, [])
            consumed.setdefault(k, 0)
        first = segs[i]
        pieces[i] += [first.text[consumed[i]:s - first.start], new]
        for k in range(i, j):
            consumed[k] = len(segs[k].text)  # cut to its end: the match goes on in the next run
        consumed[j] = max(consumed[j], e - segs[j].start)
    for k in sorted(pieces):
        seg = segs[k]
        seg.text = "".join(pieces[k]) + seg.text[consumed[k]:]
        write_text(doc, seg.t, seg.text)
    doc.changed(found.p)
    return len(found.spans)


def write_text(doc, t: etree._Element, text: str) -> None:
    """A segment's new text into its element (the caller announced the change): an emptied ``w:t``
    goes, and its run with it when nothing but properties is left; a tab or break inside a replaced
    span (a fill's placeholder) only goes."""
    run = t.getparent()
    if run is None:
        return
    if t.tag != B.W_T:
        if not text:
            run.remove(t)
        return
    if not text:
        run.remove(t)
        if all(c.tag == w("rPr") for c in run) and run.getparent() is not None:
            doc.remove_block(run)  # the run held only this text: it goes too
        return
    if _special(text):  # new text with tabs/newlines: w:tab / w:br, never "\n" in w:t
        for child in reversed(text_children(text)):
            t.addnext(child)
        run.remove(t)
        return
    t.text = text
    if text != text.strip():
        t.set(_XML_SPACE, "preserve")
