"""docx_check's one pass over a part's tree: lxml filters the tags every rule asks for in C, and each
element is handed to the rules that visit its tag while it is still in the CPU's cache; the rare tags
(bookmarks, drawings, revisions, ...) are kept in lists by tag for the rules that read them after.

Why: a 50,000-paragraph body holds ~590,000 elements; a walk costs 60-75 ms once any tag asked for is
there, however few it yields, and keeping 145,000 element objects in lists to read them again from
cold memory made the check 10-15 % slower than visiting them in the walk (issue 34, docs/performance.md)."""
from __future__ import annotations

from lxml import etree


class Walk:
    """Walk ``root`` once: ``visitors`` (tag -> function of the element) see their tags in document order;
    the other elements of ``tags`` are kept by tag (``get``, ``ordered``)."""

    def __init__(self, root: etree._Element, tags, visitors: dict):
        self.root = root
        self.by_tag: dict[str, list] = {}
        by_tag = self.by_tag
        table = {tag: self._kept(fn) if tag in tags else fn for tag, fn in visitors.items()}
        get = table.get
        for el in root.iter(*dict.fromkeys((*tags, *visitors))):
            tag = el.tag
            visit = get(tag)
            if visit is not None:
                visit(el)
            elif tag in by_tag:
                by_tag[tag].append(el)
            else:
                by_tag[tag] = [el]

    def _kept(self, fn):
        """A visited tag some rule also reads after the walk: visited and kept."""
        def both(el):
            fn(el)
            self.by_tag.setdefault(el.tag, []).append(el)
        return both

    def get(self, *tags) -> list:
        if len(tags) == 1:
            return self.by_tag.get(tags[0], [])
        return [el for tag in tags for el in self.by_tag.get(tag, [])]

    def ordered(self, *tags) -> list:
        """Kept elements of several tags in document order (rare tags: sorting them is cheap)."""
        els = self.get(*tags)
        if len(tags) > 1 and els:
            order = {el: i for i, el in enumerate(self.root.iter(*tags))}
            els.sort(key=order.__getitem__)
        return els


def visitors(*tables: dict) -> dict:
    """Tag -> one function calling, in turn, each table's function for that tag."""
    out: dict = {}
    for table in tables:
        for tag, fn in table.items():
            out[tag] = _chain(out[tag], fn) if tag in out else fn
    return out


def _chain(first, second):
    def both(el):
        first(el)
        second(el)
    return both
