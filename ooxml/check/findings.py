"""One finding of docx_check: where (an element's ID, else part and path), how bad, what, and the fix."""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from ooxml.xml.ids import PREFIXES
from ooxml.xml.namespaces import W

ERROR, WARNING = "error", "warning"
_ADDRESSED = {f"{{{W}}}{name}" for name in PREFIXES}


@dataclass
class Finding:
    rule: str  # the rule set: "word" or "accessibility"
    code: str  # the kind, short: "order", "para-id", ...
    severity: str
    part: str
    what: str
    fix: str
    element: etree._Element | None = field(default=None, repr=False, compare=False)
    repairable: bool = False  # docx_check(repair=True) fixes it
    where: str = ""  # set by ``locate``


def locate(doc, findings: list[Finding]) -> list[Finding]:
    """Each finding's ``where``: the ID of the element (or of the nearest element that has IDs) in a story
    part, else the part and the element's path there, else the part."""
    stories = {part.name: part for part in doc.story_parts()}
    for f in findings:
        f.where = _where(doc, f, f.part in stories)
    return findings


def _where(doc, f: Finding, in_story: bool) -> str:
    el = f.element
    if el is None or not isinstance(el.tag, str):
        return f.part
    if in_story:
        held = next((a for a in el.iterancestors() if a.tag in _ADDRESSED), None) if el.tag not in _ADDRESSED else el
        if held is not None:
            try:
                return doc.id_of(held)
            except ValueError:  # not in a registered story (a detached copy): say the path
                pass
    return f"{f.part} {el.getroottree().getpath(el)}"
