"""Accessibility rules on the document as a whole: a title (docProps/core.xml dc:title) and a language
(the default run language in styles.xml, else the theme font language in settings.xml)."""
from __future__ import annotations

from ooxml.check.findings import ERROR, Finding
from ooxml.opc.types import RT
from ooxml.xml.namespaces import W

CORE = "docProps/core.xml"
DC = "http://purl.org/dc/elements/1.1/"
LANG_PATH = f"{{{W}}}docDefaults/{{{W}}}rPrDefault/{{{W}}}rPr/{{{W}}}lang"


def findings(doc, parts) -> list[Finding]:
    out = []
    if not title(parts):
        out.append(Finding("accessibility", "no-title", ERROR, CORE, "the document has no title",
                           "Run docx_check with repair=True and title='…'.", repairable=True))
    if not language(doc, parts):
        out.append(Finding("accessibility", "no-language", ERROR, styles_name(doc) or "word/styles.xml",
                           "the document names no language", "Run docx_check with repair=True and "
                           "language='en-US' (the text's language tag).", repairable=True))
    return out


def title(parts) -> str:
    root = parts.roots.get(CORE)
    el = root.find(f"{{{DC}}}title") if root is not None else None
    return (el.text or "").strip() if el is not None else ""


def language(doc, parts) -> str:
    styles = parts.roots.get(styles_name(doc) or "")
    lang = styles.find(LANG_PATH) if styles is not None else None
    if lang is not None and lang.get(f"{{{W}}}val"):
        return lang.get(f"{{{W}}}val")
    settings = parts.roots.get(settings_name(doc) or "")
    theme = settings.find(f"{{{W}}}themeFontLang") if settings is not None else None
    return theme.get(f"{{{W}}}val", "") if theme is not None else ""


def styles_name(doc) -> str | None:
    part = doc.related_part(RT.STYLES)
    return part.name if part is not None else None


def settings_name(doc) -> str | None:
    part = doc.related_part(RT.SETTINGS)
    return part.name if part is not None else None
