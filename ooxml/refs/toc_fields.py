"""TOC fields outside Word's "Table of Contents" content control, and their rebuild.

LibreOffice, Google Docs, pandoc and older Word write a bare TOC field: a complex field whose
begin, instruction and separate runs open the first paragraph, whose result is one paragraph per
entry and whose end run closes the last (often a paragraph of its own), or a ``w:fldSimple``
inside one paragraph. The TOC's ID is the ID of its begin ``w:fldChar`` (or of the
``w:fldSimple``, which a rebuild turns into a complex field: a simple field cannot hold
paragraphs). A rebuild keeps the paragraphs that hold the begin and the end, with whatever
stands before the begin and after the end, and the field's own runs; only the result changes.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.text import body as B
from ooxml.refs import fields as FL
from ooxml.xml.errors import InvalidElementType
from ooxml.xml.namespaces import OX_ID, W, w
from ooxml.xml.order import insert_child
from ooxml.text.ranges import PAIRS, rescue_markers
from ooxml.refs.toc_switches import is_heading_toc

W_SIMPLE = w("fldSimple")
_GALLERY = "w:sdtPr/w:docPartObj/w:docPartGallery[@w:val='Table of Contents']"
_CANDIDATES = etree.XPath(f".//w:sdt[{_GALLERY}] | .//w:instrText[contains(., 'TOC')]"
                          " | .//w:fldSimple[contains(@w:instr, 'TOC')]", namespaces={"w": W})
_IS_GALLERY = etree.XPath(_GALLERY, namespaces={"w": W})
_MARKERS = set(PAIRS) | set(PAIRS.values())
_HINT = "Rebuild it in Word, or delete its paragraphs and insert a new one with docx_insert_toc."


def in_gallery(el: etree._Element) -> bool:
    return any(_IS_GALLERY(a) for a in el.iterancestors(B.W_SDT))


def instruction(begin: etree._Element) -> str:
    if begin.tag == W_SIMPLE:
        return " ".join((begin.get(w("instr")) or "").split())
    return FL.instruction_of(begin)


def _begin_before(instr_text: etree._Element) -> etree._Element | None:
    """The begin fldChar of the field an instrText belongs to (runs of one paragraph)."""
    for run in instr_text.getparent().itersiblings(preceding=True):
        fc = run.find(FL.W_FLDCHAR)
        if fc is not None:
            return fc if fc.get(w("fldCharType")) == "begin" else None
    return None


def find_all(doc) -> list[etree._Element]:
    """The body's tables of contents in document order: Word's content controls, and the begin
    fldChar (or fldSimple) of heading TOC fields outside them (tables of figures left out)."""
    out, seen = [], set()
    for el in _CANDIDATES(doc.body):
        if el.tag == B.W_SDT:
            out.append(el)
            continue
        begin = el if el.tag == W_SIMPLE else _begin_before(el)
        if begin is None or begin in seen or in_gallery(begin):
            continue
        seen.add(begin)
        if is_heading_toc(instruction(begin)):
            out.append(begin)
    return out


@dataclass
class Span:
    first: etree._Element  # the paragraph holding the begin
    last: etree._Element  # the paragraph holding the end
    head: list[etree._Element]  # begin .. separate runs, children of first
    end: etree._Element  # the end run, a child of last
    middle: list[etree._Element]  # blocks between first and last


def _refuse(why: str) -> InvalidElementType:
    return InvalidElementType(f"This table of contents cannot be rebuilt: {why}.", hint=_HINT)


def check(doc, begin: etree._Element) -> None:
    """Raise before anything changes when the field's shape is one a rebuild cannot keep."""
    if begin.tag == W_SIMPLE:
        if begin.getparent().tag != B.W_P:
            raise _refuse("its field is not directly in a paragraph")
        return
    span(begin)


def span(begin: etree._Element) -> Span:
    run = begin.getparent()
    first = run.getparent()
    if first.tag != B.W_P:
        raise _refuse("its field starts inside a link or a revision, not directly in a paragraph")
    head, sep = [run], None
    for sib in run.itersiblings():
        fc = sib.find(FL.W_FLDCHAR)
        if fc is not None and fc.get(w("fldCharType")) == "separate":
            sep = sib
            head.append(sib)
            break
        if fc is not None or sib.tag != B.W_R:
            break
        head.append(sib)
    end = FL.end_run(begin)
    if sep is None or end is None:
        raise _refuse("its field has no result or no end in the same part")
    last = end.getparent()
    if last.tag != B.W_P or last.getparent() is not first.getparent():
        raise _refuse("its field ends inside a link or another container")
    middle = []
    if last is not first:
        for sib in first.itersiblings():
            if sib is last:
                break
            middle.append(sib)
        else:
            raise _refuse("its field ends before it begins")
    if any(el.find(f"{{{W}}}pPr/{{{W}}}sectPr") is not None for el in middle):
        raise _refuse("it spans a section break")
    return Span(first, last, head, end, middle)


