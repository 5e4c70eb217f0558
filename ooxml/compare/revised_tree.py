"""The redline's main tree without a parse of the spliced redline (``spliced.py``).

The spliced redline is the reduced redline's bytes with each placeholder k replaced by the
revised bytes of run k. Its tree is built from the other side: the runs alone, a processing
instruction where each stretch between them goes (``runs_only``), are parsed on a thread of
their own while the comparison runs (``xml/background_parse``); then each instruction gives way
to the reduced redline's children of that stretch. The body holds no instructions of its own
(``byte_blocks`` declines those), so each is ours, found in C. Where a move would drop a namespace declaration (``xml/move_namespaces``) the spliced
bytes are parsed instead. tests/ooxml/compare/test_revised_tree.py checks the tree is what the
spliced bytes parse to.
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.namespaces import W

_TARGET = "oxm-stretch"
_HOLDER = re.compile("\ue001(\\d+)")  # spliced._holder's text
_HOLDERS = etree.XPath("w:p[not(@*) and count(node()) = 1][w:r[not(@*) and count(node()) = 1]/w:t[not(@*)]"
                       "[starts-with(., '\ue001')]]", namespaces={"w": W})


def stretch(k: int) -> bytes:
    """Where stretch ``k`` (before run k; the last after the last run) goes in ``runs_only``."""
    return b"<?%s %d?>" % (_TARGET.encode(), k)


def place(redline: etree._ElementTree, runs_tree: etree._ElementTree, runs: int) -> bool:
    """Make ``runs_tree`` (the runs, parsed) the redline: each stretch instruction gives way to the
    children the reduced ``redline`` has between placeholders k - 1 and k. False, both trees then
    unusable, when their shapes are not so."""
    root_r, root_b = redline.getroot(), runs_tree.getroot()
    body_r, body_b = root_r.find(B.W_BODY), root_b.find(B.W_BODY)
    if body_r is None or body_b is None or not _same_outside(root_r, body_r, root_b, body_b):
        return False
    kids = list(body_r)
    at = {el: k for k, el in enumerate(kids)}
    found = _HOLDERS(body_r)  # (in C: a Python test of each child cost more than the rest here)
    holders = [at[el] for el in found]
    marks = list(body_b.iterchildren(etree.PI))
    if [_holder(el) for el in found] != list(range(runs)) or \
            [(m.target, m.text) for m in marks] != [(_TARGET, str(k)) for k in range(runs + 1)]:
        return False
    body_b.text = body_r.text
    bounds = [-1, *holders, len(kids)]
    for k, mark in enumerate(marks):
        if k:  # the text after run k - 1 is its placeholder's tail
            mark.getprevious().tail = kids[holders[k - 1]].tail
        for el in kids[bounds[k] + 1:bounds[k + 1]]:  # (each with its tail)
            mark.addprevious(el)
        body_b.remove(mark)
    return True


def _holder(el) -> int | None:
    found = _HOLDER.fullmatch(el[0][0].text or "")
    return int(found.group(1)) if found else None


def _same_outside(root_r, body_r, root_b, body_b) -> bool:
    """Whether the two roots are the same but for their bodies' children."""
    def shape(root, body):
        return (root.tag, root.nsmap, dict(root.attrib), root.text, dict(body.attrib), body.tail,
                [etree.tostring(c) if c is not body else None for c in root])
    return shape(root_r, body_r) == shape(root_b, body_b)
