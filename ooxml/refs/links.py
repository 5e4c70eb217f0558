"""Hyperlinks and bookmarks.

An external link is ``w:hyperlink r:id`` over a relationship with ``TargetMode="External"``
(the URL is checked, never fetched); an internal one is ``w:hyperlink w:anchor`` naming a
bookmark. A bookmark is a ``w:bookmarkStart``/``w:bookmarkEnd`` pair sharing a ``w:id``; its
ID (``bkm_…``) sits on the start.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

from lxml import etree

from ooxml.text import body as B
from ooxml.text.build import make_run
from ooxml.xml.errors import ValidationError
from ooxml.opc.types import RT
from ooxml.xml.namespaces import R, W, w
from ooxml.xml.order import set_child
from ooxml.stylesheet.styles_builtin import ensure_style

SCHEMES = ("http", "https", "mailto", "ftp", "tel", "file")
MAX_URL = 2080  # Word's limit for a hyperlink address
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
W_BM_START, W_BM_END, W_LINK = w("bookmarkStart"), w("bookmarkEnd"), w("hyperlink")


def check_url(url: str) -> str:
    url = (url or "").strip()
    bad = any(ord(ch) < 33 or ch in '<>"{}|\\^`' for ch in url)
    parts = urlsplit(url) if not bad else None
    if bad or len(url) > MAX_URL or parts is None or parts.scheme.lower() not in SCHEMES or \
            (parts.scheme.lower() in ("http", "https", "ftp") and not parts.netloc) or \
            (parts.scheme.lower() in ("mailto", "tel") and not parts.path):
        raise ValidationError(f"'{url[:100]}' is not a usable link address.",
                              hint="Use an absolute URL such as https://example.com/page or mailto:a@b.org "
                                   "(spaces and quotes percent-encoded). For a place in the document, pass "
                                   "bookmark instead.")
    return url


def check_bookmark_name(name: str) -> str:
    """Word's rules: 1-40 characters, a letter first, then letters, digits or underscores."""
    if not name or len(name) > 40 or not _NAME.match(name):
        raise ValidationError(f"'{name}' is not a valid bookmark name.",
                              hint="Bookmark names have at most 40 characters, start with a letter and hold only "
                                   "letters, digits and underscores (no spaces).")
    return name


def bookmark_starts(roots: list[etree._Element]) -> list[etree._Element]:
    return [el for root in roots for el in root.iter(W_BM_START)]


def find_bookmark(roots: list[etree._Element], name: str) -> etree._Element | None:
    for el in bookmark_starts(roots):
        if el.get(w("name")) == name:
            return el
    return None


def bookmark_end(start: etree._Element) -> etree._Element | None:
    bid = start.get(w("id"))
    root = start.getroottree().getroot()
    for el in root.iter(W_BM_END):
        if el.get(w("id")) == bid:
            return el
    return None


def next_bookmark_id(roots: list[etree._Element]) -> int:
    ids = [int(v) for root in roots for el in root.iter(W_BM_START, W_BM_END)
           if (v := el.get(w("id"), "")).lstrip("-").isdigit()]
    return max(ids, default=0) + 1


def add_bookmark(start_el: etree._Element, end_el: etree._Element, name: str, bid: int) -> etree._Element:
    """Wrap ``start_el``..``end_el`` (paragraphs or runs) in a bookmark; returns the bookmarkStart."""
    # Made inside the tree, then moved: a move within one document skips lxml's namespace
    # reconciliation, which made a TOC over 5,000 headings measurably slower.
    holder = start_el if start_el.tag == B.W_P else start_el.getparent()
    start = etree.SubElement(holder, W_BM_START, {w("id"): str(bid), w("name"): name})
    end = etree.SubElement(end_el if end_el.tag == B.W_P else end_el.getparent(), W_BM_END, {w("id"): str(bid)})
    if start_el.tag == B.W_P:
        first = start_el[0] if len(start_el) else None
        if first is not None and first.tag == w("pPr"):
            first.addnext(start)
        else:
            start_el.insert(0, start)
    else:
        start_el.addprevious(start)
    if end_el.tag == B.W_P:
        end_el.append(end)
    else:
        end_el.addnext(end)
    return start


def bookmark_pairs(items: list[tuple[str, int]]) -> list[tuple[etree._Element, etree._Element]]:
    """(bookmarkStart, bookmarkEnd) for each (name, id), made by one parse: creating elements one by
    one through lxml's API costs tens of microseconds each (namespaced attributes), a parse a few."""
    from xml.sax.saxutils import quoteattr

    from ooxml.xml.safexml import parse_part
    xml = "".join(f'<w:bookmarkStart w:id="{int(bid)}" w:name={quoteattr(name)}/><w:bookmarkEnd w:id="{int(bid)}"/>'
                  for name, bid in items)
    holder = parse_part(f'<w:x xmlns:w="{W}">{xml}</w:x>'.encode(), "bookmarks").getroot()
    kids = list(holder)
    return list(zip(kids[0::2], kids[1::2]))


def wrap_paragraph(p: etree._Element, start: etree._Element, end: etree._Element) -> None:
    """Put a bookmark pair around a paragraph's content (after its pPr)."""
    first = p[0] if len(p) else None
    if first is not None and first.tag == w("pPr"):
        first.addnext(start)
    else:
        p.insert(0, start)
    p.append(end)


def hyperlink(doc, part_name: str, text: str, url: str | None = None, anchor: str | None = None,
              rpr: etree._Element | None = None) -> etree._Element:
    """A ``w:hyperlink`` holding one run of ``text`` in the Hyperlink style.

    For an external ``url`` the relationship is added to ``part_name``'s rels (pass
    ``doc.part_of(paragraph).name``). This is the one way other modules add a link.
    """
    link = etree.Element(W_LINK)
    if url is not None:
        link.set(f"{{{R}}}id", doc.package.relate(part_name, RT.HYPERLINK, check_url(url), external=True))
    else:
        link.set(w("anchor"), check_bookmark_name(anchor) if not (anchor or "").startswith("_") else anchor)
    link.set(w("history"), "1")
    run = make_run(text, rpr)
    style = ensure_style(doc, "Hyperlink")
    run_rpr = run.find(w("rPr"))
    if run_rpr is None:
        run_rpr = etree.Element(w("rPr"))
        run.insert(0, run_rpr)
    if style:
        set_child(run_rpr, "rStyle", val=style)
        for name in ("color", "u"):  # the style gives them
            el = run_rpr.find(w(name))
            if el is not None:
                run_rpr.remove(el)
    if not len(run_rpr):
        run.remove(run_rpr)
    link.append(run)
    return link


def external_hyperlink(doc, paragraph: etree._Element, text: str, url: str) -> etree._Element:
    """A link to ``url`` ready to go into ``paragraph`` (not placed): relationship and style made."""
    return hyperlink(doc, doc.part_of(paragraph).name, text, url=url)


def link_target(doc, link: etree._Element) -> str:
    rid = link.get(f"{{{R}}}id")
    anchor = link.get(w("anchor"))
    if rid:
        for rel in doc.package.rels(doc.part_of(link).name):
            if rel.get("Id") == rid:
                return rel.get("Target", "") + (f"#{anchor}" if anchor else "")
    return f"#{anchor}" if anchor else ""


def unwrap(link: etree._Element) -> None:
    """Remove a hyperlink element, keeping its runs in place."""
    parent = link.getparent()
    at = parent.index(link)
    for i, child in enumerate(list(link)):
        parent.insert(at + i, child)
    parent.remove(link)
