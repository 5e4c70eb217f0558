"""Stable element IDs: ``para_3f9a2c`` kept as an ``oxm:id`` attribute in our own namespace.

IDs are given lazily (when an element is first shown or addressed) because giving every
element an ID up front costs several times the parse. Once given, an ID stays with its
element; the attribute is saved, so it survives save and reopen. The namespace is declared
on the part's root and listed in ``mc:Ignorable`` so Word accepts the file (and drops the IDs
when it re-saves).
"""
from __future__ import annotations

import secrets

from lxml import etree

from ooxml.namespaces import MC, OX, OX_ID, OX_PREFIX, W

PREFIXES = {
    "p": "para", "r": "run", "tbl": "table", "tr": "row", "tc": "cell", "sdt": "sdt",
    "drawing": "img", "pict": "img", "hyperlink": "link", "bookmarkStart": "bookmark",
    "footnote": "note", "endnote": "note", "comment": "comment", "hdr": "hdr", "ftr": "ftr",
    "ins": "rev", "del": "rev", "customXml": "cxml", "altChunk": "chunk", "fldSimple": "field",
}
_IGNORABLE = f"{{{MC}}}Ignorable"
_XPATH_WITH_ID = etree.XPath("//*[@oxm:id]", namespaces={"oxm": OX})
# Selecting the attributes is ~3x faster than selecting elements by attribute predicate.
_XPATH_ID_ATTRS = etree.XPath("//@oxm:id", namespaces={"oxm": OX})


def prefix_for(el: etree._Element) -> str:
    q = etree.QName(el)
    if q.namespace == W:
        return PREFIXES.get(q.localname, "el")
    return "math" if q.localname in ("oMath", "oMathPara") else "el"


def declare_namespace(root: etree._Element) -> None:
    """Declare our prefix on the part's root and list it in mc:Ignorable (once)."""
    if root.nsmap.get(OX_PREFIX) == OX:
        return
    mc_prefix = next((p for p, uri in root.nsmap.items() if uri == MC and p), None)
    top = {OX_PREFIX: OX}
    if mc_prefix is None:
        mc_prefix = "mc" if "mc" not in root.nsmap else "mce"
        top[mc_prefix] = MC
    # Without keep_ns_prefixes the root's unused declarations (w14, wp14 ... that
    # mc:Ignorable still names) would disappear and Word would refuse the file.
    keep = [p for p in root.nsmap if p] + list(top)
    etree.cleanup_namespaces(root, top_nsmap=top, keep_ns_prefixes=keep)
    ignorable = root.get(_IGNORABLE, "").split()
    if OX_PREFIX not in ignorable:
        root.set(_IGNORABLE, " ".join([*ignorable, OX_PREFIX]))


def strip_ids(root: etree._Element) -> None:
    """Remove our attributes and namespace from a tree (used on a copy for strip_ids saves)."""
    for el in _XPATH_WITH_ID(root):
        del el.attrib[OX_ID]
    ignorable = [p for p in root.get(_IGNORABLE, "").split() if p != OX_PREFIX]
    if ignorable:
        root.set(_IGNORABLE, " ".join(ignorable))
    elif _IGNORABLE in root.attrib:
        del root.attrib[_IGNORABLE]
    keep = [p for p in root.nsmap if p and p != OX_PREFIX]
    etree.cleanup_namespaces(root, keep_ns_prefixes=keep)


class IdIndex:
    """ID -> element for every loaded part, built lazily from the attributes in the files."""

    def __init__(self):
        self._by_id: dict[str, etree._Element] = {}
        self._roots: list[etree._Element] = []
        self._pending: list[etree._Element] = []

    def add_root(self, root: etree._Element) -> None:
        self._roots.append(root)
        if root.nsmap.get(OX_PREFIX) == OX:  # only files we saved carry IDs
            self._pending.append(root)

    def _build(self) -> None:
        while self._pending:
            for attr in _XPATH_ID_ATTRS(self._pending.pop()):
                el, key = attr.getparent(), str(attr)
                if key in self._by_id and self._by_id[key] is not el:
                    del el.attrib[OX_ID]  # a duplicate someone copied: it gets a fresh ID on use
                else:
                    self._by_id[key] = el

    def get(self, element_id: str) -> etree._Element | None:
        self._build()
        el = self._by_id.get(element_id)
        if el is None or not self._attached(el):
            return None
        return el

    def _attached(self, el: etree._Element) -> bool:
        top = el
        while (parent := top.getparent()) is not None:
            top = parent
        return any(top is r for r in self._roots)

    def id_of(self, el: etree._Element) -> str:
        """The element's ID, given now if it has none."""
        existing = el.get(OX_ID)
        if existing is not None:
            if existing not in self._by_id:
                self._by_id[existing] = el
            return existing
        self._build()
        prefix = prefix_for(el)
        while True:
            candidate = f"{prefix}_{secrets.token_hex(3)}"
            if candidate not in self._by_id:
                break
        root = el.getroottree().getroot()
        declare_namespace(root)
        el.set(OX_ID, candidate)
        self._by_id[candidate] = el
        return candidate

    def forget(self, el: etree._Element) -> None:
        """Drop a removed subtree's IDs from the index."""
        for sub in el.iter():
            key = sub.get(OX_ID) if isinstance(sub.tag, str) else None
            if key is not None and self._by_id.get(key) is sub:
                del self._by_id[key]

    @staticmethod
    def clear_ids(el: etree._Element) -> None:
        """Remove IDs from a copied subtree: copies get new IDs."""
        for sub in el.iter():
            if isinstance(sub.tag, str) and OX_ID in sub.attrib:
                del sub.attrib[OX_ID]
