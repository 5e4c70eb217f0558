"""Word rules on the package: relationships whose target is missing, references without a relationship,
parts without a content type, mc:Ignorable / mc:Choice prefixes not declared, mc:AlternateContent
without a fallback."""
from __future__ import annotations

import posixpath
from urllib.parse import unquote

from lxml import etree

from ooxml.check.findings import ERROR, WARNING, Finding
from ooxml.check.parts import Parts
from ooxml.opc.package import Package
from ooxml.xml.namespaces import CT, MC, PR, R

IGNORABLE = f"{{{MC}}}Ignorable"
CHOICE, ALT, FALLBACK = f"{{{MC}}}Choice", f"{{{MC}}}AlternateContent", f"{{{MC}}}Fallback"


TAGS = (CHOICE, ALT)


def _naming(scan) -> list[etree._Element]:
    """The part's root (where Word writes mc:Ignorable) and every mc:Choice."""
    return [scan.root, *scan.get(CHOICE)]
_R_ATTRS = etree.XPath("//@r:*", namespaces={"r": R})


def findings(parts: Parts, scans: dict) -> list[Finding]:
    pkg = parts.doc.package
    out = content_types(pkg) + targets(pkg)
    out += [Finding("word", "unreadable", ERROR, name, "the part is not well-formed XML",
                    "Nothing here can repair it: rebuild the document from its text.") for name in parts.unreadable]
    for name, root in parts.roots.items():
        out += references(pkg, name, root)
        if name in scans:
            out += prefixes(name, scans[name]) + fallbacks(name, scans[name])
    return out


def missing_types(pkg) -> list[str]:
    """Parts without a content type (no Override naming them, no Default for their extension)."""
    root = pkg.content_types
    overrides = {o.get("PartName", "").lower() for o in root.iter(f"{{{CT}}}Override")}
    defaults = {d.get("Extension", "").lower() for d in root.iter(f"{{{CT}}}Default")}
    return [name for name in pkg.parts if name != "[Content_Types].xml"
            and "/" + name.lower() not in overrides and extension(name) not in defaults]


def extension(name: str) -> str:
    base = posixpath.basename(name)
    return base.rsplit(".", 1)[1].lower() if "." in base else ""


def content_types(pkg) -> list[Finding]:
    # "[trash]/": parts Word 2007 left for deletion; Word and the validator ignore them
    return [Finding("word", "content-type", WARNING if name.startswith("[trash]/") else ERROR, name, f"the part has no content type (no Override, no Default "
                    f"for '.{extension(name)}')", "Run docx_check with repair=True: it adds the content type.",
                    repairable=True) for name in missing_types(pkg)]


def targets(pkg) -> list[Finding]:
    out = []
    for rels_name in [n for n in pkg.parts if n.endswith(".rels")]:
        source = Package.source_of(rels_name)
        try:
            rels = pkg.part(rels_name).tree.getroot()
        except Exception:  # reported as unreadable by the caller's parts? a .rels part is not among them
            out.append(Finding("word", "unreadable", ERROR, rels_name, "the relationships part is not well-formed XML",
                               "Nothing here can repair it."))
            continue
        for rel in rels.iter(f"{{{PR}}}Relationship"):
            target = unquote((rel.get("Target") or "").split("#")[0])
            if rel.get("TargetMode") == "External" or not target:
                continue
            if not pkg.has_part(pkg.resolve_target(source, target)):
                out.append(Finding("word", "missing-part", ERROR, rels_name, f"relationship {rel.get('Id')} targets "
                                   f"the missing part '{pkg.resolve_target(source, target)}'",
                                   "Delete what uses the relationship, or add the part.", rel))
    return out


def references(pkg, name: str, root: etree._Element) -> list[Finding]:
    values = _R_ATTRS(root)
    if not values:
        return []
    ids = {rel.get("Id") for rel in pkg.rels(name)}
    return [Finding("word", "missing-relationship", ERROR, name, f"r:{etree.QName(v.attrname).localname}=\"{v}\" "
                    "names no relationship of the part", "Delete the element that refers to it.", v.getparent())
            for v in values if str(v) and str(v) not in ids]


def prefixes(name: str, scan) -> list[Finding]:
    out = []
    for el in _naming(scan):
        attr = IGNORABLE if el.get(IGNORABLE) is not None else "Requires"
        missing = [p for p in (el.get(attr) or "").split() if p not in el.nsmap]
        if missing:
            out.append(Finding("word", "undeclared-prefix", ERROR, name, f"mc:{attr.rpartition('}')[2]} names "
                               f"undeclared prefix {', '.join(missing)}", "Run docx_check with repair=True: it drops "
                               "the undeclared prefixes from the list." if attr == IGNORABLE else
                               "Declare the namespace or remove the mc:Choice.", el, repairable=attr == IGNORABLE))
    return out


def fallbacks(name: str, scan) -> list[Finding]:
    return [Finding("word", "no-fallback", WARNING, name, "mc:AlternateContent without mc:Fallback: an application "
                    "that does not know the choice shows nothing", "Add an mc:Fallback (Word writes a VML or picture "
                    "copy).", el) for el in scan.get(ALT) if el.find(FALLBACK) is None]
