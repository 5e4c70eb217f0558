"""Replace every occurrence of what a Matcher finds, wherever the package holds text.

XML parts: paragraphs read across runs (deleted text and field instructions too; the replacement
goes where the match starts, so it keeps that run's formatting, and the rest of the match is cut
from the following runs), attributes holding words, and other element text. Packages inside the
package (a chart's workbook) are rewritten member by member; other binary parts cannot be, and the
leak check names them. Never a tracked deletion: a redaction recorded as a deletion keeps the text.

Undo: story parts through ``doc.will_change``/``changed``; other XML parts with ``Part.touch()``;
a rewritten binary part is a new Part object in the package's table, which undo puts back.
"""
from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass, field

from lxml import etree

from ooxml.xml import budget
from ooxml.xml.errors import OoxmlError
from ooxml.opc.part import Part, utf8_declaration
from ooxml.lists import numbering as N
from ooxml.privacy import reading as RD
from ooxml.privacy import style_ids as SI
from ooxml.privacy import zipped as Z
from ooxml.privacy.matcher import Matcher
from ooxml.xml.safexml import parse_part, serialize
from ooxml.opc.parts import story_part_names

MARK = "\u2588"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


@dataclass
class Result:
    matches: int = 0
    parts: dict[str, int] = field(default_factory=dict)  # part name -> matches replaced there
    changed: list[etree._Element] = field(default_factory=list)  # body paragraphs changed, in order
    # part name -> its XML as serialised after its last change here: the leak check reads it as is
    serialized: dict[str, str] = field(default_factory=dict)


class Replacer:
    """One character is repeated per character replaced; a longer text stands for the whole match.
    Counts the bytes the replacements add (a call's growth is limited)."""

    def __init__(self, replacement: str):
        self.replacement = replacement
        self.growth = 0

    def __call__(self, found: str) -> str:
        new = self.replacement * len(found) if len(self.replacement) == 1 else self.replacement
        self.growth += len(new.encode("utf-8", "surrogatepass")) - len(found.encode("utf-8", "surrogatepass"))
        return new


def xml_part_names(package) -> list[str]:
    return [n for n in package.parts if Z.is_xml_name(n) or (package.content_type_of(n) or "").endswith("xml")]


def redact_package(doc, matcher: Matcher, replacement: Replacer) -> Result:
    package = doc.package
    result = Result()
    stories = set(story_part_names(package, doc.main_name))
    xml_names = set(xml_part_names(package))
    _rename_style_ids(doc, xml_names, stories, matcher, replacement, result)
    for name in list(package.parts):
        budget.check()
        part = package.parts[name]
        if name in xml_names:
            count = _redact_xml_part(doc, part, name in stories, matcher, replacement, result)
        else:
            count = _redact_binary_part(package, name, matcher, replacement)
        _counted(result, name, count)
    if any(_DEFINITIONS.search(package.content_type_of(n) or "") for n in result.parts):
        doc.reset_styles()  # style names and IDs, list texts: read again
        N.invalidate(doc)
    return result


_DEFINITIONS = re.compile(r"(styles|numbering)\+xml$", re.IGNORECASE)


def _counted(result: Result, name: str, count: int) -> None:
    if count:
        result.parts[name] = result.parts.get(name, 0) + count
        result.matches += count


def _rename_style_ids(doc, xml_names: set[str], stories: set[str], matcher, replacement, result: Result) -> None:
    """Style IDs first, with every reference (see style_ids): WordprocessingML parts only."""
    package = doc.package
    kinds = {n: (package.content_type_of(n) or "").lower() for n in xml_names}
    styles = [n for n in sorted(xml_names)
              if "styles" in kinds[n] and matcher.loose.search(html.unescape(_text_of(package.parts[n])))]
    roots = [r for r in (_root_of(doc, package.parts[n], n in stories) for n in styles) if r is not None]
    renamed = SI.renames(roots, matcher, lambda value, spans: _replaced(value, spans, replacement))
    if not renamed:
        return
    for name in sorted(n for n in xml_names if "wordprocessingml" in kinds[n] or "ms-word" in kinds[n]):
        part = package.parts[name]
        root = _root_of(doc, part, name in stories)
        if root is None:
            continue
        before, after = _hooks(doc, name in stories, result)
        count = SI.apply(root, renamed, before, after)
        if count and name not in stories:
            part.touch()
        _counted(result, name, count)


def _text_of(part: Part) -> str:
    if part.loaded:
        return etree.tostring(part.tree.getroot(), encoding=str)
    return part.data.decode("utf-8", "replace")


