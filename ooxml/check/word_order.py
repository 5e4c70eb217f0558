"""Word rule: property children in schema order (ooxml/xml/order.py is the table), each at most once,
and the leading children of paragraphs, runs, tables, rows, cells and content controls first.

Built for speed (a 50,000-paragraph document has 300,000 such containers): lxml filters by tag in C,
a container with one child cannot be out of order, and each shape of children is judged once."""
from __future__ import annotations

from operator import attrgetter

from lxml import etree

from ooxml.check.findings import ERROR, Finding
from ooxml.xml.namespaces import W
from ooxml.xml.order import LEADING, ORDER

_PREFIX = f"{{{W}}}"
# w:trPr is a choice in wml.xsd (any order): not judged.
ORDERED = {f"{_PREFIX}{name}": name for name in ORDER if name != "trPr"}
LEAD_PARENTS = {f"{_PREFIX}{name}": name for name in LEADING}
LEAD_CHILDREN = {f"{_PREFIX}{child}" for children in LEADING.values() for child in children}
CONTAINERS = {**ORDERED, **LEAD_PARENTS}
# Children the schema lets repeat.
REPEATS = {f"{_PREFIX}{n}" for n in "headerReference footerReference activeWritingStyle smartTagType attachedSchema "
                                   "tblStylePr".split()}
# A choice in the schema: either may come first (EG_HdrFtrReferences).
_SAME = {"footerReference": "headerReference"}
# Leading children the schema requires.
REQUIRED = {"tbl": ("tblPr", "tblGrid")}
FIX = "Run docx_check with repair=True: it puts the children in schema order (adds what is required)."
_TAG = attrgetter("tag")


TAGS = (*ORDERED, *LEAD_CHILDREN, f"{_PREFIX}tbl")


class Visitor:
    """The rule's part of the shared walk: each container judged as the walk reaches it (a shape already
    judged costs one lookup); what is out of order kept by tag and reported tag by tag in ``TAGS`` order
    (a container judged through two children is reported once, as before)."""

    def __init__(self, name: str):
        self.name = name
        self.memo: dict = {}
        self.events: dict[str, list] = {}

    def visitors(self) -> dict:
        memo, events = self.memo, self.events

        def bad(el, key=None):  # the shape when out of order (judged once per shape), else None
            key = key or (el.tag, tuple(map(_TAG, el)))
            if key not in memo:
                memo[key] = misplaced(CONTAINERS[el.tag], key[1])
            return key if memo[key] else None

        def ordered(el):  # hot: 300,000 containers in a 50,000-paragraph document
            if len(el) > 1:
                key = (el.tag, tuple(map(_TAG, el)))
                if memo.get(key, True) and bad(el, key):
                    events.setdefault(el.tag, []).append((el, key))

        def lead(el):
            if el.getprevious() is not None:  # the common case: first, so in place
                parent = el.getparent()
                if parent.tag in LEAD_PARENTS and el.tag in _leading(parent):
                    key = bad(parent)
                    if key:
                        events.setdefault(el.tag, []).append((parent, key))

        def ordered_lead(el):
            if len(el) > 1:
                key = (el.tag, tuple(map(_TAG, el)))
                if memo.get(key, True) and bad(el, key):
                    events.setdefault(el.tag, []).append((el, key))
            if el.getprevious() is not None:
                lead(el)

        def tbl(el):
            if el.find(f"{_PREFIX}tblPr") is None:
                key = bad(el)
                if key:
                    events.setdefault(el.tag, []).append((el, key))
        return {tag: ordered_lead if tag in ORDERED and tag in LEAD_CHILDREN else ordered if tag in ORDERED else
                lead if tag in LEAD_CHILDREN else tbl for tag in dict.fromkeys(TAGS)}

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for tag in dict.fromkeys(TAGS):
            for el, key in self.events.get(tag, ()):
                _judge(self.name, el, self.memo, out, key)
        return out


def _leading(parent: etree._Element) -> set:
    return {f"{_PREFIX}{n}" for n in LEADING[LEAD_PARENTS[parent.tag]]}


def _judge(name: str, el: etree._Element, memo: dict, out: list, key: tuple | None = None) -> None:
    key = key or (el.tag, tuple(map(_TAG, el)))
    if key not in memo:
        memo[key] = misplaced(CONTAINERS[el.tag], key[1])
    if memo[key] and not any(f.element is el for f in out[-3:]):  # judged through two children: once
        out.append(Finding("word", "order", ERROR, name, f"{memo[key]} in w:{CONTAINERS[el.tag]}", FIX, el,
                           repairable=True))


# Children of other namespaces with a place in the sequence (wml.xsd imports them).
_MATH_PR = "{http://schemas.openxmlformats.org/officeDocument/2006/math}mathPr"
EXTRA = {"settings": {_MATH_PR: ORDER["settings"]["rsids"] + 0.5}}


def rank(parent: str, tag) -> float | None:
    """The child's place in ``parent``'s sequence; None for what the table does not order."""
    if not isinstance(tag, str) or not tag.startswith(_PREFIX):
        return EXTRA.get(parent, {}).get(tag) if isinstance(tag, str) else None
    local = tag[len(_PREFIX):]
    local = _SAME.get(local, local)
    return (ORDER.get(parent) or LEADING[parent]).get(local)


def misplaced(parent: str, tags: tuple) -> str:
    """What is out of order among ``tags`` (a container's children), or ''."""
    leading = parent not in ORDER
    top, top_tag, content = -1, None, False
    for tag in tags:
        r = rank(parent, tag)
        if r is None:
            content = content or (leading and isinstance(tag, str))
            continue
        if leading and content:
            return f"w:{_local(tag)} after the content"
        if r < top:
            return f"w:{_local(tag)} after w:{_local(top_tag)}"
        if r == top and tag not in REPEATS:
            return f"w:{_local(tag)} twice"
        top, top_tag = r, tag
    present = {_local(t) for t in tags if isinstance(t, str)}
    missing = [f"w:{n}" for n in REQUIRED.get(parent, ()) if n not in present]
    return f"no {' or '.join(missing)}" if missing else ""


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]
