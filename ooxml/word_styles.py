"""Styles an edit needs, added from Word's own defaults when a document lacks them:
Hyperlink, TOC 1-9, TOC Heading. (Heading styles: styles_edit.py.)"""
from __future__ import annotations

from lxml import etree

from ooxml.namespaces import RT_STYLES, W


def _add(doc, xml: str) -> None:
    part = doc.related_part(RT_STYLES)
    style = etree.fromstring(f'<w:style xmlns:w="{W}" {xml}</w:style>')
    part.tree.getroot().append(style)
    part.touch()
    doc.reset_styles()


def _based_on(doc, sid: str) -> str:
    return f'<w:basedOn w:val="{sid}"/>' if doc.styles.exists(sid) else ""


def ensure_hyperlink_style(doc) -> str | None:
    """The Hyperlink character style's ID (None when the document has no styles part)."""
    existing = doc.styles.find_id("Hyperlink", "character")
    if existing or doc.related_part(RT_STYLES) is None:
        return existing
    _add(doc, 'w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/>'
              + _based_on(doc, "DefaultParagraphFont")
              + '<w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:rPr><w:color w:val="0563C1" '
                'w:themeColor="hyperlink"/><w:u w:val="single"/></w:rPr>')
    return "Hyperlink"


def ensure_toc_style(doc, level: int) -> str | None:
    """The style ID of ``toc N`` (Word: styleId TOC1, name 'toc 1'), added if missing."""
    existing = doc.styles.find_id(f"toc {level}") or doc.styles.find_id(f"TOC{level}")
    if existing or doc.related_part(RT_STYLES) is None:
        return existing
    normal = doc.styles.find_id("Normal")
    indent = f'<w:ind w:left="{220 * (level - 1)}"/>' if level > 1 else ""
    _add(doc, f'w:type="paragraph" w:styleId="TOC{level}"><w:name w:val="toc {level}"/>'
              + (f'<w:basedOn w:val="{normal}"/><w:next w:val="{normal}"/>' if normal else "")
              + f'<w:autoRedefine/><w:uiPriority w:val="39"/><w:unhideWhenUsed/>'
                f'<w:pPr><w:spacing w:after="100"/>{indent}</w:pPr>')
    return f"TOC{level}"


def ensure_toc_heading_style(doc, heading1: str | None) -> str | None:
    existing = doc.styles.find_id("TOC Heading") or doc.styles.find_id("TOCHeading")
    if existing or doc.related_part(RT_STYLES) is None:
        return existing
    normal = doc.styles.find_id("Normal")
    _add(doc, 'w:type="paragraph" w:styleId="TOCHeading"><w:name w:val="TOC Heading"/>'
              + (f'<w:basedOn w:val="{heading1}"/>' if heading1 else "")
              + (f'<w:next w:val="{normal}"/>' if normal else "")
              + '<w:uiPriority w:val="39"/><w:unhideWhenUsed/><w:qFormat/>'
                '<w:pPr><w:outlineLvl w:val="9"/></w:pPr>')
    return "TOCHeading"
