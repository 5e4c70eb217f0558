"""The accessibility rule set: what Word's Accessibility Checker and WCAG 2.1 ask (one module per family)."""
from __future__ import annotations

from ooxml.check import access_alt, access_contrast, access_doc, access_structure, access_tables
from ooxml.check.findings import Finding

TAGS = (*access_alt.TAGS, *access_structure.TAGS, *access_tables.TAGS, *access_contrast.TAGS)


def findings(parts, scans: dict, paragraphs, proven: set = frozenset()) -> list[Finding]:
    """``paragraphs``: the main part's ``access_structure.Paragraphs``, filled by its walk; ``proven``: the
    rules its bytes proved clean (``screen_access``)."""
    doc = parts.doc
    styles = access_contrast.StyleColours(doc.styles.root)
    out = access_doc.findings(doc, parts)
    for name in parts.stories:
        scan = scans.get(name)
        if scan is None:
            continue
        out += access_alt.findings(name, scan) + access_tables.findings(name, scan)
        out += access_structure.findings(doc, name, scan, paragraphs, proven) + access_contrast.findings(doc, name, scan, styles)
    return out
