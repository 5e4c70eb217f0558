"""Where an XML tree holds text, read the way a person reads it.

Three kinds of places: paragraphs (``w:p``, DrawingML ``a:p``, a workbook's shared strings), read as
one text across their runs, deleted text and field instructions included (a barrier stands for a
tab, a break or a drawing: nothing reads across it); attributes that hold words (alt text, tooltips,
authors, hyperlink targets ...); and the text of every other element. Parts of data that no Office
markup describes (custom XML, document properties) hold words in every attribute and text node.
"""
from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass
from itertools import accumulate, islice
from typing import Iterator

from lxml import etree

from ooxml.xml.namespaces import A, M, W, WP

X = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
WP14 = "http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing"
BARRIER = "\x00"
W_P = f"{{{W}}}p"

PARAS = {f"{{{W}}}p", f"{{{A}}}p", f"{{{X}}}si", f"{{{X}}}is", f"{{{X}}}text"}  # text: a cell comment
TEXTS = {f"{{{W}}}t", f"{{{W}}}delText", f"{{{M}}}t", f"{{{A}}}t", f"{{{X}}}t"}
INSTRS = {f"{{{W}}}instrText", f"{{{W}}}delInstrText"}
_DRAWINGS = {f"{{{W}}}drawing", f"{{{W}}}pict", f"{{{W}}}object",
             "{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent", f"{{{X}}}rPh"}
_INVISIBLE = ("Pr", "Start", "End", "proofErr", "softHyphen", "lastRenderedPageBreak", "phoneticPr")
WORD_ATTRS = {"descr", "title", "alt", "tooltip", "instr", "author", "initials", "string", "userId", "href",
              "formatCode",  # a number format may quote words: "Client "0
              "displayText", "lastValue", "displayName"}  # dropdown items, a workbook's people and tables
# Names something else refers to (bookmarks, form fields, variables, sheets): a replacement depends only on
# the text replaced, so the fields, anchors and formulas naming them are redacted to the same new name.
NAME_ON = {"bookmarkStart", "docPr", "cNvPr", "docVar", "sheet", "definedName", "lsdException"}
VAL_ON = {"alias", "tag", "docVar", "statusText", "helpText", "default", "listEntry", "tblCaption", "tblDescription",
          "name", "aliases", "lvlText", "entryMacro", "exitMacro",  # name: form fields, styles, lists, blocks
          "docPart", "dateFormat"}  # a placeholder's building block; a date format may quote words
ON = {("anchor", "hyperlink"), ("docLocation", "hyperlink"), ("value", "listItem"), ("sheet", "worksheetSource")}
_NUMERIC = {WP, WP14}  # positions and sizes: never words
_PROPERTIES = {"http://schemas.openxmlformats.org/package/2006/metadata/core-properties",
               "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties",
               "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"}
_OFFICE_PREFIXES = ("http://schemas.openxmlformats.org/", "http://schemas.microsoft.com/", "urn:schemas-microsoft-com:",
                    "http://purl.oclc.org/ooxml/")
_TARGET_MODE = "TargetMode"


@dataclass
class Segment:
    el: etree._Element
    start: int
    text: str


def is_data(root: etree._Element) -> bool:
    """A part of data (document properties, custom XML): every attribute and text may hold words.
    Office markup (WordprocessingML, DrawingML, diagrams, VML ...) holds words only where WORD_ATTRS says."""
    ns = etree.QName(root).namespace or ""
    return ns in _PROPERTIES or not ns.startswith(_OFFICE_PREFIXES)


def paragraphs(root: etree._Element) -> Iterator[etree._Element]:
    return root.iter(*PARAS)


# ---- finding what may match without a loop over every node in Python -----------------------------
_TAG = re.compile(r"<[^>]*>")
_BETWEEN = re.compile(r">\s+<")
_STREAM_TAGS = {"t", "delText", "instrText", "delInstrText"}
_SPECIAL = set("&<>\"'")


def candidates(root: etree._Element, matcher) -> list[etree._Element]:
    """Paragraphs whose text may hold a match, in document order: every text element of the part is
    searched as one string, and a match names the paragraphs of the elements it covers. Sound: a
    paragraph's match never spans a nested paragraph (a drawing between them is a barrier).
    Texts are read in one pass and elements fetched again only up to the last one matched: keeping
    a proxy for each of 160,000 elements cost more than the two walks."""
    loose = matcher.loose
    tags = (*TEXTS, *INSTRS)
    texts = [el.text or "" for el in root.iter(*tags)]
    joined = "".join(texts)
    if loose.search(joined) is None:
        return []
    ends = list(accumulate(map(len, texts)))
    wanted: set[int] = set()
    for m in loose.finditer(joined):
        first, last = bisect.bisect_right(ends, m.start()), bisect.bisect_right(ends, max(m.start(), m.end() - 1))
        wanted.update(range(first, min(last, len(texts) - 1) + 1))
    found: dict[etree._Element, None] = {}
    for k, el in enumerate(islice(root.iter(*tags), max(wanted) + 1)):
        if k in wanted:
            p = next(el.iterancestors(*PARAS), None)
            if p is not None:
                found[p] = None
    return list(found)


