"""``{{name}}`` placeholders found as a paragraph's text reads, wherever Word split them: across
runs with other formatting, proofing marks, bookmarks, content controls, and field boundaries
(a complex field's characters and instruction are not text; its result is). The value replaces
the placeholder in the run of its first character, so it takes that formatting.
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.text import body as B
from ooxml.review import tracked_text as TT
from ooxml.text import replace as R
from ooxml.xml.namespaces import w

PATTERN = re.compile(r"\{\{\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\}\}")
# Anything written as a template tag, bounded (no quadratic scan of an unclosed "{{"): what PATTERN
# does not take (filters, expressions, Jinja blocks) is reported as unsupported, never skipped silently.
TAG_LIKE = re.compile(r"\{\{[^{}\n]{0,200}\}\}|\{%[^{}\n]{0,200}%\}")
BARRIER = "\x00"
_FLD = w("fldChar")
_INSTR = w("instrText")
_CHARS = {w("tab"): BARRIER, w("br"): BARRIER, w("cr"): BARRIER, w("noBreakHyphen"): "\u2011"}
_TYPE = w("fldCharType")


def might_hold(p: etree._Element) -> bool:
    """A cheap test before reading the paragraph properly."""
    return any("{" in t for t in p.itertext(B.W_T))


def segments(p: etree._Element) -> tuple[list[TT.Seg], str]:
    """The paragraph's text as it reads: w:t of runs outside field instructions."""
    segs: list[TT.Seg] = []
    parts: list[str] = []
    pos = 0
    in_instr = 0  # depth of fields whose instruction is being read
    stack: list[bool] = []  # per open field: still in its instruction
    for r in B.iter_runs(p):
        for child in r:
            tag = child.tag
            if tag == _FLD:
                kind = child.get(_TYPE)
                if kind == "begin":
                    stack.append(True)
                elif kind == "separate" and stack:
                    stack[-1] = False
                elif kind == "end" and stack:
                    stack.pop()
                in_instr = any(stack)
                continue
            if in_instr:
                continue
            if tag == B.W_T:
                text = child.text or ""
            elif tag in _CHARS:
                text = _CHARS[tag]
            else:
                continue
            if text:
                segs.append(TT.Seg(child, pos, text))
                parts.append(text)
                pos += len(text)
    return segs, "".join(parts)


def find(p: etree._Element) -> tuple[list[TT.Seg], str, list[re.Match]]:
    segs, text = segments(p)
    return segs, text, list(PATTERN.finditer(text)) if "{{" in text else []


def unsupported(text: str, matches: list[re.Match]) -> list[str]:
    """The template tags in ``text`` that no placeholder match covers, as written."""
    if "{{" not in text and "{%" not in text:
        return []
    taken = [(m.start(), m.end()) for m in matches]
    return [t.group(0) for t in TAG_LIKE.finditer(text)
            if not any(lo < t.end() and t.start() < hi for lo, hi in taken)]


def write(doc, p: etree._Element, segs: list[TT.Seg], edits: list[tuple[int, int, str]], tracked: bool) -> None:
    """Replace each (start, end) with its text; the caller announced the change."""
    if tracked:
        TT.apply_edits(doc, segs, edits, p)
        return
    for lo, hi, value in sorted(edits, reverse=True):
        i = R.segment_at(segs, lo)
        j = R.segment_at(segs, hi - 1)
        first = segs[i]
        tail = first.text[hi - first.start:] if i == j else ""
        first.text = first.text[:lo - first.start] + value + tail
        for k in range(i + 1, j + 1):
            seg = segs[k]
            seg.text = seg.text[hi - seg.start:] if k == j else ""
        for k in range(j, i - 1, -1):
            R.write_text(doc, segs[k].child, segs[k].text)
