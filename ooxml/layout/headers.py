"""Headers and footers: which part a section shows, inherited the way Word inherits, and new ones.

A section names its headers and footers with ``w:headerReference``/``w:footerReference``
(``w:type`` default, first or even, ``r:id`` to a part of the main part). A section without a
reference of some type shows the previous section's (Word's "link to previous").
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.opc import parts as P
from ooxml.opc.types import CT, RT
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import R, w
from ooxml.xml.order import get_or_add, insert_child
from ooxml.layout.page_setup import header_footer_refs

KINDS = ("header", "footer")
WHICH = ("default", "first", "even")
RT_OF = {"header": RT.HEADER, "footer": RT.FOOTER}
CT_OF = {"header": CT.HEADER, "footer": CT.FOOTER}
ROOT_TAG = {"header": "hdr", "footer": "ftr"}
STYLE_NAME = {"header": "header", "footer": "footer"}


def check_kind(kind: str, which: str) -> None:
    if kind not in KINDS:
        raise ValidationError(f"kind '{kind}' is not header or footer.", hint="Pass kind='header' or kind='footer'.")
    if which not in WHICH:
        raise ValidationError(f"which '{which}' is not default, first or even.",
                              hint="Pass which='default' (every page), 'first' (first page) or 'even' (even pages).")


def part_root(doc, rid: str | None) -> etree._Element | None:
    """The registered root (w:hdr / w:ftr) of the main part's relationship ``rid``."""
    if not rid:
        return None
    for rel in doc.package.rels(doc.main_name):
        if rel.get("Id") == rid and rel.get("TargetMode") != "External":
            name = doc.package.resolve_target(doc.main_name, rel.get("Target", ""))
            if doc.package.has_part(name):
                return doc.register_part_root(doc.package.part(name))
    return None


@dataclass
class Shown:
    root: etree._Element | None
    from_section: int | None  # the section whose reference it is (None: not found)


def shown(doc, sections: list[etree._Element], index: int, kind: str, which: str) -> Shown:
    """The header/footer section ``index`` shows for ``which``, following Word's inheritance."""
    for i in range(index, -1, -1):
        rid = header_footer_refs(sections[i]).get((kind, which))
        if rid is not None:
            return Shown(part_root(doc, rid), i)
    return Shown(None, None)


def create(doc, sect: etree._Element, kind: str, which: str) -> etree._Element:
    """A new header/footer part referenced by ``sect``; returns its root, still empty: the caller
    inserts its first paragraph (the schema wants at least one block)."""
    tag = ROOT_TAG[kind]
    xml = f"<w:{tag} {P.STORY_NAMESPACES}/>"
    name = P.new_part_name(doc.package, kind)
    rid, root = P.add_story_part(doc, name, xml, CT_OF[kind], RT_OF[kind])
    doc.will_change(sect)
    ref = etree.Element(w(f"{kind}Reference"))
    ref.set(w("type"), which)
    ref.set(f"{{{R}}}id", rid)
    _insert_reference(sect, ref)
    if which == "first":
        get_or_add(sect, "titlePg")
    if which == "even":
        P.set_flag(doc, "evenAndOddHeaders")
    doc.changed(sect)
    return root


def _insert_reference(sect: etree._Element, ref: etree._Element) -> None:
    # Word writes headers before footers, each default/even/first; any order of the group is valid.
    refs = [c for c in sect if c.tag in (w("headerReference"), w("footerReference"))]
    if refs:
        refs[-1].addnext(ref)
    else:
        insert_child(sect, ref)


def title_page_on(sect: etree._Element) -> bool:
    el = sect.find(w("titlePg"))
    return el is not None and el.get(w("val"), "true").lower() not in ("0", "false", "off")


def remove(doc, root: etree._Element) -> int:
    """Remove a header/footer part: every section's reference to it, its relationship, content type
    and the part itself. Returns how many references went."""
    from ooxml.layout.page_setup import section_list
    package = doc.package
    part = doc.part_of(root)
    rids = {rel.get("Id") for rel in package.rels(doc.main_name)
            if package.resolve_target(doc.main_name, rel.get("Target", "")) == part.name}
    count = 0
    for sect in section_list(doc):
        for ref in [r for r in sect if r.tag in (w("headerReference"), w("footerReference"))]:
            if ref.get(f"{{{R}}}id") in rids:
                doc.will_change(sect)
                sect.remove(ref)
                doc.changed(sect)
                count += 1
    doc.ids.forget(root)
    package.remove_parts([part.name])  # its images stay in the package only if something else uses them
    return count
