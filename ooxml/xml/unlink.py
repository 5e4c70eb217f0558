"""Taking large subtrees out of their tree in linear time.

lxml (6.1) fixes the namespace pointer of every node of a subtree that leaves its parent, and its
cache of those fixes grows by one entry per node (proxy.pxi ``_fixCNs`` stores the new pointer
as the old one), so it is searched in full each time: taking out a paragraph of 400,000 breaks
took a minute. Taken apart bottom-up, every piece is small, and a detached piece declares its
namespaces on its own top, which the cache then finds at once when it is put back: linear.
The same elements come back (their identity is what undo records hold).
"""
from __future__ import annotations

from lxml import etree

SMALL = 2000  # nodes: below this, lxml's own remove is quick enough


def detach(el: etree._Element) -> None:
    """``el.getparent().remove(el)``, its tail going with it, in time linear in its size."""
    parent = el.getparent()
    if parent is None:
        return
    kids = list(el)
    if kids and _larger_than(el, SMALL):
        for kid in kids:
            detach(kid)
        parent.remove(el)
        el.extend(kids)
    else:
        parent.remove(el)


def move_children(kids: list[etree._Element], to: etree._Element) -> None:
    """``to.extend(kids)`` for children of another element, in linear time."""
    for kid in kids:
        if _larger_than(kid, SMALL):
            detach(kid)
    to.extend(kids)


def _larger_than(el: etree._Element, n: int) -> bool:
    for i, _ in enumerate(el.iter()):
        if i >= n:
            return True
    return False
