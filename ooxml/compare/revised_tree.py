"""The redline's main tree without a parse of the spliced redline (``spliced.py``).

The spliced redline is the reduced redline's bytes with each placeholder k replaced by the
revised bytes of run k. Its tree is built from the other side: the runs alone, a processing
instruction where each stretch between them goes (``runs_only``), are parsed on a thread of
their own while the comparison runs (libxml2 parses without Python's lock: a second core does
it); then each instruction gives way to the reduced redline's children of that stretch. The
body holds no instructions of its own (``byte_blocks`` declines those), so each is ours, found
in C. tests/ooxml/compare/test_revised_tree.py checks the tree serializes to the spliced bytes.
"""
from __future__ import annotations

import re
import threading

import numpy as np
from lxml import etree

from ooxml.text import body as B
from ooxml.xml.namespaces import W
from ooxml.xml.id_bytes import predeclare
from ooxml.xml.safexml import new_parser, parse_part

_TARGET = "oxm-stretch"
_DECLARED = re.compile(rb' xmlns(?::[\w.-]+)?="([^"]*)"')
_HOLDER = re.compile("\ue001(\\d+)")  # spliced._holder's text
_HOLDERS = etree.XPath("w:p[not(@*) and count(node()) = 1][w:r[not(@*) and count(node()) = 1]/w:t[not(@*)]"
                       "[starts-with(., '\ue001')]]", namespaces={"w": W})


def stretch(k: int) -> bytes:
    """Where stretch ``k`` (before run k; the last after the last run) goes in ``runs_only``."""
    return b"<?%s %d?>" % (_TARGET.encode(), k)


class Parse:
    """Bytes parsed as a document's part is (our namespace declared), on a thread of their own."""

    def __init__(self, data: bytes):
        self._tree: etree._ElementTree | None = None
        self._thread = threading.Thread(target=self._run, args=(data,), daemon=True, name="compare-parse")
        self._thread.start()

    def _run(self, data: bytes) -> None:
        try:
            prepared, pre = predeclare(data)
            if not pre.had_ids:  # (a root declaring our namespace: the part's own parse marks IDs)
                self._tree = parse_part(prepared, "", new_parser())
        except Exception:  # (the spliced bytes' parse then says what is wrong)
            self._tree = None

    def tree(self) -> etree._ElementTree | None:
        """The parsed tree, once (None when it could not be parsed)."""
        self._thread.join()
        tree, self._tree = self._tree, None
        return tree


def movable(redline: bytes, root_uris) -> bool:
    """Whether the reduced redline's blocks (``redline``: its bytes, as lxml wrote them) move into
    the runs' tree unchanged. lxml drops a moved element's declaration of a namespace already in
    scope (an ancestor's, the root's: ``root_uris``), another prefix then written for it; where a
    block has one the spliced bytes are parsed instead."""
    body = redline.find(b"<w:body>")
    if body < 0:
        return False
    found = [(m.start(), m.group(1)) for m in _DECLARED.finditer(redline, body)]
    if not found:
        return True
    uris = [uri for _, uri in found]
    if set(uris) & {u.encode() for u in root_uris}:
        return False
    if len(set(uris)) == len(uris):
        return True
    return not _nested_twice(redline, body, found)


def _nested_twice(data: bytes, start: int, found: list) -> bool:
    """Whether a namespace is declared inside an element that declares it already. lxml writes
    every '<' and '>' of text and attributes escaped, so each '<' starts a tag its next '>' ends."""
    arr = np.frombuffer(data, np.uint8)
    lt = np.flatnonzero(arr[start:] == 60) + start
    gt = np.flatnonzero(arr[start:] == 62) + start
    if len(lt) != len(gt):
        return True
    step = np.where(arr[lt + 1] == 47, -1, np.where(arr[gt - 1] == 47, 0, 1))
    after = np.cumsum(step)  # the depth after each tag
    tag = np.searchsorted(lt, [at for at, _ in found], "right") - 1
    for i, (_, uri) in enumerate(found):
        for j in range(i):
            t0, t1 = tag[j], tag[i]
            if found[j][1] == uri and t0 < t1 and step[t0] == 1 and after[t0:t1].min() >= after[t0]:
                return True  # the element declaring it first is still open
    return False


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
