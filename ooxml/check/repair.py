"""docx_check(repair=True): fix what can be fixed without changing what the document says, and say what
was fixed and what was not. ``change(el)`` is called before an element of a story part changes (the
caller's undo: tools/docx/protocol.py ``Edit.change``); other parts are touched here."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ooxml.check import repair_markup as RM
from ooxml.check import repair_package as RP
from ooxml.check.findings import Finding
from ooxml.xml import budget
from ooxml.xml.errors import ValidationError

_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$")
MAX_TITLE = 255
_BY_CODE = {"order": RM.reorder, "para-id": RM.para_id, "duplicate-id": RM.word_id, "cell-end": RM.cell_end,
            "newline": RM.newline, "deleted-text": RM.deleted_text, "undeclared-prefix": RM.prefixes,
            "content-type": lambda doc, f, change: RP.content_type(doc, f)}


@dataclass
class Repairs:
    fixed: list[Finding] = field(default_factory=list)
    left: list[Finding] = field(default_factory=list)


def check_arguments(title: str | None, language: str | None) -> None:
    """Before anything changes: a title and a language Word can hold."""
    if title is not None and (not title.strip() or len(title) > MAX_TITLE or any(ord(c) < 32 for c in title)):
        raise ValidationError(f"title must be 1 to {MAX_TITLE} characters on one line.",
                              hint="Pass the document's title as a reader would see it, e.g. 'Annual report 2026'.")
    if language is not None and not _LANGUAGE.match(language):
        raise ValidationError(f"language '{language[:40]}' is not a language tag.",
                              hint="Pass a BCP 47 tag such as 'en-US', 'de-DE' or 'fr'.")


def repair(doc, findings: list[Finding], change, title: str | None = None, language: str | None = None) -> Repairs:
    out = Repairs()
    stories = {p.name for p in doc.story_parts()}
    for f in findings:
        budget.check()
        if _fix(doc, f, change if f.part in stories else _untracked, title, language, stories):
            out.fixed.append(f)
        else:
            out.left.append(f)
    return out


def _untracked(el) -> None:
    """Elements outside the stories (styles, settings): their part is touched after the fix."""


def _fix(doc, f: Finding, change, title, language, stories: set) -> bool:
    if f.code == "no-title":
        if title:
            RP.set_title(doc, title)
        return bool(title)
    if f.code == "no-language":
        return bool(language) and RP.set_language(doc, language)
    fix = _BY_CODE.get(f.code) if f.repairable else None
    if fix is None:
        return False
    if f.element is not None and f.element.getroottree().getroot() is None:
        return False
    done = fix(doc, f, change)
    if done and f.element is not None and f.part not in stories:
        doc.package.part(f.part).touch()  # parts without stories: undo keeps their bytes
    return done
