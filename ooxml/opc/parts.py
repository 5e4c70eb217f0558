"""New parts a document grows: story parts (headers, footers, notes) and settings flags.

Adding a part is four things that must all happen: the part, its content type, the main part's
relationship to it, and (for story parts) our ID namespace on its root. They happen here.
"""
from __future__ import annotations


from lxml import etree

from ooxml.opc.types import CT, RT
from ooxml.xml.errors import InvalidDocument
from ooxml.xml.namespaces import W, w
from ooxml.xml.order import get_or_add

# The namespaces Word declares on a story part's root (those its content commonly uses).
STORY_NAMESPACES = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14"')


def story_part_names(package, main_name: str) -> list[str]:
    """The main part and the parts whose content belongs to it (headers, footers, notes, comments)."""
    names = [main_name]
    for rel in package.rels(main_name):
        if rel.get("Type") in RT.STORIES and rel.get("TargetMode") != "External":
            name = package.resolve_target(main_name, rel.get("Target", ""))
            if package.has_part(name) and name not in names:
                names.append(name)
    return names


def new_part_name(package, stem: str) -> str:
    """``word/header3.xml``: the first free name of the form word/<stem>N.xml."""
    taken = {name.lower() for name in package.parts}
    n = 1
    while f"word/{stem}{n}.xml" in taken:
        n += 1
    return f"word/{stem}{n}.xml"


def add_story_part(doc, name: str, root_xml: str, content_type: str, rel_type: str) -> tuple[str, etree._Element]:
    """Add a story part (``root_xml`` is its root element's XML with STORY_NAMESPACES) and relate it
    to the main part; returns (relationship id, the registered root)."""
    data = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + root_xml).encode()
    package = doc.package
    part = package.add_part(name, data, content_type)
    rid = package.relate_part(doc.main_name, rel_type, name)
    doc.story_added(name)
    root = doc.register_part_root(part)
    return rid, root


def settings_root(doc, create: bool = True) -> etree._Element | None:
    """settings.xml's root, created (with its relationship) when the document has none."""
    part = doc.related_part(RT.SETTINGS)
    if part is not None and (part.name == doc.main_name or part.tree.getroot().tag != w("settings")):
        if not create:
            return None  # read as "no settings": what Word falls back to
        raise InvalidDocument(f"The document's settings relationship points at '{part.name}', which is not a "
                              "settings part, so no setting can be changed.",
                              hint="Repair the document (open and save it in Word), then try again.")
    if part is None:
        if not create:
            return None
        name = "word/settings.xml" if not doc.package.has_part("word/settings.xml") else new_part_name(doc.package, "settings")
        part = doc.package.add_part(name, b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                                          b'<w:settings xmlns:w="' + W.encode() + b'"/>', CT.SETTINGS)
        doc.package.relate_part(doc.main_name, RT.SETTINGS, name)
    return part.tree.getroot()


def set_flag(doc, name: str) -> bool:
    """Turn on an on/off setting (evenAndOddHeaders, updateFields, trackRevisions); True when it changed."""
    root = settings_root(doc)
    existing = root.find(w(name))
    if existing is not None and existing.get(w("val"), "true").lower() not in ("0", "false", "off"):
        return False
    doc.will_change(root)
    el = get_or_add(root, name)
    el.attrib.pop(w("val"), None)
    doc.related_part(RT.SETTINGS).touch()
    return True


def clear_flag(doc, name: str) -> bool:
    """Turn off an on/off setting by removing it, as Word does; True when it changed."""
    root = settings_root(doc, create=False)
    existing = root.find(w(name)) if root is not None else None
    if existing is None:
        return False
    doc.will_change(root)
    root.remove(existing)
    doc.related_part(RT.SETTINGS).touch()
    return True


def flag_on(doc, name: str) -> bool:
    root = settings_root(doc, create=False)
    if root is None:
        return False
    el = root.find(w(name))
    return el is not None and el.get(w("val"), "true").lower() not in ("0", "false", "off")

