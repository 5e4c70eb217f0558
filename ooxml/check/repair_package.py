"""Repairs on the package: content types for parts without one, the document's title and language."""
from __future__ import annotations

from lxml import etree

from ooxml.check import access_doc
from ooxml.check.word_package import extension
from ooxml.opc import template
from ooxml.opc.types import CT, RT
from ooxml.xml import order
from ooxml.xml.namespaces import W

# Relationship type (last segment) -> the content type of its target.
BY_REL = {"officeDocument": CT.DOCUMENT_MAIN, "styles": CT.STYLES, "settings": CT.SETTINGS, "numbering": CT.NUMBERING,
          "fontTable": CT.WML + "fontTable+xml", "webSettings": CT.WML + "webSettings+xml", "footnotes": CT.FOOTNOTES,
          "endnotes": CT.ENDNOTES, "comments": CT.COMMENTS, "header": CT.HEADER, "footer": CT.FOOTER,
          "theme": CT.OFFICE + "theme+xml", "chart": CT.CHART, "core-properties": CT.CORE_PROPERTIES,
          "extended-properties": CT.EXTENDED_PROPERTIES}
BY_EXT = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "gif": "image/gif", "bmp": "image/bmp",
          "tif": "image/tiff", "tiff": "image/tiff", "emf": "image/x-emf", "wmf": "image/x-wmf",
          "svg": "image/svg+xml", "xml": "application/xml",
          "rels": CT.RELATIONSHIPS, "xlsx": CT.XLSX, "bin": CT.OFFICE + "oleObject"}
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
        pkg.relate("", RT.CORE_PROPERTIES, access_doc.CORE)
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
