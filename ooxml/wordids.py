"""Word's own IDs in copied content: paraId/textId, bookmarks, drawings, revisions.

A copy must not repeat any of them (Word repairs or refuses the file), and must not carry
references to comments or notes it does not own.
"""
from __future__ import annotations

import secrets

from lxml import etree

from ooxml.ids import IdIndex
from ooxml.namespaces import W14, WP, w

PARA_ID = f"{{{W14}}}paraId"
TEXT_ID = f"{{{W14}}}textId"
DOC_PR = f"{{{WP}}}docPr"
W_ID = w("id")
W_NAME = w("name")
_REVISIONS = {w(n) for n in "ins del moveFrom moveTo rPrChange pPrChange sectPrChange tblPrChange trPrChange "
                            "tcPrChange tblGridChange numberingChange cellIns cellDel cellMerge".split()}
_COMMENT_MARKS = {w("commentRangeStart"), w("commentRangeEnd")}
_NOTE_REFS = {w("footnoteReference"), w("endnoteReference"), w("commentReference")}


class WordIds:
    """Counters and used-sets for one part, gathered once from the tree."""

    def __init__(self, root: etree._Element):
        self.root = root
        self.para_ids = {v.upper() for v in root.xpath("//@w14:paraId | //@w14:textId", namespaces={"w14": W14})}
        ids = [int(v) for v in root.xpath("//w:bookmarkStart/@w:id", namespaces={"w": _W}) if v.lstrip("-").isdigit()]
        self.next_bookmark = max(ids, default=0) + 1
        self.bookmark_names = set(root.xpath("//w:bookmarkStart/@w:name", namespaces={"w": _W}))
        doc_prs = [int(v) for v in root.xpath("//wp:docPr/@id", namespaces={"wp": WP}) if v.isdigit()]
        self.next_doc_pr = max(doc_prs, default=0) + 1
        rev = [int(el.get(W_ID)) for el in root.iter(*_REVISIONS) if (el.get(W_ID) or "").isdigit()]
        self.next_revision = max(rev, default=0) + 1

    def new_para_id(self) -> str:
        while True:
            value = f"{secrets.randbelow(0x7FFFFFFE) + 1:08X}"  # > 0 and < 0x80000000
            if value not in self.para_ids:
                self.para_ids.add(value)
                return value

    def new_doc_pr(self) -> int:
        self.next_doc_pr += 1
        return self.next_doc_pr - 1

    def new_bookmark_name(self, name: str) -> str:
        base, n = name[:36], 2
        candidate = f"{base}_{n}"
        while candidate in self.bookmark_names:
            n += 1
            candidate = f"{base}_{n}"
        self.bookmark_names.add(candidate)
        return candidate


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


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
