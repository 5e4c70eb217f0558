"""Word's own IDs in copied content: paraId/textId, bookmarks, drawings, revisions.

A copy must not repeat any of them (Word repairs or refuses the file), and must not carry
references to comments or notes it does not own.
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.xml import minting
from ooxml.xml.ids import IdIndex
from ooxml.xml.namespaces import OX_ID, V, W14, WP, w
from ooxml.xml.numbers import INT32_MAX, file_id

O_SPID = "{urn:schemas-microsoft-com:office:office}spid"
PARA_ID = f"{{{W14}}}paraId"
TEXT_ID = f"{{{W14}}}textId"
DOC_PR = f"{{{WP}}}docPr"
W_ID = w("id")
W_NAME = w("name")
W_VAL = w("val")
_SDT_ID = w("id")  # w:sdtPr/w:id (an element, unlike the w:id attributes)
# Revision marks: each w:id unique in its part (the Open XML SDK reports Sem_UniqueAttributeValue).
REVISIONS = {w(n) for n in "ins del moveFrom moveTo rPrChange pPrChange sectPrChange tblPrChange trPrChange "
                           "tcPrChange tblGridChange tblPrExChange numberingChange cellIns cellDel cellMerge".split()}
_REVISIONS = REVISIONS
_COMMENT_MARKS = {w("commentRangeStart"), w("commentRangeEnd")}
_NOTE_REFS = {w("footnoteReference"), w("endnoteReference"), w("commentReference")}


def _ids(values) -> list[int]:
    """The ids of ``values`` Word can hold (0..2^31-1); others cannot clash with the ones we make."""
    return [n for n in map(file_id, values) if n is not None and n < INT32_MAX]


class WordIds:
    """Counters and used-sets for one part, gathered once from the tree.

    ``wp:docPr`` ids must be unique across the main part, headers, footers and notes, so
    parts of one document share a docPr counter (``shared_doc_pr``, a one-item list).
    """

    def __init__(self, root: etree._Element, shared_doc_pr: list[int] | None = None):
        self.root = root
        self.para_ids = {v.upper() for v in root.xpath("//@w14:paraId | //@w14:textId", namespaces={"w14": W14})}
        ids = _ids(root.xpath("//w:bookmarkStart/@w:id", namespaces={"w": _W}))
        self.next_bookmark = max(ids, default=0) + 1
        self.bookmark_names = set(root.xpath("//w:bookmarkStart/@w:name", namespaces={"w": _W}))
        doc_prs = _ids(root.xpath("//wp:docPr/@id", namespaces={"wp": WP}))
        self._doc_pr = shared_doc_pr if shared_doc_pr is not None else [0]
        self._doc_pr[0] = max(self._doc_pr[0], max(doc_prs, default=0) + 1)
        rev = _ids(el.get(W_ID) for el in root.iter(*_REVISIONS))
        self.next_revision = max(rev, default=0) + 1

    def new_vml_id(self) -> str:
        """A VML shape id (``_x0000_s1027``) not used in the part: ids must be unique (the Open XML SDK
        validator reports a copied one)."""
        if not hasattr(self, "_vml_ids"):
            self._vml_ids = set(self.root.xpath("//v:*/@id | //v:*/@o:spid", namespaces={
                "v": V, "o": "urn:schemas-microsoft-com:office:office"}))
            self._vml_next = 1025 + len(self._vml_ids)
        while f"_x0000_s{self._vml_next}" in self._vml_ids:
            self._vml_next += 1
        value = f"_x0000_s{self._vml_next}"
        self._vml_ids.add(value)
        return value

    def has_shapetype(self, type_id: str) -> bool:
        """Whether the part defines VML shape type ``type_id`` already (one definition a part, as Word
        writes it); a type not there yet counts as defined from now on (by the copy bringing it)."""
        if not hasattr(self, "_shapetypes"):
            self._shapetypes = set(self.root.xpath("//v:shapetype/@id", namespaces={"v": V}))
        known = type_id in self._shapetypes
        self._shapetypes.add(type_id)
        return known

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
_V_NS = f"{{{V}}}"
_V_SHAPETYPE = f"{{{V}}}shapetype"
_OLE_OBJECT = "{urn:schemas-microsoft-com:office:office}OLEObject"
_DOC_PR_ID = re.compile(rb"docPr\b[^>]*?\sid=\"(\d+)\"")
def doc_pr_floor(package, story_names: list[str]) -> int:
    """One more than the largest wp:docPr id in the story parts ``story_names`` (ooxml/opc/parts.py
    ``story_part_names``; read from bytes: no parsing)."""
    top = 0
    for name in story_names:
        part = package.part(name)
        if part.loaded:
            values = part.tree.getroot().xpath("//wp:docPr/@id", namespaces={"wp": WP})
        else:
            values = [v.decode() for v in _DOC_PR_ID.findall(part.data)]
        top = max([top, *_ids(values)])
    return top + 1


def prepare_copy(copy_el: etree._Element, ids: WordIds, keep_notes: bool = False) -> None:
    """Make a deep copy safe to insert: new IDs of ours and Word's, no borrowed references.

    ``keep_notes``: footnote and endnote references stay, for a caller that gives the copy notes
    of its own (ooxml/text/notes.py ``copy_references``); comment references always go.
    """
    IdIndex.clear_ids(copy_el)
    for el in list(copy_el.iter(*_COMMENT_MARKS)):
        el.getparent().remove(el)
    refs = [w("commentReference")] if keep_notes else list(_NOTE_REFS)
    for ref in list(copy_el.iter(*refs)):
        run = ref.getparent()
        run.remove(ref)
    _drop_known_shapetypes(copy_el, ids)
    renamed: dict[str, str] = {}  # old VML shape id -> new: an OLE object names its shape by id
    for el in copy_el.iter():
        if not isinstance(el.tag, str):
            continue
        if PARA_ID in el.attrib:
            el.set(PARA_ID, ids.new_para_id())
        if TEXT_ID in el.attrib:
            el.set(TEXT_ID, ids.new_para_id())
        if el.tag == DOC_PR:
            el.set("id", str(ids.new_doc_pr()))
        elif el.tag.startswith(_V_NS) and el.tag != _V_SHAPETYPE and \
                (el.get("id") is not None or el.get(O_SPID) is not None):  # shapetypes are referenced by id
            new = ids.new_vml_id()
            for name in ("id", O_SPID):
                if el.get(name) is not None:
                    renamed[el.get(name)] = new
                    el.set(name, new)
        elif el.tag == _SDT_ID:
            el.set(W_VAL, str(minting.randbelow(2**31 - 2) + 1))  # content control ids are unique too
        elif el.tag in _REVISIONS and el.get(W_ID) is not None:
            el.set(W_ID, str(ids.next_revision))
            ids.next_revision += 1
    for ole in copy_el.iter(_OLE_OBJECT):
        if ole.get("ShapeID") in renamed:
            ole.set("ShapeID", renamed[ole.get("ShapeID")])
    _renumber_bookmarks(copy_el, ids)


_PLAIN_STOPS = (f"{_V_NS}*", _OLE_OBJECT, w("bookmarkStart"), w("bookmarkEnd"), *_COMMENT_MARKS, *_NOTE_REFS)


def copy_plan(template: etree._Element) -> list[tuple[int, str]] | None:
    """What ``prepare_copy`` does to every copy of ``template``, by the position of each element in
    ``template.iter()``: for the many copies of one template (a fill's repeated rows and items), where
    walking each copy costs more than the copy. None when the template holds what the plan does
    not cover (VML, OLE objects, bookmarks, comment marks, note references): use ``prepare_copy``."""
    if next(template.iter(*_PLAIN_STOPS), None) is not None:
        return None
    plan = []
    for i, el in enumerate(template.iter()):
        if not isinstance(el.tag, str):
            continue
        attrib = el.attrib
        if OX_ID in attrib:
            plan.append((i, "ox"))
        if PARA_ID in attrib:
            plan.append((i, PARA_ID))
        if TEXT_ID in attrib:
            plan.append((i, TEXT_ID))
        if el.tag == DOC_PR:
            plan.append((i, "docPr"))
        elif el.tag == _SDT_ID:
            plan.append((i, "sdt"))
        elif el.tag in _REVISIONS and el.get(W_ID) is not None:
            plan.append((i, "rev"))
    return plan


def prepare_planned(els: list, plan: list[tuple[int, str]], ids: WordIds) -> None:
    """``prepare_copy`` by ``copy_plan``: ``els`` is the copy's ``iter()`` list, taken before any change."""
    for i, what in plan:
        if what == "ox":
            del els[i].attrib[OX_ID]
    for i, what in plan:
        el = els[i]
        if what in (PARA_ID, TEXT_ID):
            el.set(what, ids.new_para_id())
        elif what == "docPr":
            el.set("id", str(ids.new_doc_pr()))
        elif what == "sdt":
            el.set(W_VAL, str(minting.randbelow(2**31 - 2) + 1))  # content control ids are unique too
        elif what == "rev":
            el.set(W_ID, str(ids.next_revision))
            ids.next_revision += 1


def _drop_known_shapetypes(copy_el: etree._Element, ids: WordIds) -> None:
    """A copied ``v:shapetype`` the part defines already goes: its shapes keep ``type="#id"``, which
    names the part's definition (two definitions of one id are invalid)."""
    for el in list(copy_el.iter(_V_SHAPETYPE)):
        if el.get("id") is not None and ids.has_shapetype(el.get("id")):
            el.getparent().remove(el)


def _renumber_bookmarks(copy_el: etree._Element, ids: WordIds) -> None:
    starts = {el.get(W_ID): el for el in copy_el.iter(w("bookmarkStart"))}
    ends = {el.get(W_ID): el for el in copy_el.iter(w("bookmarkEnd"))}
    if starts:  # bookmarks made since the counters were gathered (docx_add_bookmark, a TOC) count too
        taken = _ids(el.get(W_ID) for el in ids.root.iter(w("bookmarkStart")))
        ids.next_bookmark = max(ids.next_bookmark, max(taken, default=0) + 1)
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
