"""Adding the styles an edit needs (heading styles) when a document lacks them."""
from __future__ import annotations

from lxml import etree

from ooxml.namespaces import RT_STYLES, w


def ensure_heading_style(doc, level: int) -> str:
    """The style ID for heading ``level`` (0 = Title), added to styles.xml if missing."""
    wanted = "Title" if level == 0 else f"heading {level}"
    existing = doc.styles.find_id(wanted) or doc.styles.find_id("Title" if level == 0 else f"Heading{level}")
    if existing:
        return existing
    part = doc.related_part(RT_STYLES)
    if part is None:
        return "Title" if level == 0 else f"Heading{level}"  # no styles part: Word falls back to Normal
    sid = "Title" if level == 0 else f"Heading{level}"
    style = etree.SubElement(part.tree.getroot(), w("style"), {w("type"): "paragraph", w("styleId"): sid})
    etree.SubElement(style, w("name"), {w("val"): wanted})
    normal = doc.styles.find_id("Normal")
    if normal:
        etree.SubElement(style, w("basedOn"), {w("val"): normal})
        etree.SubElement(style, w("next"), {w("val"): normal})
    etree.SubElement(style, w("qFormat"))
    ppr = etree.SubElement(style, w("pPr"))
    etree.SubElement(ppr, w("keepNext"))
    if level:
        etree.SubElement(ppr, w("outlineLvl"), {w("val"): str(level - 1)})
    rpr = etree.SubElement(style, w("rPr"))
    etree.SubElement(rpr, w("b"))
    etree.SubElement(rpr, w("sz"), {w("val"): str({0: 56, 1: 32, 2: 26}.get(level, 24))})
    part.touch()
    doc.reset_styles()
    return sid
