"""Markup Compatibility (ECMA-376 Part 3): a namespace of Word's later versions (w14, w15 ...) that
new content uses is declared on its part's root and listed in ``mc:Ignorable``, as Word writes it;
lxml alone would declare it on each new element that uses it (NOTES.md, "What makes Word refuse")."""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import MC

IGNORABLE = f"{{{MC}}}Ignorable"
# Attributes naming prefixes in their values: a declaration they name looks unused to lxml but is not.
_NAMING = etree.XPath("//@*[local-name()='Ignorable' or local-name()='Requires' or local-name()='ProcessContent'"
                      " or local-name()='MustUnderstand' or local-name()='PreserveElements'"
                      " or local-name()='PreserveAttributes']")


def declare_ignorable(root: etree._Element, uri: str, prefix: str) -> bool:
    """``uri`` declared on ``root`` (as ``prefix``, unless the root binds it already) and listed in its
    mc:Ignorable; declarations of it below the root go. True if the root changed: the caller
    announces it first (``doc.will_change(root)`` records the root's attributes)."""
    have = next((p for p, u in root.nsmap.items() if u == uri and p), None)
    listed = root.get(IGNORABLE, "").split()
    if have is not None and have in listed and MC in root.nsmap.values():
        return False
    if have is None or MC not in root.nsmap.values():
        have = have or _free(root, prefix)
        _hoist(root, {have: uri} if uri not in root.nsmap.values() else {})
    if have not in listed:
        root.set(IGNORABLE, " ".join([*listed, have]))
    return True


def _free(root: etree._Element, prefix: str) -> str:
    n, name = 1, prefix
    while name in root.nsmap:
        n, name = n + 1, f"{prefix}x{n}"
    return name


def _hoist(root: etree._Element, top: dict[str, str]) -> None:
    """Declare ``top`` (and mc) on the root; each declaration the tree keeps is one it still uses."""
    if MC not in root.nsmap.values():
        top["mc" if "mc" not in root.nsmap else "mcx"] = MC
    named = {token.split(":")[0] for value in _NAMING(root) for token in str(value).split()}
    keep = [p for p in root.nsmap if p] + sorted(named) + list(top)
    etree.cleanup_namespaces(root, top_nsmap=top, keep_ns_prefixes=keep)
