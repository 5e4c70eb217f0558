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
from ooxml.xml.namespaces import CT, MC, PR, R, W

IGNORABLE = f"{{{MC}}}Ignorable"
CHOICE, ALT, FALLBACK = f"{{{MC}}}Choice", f"{{{MC}}}AlternateContent", f"{{{MC}}}Fallback"




def _naming(scan) -> list[etree._Element]:
    """The part's root (where Word writes mc:Ignorable) and every mc:Choice."""
    return [scan.root, *scan.get(CHOICE)]
_R_ATTRS = etree.XPath("//@r:*", namespaces={"r": R})
# Where the story parts hold relationship IDs: found through the shared walk (an XPath over every attribute
# of a 50,000-paragraph body costs 0.1 s); the other parts are small and read by the XPath.
_A, _V, _O = "http://schemas.openxmlformats.org/drawingml/2006/main", "urn:schemas-microsoft-com:vml", \
    "urn:schemas-microsoft-com:office:office"
R_HOLDERS = tuple(f"{{{W}}}{t}" for t in "hyperlink headerReference footerReference altChunk subDoc control "
                  "printerSettings embedRegular".split()) + \
    tuple(f"{{{_A}}}{t}" for t in "blip hlinkClick hlinkHover".split()) + \
    (f"{{{_V}}}imagedata", f"{{{_V}}}fill", f"{{{_O}}}OLEObject", "{http://schemas.openxmlformats.org/drawingml/2006/"
     "chart}chart", "{http://schemas.openxmlformats.org/drawingml/2006/diagram}relIds",
     "{http://schemas.microsoft.com/office/drawing/2016/SVG/main}svgBlip",
     "{http://schemas.microsoft.com/office/word/2010/wordml}contentPart",
     "{http://schemas.microsoft.com/office/drawing/2014/chartex}chart")
_R_PREFIX = f"{{{R}}}"
TAGS = (CHOICE, ALT, *R_HOLDERS)


def findings(parts: Parts, scans: dict) -> list[Finding]:
    pkg = parts.doc.package
    out = content_types(pkg) + targets(pkg)
    out += [Finding("word", "unreadable", ERROR, name, "the part is not well-formed XML",
                    "Nothing here can repair it: rebuild the document from its text.") for name in parts.unreadable]
    for name, root in parts.roots.items():
        out += references(pkg, name, root, scans.get(name) if name in parts.stories else None)
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
    return [Finding("word", "content-type", WARNING if name.startswith("[trash]/") else ERROR, name,
                    f"the part has no content type (no Override, no Default "
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


def references(pkg, name: str, root: etree._Element, scan=None) -> list[Finding]:
    values = _R_ATTRS(root) if scan is None else [v for el in scan.get(*R_HOLDERS) for k, v in el.attrib.items()
                                                   if k.startswith(_R_PREFIX)]
    if not values:
        return []
    ids = {rel.get("Id") for rel in pkg.rels(name)}
    bad = [v for v in values if v and v not in ids]
    if not bad:
        return []
    holders = [(el, k) for el in (scan.get(*R_HOLDERS) if scan is not None else root.iter())
               for k, v in el.attrib.items() if k.startswith(_R_PREFIX) and v in bad]
    return [Finding("word", "missing-relationship", ERROR, name, f"r:{k[len(_R_PREFIX):]}=\"{el.get(k)}\" names no "
                    "relationship of the part", "Delete the element that refers to it.", el) for el, k in holders]


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
