"""Style IDs holding what is redacted: each renamed, with every reference to it in every WordprocessingML
part (paragraphs, runs, tables, styles based on or linked to it, numbering), to an ID no other style has.

Done before the rest of the redaction: two IDs that differ only in what a pattern matches
(``Acct1234567890``, ``Acct0987654321``) would otherwise become one, and their paragraphs would share a
style. A style's name is redacted like other words (``STYLEREF`` fields naming it read the same).
"""
from __future__ import annotations

from typing import Callable, Iterable

from lxml import etree

from ooxml.xml import budget
from ooxml.xml.namespaces import W

STYLE = f"{{{W}}}style"
STYLE_ID = f"{{{W}}}styleId"
VAL = f"{{{W}}}val"
REFS = tuple(f"{{{W}}}{n}" for n in ("pStyle", "rStyle", "tblStyle", "basedOn", "next", "link", "numStyleLink",
                                     "styleLink"))


def renames(styles_roots: Iterable[etree._Element], matcher, replace: Callable[[str, list], str]) -> dict[str, str]:
    """Old ID -> new ID for each ID holding a match; a new ID taken by another style gets a number."""
    ids = {s.get(STYLE_ID) for root in styles_roots for s in root.iter(STYLE) if s.get(STYLE_ID)}
    hit = {old: spans for old in sorted(ids) if (spans := matcher.spans(old))}
    taken = {i.lower() for i in ids - hit.keys()}  # Word compares style IDs ignoring case
    out: dict[str, str] = {}
    for old, spans in hit.items():
        base = new = replace(old, spans)
        n = 2
        while new.lower() in taken:
            new, n = f"{base}{n}", n + 1
        taken.add(new.lower())
        out[old] = new
    return out


def apply(root: etree._Element, renamed: dict[str, str], before, after) -> int:
    """Renames styles and references in ``root``; how many attributes changed."""
    count = 0
    for el in root.iter(STYLE, *REFS):
        budget.check()
        name = STYLE_ID if el.tag == STYLE else VAL
        new = renamed.get(el.get(name))
        if new is not None:
            before(el)
            el.set(name, new)
            after(el)
            count += 1
    return count
