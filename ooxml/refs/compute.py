"""Results of the fields a document alone decides: SEQ, REF, NOTEREF, STYLEREF and DOCPROPERTY.

Page numbers need a layout (ooxml/refs/page_fields.py). ``Results`` answers one field at a time
from indexes built once per update: SEQ numbers in one pass over the body, bookmarks by name.
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.lists import numbering
from ooxml.refs import chapters as CH
from ooxml.refs import field_list as FLD
from ooxml.refs import links as L
from ooxml.stylesheet.styles_builtin import find_style
from ooxml.text import body as B
from ooxml.text import notes as N
from ooxml.xml.namespaces import w
from ooxml.xml.safexml import parse_part

MISSING = "Error! Reference source not found."  # what Word writes for a reference to no bookmark
COMPUTED = ("SEQ", "REF", "NOTEREF", "STYLEREF", "DOCPROPERTY")
_NB_HYPHEN = w("noBreakHyphen")
_NOTE_REFS = set(N.REF_TAGS.values())
_TRAILING = re.compile(r"[^0-9A-Za-z\u00c0-\uffff]+$")  # the '.' or ')' after a list number


def _roman(n: int) -> str:
    out = ""
    for value, sym in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                       (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + sym, n - value
    return out


def formatted(n: int, picture: str | None) -> str:
    """A number as a ``\\*`` switch asks (ARABIC, roman, ROMAN, alphabetic, ALPHABETIC)."""
    if picture in ("roman", "ROMAN") and n > 0:
        return _roman(n).lower() if picture == "roman" else _roman(n)
    if picture in ("alphabetic", "ALPHABETIC") and n > 0:
        letter = chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return letter.lower() if picture == "alphabetic" else letter
    return str(n)


class Results:
    """What each computed field of ``doc`` should read now."""

    def __init__(self, doc, fields: list[FLD.Field]):
        self.doc = doc
        self.fields = fields
        self.roots = list(dict.fromkeys(f.root for f in fields)) or [doc.root]
        self._seq: dict | None = None
        self._marks: dict | None = None
        self._order: dict | None = None
        self._props: dict | None = None
        self._heads: CH.Headings | None = None

    def of(self, f: FLD.Field) -> str | None:
        """The result ``f`` should show; None when it is not ours to compute."""
        handler = {"SEQ": self._seq_result, "REF": self._ref, "NOTEREF": self._noteref,
                   "STYLEREF": self._styleref, "DOCPROPERTY": self._docproperty}.get(f.name)
        return handler(f) if handler else None

    # ---- SEQ --------------------------------------------------------------------------------------
    def _seq_result(self, f: FLD.Field) -> str | None:
        if self._seq is None:
            self._seq = self._number_sequences()
        return self._seq.get(f.start)

    def _number_sequences(self) -> dict:
        """Every SEQ of the body numbered in document order (\\r resets, \\c repeats, \\s restarts
        after a heading of that level, \\h hides)."""
        body = [f for f in self.fields if f.root is self.doc.root and f.name == "SEQ" and len(f.words) > 1]
        by_chapter = any(f.switch("\\s") for f in body)
        counts: dict[str, int] = {}
        out = {}
        for item in self._with_headings(body) if by_chapter else body:
            if isinstance(item, int):  # a heading of this level: sequences restarting at it restart
                for f in body:
                    level = f.switch("\\s")
                    if level and level.isdigit() and int(level) >= item:
                        counts.pop(f.words[1], None)
                continue
            ident = item.words[1]
            reset = item.switch("\\r")
            if reset and reset.isdigit():
                counts[ident] = int(reset)
            elif item.switch("\\c") is None:
                counts[ident] = counts.get(ident, 0) + 1
            n = counts.get(ident, 0)
            out[item.start] = "" if item.switch("\\h") is not None else formatted(n, item.switch("\\*"))
        return out

    def _with_headings(self, body: list[FLD.Field]) -> list:
        """The SEQ fields with the outline level of each heading between them, in document order."""
        starts = {f.start: f for f in body}
        styles = self.doc.styles
        out = []
        for el in self.doc.body.iter(B.W_P, *{f.start.tag for f in body}):
            if el.tag == B.W_P:
                sid = B.style_id(el)
                level = B.direct_outline_level(el)
                level = level if level is not None else (styles.outline_level(sid) if sid else None)
                if level is not None and level < 9:
                    out.append(level + 1)
            elif el in starts:
                out.append(starts[el])
        return out

    # ---- bookmarks --------------------------------------------------------------------------------
    def mark(self, name: str) -> etree._Element | None:
        if self._marks is None:
            self._marks = {}
            for s in L.bookmark_starts(self.doc.story_roots()):
                self._marks.setdefault(s.get(w("name")), s)
        return self._marks.get(name)

    def _span(self, start: etree._Element) -> list[etree._Element]:
        """The paragraphs' elements from a bookmark's start to its end (its first paragraph at least)."""
        bid, out = start.get(w("id")), []
        for el in FLD.following(start):
            if el.tag == L.W_BM_END and el.get(w("id")) == bid:
                break
            if el.tag == B.W_P and out and len(out) > 2000:
                break
            out.append(el)
        return out

    def _ref(self, f: FLD.Field) -> str | None:
        start = self.mark(f.words[1]) if len(f.words) > 1 else None
        if start is None:
            return MISSING
        if f.switch("\\p") is not None:
            return self.above_below(f, start)
        if any(f.switch(s) is not None for s in ("\\n", "\\r", "\\w")):
            p = B.find_ancestor(start, B.W_P)
            p = p if p is not None else next(start.itersiblings(B.W_P), None)
            label = numbering.label_of(self.doc, p) if p is not None else None
            return _TRAILING.sub("", label or "") or None
        text, para = [], None
        for el in self._span(start):
            if el.tag == B.W_P:
                if para is not None:
                    break
                para = el
            elif el.tag == B.W_T and el.getparent().getparent().tag != FLD.W_DEL:
                text.append(el.text or "")
            elif el.tag == _NB_HYPHEN and el.getparent().getparent().tag != FLD.W_DEL:
                text.append("\u2011")  # a chapter caption's hyphen, as the paragraph reads
        return "".join(text)

    def _noteref(self, f: FLD.Field) -> str | None:
        start = self.mark(f.words[1]) if len(f.words) > 1 else None
        if start is None:
            return MISSING
        if f.switch("\\p") is not None:
            return self.above_below(f, start)
        for el in self._span(start):
            if el.tag in _NOTE_REFS:
                n = N.number_of(self.doc, el)
                kind = "footnote" if el.tag == N.REF_TAGS["footnote"] else "endnote"
                return N.label(kind, n) if n else None
        return None

    def above_below(self, f: FLD.Field, target: etree._Element) -> str | None:
        if self._order is None:
            tags = (L.W_BM_START, FLD.W_SIMPLE, w("fldChar"))
            self._order = {el: i for i, el in enumerate(self.doc.root.iter(*tags))}
        a, b = self._order.get(target), self._order.get(f.start)
        return None if a is None or b is None else ("above" if a < b else "below")

    # ---- STYLEREF, DOCPROPERTY ------------------------------------------------------------------------
    def _styleref(self, f: FLD.Field) -> str | None:
        if f.root is not self.doc.root or len(f.words) < 2:
            return None  # in a header or footer it depends on the page: Word's to compute
        p = f.paragraph
        if f.words[1].isdigit() and p is not None:
            return self._styleref_level(f, p, int(f.words[1]))
        sid = find_style(self.doc, f.words[1], "paragraph")
        if sid is None or p is None:
            return None
        for other in [*p.itersiblings(B.W_P, preceding=True), *p.itersiblings(B.W_P)]:
            if B.style_id(other) == sid:
                if f.switch("\\n") is not None or f.switch("\\r") is not None or f.switch("\\s") is not None:
                    return _TRAILING.sub("", numbering.label_of(self.doc, other) or "") or None
                return B.paragraph_text(other).strip()
        return None

    def _styleref_level(self, f: FLD.Field, p: etree._Element, level: int) -> str | None:
        """STYLEREF N: the nearest heading of level N (a chapter caption's number)."""
        if not 1 <= level <= 9:
            return None
        if self._heads is None:
            self._heads = CH.Headings(self.doc)
        heading = self._heads.near(p, level)
        if heading is None:
            return None
        if any(f.switch(s) is not None for s in ("\\n", "\\r", "\\s")):
            return CH.number_of(self.doc, heading)
        return B.paragraph_text(heading).strip()

    def _docproperty(self, f: FLD.Field) -> str | None:
        if self._props is None:
            self._props = _properties(self.doc.package)
        return self._props.get(f.words[1].lower()) if len(f.words) > 1 else None


_CORE = {"title": "title", "subject": "subject", "creator": "author", "keywords": "keywords",
         "description": "comments", "lastModifiedBy": "lastsavedby", "category": "category"}


def _properties(package) -> dict[str, str]:
    """Document properties by lower-case name: core, extended (Company, Manager) and custom."""
    out: dict[str, str] = {}
    for name in ("docProps/core.xml", "docProps/app.xml", "docProps/custom.xml"):
        if not package.has_part(name):
            continue
        root = parse_part(package.part(name).data, name).getroot()
        for el in root:
            local = etree.QName(el).localname
            if name.endswith("custom.xml"):
                value = next((c.text for c in el if c.text is not None), None)
                key = (el.get("name") or "").lower()
            else:
                value = el.text
                key = _CORE.get(local, local.lower()) if name.endswith("core.xml") else local.lower()
            if value is not None and len(el) == 0 or name.endswith("custom.xml"):
                out.setdefault(key, (value or "").strip())
    return out
