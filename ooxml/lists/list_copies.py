"""Copies of list paragraphs, numbered the way Word numbers pasted lists.

- A single list paragraph copied next to an item of another list of the same type joins that
  list (it continues it); elsewhere it stays in its own list.
- A copy of a whole list (every paragraph that uses its num) becomes a list of its own that starts
  afresh, instead of continuing the original.
"""
from __future__ import annotations

from lxml import etree

from ooxml.text import body as B
from ooxml.lists import lists_edit as L
from ooxml.lists import numbering as N
from ooxml.xml.namespaces import w

W_NUMID = w("numId")


def _direct(p: etree._Element) -> tuple[int, int] | None:
    numpr = p.find(f"{w('pPr')}/{w('numPr')}")
    if numpr is None:
        return None
    nid = numpr.find(W_NUMID)
    ilvl = numpr.find(w("ilvl"))
    try:
        return int(nid.get(w("val"))), int(ilvl.get(w("val"))) if ilvl is not None else 0
    except (AttributeError, TypeError, ValueError):
        return None


def join_neighbour_list(doc, copy: etree._Element, prev: etree._Element | None, nxt: etree._Element | None) -> bool:
    """Make a copied list paragraph continue the list it lands in; True if it changed."""
    own = _direct(copy)
    if own is None:
        return False
    defs = N.definitions(doc)
    for neighbour in (prev, nxt):
        if neighbour is None or neighbour.tag != B.W_P:
            continue
        ref = defs.para_num(neighbour)
        if ref is None:
            continue
        if ref[0] != own[0] and L.type_of(defs, ref[0], own[1]) == L.type_of(defs, own[0], own[1]):
            L.set_num(copy, ref[0], own[1])
            return True
        return False
    return False


def renumber_whole_lists(doc, originals: list[etree._Element], copies: list[etree._Element],
                         after_originals: bool = False) -> int:
    """Copies of whole lists get lists of their own; how many lists were split off.

    ``after_originals``: the copies go after the originals (they may then share definitions)."""
    in_range: dict[int, int] = {}
    for el in originals:
        for numid in el.iter(W_NUMID):
            key = numid.get(w("val"))
            if key and key.isdigit() and len(key) < 10 and int(key):
                in_range[int(key)] = in_range.get(int(key), 0) + 1
    if not in_range:
        return 0
    everywhere: dict[int, int] = {}
    for numid in doc.body.iter(W_NUMID):
        key = numid.get(w("val"))
        if key and key.isdigit() and len(key) < 10 and int(key) in in_range:
            everywhere[int(key)] = everywhere.get(int(key), 0) + 1
    whole = [nid for nid, n in in_range.items() if everywhere.get(nid) == n and nid in N.definitions(doc).nums]
    first = _first_levels(copies)
    # A shared definition restarts only the level of the copy's first item (a startOverride acts once).
    mapping = {nid: L.restarting_num(doc, nid, after_originals and first.get(nid, 0) == 0) for nid in whole}
    for el in copies:
        for numid in el.iter(W_NUMID):
            key = numid.get(w("val"))
            if key and key.isdigit() and len(key) < 10 and int(key) in mapping:
                numid.set(w("val"), str(mapping[int(key)]))
    return len(mapping)


def _first_levels(copies: list[etree._Element]) -> dict[int, int]:
    """numId -> the level of its first directly numbered paragraph among the copies."""
    out: dict[int, int] = {}
    for el in copies:
        for p in ([el] if el.tag == B.W_P else el.iter(B.W_P)):
            ref = _direct(p)
            if ref is not None:
                out.setdefault(ref[0], ref[1])
    return out
