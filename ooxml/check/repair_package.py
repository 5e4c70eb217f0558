"""Repairs on the package: content types for parts without one, the document's title and language."""
from __future__ import annotations

from lxml import etree

from ooxml.check import access_doc
from ooxml.check.word_package import extension
from ooxml.opc import template
from ooxml.xml import order
from ooxml.xml.namespaces import W

_OD = "application/vnd.openxmlformats-officedocument."
_WML = _OD + "wordprocessingml."
# Relationship type (last segment) -> the content type of its target.
BY_REL = {"officeDocument": _WML + "document.main+xml", "styles": _WML + "styles+xml",
          "settings": _WML + "settings+xml", "numbering": _WML + "numbering+xml", "fontTable": _WML + "fontTable+xml",
          "webSettings": _WML + "webSettings+xml", "footnotes": _WML + "footnotes+xml",
          "endnotes": _WML + "endnotes+xml", "comments": _WML + "comments+xml", "header": _WML + "header+xml",
          "footer": _WML + "footer+xml", "theme": _OD + "theme+xml", "chart": _OD + "drawingml.chart+xml",
          "core-properties": "application/vnd.openxmlformats-package.core-properties+xml",
          "extended-properties": _OD + "extended-properties+xml"}
BY_EXT = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "gif": "image/gif", "bmp": "image/bmp",
          "tif": "image/tiff", "tiff": "image/tiff", "emf": "image/x-emf", "wmf": "image/x-wmf",
          "svg": "image/svg+xml", "xml": "application/xml",
          "rels": "application/vnd.openxmlformats-package.relationships+xml",
          "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          "bin": _OD + "oleObject"}
CORE_REL = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
DC = "http://purl.org/dc/elements/1.1/"


def content_type(doc, f) -> bool:
    pkg = doc.package
    by_rel = _rel_type_of(pkg, f.part)
    if by_rel in BY_REL:
        pkg.set_override(f.part, BY_REL[by_rel])
        return True
    ext = extension(f.part)
    return ext in BY_EXT and pkg.set_default(ext, BY_EXT[ext])


def _rel_type_of(pkg, name: str) -> str | None:
    for rels_name in [n for n in pkg.parts if n.endswith(".rels")]:
        source = pkg.source_of(rels_name)
        for rel in pkg.rels(source):
            if rel.get("TargetMode") != "External" and pkg.resolve_target(source, rel.get("Target", "")) == name:
                return rel.get("Type", "").rstrip("/").rpartition("/")[2]
    return None


def set_title(doc, title: str) -> None:
    pkg = doc.package
    if not pkg.has_part(access_doc.CORE):
        pkg.add_part(access_doc.CORE, template.core_xml().encode(), BY_REL["core-properties"])
        pkg.relate("", CORE_REL, access_doc.CORE)
    part = pkg.part(access_doc.CORE)
    root = part.tree.getroot()
    el = root.find(f"{{{DC}}}title")
    if el is None:
        el = etree.SubElement(root, f"{{{DC}}}title")
    el.text = title
    part.touch()


def set_language(doc, language: str) -> bool:
    """The default run language (styles.xml docDefaults), as Word writes it; False without a styles part."""
    name = access_doc.styles_name(doc)
    if name is None:
        return False
    part = doc.package.part(name)
    root = part.tree.getroot()
    defaults = _first(root, "docDefaults")
    lang = order.get_or_add(_first(_first(defaults, "rPrDefault"), "rPr"), "lang")
    lang.set(f"{{{W}}}val", language)
    part.touch()
    doc.reset_styles()
    return True


def _first(parent, name: str):
    """``w:name`` as ``parent``'s child, created as the first child when missing (docDefaults leads styles.xml,
    rPrDefault leads docDefaults)."""
    el = parent.find(f"{{{W}}}{name}")
    if el is None:
        el = etree.Element(f"{{{W}}}{name}")
        parent.insert(0, el)
    return el
