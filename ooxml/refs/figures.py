"""Tables of figures as Word writes them: a ``TOC \\h \\z \\c "Figure"`` field over paragraphs in the
``table of figures`` style, one per caption of the label, each linked to a ``_Toc`` bookmark on its
caption with a PAGEREF for its page (entries are made as the TOC's: ooxml/refs/toc.py).
"""
from __future__ import annotations

from lxml import etree

from ooxml.refs import field_list as FLD
from ooxml.refs import fields as FL
from ooxml.refs import links as L
from ooxml.refs import toc as T
from ooxml.text import body as B
from ooxml.xml.namespaces import w

STYLE = "table of figures"


def instruction(label: str) -> str:
    return f'TOC \\h \\z \\c "{label}"'


def entries_of(doc, label: str) -> list[T.Heading]:
    """The body's captions of ``label`` in order, as TOC entries (their whole text)."""
    out, seen = [], set()
    for f in FLD.fields_of(doc.root):
        p = f.paragraph
        if f.name == "SEQ" and len(f.words) > 1 and f.words[1] == label and f.switch("\\c") is None \
                and p is not None and id(p) not in seen:
            seen.add(id(p))
            out.append(T.Heading(p, 1, " ".join(B.paragraph_text(p).split())))
    return out


def unmarked(found: list[T.Heading]) -> list[etree._Element]:
    """The captions without a ``_Toc`` bookmark yet: announce them before ``anchors``."""
    return [h.p for h in found if T.existing_toc_bookmark(h) is None]


def anchors(doc, found: list[T.Heading]) -> list[str]:
    have = [T.existing_toc_bookmark(h) for h in found]
    missing = [h for h, name in zip(found, have) if name is None]
    if missing:
        roots = doc.story_roots()
        names = {s.get(w("name")) for s in L.bookmark_starts(roots)}
        made = {id(h): n for h, n in T.add_toc_bookmarks(missing, names, L.next_bookmark_id(roots))}
        have = [n if n is not None else made[id(h)] for h, n in zip(found, have)]
    return have


def build(doc, label: str, found: list[T.Heading], marks: list[str], tab_pos: int) -> list[etree._Element]:
    """The table's paragraphs; page numbers are placeholders until a layout fills the PAGEREFs."""
    holder = etree.Element(w("x"))
    T.fill(doc, holder, instruction(label), found, marks, [1] * len(found), None, tab_pos, None, STYLE)
    return list(holder)


def tables(doc) -> list[tuple[str, list[etree._Element]]]:
    """(label, body paragraphs) of every table of figures in the body."""
    out = []
    for f in FLD.fields_of(doc.root):
        label = f.switch("\\c") if f.name == "TOC" else None
        first, end = f.paragraph, FL.end_run(f.start)
        last = B.find_ancestor(end, B.W_P) if end is not None else None
        if not label or first is None or last is None or first.getparent() is not doc.body:
            continue
        paras = [first]
        for sib in first.itersiblings():
            if paras[-1] is last:
                break
            paras.append(sib)
        out.append((label, paras))
    return out


def texts(paras: list[etree._Element]) -> list[str]:
    """The entries' texts as they read (the page number after the tab left out)."""
    return [" ".join(B.paragraph_text(p).rsplit("\t", 1)[0].split()) for p in paras]
