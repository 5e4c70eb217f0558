"""Data binding: a control's ``w:dataBinding`` names a custom XML part (``w:storeItemID``, the
``ds:itemID`` of the part's ``customXml/itemProps*.xml``) and a node in it (an XPath with the
prefixes of ``w:prefixMappings``). Word refreshes a bound control from that node on open, so a
value set in the document is written to the node too.
"""
from __future__ import annotations

import posixpath

from lxml import etree

from ooxml.controls import binding_path as PATH

from ooxml.controls.model import Binding
from ooxml.opc.types import RT
from ooxml.xml.errors import ValidationError

DS = "http://schemas.openxmlformats.org/officeDocument/2006/customXml"


def _norm(guid: str | None) -> str:
    return (guid or "").strip().strip("{}").lower()


def store_parts(package) -> dict[str, str]:
    """storeItemID (normalised) -> the custom XML item part's name."""
    out = {}
    for name in list(package.parts):
        if not name.startswith("customXml/") or name.count("/") != 1 or not name.endswith(".xml") \
                or posixpath.basename(name).startswith("itemProps"):
            continue
        for rel in package.rels(name):
            if rel.get("Type") != RT.CUSTOM_XML_PROPS:
                continue
            props = package.resolve_target(name, rel.get("Target", ""))
            if not package.has_part(props):
                continue
            root = package.part(props).tree.getroot()
            item_id = root.get(f"{{{DS}}}itemID")
            if item_id:
                out[_norm(item_id)] = name
    return out


def bound_node(package, binding: Binding, stores: dict[str, str] | None = None):
    """(part, node) the binding points at, or None when the part or node is not there (or the XPath is
    not a simple path: ``not_evaluated`` says why). The node is an element or an ``Attribute``."""
    steps = PATH.steps(binding)
    if steps is None:
        return None
    stores = stores if stores is not None else store_parts(package)
    name = stores.get(_norm(binding.store_item))
    if name is None:
        return None
    part = package.part(name)
    node = PATH.select(part.tree, steps)
    return None if node is None else (part, node)


def not_evaluated(binding: Binding) -> str | None:
    """Why the binding's XPath is not evaluated (None: it is a simple path)."""
    return PATH.why_not(binding)


def refuse_unevaluated(binding: Binding | None, label: str) -> None:
    """A value for a control whose bound node we cannot find would be undone by Word's refresh: refuse."""
    why = None if binding is None else not_evaluated(binding)
    if why:
        raise ValidationError(f"The data binding of {label} was not evaluated: {why} "
                              f"(XPath {binding.xpath[:120]!r}). Nothing was changed.",
                              hint="Word writes simple paths such as /ns0:root[1]/ns0:name[1]: fix the binding in "
                                   "Word, or remove bindings with docx_scrub(categories=['custom_xml']).")


def read_node(node) -> str:
    if isinstance(node, etree._Element):
        return "".join(node.itertext())
    return node.value


def write_node(part, node, text: str) -> None:
    """Set the bound node's text (an element loses its children; an attribute its value)."""
    if isinstance(node, etree._Element):
        for child in list(node):
            node.remove(child)
        node.text = text
    else:
        node.owner.set(node.name, text)
    part.touch()
