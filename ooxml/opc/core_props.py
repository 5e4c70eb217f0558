"""The package's core properties (docProps/core.xml) as an export needs them: the title."""
from __future__ import annotations

from ooxml.xml.errors import OoxmlError
from ooxml.xml.safexml import parse_part

DC = "http://purl.org/dc/elements/1.1/"
CORE = "docProps/core.xml"


def title(parts: dict[str, bytes]) -> str | None:
    """dc:title, or None when the package has none (or its core part is damaged)."""
    data = parts.get(CORE)
    if not data:
        return None
    try:
        found = parse_part(data, CORE).getroot().find(f"{{{DC}}}title")
    except OoxmlError:
        return None
    text = (found.text or "").strip() if found is not None else ""
    return text or None