def _root_of(doc, part: Part, story: bool):
    try:
        return doc.register_part_root(part) if story else part.tree.getroot()
    except OoxmlError:  # a damaged part is saved as it came; the leak check reads its bytes
        return None


def _hooks(doc, story: bool, result: Result):
    """before(el)/after(el) around a change: undo and redraw for story parts, nothing for others."""
    if not story:
        return _nothing, _nothing

    def before(el):
        doc.will_change(el)

    def after(el):
        doc.changed(el)
        if el.tag == RD.W_P and el.getparent() is doc.body:
            result.changed.append(el)
    return before, after


def _redact_xml_part(doc, part: Part, story: bool, matcher, replacement, result: Result) -> int:
    was_loaded = part.loaded
    root = _root_of(doc, part, story)
    if root is None:
        return 0
    before, after = _hooks(doc, story, result)
    count, xml = redact_tree(root, matcher, replacement, before, after)
    if xml is not None:
        result.serialized[part.name] = xml
    if count and not story:
        part.touch()
    elif not count and not story and not was_loaded and not part.dirty:
        part.unload()  # read only: left as opened (saved as its original bytes, checked as them)
    return count


def _nothing(el) -> None:
    return None


def _redact_binary_part(package, name: str, matcher, replacement) -> int:
    old = package.parts[name]
    data = old.data
    if not Z.is_zip(data):
        return 0
    counts = [0]
    new = redact_zip(data, matcher, replacement, package.limits.max_part_uncompressed, counts)
    if new is None:
        return 0
    fresh = Part(package, old.info, new)  # undo puts the old Part (and its bytes) back in the table
    package.parts[name] = fresh
    return counts[0]


def redact_zip(data: bytes, matcher, replacement, max_bytes: int, counts: list[int]) -> bytes | None:
    def change(name: str, body: bytes, depth: int) -> bytes | None:
        budget.check()
        if Z.is_zip(body) and depth < Z.MAX_DEPTH:
            return Z.rewrite(body, change, max_bytes, depth + 1)
        if not (Z.is_xml_name(name) or body.lstrip(b"\xef\xbb\xbf").startswith(b"<?xml")):
            return None
        tree = parse_part(body, name)
        n = redact_tree(tree.getroot(), matcher, replacement, _nothing, _nothing)[0]
        if not n:
            return None
        counts[0] += n
        return serialize(tree, utf8_declaration(body))
    return Z.rewrite(data, change, max_bytes)


def redact_tree(root: etree._Element, matcher: Matcher, replacement: Replacer, before,
                after) -> tuple[int, str | None]:
    """Replace every match in ``root``; ``before(el)``/``after(el)`` around each element changed.
    Returns the count and the tree's serialisation when it was made after the last change (None
    otherwise), which spares the leak check serialising a 20 MB part again."""
    count = 0
    for p in RD.candidates(root, matcher):
        budget.check()
        segs, text = RD.segments(p)
        spans = matcher.spans(text)
        if spans:
            before(p)
            _apply(segs, text, spans, replacement)
            after(p)
            count += len(spans)
    in_attr, in_other, xml = RD.hits_outside_runs(root, matcher)
    paragraphs = count
    attributes = list(RD.word_attributes(root)) if in_attr else []
    texts = list(RD.other_texts(root)) if in_other else []
    lists: dict[etree._Element, None] = {}
    for el, name in attributes:
        value = el.get(name)
        spans = matcher.spans(value)
        if spans:
            before(el)
            el.set(name, _replaced(value, spans, replacement))
            if name == _AUTHOR and el.get(_INITIALS) is not None:
                el.set(_INITIALS, initials(el.get(name)))
            after(el)
            count += len(spans)
            if el.tag == _LIST_ITEM:
                lists[el.getparent()] = None
    for box in lists:
        _distinct_items(box, before, after)
    for el, tail in texts:
        value = el.tail if tail else el.text
        spans = matcher.spans(value)
        if spans:
            before(el)
            if tail:
                el.tail = _replaced(value, spans, replacement)
            else:
                el.text = _formula(el, _replaced(value, spans, replacement))
            after(el)
            count += len(spans)
    count += _redact_loose(root, xml, matcher, replacement, before, after)
    return count, xml if count == paragraphs else None


_AUTHOR, _INITIALS = f"{{{RD.W}}}author", f"{{{RD.W}}}initials"
_LIST_ITEM = f"{{{RD.W}}}listItem"
_ITEM_ATTRS = (f"{{{RD.W}}}displayText", f"{{{RD.W}}}value")