def text_only(xml: str) -> str:
    """The text of serialised XML with tags (and blanks between tags) gone: a superset of every
    paragraph's text read across runs, for a quick "nothing here"."""
    return html.unescape(_TAG.sub("", _BETWEEN.sub("><", xml)))


def hits_outside_runs(root: etree._Element, matcher) -> tuple[bool, bool, str | None]:
    """Whether a match may sit in an attribute, and in text other than the paragraphs' text elements,
    judged from the serialised part (one pass in C), and that serialisation; (True, True, None) when
    that cannot tell."""
    if not matcher.needles or any(c in _SPECIAL for n in matcher.needles for c in n) or is_data(root):
        return True, True, None
    xml = etree.tostring(root, encoding=str)
    in_attr = in_other = False
    for m in matcher.loose.finditer(xml):
        lt, gt = xml.rfind("<", 0, m.start()), xml.rfind(">", 0, m.start())
        if lt > gt:
            in_attr = True
        else:
            name = xml[lt + 1:gt].split(None, 1)[0] if gt > lt else ""
            if name.startswith("/") or name.rpartition(":")[2] not in _STREAM_TAGS:
                in_other = True
        if in_attr and in_other:
            break
    return in_attr, in_other, xml


def segments(p: etree._Element) -> tuple[list[Segment], str]:
    """The text elements of ``p`` (not of paragraphs nested in it) and the text they read as."""
    segs: list[Segment] = []
    parts: list[str] = []
    state = [0, None]  # position, kind of the last text (t / instr)

    def barrier() -> None:
        parts.append(BARRIER)
        state[0] += 1
        state[1] = None

    def walk(el: etree._Element) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in PARAS:
                continue
            kind = "t" if tag in TEXTS else "i" if tag in INSTRS else None
            if kind is not None:
                if state[1] not in (None, kind):
                    barrier()
                text = child.text or ""
                segs.append(Segment(child, state[0], text))
                parts.append(text)
                state[0] += len(text)
                state[1] = kind
            elif tag in _DRAWINGS:
                barrier()
            elif etree.QName(tag).localname.endswith(_INVISIBLE):
                continue
            elif len(child):
                walk(child)
            else:
                barrier()

    walk(p)
    return segs, "".join(parts)


def word_attributes(root: etree._Element) -> Iterator[tuple[etree._Element, str]]:
    """(element, attribute name) of every attribute that holds words."""
    data = is_data(root)
    for el in root.iter():
        if not el.attrib or not isinstance(el.tag, str):
            continue
        if data:
            yield from ((el, name) for name in el.attrib)
            continue
        yield from ((el, name) for name in el.attrib if is_word_attribute(el, name))


def is_word_attribute(el: etree._Element, name: str) -> bool:
    short = name.rpartition("}")[2]
    if short in WORD_ATTRS:
        return True
    local = etree.QName(el).localname
    return ((short == "name" and local in NAME_ON) or (short == "val" and local in VAL_ON) or (short, local) in ON
            or (short == "Target" and el.get(_TARGET_MODE) == "External"))


def other_texts(root: etree._Element) -> Iterator[tuple[etree._Element, bool]]:
    """(element, is_tail) of text outside paragraphs' text elements; tails only in parts of data."""
    data = is_data(root)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if el.text and el.tag not in TEXTS and el.tag not in INSTRS and etree.QName(el).namespace not in _NUMERIC:
            if el.text.strip():
                yield el, False
        if data and el.tail and el.tail.strip():
            yield el, True


def loose_nodes(root: etree._Element, xml: str | None) -> Iterator[etree._Element]:
    """XML comments and processing instructions: beside the root always, inside it when ``xml`` (the
    root serialised, or None) may hold one."""
    for node in (*root.itersiblings(preceding=True), *root.itersiblings()):
        if node.text:
            yield node
    if xml is None or _opens(xml, "<!--") or _opens(xml, "<?"):
        yield from (n for n in root.iter(etree.Comment, etree.ProcessingInstruction) if n.text)


def _opens(xml: str, mark: str, most: int = 10_000) -> bool:
    """Whether ``xml`` holds ``mark`` ("<!--", "<?"), found by its rare second character: a search for a
    text led by "<" costs 100 ms in a 26 MB part, one for "!" a millisecond."""
    at = xml.find(mark[1])
    for _ in range(most):
        if at == -1:
            return False
        if xml.startswith(mark, at - 1):
            return True
        at = xml.find(mark[1], at + 1)
    return True
