"""The data-binding XPaths Word writes, evaluated without an XPath engine.

A binding's XPath comes from the file: run by libxml2, a crafted one costs N³ in the custom XML
part (and cannot be stopped). Word writes simple location paths, ``/ns0:root[1]/ns0:name[1]``,
optionally ending in an attribute (``/@ns0:code``); those are evaluated here with XPath 1.0's
meaning (a step without ``[n]`` keeps every match; the first in document order is the node) in
one pass over the part at most: each element is looked at once, as a child of its parent. Any
other XPath is not evaluated and ``why_not`` says why.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from ooxml.controls.model import MAX_XPATH, Binding
from ooxml.xml import budget

_STEP = re.compile(r"(@?)(?:([^\W\d][\w.\-]*):)?([^\W\d][\w.\-]*|\*)(?:\[([1-9][0-9]{0,8})\])?")


@dataclass(frozen=True)
class Step:
    attribute: bool
    namespace: str | None  # None: no namespace (XPath 1.0: an unprefixed name)
    local: str  # "*": any element
    index: int | None  # [n]: the n-th match among a parent's children


@dataclass(frozen=True)
class Attribute:
    """A bound attribute: its element and Clark name."""
    owner: etree._Element
    name: str

    @property
    def value(self) -> str:
        return self.owner.get(self.name, "")


def parse(xpath: str, prefixes: dict[str, str]) -> list[Step] | str:
    """The steps of a simple path, or why it is not one."""
    if len(xpath) > MAX_XPATH:
        return f"it is over {MAX_XPATH:,} characters"
    if "//" in xpath:
        return "'//' (a search at any depth) is not evaluated"
    if not xpath.startswith("/"):
        return "it is not an absolute path of child steps (/a[1]/b[1])"
    steps = []
    for i, text in enumerate(xpath[1:].split("/")):
        m = _STEP.fullmatch(text.strip())
        if m is None:
            return f"step {i + 1} {text[:40]!r} is not a name with an optional [n]"
        attribute, prefix, local, index = m.groups()
        if prefix is not None and prefix not in prefixes:
            return f"prefix {prefix!r} is not declared in w:prefixMappings"
        if attribute and (index or local == "*"):
            return f"step {i + 1} {text[:40]!r} is not one named attribute"
        steps.append(Step(bool(attribute), prefixes.get(prefix) if prefix else None, local,
                          int(index) if index else None))
    if any(s.attribute for s in steps[:-1]):
        return "an attribute step is not the last"
    return steps


def steps(binding: Binding) -> list[Step] | None:
    found = parse(binding.xpath, binding.prefixes or {})
    return found if isinstance(found, list) else None


def why_not(binding: Binding) -> str | None:
    found = parse(binding.xpath, binding.prefixes or {})
    return None if isinstance(found, list) else found


def _matches(el, step: Step) -> bool:
    if not isinstance(el.tag, str):  # comments, processing instructions
        return False
    if step.local == "*":
        return True
    q = etree.QName(el)
    return q.localname == step.local and q.namespace == step.namespace


def select(tree: etree._ElementTree, path: list[Step]):
    """The first node the path selects (an element or an Attribute), or None."""
    nodes = [None]  # None: the document node, whose one element child is the root
    for step in path:
        budget.check()
        if step.attribute:
            name = step.local if step.namespace is None else f"{{{step.namespace}}}{step.local}"
            return next((Attribute(el, name) for el in nodes if el is not None and el.get(name) is not None), None)
        found = []
        for parent in nodes:
            children = [tree.getroot()] if parent is None else parent
            matching = [c for c in children if _matches(c, step)]
            found += matching if step.index is None else matching[step.index - 1:step.index]
        if not found:
            return None
        nodes = found  # all at one depth, in document order
    return nodes[0] if nodes and nodes[0] is not None else None
