"""Word's own IDs in copied content: paraId/textId, bookmarks, drawings, revisions.

A copy must not repeat any of them (Word repairs or refuses the file), and must not carry
references to comments or notes it does not own.
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml import minting
from ooxml.ids import IdIndex
from ooxml.namespaces import W14, WP, w

PARA_ID = f"{{{W14}}}paraId"
TEXT_ID = f"{{{W14}}}textId"
DOC_PR = f"{{{WP}}}docPr"
W_ID = w("id")
W_NAME = w("name")
W_VAL = w("val")
_SDT_ID = w("id")  # w:sdtPr/w:id (an element, unlike the w:id attributes)
_REVISIONS = {w(n) for n in "ins del moveFrom moveTo rPrChange pPrChange sectPrChange tblPrChange trPrChange "
                            "tcPrChange tblGridChange numberingChange cellIns cellDel cellMerge".split()}
_COMMENT_MARKS = {w("commentRangeStart"), w("commentRangeEnd")}
_NOTE_REFS = {w("footnoteReference"), w("endnoteReference"), w("commentReference")}


class WordIds:
    """Counters and used-sets for one part, gathered once from the tree.

    ``wp:docPr`` ids must be unique across the main part, headers, footers and notes, so
    parts of one document share a docPr counter (``shared_doc_pr``, a one-item list).
    """

    def __init__(self, root: etree._Element, shared_doc_pr: list[int] | None = None):
        self.root = root
        self.para_ids = {v.upper() for v in root.xpath("//@w14:paraId | //@w14:textId", namespaces={"w14": W14})}
        ids = [int(v) for v in root.xpath("//w:bookmarkStart/@w:id", namespaces={"w": _W}) if v.lstrip("-").isdigit()]
        self.next_bookmark = max(ids, default=0) + 1
        self.bookmark_names = set(root.xpath("//w:bookmarkStart/@w:name", namespaces={"w": _W}))
        doc_prs = [int(v) for v in root.xpath("//wp:docPr/@id", namespaces={"wp": WP}) if v.isdigit()]
        self._doc_pr = shared_doc_pr if shared_doc_pr is not None else [0]
        self._doc_pr[0] = max(self._doc_pr[0], max(doc_prs, default=0) + 1)
        rev = [int(el.get(W_ID)) for el in root.iter(*_REVISIONS) if (el.get(W_ID) or "").isdigit()]
        self.next_revision = max(rev, default=0) + 1

    def new_para_id(self) -> str:
        while True:
            value = f"{minting.randbelow(0x7FFFFFFE) + 1:08X}"  # > 0 and < 0x80000000
            if value not in self.para_ids:
                self.para_ids.add(value)
                return value

    def new_doc_pr(self) -> int:
        self._doc_pr[0] += 1
        return self._doc_pr[0] - 1

    def new_bookmark_name(self, name: str) -> str:
        base, n = name[:36], 2
        candidate = f"{base}_{n}"
        while candidate in self.bookmark_names:
            n += 1
            candidate = f"{base}_{n}"
        self.bookmark_names.add(candidate)
        return candidate


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_DOC_PR_ID = re.compile(rb"docPr\b[^>]*?\sid=\"(\d+)\"")
STORY_TYPES = {f"http://schemas.openxmlformats.org/officeDocument/2006/relationships/{t}"
               for t in ("header", "footer", "footnotes", "endnotes", "comments")}


def story_part_names(package, main_name: str) -> list[str]:
    """The main part and the parts whose content belongs to it (headers, footers, notes, comments)."""
    names = [main_name]
    for rel in package.rels(main_name):
        if rel.get("Type") in STORY_TYPES and rel.get("TargetMode") != "External":
            name = package.resolve_target(main_name, rel.get("Target", ""))
            if package.has_part(name) and name not in names:
                names.append(name)
    return names


def doc_pr_floor(package, main_name: str) -> int:
    """One more than the largest wp:docPr id in the story parts (read from bytes: no parsing)."""
    top = 0
    for name in story_part_names(package, main_name):
        part = package.part(name)
        if part.loaded:
            values = part.tree.getroot().xpath("//wp:docPr/@id", namespaces={"wp": WP})
        else:
            values = [v.decode() for v in _DOC_PR_ID.findall(part.data)]
        top = max([top, *(int(v) for v in values if v.isdigit())])
    return top + 1


def prepare_copy(copy_el: etree._Element, ids: WordIds) -> None:
    """Make a deep copy safe to insert: new IDs of ours and Word's, no borrowed references."""
    IdIndex.clear_ids(copy_el)
    for el in list(copy_el.iter(*_COMMENT_MARKS)):
        el.getparent().remove(el)
    for ref in list(copy_el.iter(*_NOTE_REFS)):
        run = ref.getparent()
        run.remove(ref)
    for el in copy_el.iter():
        if not isinstance(el.tag, str):
            continue
        if PARA_ID in el.attrib:
            el.set(PARA_ID, ids.new_para_id())
        if TEXT_ID in el.attrib:
            el.set(TEXT_ID, ids.new_para_id())
        if el.tag == DOC_PR:
            el.set("id", str(ids.new_doc_pr()))
        elif el.tag == _SDT_ID:
            el.set(W_VAL, str(minting.randbelow(2**31 - 2) + 1))  # content control ids are unique too
        elif el.tag in _REVISIONS and el.get(W_ID) is not None:
            el.set(W_ID, str(ids.next_revision))
            ids.next_revision += 1
    _renumber_bookmarks(copy_el, ids)


def _renumber_bookmarks(copy_el: etree._Element, ids: WordIds) -> None:
    starts = {el.get(W_ID): el for el in copy_el.iter(w("bookmarkStart"))}
    ends = {el.get(W_ID): el for el in copy_el.iter(w("bookmarkEnd"))}
    for old, start in starts.items():
        if old not in ends:  # the range ends outside the copy: drop it
            start.getparent().remove(start)
            continue
        new_id = str(ids.next_bookmark)
        ids.next_bookmark += 1
        start.set(W_ID, new_id)
        ends.pop(old).set(W_ID, new_id)
        if start.get(W_NAME):
            start.set(W_NAME, ids.new_bookmark_name(start.get(W_NAME)))
    for end in ends.values():  # started outside the copy
        end.getparent().remove(end)
