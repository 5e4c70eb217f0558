"""A package with every external reference cut: what LibreOffice may be given.

LibreOffice loads what a document points to: images linked (``a:blip r:link``, VML ``v:imagedata``
with ``src``/``o:href``/an external relationship), templates, OLE links, sub-documents, frames,
alternative chunks. Fed the user's document it would read files outside the roots into the page
images we return, and fetch addresses from the server's network. So the copy it lays out keeps
only hyperlinks (never fetched by a layout): every other external relationship is dropped,
every attribute naming an external relationship is removed, VML's own address attributes go,
and fields that include or fetch (link_policy.FETCHING_FIELDS) lose their instruction, keeping
the result Word last showed. Works on part bytes, not on a Document: it never touches a session.
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.xml.errors import OoxmlError
from ooxml.opc.link_policy import FETCHING_FIELDS, field_kind
from ooxml.xml.namespaces import PR, STRICT_W, V, W
from ooxml.opc.package import Package
from ooxml.xml.safexml import parse_part, serialize

R_NAMESPACES = ("http://schemas.openxmlformats.org/officeDocument/2006/relationships",
                "http://purl.oclc.org/ooxml/officeDocument/relationships")
O = "urn:schemas-microsoft-com:office:office"
HYPERLINK_USERS = frozenset({"hyperlink", "hlinkClick", "hlinkHover", "hlinkMouseOver"})
_REF_ATTRS = etree.XPath("//@*[namespace-uri()=$r1 or namespace-uri()=$r2 or (namespace-uri()=$o and "
                         "local-name()='relid')]")
_VML_ADDRESSES = etree.XPath("//v:*/@src | //v:*/@o:href | //v:*/@o:althref", namespaces={"v": V, "o": O})
_ADDRESS = re.compile(r"^\s*(?:[A-Za-z][A-Za-z0-9+.-]*:|\\\\|//)")  # a URI scheme, a UNC or network path
_MARKERS = (b"instr", b"altChunk", b"urn:schemas-microsoft-com:vml", b"mailMerge")


def cut(parts: dict[str, bytes]) -> dict[str, bytes]:
    """``parts`` (name -> bytes, as in the zip) with every external reference cut; parts that
    need no change are the same bytes objects."""
    out = dict(parts)
    external: dict[str, tuple[set, set]] = {}  # source part -> (external rel ids, dropped ones)
    for name, data in parts.items():
        if name.endswith(".rels"):
            out[name], external[Package.source_of(name)] = _cut_rels(name, data)
    for name, data in parts.items():
        if not name.endswith((".xml", ".vml")) or name == "[Content_Types].xml":
            continue
        ext, dropped = external.get(name, (set(), set()))
        if ext or any(m in data for m in _MARKERS):
            out[name] = _cut_part(name, data, ext, dropped)
    return out





def _cut_rels(name: str, data: bytes) -> tuple[bytes, tuple[set, set]]:
    try:
        tree = parse_part(data, name)
    except OoxmlError:  # unreadable: LibreOffice gets no relationships for this part
        return (b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="%s"/>' % PR.encode()), (set(), set())
    ext, dropped = set(), set()
    for rel in list(tree.getroot()):
        # An "internal" target that is an address is not a part of the package: cut it all the same.
        if (rel.get("TargetMode") or "").lower() != "external" and not _ADDRESS.match(rel.get("Target") or ""):
            continue
        ext.add(rel.get("Id"))
        if not (rel.get("Type") or "").endswith("/hyperlink"):
            dropped.add(rel.get("Id"))
            tree.getroot().remove(rel)
    return (serialize(tree) if dropped else data), (ext, dropped)


def _cut_part(name: str, data: bytes, ext: set, dropped: set) -> bytes:
    try:
        tree = parse_part(data, name)
    except OoxmlError:
        return data  # LibreOffice refuses it too; nothing of it is laid out
    root = tree.getroot()
    changed = _cut_rel_refs(root, ext, dropped)
    for attr in _VML_ADDRESSES(root):
        del attr.getparent().attrib[attr.attrname]
        changed = True
    ns = STRICT_W if root.tag.startswith("{%s}" % STRICT_W) else W
    changed |= _cut_fields(root, ns)
    for el in root.iter("{%s}altChunk" % ns, "{%s}mailMerge" % ns):  # other packages, data sources
        el.getparent().remove(el)
        changed = True
    return serialize(tree) if changed else data


def _cut_rel_refs(root, ext: set, dropped: set) -> bool:
    """Attributes naming an external relationship go, but a hyperlink's own (a link is never fetched)."""
    if not ext:
        return False
    changed = False
    for attr in _REF_ATTRS(root, r1=R_NAMESPACES[0], r2=R_NAMESPACES[1], o=O):
        el = attr.getparent()
        if str(attr) in dropped or (str(attr) in ext and etree.QName(el).localname not in HYPERLINK_USERS):
            del el.attrib[attr.attrname]
            changed = True
    return changed


def _cut_fields(root, ns: str) -> bool:
    """Fields of the fetching kinds keep their result and lose their instruction."""
    changed = False
    for simple in root.iter("{%s}fldSimple" % ns):
        if field_kind(simple.get("{%s}instr" % ns) or "") in FETCHING_FIELDS:
            simple.set("{%s}instr" % ns, "")
            changed = True
    stack: list[list] = []  # per open complex field: [instruction elements, decided]
    tags = ("{%s}fldChar" % ns, "{%s}instrText" % ns, "{%s}delInstrText" % ns)
    for el in root.iter(*tags):
        if el.tag != tags[0]:
            if stack:
                stack[-1][0].append(el)
            continue
        kind = el.get("{%s}fldCharType" % ns)
        if kind == "begin":
            stack.append([[], False])
        elif kind in ("separate", "end") and stack:
            pieces, decided = stack[-1]
            if not decided:
                stack[-1][1] = True
                if field_kind("".join(p.text or "" for p in pieces)) in FETCHING_FIELDS:
                    for p in pieces:
                        p.text = ""
                    changed = True
            if kind == "end":
                stack.pop()
    return changed
