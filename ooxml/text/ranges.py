"""Range markers (bookmarks, comment ranges, permissions) stay paired when content goes."""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import w

PAIRS = {
    w("bookmarkStart"): w("bookmarkEnd"), w("commentRangeStart"): w("commentRangeEnd"),
    w("moveFromRangeStart"): w("moveFromRangeEnd"), w("moveToRangeStart"): w("moveToRangeEnd"),
    w("permStart"): w("permEnd"),
}
_ALL = set(PAIRS) | set(PAIRS.values())
_PARTNER = {**PAIRS, **{v: k for k, v in PAIRS.items()}}


def orphans_if_removed(el: etree._Element) -> list[etree._Element]:
    """Markers inside ``el`` whose partner lies outside it."""
    inside = list(el.iter(*_ALL))
    keys = {(m.tag, m.get(w("id"))) for m in inside}
    return [m for m in inside if (_PARTNER[m.tag], m.get(w("id"))) not in keys]


def rescue_markers(el: etree._Element, orphans: list[etree._Element] | None = None) -> None:
    """Move half-ranges out of ``el`` (to just before it) so removing ``el`` keeps pairs intact."""
    for marker in orphans_if_removed(el) if orphans is None else orphans:
        marker.getparent().remove(marker)
        marker.tail = None
        el.addprevious(marker)