def unsimplify(doc, simple: etree._Element) -> etree._Element:
    """Turn a ``w:fldSimple`` into begin/instruction/separate/end runs in place; the new begin
    fldChar takes its ID. Returns the begin fldChar."""
    runs = FL.field_runs(instruction(simple), "")
    fid = simple.get(OX_ID)
    for r in runs:
        simple.addprevious(r)
    doc.ids.forget(simple)
    simple.getparent().remove(simple)
    begin = FL.begin_char(runs)
    if fid:
        begin.set(OX_ID, fid)
        doc.ids.adopt(begin, own_only=True)
    return begin


def _has_text(els) -> bool:
    return any((t.text or "").strip() for el in els for t in el.iter(B.W_T))


def _content(p: etree._Element, start=None, stop=None) -> list[etree._Element]:
    """Children of ``p`` after ``start`` (from the first when None) up to ``stop`` (excluded)."""
    out, on = [], start is None
    for child in p:
        if child is stop:
            break
        if on and child.tag != w("pPr"):
            out.append(child)
        on = on or child is start
    return out


def _strip(doc, children: list[etree._Element]) -> None:
    """Remove result content; range markers stay so every start keeps its end."""
    for child in children:
        if child.tag in _MARKERS:
            continue
        rescue_markers(child)
        doc.ids.forget(child)
        child.getparent().remove(child)


def _take_style(doc, p: etree._Element, entry: etree._Element) -> None:
    """``p`` takes the entry's paragraph properties (a section break it carries stays)."""
    old, new = p.find(w("pPr")), entry.find(w("pPr"))
    sect = old.find(w("sectPr")) if old is not None else None
    if old is not None:
        p.remove(old)
    if new is None and sect is not None:
        new = etree.Element(w("pPr"))
    if new is not None:
        p.insert(0, new)
        if sect is not None:
            insert_child(new, sect)


def _merge(doc, p: etree._Element, entry: etree._Element, after=None, before=None) -> None:
    _take_style(doc, p, entry)
    kids = [c for c in entry if c.tag != w("pPr")]
    for c in kids:
        if before is not None:
            before.addprevious(c)
        elif after is not None:
            after.addnext(c)
            after = c
        else:
            p.append(c)


def rebuild(doc, begin: etree._Element, new: list[etree._Element]) -> tuple[etree._Element, list[etree._Element]]:
    """Replace the TOC field's result with the ``new`` entry paragraphs (no field runs in them);
    returns the begin fldChar and the paragraphs the field spans afterwards. ``check`` has passed."""
    first = begin.getparent() if begin.tag == W_SIMPLE else begin.getparent().getparent()
    doc.will_change(first)
    if begin.tag == W_SIMPLE:
        begin = unsimplify(doc, begin)
    s = span(begin)
    doc.will_change(s.last)
    for el in s.middle:
        doc.remove_block(el)
    sep = s.head[-1]
    single = s.first is s.last
    head_alone = not single and not _has_text(_content(s.first, sep))
    end_alone = not single and not _has_text(_content(s.last, None, s.end))
    queue = list(new)
    if not head_alone:
        _strip(doc, _content(s.first, sep, s.end if single else None))
        _merge(doc, s.first, queue.pop(0), after=sep)
    if single and queue:  # the end run (and what follows it) closes the last entry
        queue[-1].extend([s.end, *s.end.itersiblings()])
    elif not single and not end_alone:
        _strip(doc, _content(s.last, None, s.end))
        if queue:
            _merge(doc, s.last, queue.pop(), before=s.end)
    prev = s.first
    for p in queue:
        doc.insert_block(p, container=s.first.getparent(), after=prev)
        prev = p
    doc.changed(s.first)
    doc.changed(s.last)
    return begin, [s.first, *queue] + ([] if single else [s.last])


def paragraphs(begin: etree._Element) -> list[etree._Element]:
    """The blocks a TOC field spans now (``check`` has passed)."""
    if begin.tag == W_SIMPLE:
        return [begin.getparent()]
    s = span(begin)
    return [s.first, *s.middle] + ([] if s.last is s.first else [s.last])
