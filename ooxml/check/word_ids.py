"""Word rules: Word's own IDs in range and unique (NOTES.md 5): w14:paraId/textId, the w:id of revisions,
bookmarks and comments, wp:docPr ids across the stories, style IDs."""
from __future__ import annotations

import re
from collections import defaultdict

from lxml import etree

from ooxml.check.findings import ERROR, WARNING, Finding
from ooxml.xml.namespaces import MC, V, W, W14, WP
from ooxml.xml.wordids import REVISIONS

PARA_ID, TEXT_ID = f"{{{W14}}}paraId", f"{{{W14}}}textId"
W_ID = f"{{{W}}}id"
_FALLBACK, _ALT = f"{{{MC}}}Fallback", f"{{{MC}}}AlternateContent"
BOOKMARK = f"{{{W}}}bookmarkStart"
COMMENT_START = f"{{{W}}}commentRangeStart"
COMMENT = f"{{{W}}}comment"
DOC_PR = f"{{{WP}}}docPr"
_HAS_PARA_IDS = (f"{{{W}}}p", f"{{{W}}}tr")
_VML = f"{{{V}}}*"
RENUMBER = "Run docx_check with repair=True: it gives new IDs."


TAGS = (*REVISIONS, BOOKMARK, COMMENT_START, COMMENT, DOC_PR, _VML)  # kept by the walk; paragraphs visited


class ParaIds:
    """The paraIds and textIds of a part's paragraphs and rows, read as the walk passes them: the common
    case (all valid, none repeated) is judged on the values alone; otherwise the elements are walked again."""

    def __init__(self):
        self.para: list = []
        self.text: list = []

    def visitors(self) -> dict:
        para, text = self.para.append, self.text.append

        def visit(el):
            para(el.get(PARA_ID))
            text(el.get(TEXT_ID))
        return dict.fromkeys(_HAS_PARA_IDS, visit)

    def findings(self, name: str, root: etree._Element) -> list[Finding]:
        if _clean(self.para, unique=True) and _clean(self.text, unique=False):
            return []  # the common case, without a walk per element
        return _para_ids(name, [el for tag in _HAS_PARA_IDS for el in root.iter(tag)])


def _clean(values: list, unique: bool) -> bool:
    """All given values valid (and, with ``unique``, none repeated, whatever the case). Valid values are
    upper case: checked as they are first, upper-cased (a call per value) only if one is not."""
    given = set(values)
    given.discard(None)
    count = len(values) - values.count(None)
    if _all_ok(given):
        return not unique or len(given) == count
    upper = {v.upper() for v in given}
    if unique and len(upper) != count:
        return False
    return _all_ok(upper)


def findings(name: str, scan, para_ids: ParaIds | None) -> list[Finding]:
    """``para_ids`` None: the part's paraIds were proven clean on its bytes (``screen_rules``)."""
    found = para_ids.findings(name, scan.root) if para_ids is not None else []
    return found + _annotation_ids(name, scan) + vml_id_findings(name, scan)


_HEX = re.compile(r"[0-7][0-9A-F]{7}")


_ALL = re.compile(r"(?:[0-7][0-9A-F]{7} )*")


def _all_ok(values: set) -> bool:
    """Every value 8 hex digits, above 0 and below 0x80000000 (one regular expression over them all)."""
    return "00000000" not in values and _ALL.fullmatch(" ".join(values) + " " if values else "") is not None


def _ok(value: str) -> bool:
    return _HEX.fullmatch(value.upper()) is not None and value != "00000000"


def hex_ok(value: str | None) -> bool:
    try:
        return value is not None and len(value) == 8 and 0 < int(value, 16) < 0x80000000
    except ValueError:
        return False


