"""Hidden ``_Ref…`` bookmarks: what a cross-reference points at, as Word makes them.

Word names them ``_Ref`` and nine digits; the leading underscore hides them from its bookmark list.
A range already wrapped by a ``_Ref`` bookmark keeps it (Word reuses it too).
"""
from __future__ import annotations

from lxml import etree

from ooxml.refs import links as L
from ooxml.xml import minting
from ooxml.xml.namespaces import w

PREFIX = "_Ref"
_MARKS = {L.W_BM_START, L.W_BM_END}


def is_ref_name(name: str | None) -> bool:
    return bool(name) and name.startswith(PREFIX)


def _existing(first: etree._Element, last: etree._Element) -> str | None:
    """The name of a ``_Ref`` bookmark starting right before ``first`` and ending right after ``last``."""
    ends = set()
    sib = last.getnext()
    while sib is not None and sib.tag in _MARKS:
        if sib.tag == L.W_BM_END:
            ends.add(sib.get(w("id")))
        sib = sib.getnext()
    sib = first.getprevious()
    while sib is not None and sib.tag in _MARKS:
        if sib.tag == L.W_BM_START and is_ref_name(sib.get(w("name"))) and sib.get(w("id")) in ends:
            return sib.get(w("name"))
        sib = sib.getprevious()
    return None


def new_name(names: set[str]) -> str:
    while True:
        name = f"{PREFIX}{minting.randbelow(900_000_000) + 100_000_000}"
        if name not in names:
            names.add(name)
            return name


def mark(roots: list[etree._Element], first: etree._Element, last: etree._Element) -> str:
    """A ``_Ref`` bookmark around sibling runs ``first``..``last``: the one there, else a new one
    (callers announced the paragraph)."""
    found = _existing(first, last)
    if found is not None:
        return found
    starts = L.bookmark_starts(roots)
    name = new_name({s.get(w("name")) for s in starts})
    L.add_bookmark(first, last, name, L.next_bookmark_id(roots))
    return name


def range_of(roots: list[etree._Element], name: str) -> tuple[etree._Element, etree._Element | None] | None:
    """(bookmarkStart, bookmarkEnd) of the bookmark ``name``; None when there is none."""
    start = L.find_bookmark(roots, name)
    return None if start is None else (start, L.bookmark_end(start))
