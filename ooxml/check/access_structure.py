"""Accessibility rules on the reading structure: headings that skip levels, bold lines that look like
headings, runs of empty paragraphs used for spacing, link text that says nothing, text in floating
text boxes."""
from __future__ import annotations

import re

from lxml import etree

from ooxml.check.findings import WARNING, Finding
from ooxml.text import body as B
from ooxml.xml.namespaces import MC, W, WP

PSTYLE, OUTLINE, BOLD = f"{{{W}}}pStyle", f"{{{W}}}outlineLvl", f"{{{W}}}b"
HYPERLINK, TXBX = f"{{{W}}}hyperlink", f"{{{W}}}txbxContent"
TAGS = (PSTYLE, OUTLINE, HYPERLINK, TXBX)
_FALLBACK, _T, _R, _PPR = f"{{{MC}}}Fallback", f"{{{W}}}t", f"{{{W}}}r", f"{{{W}}}pPr"
_VAL = f"{{{W}}}val"
_RT = f"{_R}/{_T}"
_OFF = ("0", "false", "off")
_VAGUE = re.compile(r"^(click here|here|this link|link|read more|more|click|this)\W*$", re.I)
_URL = re.compile(r"^(https?://|www\.|mailto:)\S+$", re.I)
MAX_HEADING_CHARS, MAX_HEADING_RUNS = 80, 6


class Paragraphs:
    """The main part's paragraphs that may be empty (``_empty``), noted as the walk passes them: not those
    with more than 3 children, nor those whose last child ends with w:t (text, the common case: judged
    on two children while in cache; a search of the body for paragraphs without text cost 45 ms more
    at 50,000)."""

    def __init__(self):
        self.maybe_empty: list = []

    def visitors(self) -> dict:
        keep = self.maybe_empty.append

        def visit(p):
            if len(p) > 3:
                return
            try:
                if p[-1][-1].tag == _T:
                    return
            except IndexError:  # no children
                pass
            keep(p)
        return {B.W_P: visit}


def findings(doc, name: str, scan, paragraphs: Paragraphs | None, proven: set = frozenset()) -> list[Finding]:
    """``proven``: "empty-paragraphs", "looks-like-heading" proven clean on the bytes (``screen_access``)."""
    out = _links(name, scan) + _boxes(name, scan)
    if name == doc.main_name:
        levels = heading_levels(doc, scan)
        body = doc.body
        empty = [p for p in paragraphs.maybe_empty if p.getparent() is body and _empty(p)] if paragraphs else []
        bold = _BOLD_PARAGRAPHS(body) if "looks-like-heading" not in proven else []
        out += _skips(name, levels) + _bold_lines(name, bold, levels) + _spacing(name, empty)
    return out


def heading_levels(doc, scan) -> dict:
    """Heading paragraph -> its 0-based level, in document order (styles' outline levels, or direct)."""
    found = {}
    styles = doc.styles
    for el in scan.get(PSTYLE):
        p = el.getparent().getparent()
        level = styles.outline_level(el.get(_VAL, "")) if p is not None and p.tag == B.W_P else None
        if level is not None:
            found[p] = level
    direct = [el for el in scan.get(OUTLINE) if el.getparent().tag == _PPR]
    if direct:
        for el in direct:
            p = el.getparent().getparent()
            level = B.direct_outline_level(p) if p is not None and p.tag == B.W_P else None
            if level is not None and level < 9:
                found[p] = level
        order = {p: i for i, p in enumerate(doc.body.iter(B.W_P))}
        found = dict(sorted(found.items(), key=lambda kv: order.get(kv[0], -1)))
    return found


def _skips(name: str, levels: dict) -> list[Finding]:
    out, last = [], None
    for p, level in levels.items():
        if _in_fallback(p):
            continue
        if last is not None and level > last + 1:
            out.append(Finding("accessibility", "heading-skip", WARNING, name, f"Heading {level + 1} follows Heading "
                               f"{last + 1}: a level is skipped", f"Apply 'Heading {last + 2}' (docx_apply_style), or "
                               "add the missing level above it.", p))
        last = level
    return out