def _para_ids(name: str, els: list) -> list[Finding]:
    out, seen = [], set()
    for el in els:
        for attr in (PARA_ID, TEXT_ID):
            value = el.get(attr)
            if value is not None and not (len(value) == 8 and hex_ok(value)):
                out.append(Finding("word", "para-id", ERROR, name, f"w14:{attr.rpartition('}')[2]} {value} is not "
                                   "8 hex digits between 1 and 7FFFFFFF", RENUMBER, el, repairable=True))
        value = el.get(PARA_ID)
        if value is None:
            continue
        value = value.upper()
        # Word repeats a text box's paragraphs (and their paraIds) in mc:Fallback: one copy counts.
        if value in seen and next(el.iterancestors(_FALLBACK), None) is None:
            out.append(Finding("word", "para-id", WARNING, name, f"w14:paraId {value} is used twice in the part",
                               RENUMBER, el, repairable=True))
        elif next(el.iterancestors(_FALLBACK), None) is None:
            seen.add(value)
    return out


def _annotation_ids(name: str, scan) -> list[Finding]:
    """The same w:id twice among revisions, bookmarks, comment ranges or comments of one kind; and a
    revision id that a bookmark or comment also uses (Word keeps one numbering for all annotations)."""
    out = []
    by_kind: dict[str, dict[str, etree._Element]] = defaultdict(dict)
    for el in scan.ordered(*REVISIONS, BOOKMARK, COMMENT_START, COMMENT):  # document order: the later one is "twice"
        value = el.get(W_ID)
        if value is None or next(el.iterancestors(_FALLBACK), None) is not None:
            continue
        kind = "revision" if el.tag in REVISIONS else el.tag.rpartition("}")[2]
        if value in by_kind[kind]:  # Word opens repeated revision ids; the others it repairs
            severity = WARNING if kind == "revision" else ERROR
            fixable = kind in ("revision", "bookmarkStart")
            out.append(Finding("word", "duplicate-id", severity, name, f"{_kind(kind)} w:id {value} is used twice",
                               RENUMBER if fixable else "Give one of the two a new w:id (and its range marks).", el,
                               repairable=fixable))
        else:
            by_kind[kind][value] = el
    revisions = by_kind["revision"]
    for kind in (BOOKMARK, COMMENT_START):
        for value, el in by_kind[kind.rpartition("}")[2]].items():
            if value in revisions:
                out.append(Finding("word", "duplicate-id", WARNING, name, f"revision w:id {value} is also a "
                                   f"{_kind(kind.rpartition('}')[2])}'s id", RENUMBER, revisions[value],
                                   repairable=True))
    return out


def _kind(kind: str) -> str:
    return {"bookmarkStart": "bookmark", "commentRangeStart": "comment range", "comment": "comment"}.get(kind, kind)


def doc_pr_findings(scans: dict) -> list[Finding]:
    """wp:docPr ids are unique across the main part, headers, footers and notes."""
    out, seen = [], {}
    for name, scan in scans.items():
        for el in scan.get(DOC_PR):
            value = el.get("id")
            # a choice and its fallback are one drawing: the same id in both is right
            alt = next(el.iterancestors(_ALT), None)
            if value in seen and (alt is None or seen[value] is not alt):
                out.append(Finding("word", "duplicate-id", ERROR, name, f"drawing id (wp:docPr) {value} is used twice",
                                   RENUMBER, el, repairable=True))
            seen.setdefault(value, alt)
    return out


def vml_id_findings(name: str, scan) -> list[Finding]:
    """VML shapes and shape types: their ids are unique in the part."""
    out, seen = [], set()
    for el in scan.get(*[t for t in scan.by_tag if t.startswith(_VML[:-1])]):
        value = el.get("id")
        if value is None:
            continue
        if value in seen:
            out.append(Finding("word", "duplicate-id", ERROR, name, f"VML id {value} is used twice",
                               "Delete the repeated shape type, or copy the shape again (new ids).", el))
        seen.add(value)
    return out


def style_id_findings(name: str, root: etree._Element) -> list[Finding]:  # styles.xml: small, walked
    out, seen = [], set()
    for el in root.iter(f"{{{W}}}style"):
        value = el.get(f"{{{W}}}styleId")
        if value in seen:
            out.append(Finding("word", "duplicate-id", ERROR, name, f"style ID {value} is defined twice",
                               "Delete or rename one of the two style definitions.", el))
        seen.add(value)
    return out
