"""THE vocabulary of relationship types (``RT``) and content types (``CT``): every module names
them from here, none spells a URI (tests/ooxml/opc/test_types.py). Plain strings, no lxml."""
from __future__ import annotations

_OD = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_MS = "http://schemas.microsoft.com/office/"
_OD_CT = "application/vnd.openxmlformats-officedocument."


class RT:
    """Relationship types (the ``Type`` of a ``Relationship``)."""
    PREFIX = _OD  # + the last segment, for types read by name (check/repair_package.py)
    OFFICE_DOCUMENT = _OD + "officeDocument"
    STRICT_OFFICE_DOCUMENT = "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"
    CORE_PROPERTIES = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
    EXTENDED_PROPERTIES = _OD + "extended-properties"
    STYLES = _OD + "styles"
    SETTINGS = _OD + "settings"
    NUMBERING = _OD + "numbering"
    HEADER = _OD + "header"
    FOOTER = _OD + "footer"
    FOOTNOTES = _OD + "footnotes"
    ENDNOTES = _OD + "endnotes"
    COMMENTS = _OD + "comments"
    COMMENTS_EXTENDED = _MS + "2011/relationships/commentsExtended"
    COMMENTS_IDS = _MS + "2016/09/relationships/commentsIds"
    PEOPLE = _MS + "2011/relationships/people"
    IMAGE = _OD + "image"
    HYPERLINK = _OD + "hyperlink"
    CHART = _OD + "chart"
    PACKAGE = _OD + "package"  # an embedded package (a chart's workbook)
    CUSTOM_XML_PROPS = _OD + "customXmlProps"
    ATTACHED_TEMPLATE = _OD + "attachedTemplate"
    # Parts whose content belongs to the main part's stories (ooxml/opc/parts.py story_part_names).
    STORIES = frozenset({HEADER, FOOTER, FOOTNOTES, ENDNOTES, COMMENTS})


class CT:
    """Content types (``[Content_Types].xml`` and files)."""
    OFFICE = _OD_CT  # + a type's name, for types read by name (check/repair_package.py)
    WML = _OD_CT + "wordprocessingml."  # + "header+xml" ...
    RELATIONSHIPS = "application/vnd.openxmlformats-package.relationships+xml"
    CORE_PROPERTIES = "application/vnd.openxmlformats-package.core-properties+xml"
    EXTENDED_PROPERTIES = _OD_CT + "extended-properties+xml"
    DOCUMENT_MAIN = WML + "document.main+xml"
    TEMPLATE_MAIN = WML + "template.main+xml"
    MACRO_DOCUMENT_MAIN = "application/vnd.ms-word.document.macroEnabled.main+xml"
    MACRO_TEMPLATE_MAIN = "application/vnd.ms-word.template.macroEnabledTemplate.main+xml"
    STYLES = WML + "styles+xml"
    SETTINGS = WML + "settings+xml"
    NUMBERING = WML + "numbering+xml"
    HEADER = WML + "header+xml"
    FOOTER = WML + "footer+xml"
    FOOTNOTES = WML + "footnotes+xml"
    ENDNOTES = WML + "endnotes+xml"
    COMMENTS = WML + "comments+xml"
    COMMENTS_EXTENDED = WML + "commentsExtended+xml"
    COMMENTS_IDS = WML + "commentsIds+xml"
    PEOPLE = WML + "people+xml"
    CHART = _OD_CT + "drawingml.chart+xml"
    XLSX = _OD_CT + "spreadsheetml.sheet"  # an embedded workbook; also a .xlsx file's
    DOCX = WML + "document"  # a .docx file's media type (resources, links)
