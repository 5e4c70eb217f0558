"""Lists of one kind of element (section breaks, note references) kept in document order across
edits without rescanning a large body each time.

A rescan of a 50,000-paragraph body costs tens of milliseconds. After edits, the list is brought up
to date from the document's change log (``Document.recent_changes``): detached elements drop out,
and new ones found inside the changed elements are put in place by their body block's position
(``Document.order``, O(sqrt n)). When the log ran past the list, or the body itself changed, it
rescans.
"""
from __future__ import annotations


from lxml import etree

from ooxml.text.body import is_block
from ooxml.xml.namespaces import w



class Tracked:
    def __init__(self, doc, tags: tuple[str, ...], root_fn):
        self.doc, self.tags, self.root_fn = doc, tags, root_fn
        self.version = -1
        self.items: list[etree._Element] = []

    def get(self) -> list[etree._Element]:
        doc = self.doc
        if self.version == doc.version:
            return self.items
        news = [el for _, el, _ in doc.changes_since(self.version)]
        root = self.root_fn()
        if self.version < 0 or len(news) < doc.version - self.version or any(
                el is root or el is root.getparent() for el in news):
            self._rescan(root)
        else:
            self._update(root, news)
        self.version = doc.version
        return self.items

    def _rescan(self, root) -> None:
        self.items = [el for el in root.iter(*self.tags) if self._counts(el)]

    def _counts(self, el) -> bool:  # revision records hold old copies: never items
        return not any(a.tag == w("sectPrChange") or a.tag == w("pPrChange") for a in el.iterancestors())

    def _update(self, root, news) -> None:
        known = set(self.items)
        self.items = [el for el in self.items if _inside(el, root)]
        fresh = []
        for el in news:
            if not _inside(el, root):
                continue
            for found in el.iter(*self.tags):
                if found not in known and self._counts(found):
                    known.add(found)
                    fresh.append(found)
        for el in fresh:
            self._place(root, el)

    def _place(self, root, el) -> None:
        if not self.items:  # the first one needs no position (nor the block order built for it)
            self.items.append(el)
            return
        key = self._key(root, el)
        lo, hi = 0, len(self.items)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._key(root, self.items[mid]) < key:
                lo = mid + 1
            else:
                hi = mid
        self.items.insert(lo, el)

    def _key(self, root, el) -> tuple[int, int]:
        block = el
        while block.getparent() is not root:
            block = block.getparent()
        if not is_block(block):
            return (1 << 62, 0)  # the body's own sectPr: after every block
        index = self.doc.order(root).index(block)
        if block is el:
            return index, 0
        within = 0
        for i, sub in enumerate(block.iter(*self.tags)):
            if sub is el:
                within = i
                break
        return index, within + 1


def _inside(el, root) -> bool:
    cur = el
    while cur is not None:
        if cur is root:
            return True
        cur = cur.getparent()
    return False


def tracked(doc, name: str, tags: tuple[str, ...], root_fn=None) -> list[etree._Element]:
    """The document's elements of ``tags`` under the body (or ``root_fn()``), in document order."""
    per_doc = doc.caches.setdefault("doc_order", {})
    t = per_doc.get(name)
    if t is None:
        t = per_doc[name] = Tracked(doc, tags, root_fn or (lambda: doc.body))
    return t.get()


def seed_empty(doc, name: str, tags: tuple[str, ...], root_fn=None) -> None:
    """Start the list ``name`` empty at the document's current version, without a scan: for a
    caller that knows none of ``tags`` is there yet. Later edits update it from the change log."""
    per_doc = doc.caches.setdefault("doc_order", {})
    if name not in per_doc:
        t = per_doc[name] = Tracked(doc, tags, root_fn or (lambda: doc.body))
        t.version = doc.version