def _bold_lines(name: str, bold: list, levels: dict) -> list[Finding]:
    """Short paragraphs whose text is all bold, alone between other text: headings only by their looks."""
    out = []
    for p in bold:  # found in C: body paragraphs whose text runs are all bold
        if p in levels or not _all_bold(p.findall(_R)):  # w:b w:val="0" is not bold
            continue
        text = "".join(p.itertext(_T)).strip()
        if not 0 < len(text) <= MAX_HEADING_CHARS or text.endswith((".", ":", ";", ",")):
            continue
        nxt = B.next_block(p)
        if nxt is not None and nxt.tag == B.W_P and "".join(nxt.itertext(_T)).strip() and nxt not in levels:
            out.append(Finding("accessibility", "looks-like-heading", WARNING, name,
                               f"'{text[:40]}' looks like a heading "
                               "(short, bold, alone) but is not one", "Apply a heading style (docx_apply_style "
                               "'Heading N'): screen readers list headings, not bold lines.", p))
    return out


def _all_bold(runs: list) -> bool:
    texts = [r for r in runs if r.find(_T) is not None]
    return bool(texts) and all(_bold(r) for r in texts)


def _bold(r: etree._Element) -> bool:
    b = r.find(f"{{{W}}}rPr/{{{W}}}b")
    return b is not None and b.get(_VAL, "1") not in _OFF


def _spacing(name: str, empty: list) -> list[Finding]:
    """Two or more empty paragraphs in a row between content: spacing typed as paragraphs."""
    out, run = [], []
    for p in empty:  # the body's empty paragraphs in document order; runs of them judged here
        if run and run[-1].getnext() is not p:
            _spaced(name, run, out)
            run = []
        run.append(p)
    _spaced(name, run, out)
    return out


# The first run bold, first (cheap, selective), then no text run that is not bold.
_BOLD = f"w:r[1]/w:rPr/w:b and not(w:r[w:t][not(w:rPr/w:b)]) and count(w:r) <= {MAX_HEADING_RUNS}"
_BOLD_PARAGRAPHS = etree.XPath(f"w:p[{_BOLD}]", namespaces={"w": W})


def _spaced(name: str, run: list, out: list) -> None:
    """A run of two or more empty paragraphs with content after it (the document's last ones are no spacing)."""
    after = run[-1].getnext() if run else None
    if len(run) >= 2 and after is not None and after.tag != B.W_SECTPR:
        out.append(Finding("accessibility", "empty-paragraphs", WARNING, name, f"{len(run)} empty paragraphs in a "
                           "row used as spacing", "Delete them and set space before/after on the paragraph "
                           "(docx_set_properties space_before/space_after).", run[0]))


def _empty(p: etree._Element) -> bool:
    n = len(p)
    if n == 0:
        return True
    if n > 3 or p.find(_RT) is not None:  # text: the common case, found in C
        return False
    for child in p:
        if child.tag == _PPR:
            if child.find(B.W_SECTPR) is not None:
                return False
        elif child.tag != _R or any(c.tag != f"{{{W}}}rPr" for c in child):
            return False
    return True


def _links(name: str, scan) -> list[Finding]:
    out = []
    for link in scan.get(HYPERLINK):
        text = "".join(link.itertext(_T)).strip()
        if _URL.match(text) or _VAGUE.match(text):
            out.append(Finding("accessibility", "link-text", WARNING, name, f"link text '{text[:60]}' does not say "
                               "where the link goes", "Give the link words that name its target (e.g. the page's "
                               "title).", link))
    return out


def _boxes(name: str, scan) -> list[Finding]:
    out = []
    for box in scan.get(TXBX):
        if _in_fallback(box) or not "".join(box.itertext(_T)).strip():
            continue
        holder = next(box.iterancestors(f"{{{W}}}drawing", f"{{{W}}}pict"), None)
        floating = holder is not None and (holder.tag == f"{{{W}}}pict" or holder.find(f"{{{WP}}}anchor") is not None)
        if floating:
            out.append(Finding("accessibility", "floating-text", WARNING, name, "text in a floating text box: screen "
                               "readers may read it out of order or miss it", "Move the text into the body, or place "
                               "the box inline with the text.", holder))
    return out


def _in_fallback(el: etree._Element) -> bool:
    return next(el.iterancestors(_FALLBACK), None) is not None