def _distinct_items(box: etree._Element, before, after) -> None:
    """A dropdown's items that the redaction made equal get a number: Word wants each text and value once."""
    for name in _ITEM_ATTRS:
        seen: set[str] = set()
        for item in box.iter(_LIST_ITEM):
            base = new = item.get(name)
            if base is None:
                continue
            n = 2
            while new in seen:
                new, n = f"{base} {n}", n + 1
            seen.add(new)
            if new != base:
                before(item)
                item.set(name, new)
                after(item)


_FORMULAS = {f"{{{RD.X}}}f", f"{{{RD.C}}}f", f"{{{RD.X}}}definedName"}
# a sheet name before "!" that is not quoted: not after a letter, a quote or an external book's "]"
_SHEET_REF = re.compile(r"(?<![\w.'\]])([^\s'!(),=+\-*/&^<>:;\"{}\[\]]+)!")
_PLAIN_SHEET = re.compile(r"[^\W\d][\w.]*")


def initials(author: str) -> str:
    """A redacted author's initials, from the new name (Word shows them beside the comment)."""
    return "".join(word[0] for word in author.split())[:9] or author[:1]


def _formula(el: etree._Element, text: str) -> str:
    """A redacted formula (cell, defined name, chart reference) with each sheet name the redaction made
    other than a plain name quoted, as Excel needs it."""
    if el.tag not in _FORMULAS:
        return text

    def quoted(m: re.Match) -> str:
        name = m.group(1)
        return m.group(0) if _PLAIN_SHEET.fullmatch(name) else "'" + name + "'!"
    return _SHEET_REF.sub(quoted, text)


def _redact_loose(root: etree._Element, xml: str | None, matcher, replacement, before, after) -> int:
    """XML comments and processing instructions; one that cannot hold the replacement ("--" in a
    comment, "?>" in an instruction) is emptied."""
    count = 0
    for node in list(RD.loose_nodes(root, xml)):
        spans = matcher.spans(node.text)
        if not spans:
            continue
        before(node)
        try:
            node.text = _replaced(node.text, spans, replacement)
        except ValueError:
            node.text = ""
        after(node)
        count += len(spans)
    return count


def _replaced(value: str, spans: list[tuple[int, int]], replacement: Replacer) -> str:
    out, at = [], 0
    for s, e in spans:
        out += [value[at:s], replacement(value[s:e])]
        at = e
    return "".join(out) + value[at:]


def _apply(segs: list[RD.Segment], text: str, spans: list[tuple[int, int]], replacement: Replacer) -> None:
    """Each touched text element rebuilt once from its kept pieces: the replacement where the match
    starts, the rest of the match cut from the elements it runs on into (left empty, never removed)."""
    starts = [s.start for s in segs]
    pieces: dict[int, list[str]] = {}
    consumed: dict[int, int] = {}
    for s, e in spans:
        i = bisect.bisect_right(starts, s) - 1
        j = bisect.bisect_right(starts, e - 1) - 1
        for k in range(i, j + 1):
            pieces.setdefault(k, [])
            consumed.setdefault(k, 0)
        first = segs[i]
        pieces[i] += [first.text[consumed[i]:s - first.start], replacement(text[s:e])]
        for k in range(i, j):
            consumed[k] = len(segs[k].text)
        consumed[j] = max(consumed[j], e - segs[j].start)
    for k, kept in pieces.items():
        seg = segs[k]
        new = "".join(kept) + seg.text[consumed[k]:]
        seg.el.text = new
        if new != new.strip() and etree.QName(seg.el).namespace == RD.W:
            seg.el.set(_XML_SPACE, "preserve")


MIN_SHARED = 4  # an element's text shorter than this is removed from the element only, not everywhere


def element_texts(el: etree._Element) -> list[str]:
    """The texts an element reads as (each paragraph's, between tabs and breaks), for finding elsewhere."""
    out = []
    paras = [el] if el.tag in RD.PARAS else list(RD.paragraphs(el))
    if not paras:  # a run or a text inside one
        out += [t.text for t in el.iter(*RD.TEXTS, *RD.INSTRS) if t.text]
    for p in paras:
        out += RD.segments(p)[1].split(RD.BARRIER)
    return [t.strip() for t in out if len(t.strip()) >= MIN_SHARED]


def redact_element(doc, el: etree._Element, replacement: Replacer) -> int:
    """Every text inside ``el`` replaced whole; returns how many text elements changed."""
    texts = [t for t in el.iter(*RD.TEXTS, *RD.INSTRS) if t.text]
    if not texts:
        return 0
    doc.will_change(el)
    for t in texts:
        t.text = replacement(t.text)
    doc.changed(el)
    return len(texts)
