"""The XML parts docx_check reads: every part with an XML root (story parts registered, so findings in
them carry element IDs), and the unreadable ones apart."""
from __future__ import annotations

from lxml import etree

from ooxml.opc.package import Package
from ooxml.xml.errors import OoxmlError
from ooxml.xml.namespaces import W
from ooxml.opc.parts import story_part_names


class Parts:
    """The roots docx_check reads, by part name; ``word`` those in Word's namespace."""

    def __init__(self, doc):
        self.doc = doc
        pkg = doc.package
        self.stories = story_part_names(pkg, doc.main_name)
        self.roots: dict[str, etree._Element] = {}
        self.unreadable: list[str] = []
        for name in list(pkg.parts):
            if not _xml_name(pkg, name):
                continue
            part = pkg.part(name)
            try:
                self.roots[name] = doc.register_part_root(part) if name in self.stories else part.tree.getroot()
            except (OoxmlError, etree.LxmlError):
                self.unreadable.append(name)
        self.word = {n: r for n, r in self.roots.items() if isinstance(r.tag, str) and r.tag.startswith(f"{{{W}}}")}


def _xml_name(pkg: Package, name: str) -> bool:
    if name == "[Content_Types].xml" or name.endswith(".rels"):
        return False
    ctype = pkg.content_type_of(name) or ""
    return name.endswith(".xml") or ctype.endswith("xml")
