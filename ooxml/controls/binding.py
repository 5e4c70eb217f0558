"""Data binding: a control's ``w:dataBinding`` names a custom XML part (``w:storeItemID``, the
``ds:itemID`` of the part's ``customXml/itemProps*.xml``) and a node in it (an XPath with the
prefixes of ``w:prefixMappings``). Word refreshes a bound control from that node on open, so a
value set in the document is written to the node too.
"""
from __future__ import annotations

import posixpath

from lxml import etree

from ooxml.controls.model import MAX_XPATH, Binding
from ooxml.xml.errors import ValidationError

DS = "http://schemas.openxmlformats.org/officeDocument/2006/customXml"
RT_PROPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps"


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
            if rel.get("Type") != RT_PROPS:
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
    """(part, node) the binding points at, or None when the part or node is not there."""
    if len(binding.xpath) > MAX_XPATH:
        return None
    stores = stores if stores is not None else store_parts(package)
    name = stores.get(_norm(binding.store_item))
    if name is None:
        return None
    part = package.part(name)
    try:
        found = part.tree.xpath(binding.xpath, namespaces=binding.prefixes or None)
    except (etree.XPathError, TypeError, ValueError):
        return None
    if not isinstance(found, list) or not found:
        return None
    node = found[0]
    if isinstance(node, etree._Element) or getattr(node, "is_attribute", False):
        return part, node
    return None


def read_node(node) -> str:
    if isinstance(node, etree._Element):
        return "".join(node.itertext())
    return str(node)


def write_node(part, node, text: str) -> None:
    """Set the bound node's text (an element loses its children; an attribute its value)."""
    if isinstance(node, etree._Element):
        for child in list(node):
            node.remove(child)
        node.text = text
    else:
        owner = node.getparent()
        owner.set(node.attrname, text)
    part.touch()


def check_writable(node) -> None:
    if not isinstance(node, etree._Element) and not getattr(node, "is_attribute", False):
        raise ValidationError("The control's data binding points at no element or attribute.",
                              hint="Fix the control's w:dataBinding XPath, or remove the binding.")
