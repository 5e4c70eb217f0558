"""Reading, accepting and rejecting revisions (ours and those that came with the file).

Every revision is one element: a run-level ``w:ins``/``w:del``/``w:moveTo``/``w:moveFrom``, a
paragraph mark's ``w:ins``/``w:del`` (in ``w:pPr/w:rPr``), a row's (in ``w:trPr``), or a property
change (``w:rPrChange``, ``w:pPrChange``, ``w:tblPrChange`` ...). Accepting or rejecting one does
what Word does: insertions are kept or removed, deletions removed or restored, a removed
paragraph mark joins its paragraph with the next one, property changes are kept or rolled back.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.namespaces import w
from ooxml.xml.order import insert_child
from ooxml.text.ranges import rescue_markers

# The containers whose last paragraph a reject never removes (a story or cell ends with a paragraph).
KEEPS_LAST = {B.W_TC, *(w(n) for n in ("hdr", "ftr", "footnote", "endnote", "comment", "txbxContent"))}

W_INS, W_DEL, W_MOVE_TO, W_MOVE_FROM = w("ins"), w("del"), w("moveTo"), w("moveFrom")
# Inline wrappers that go when the last run in them goes (Word keeps no empty link or simple field).
EMPTIED_GO = {W_INS, *(w(n) for n in ("hyperlink", "fldSimple", "smartTag", "customXml", "bdo", "dir"))}
W_PPR, W_RPR, W_TRPR = w("pPr"), w("rPr"), w("trPr")
W_HYPERLINK = w("hyperlink")
W_SDT_CONTENT = w("sdtContent")
CHANGES = {w(n) for n in "rPrChange pPrChange tblPrChange trPrChange tcPrChange sectPrChange tblGridChange "
                         "numberingChange".split()}
CELL_MARKS = {w("cellIns"), w("cellDel"), w("cellMerge")}
MOVE_RANGES = {w(n) for n in "moveFromRangeStart moveFromRangeEnd moveToRangeStart moveToRangeEnd".split()}
# One C-level walk (lxml's iter with several tags) rather than an XPath union: a union walks the
# tree once per branch and then sorts.
_ALL_TAGS = tuple(w(n) for n in ("ins del moveTo moveFrom rPrChange pPrChange tblPrChange trPrChange tcPrChange "
                                 "sectPrChange tblGridChange numberingChange cellIns cellDel cellMerge").split())
_KIND_NAMES = {w("rPrChange"): "formatting changed", w("pPrChange"): "paragraph formatting changed",
               w("tblPrChange"): "table formatting changed", w("trPrChange"): "row formatting changed",
               w("tcPrChange"): "cell formatting changed", w("sectPrChange"): "section changed",
               w("tblGridChange"): "table grid changed", w("numberingChange"): "numbering changed",
               w("cellIns"): "cell inserted", w("cellDel"): "cell deleted", w("cellMerge"): "cell merged"}


def role(el: etree._Element) -> str:
    """run_ins, run_del, mark_ins, mark_del, row_ins, row_del, change or cell."""
    tag, parent = el.tag, el.getparent()
    if tag in CHANGES:
        return "change"
    if tag in CELL_MARKS:
        return "cell"
    inserted = tag in (W_INS, W_MOVE_TO)
    if parent is not None and parent.tag == W_RPR:
        return "mark_ins" if inserted else "mark_del"
    if parent is not None and parent.tag == W_TRPR:
        return "row_ins" if inserted else "row_del"
    return "run_ins" if inserted else "run_del"


def kind_name(el: etree._Element) -> str:
    r = role(el)
    moved = el.tag in (W_MOVE_TO, W_MOVE_FROM)
    return {"run_ins": "moved to" if moved else "insertion", "run_del": "moved from" if moved else "deletion",
            "mark_ins": "paragraph mark inserted", "mark_del": "paragraph mark deleted",
            "row_ins": "row inserted", "row_del": "row deleted"}.get(r) or _KIND_NAMES.get(el.tag, "change")


def all_revisions(root: etree._Element) -> list[etree._Element]:
    """Every revision inside ``root`` (itself excluded), in document order."""
    return list(iter_revisions(root))


def iter_revisions(root: etree._Element) -> Iterator[etree._Element]:
    """``all_revisions`` one by one: a caller that stops early walks the tree no further."""
    return (el for el in root.iter(*_ALL_TAGS) if el is not root and not _is_tracked_property_wrapper(el))


def _is_tracked_property_wrapper(el: etree._Element) -> bool:
    # w:ins/w:del inside a *Change snapshot (the old properties) belong to that revision.
    if el.tag not in (W_INS, W_DEL):
        return False
    return any(a.tag in CHANGES for a in el.iterancestors())


def text_of(el: etree._Element) -> str:
    r = role(el)
    if r in ("run_ins", "run_del"):
        return "".join(B.run_text(x, deleted=True) for x in el.iter(B.W_R))
    if r in ("mark_ins", "mark_del"):
        return "¶"
    if r in ("row_ins", "row_del"):
        tr = B.find_ancestor(el, B.W_TR)
        return " | ".join(" ".join(p.itertext()) for p in tr.iter(B.W_TC)) if tr is not None else ""
    holder = el.getparent().getparent() if el.getparent() is not None else None
    if holder is not None and holder.tag == B.W_R:
        return B.run_text(holder, deleted=True)
    return ""


def holder_of(el: etree._Element) -> etree._Element | None:
    """The element a revision sits in, for its listing: the paragraph, else the row, table ..."""
    for tag in (B.W_P, B.W_TR, B.W_TBL):
        found = B.find_ancestor(el, tag)
        if found is not None:
            return found
    return None


# ---- accept and reject ------------------------------------------------------------------------------

def attached(el: etree._Element, roots: tuple) -> bool:
    """Whether ``el`` still hangs from one of ``roots`` (a block can go with its revision)."""
    top = el
    while (parent := top.getparent()) is not None:
        top = parent
    return top in roots


def _drop(doc, el: etree._Element) -> None:
    rescue_markers(el)
    if doc is not None:
        doc.ids.forget(el)
        _drop_notes(doc, el)
    parent = el.getparent()
    parent.remove(el)
    if parent.tag in (W_INS, W_DEL) and not len(parent) and role(parent).startswith("run"):
        _drop(doc, parent)  # another author's insertion that held only what went
    elif parent.tag in _EMPTIED_GO and _only_markers(parent):
        _drop(doc, parent)  # a link (simple field, smart tag ...) whose text went goes too, as in Word
    elif parent.tag == W_SDT_CONTENT and _only_markers(parent) and _inline(parent.getparent()):
        _drop(doc, parent.getparent())  # so does an inline content control


_EMPTIED_GO = EMPTIED_GO - {W_INS}  # an insertion of another author goes by its own rule above


def remove_as_accepted(doc, el: etree._Element) -> None:
    """Remove ``el`` as accepting its deletion does: range markers stay, its notes go, and so do the
    wrappers it leaves empty (a link, another author's insertion, an inline content control). Untracked
    edits remove text this way, so that they give what our tracked edits give once accepted."""
    _drop(doc, el)


def _inline(sdt: etree._Element | None) -> bool:
    holder = sdt.getparent() if sdt is not None else None
    return holder is not None and (holder.tag == B.W_P or holder.tag in B.RUN_CONTAINERS)


def _only_markers(el: etree._Element) -> bool:
    """Nothing left but range markers (and the wrapper's own properties: a smart tag's, a field's data)."""
    return all(c.tag in B.MARKERS or not isinstance(c.tag, str) or c.tag in _WRAPPER_PROPS for c in el)


_WRAPPER_PROPS = {w("smartTagPr"), w("customXmlPr"), w("fldData")}


def _drop_notes(doc, el: etree._Element) -> None:
    """A note reference that goes takes its note with it, as in Word."""
    from ooxml.text import notes as N
    for ref in el.iter(*N.REF_TAGS.values()):
        kind = "footnote" if ref.tag == N.REF_TAGS["footnote"] else "endnote"
        note = N.note_by_id(doc, kind, ref.get(w("id")))
        if note is not None and note.getparent() is not None:
            doc.remove_block(note)


def _unwrap(doc, el: etree._Element) -> None:
    parent = el.getparent()
    for child in list(el):
        el.addprevious(child)
    if doc is not None:
        doc.ids.forget(el)
    parent.remove(el)


def _restore_text(el: etree._Element) -> None:
    for t in el.iter(B.W_DELTEXT):
        t.tag = B.W_T
    for t in el.iter(w("delInstrText")):
        t.tag = w("instrText")


def _remove_mark(el: etree._Element) -> None:
    rpr = el.getparent()
    rpr.remove(el)
    if not len(rpr) and not rpr.attrib:
        rpr.getparent().remove(rpr)


def join_with_next(doc, p: etree._Element) -> None:
    """A paragraph whose mark went: its content joins the next paragraph (or it goes, if empty)."""
    if p.getparent() is None:
        return
    content = [c for c in p if c.tag != W_PPR]
    last_in_cell = p.getparent().tag in KEEPS_LAST and B.next_block(p) is None
    # text already deleted (another author's w:del) goes with the paragraph, as untracked deleting does
    if all(c.tag in B.MARKERS or not isinstance(c.tag, str) or c.tag in (W_DEL, W_MOVE_FROM) or _emptied(c)
           for c in content):
        if not last_in_cell:
            _merge_section(doc, p)
            _remove_block(doc, p)
        return
    nxt = B.next_block(p)
    if nxt is None or nxt.tag != B.W_P:
        return
    _merge_section(doc, p)
    if doc is not None:
        doc.will_change(nxt)
    anchor = nxt.find(W_PPR)
    for c in content:
        if anchor is not None:
            anchor.addnext(c)
        else:
            nxt.insert(0, c)
        anchor = c
    _remove_block(doc, p)
    if doc is not None:
        doc.changed(nxt)


def _emptied(el: etree._Element) -> bool:
    """A link or simple field without a run (a field never updated): nothing a reader sees."""
    return el.tag in _EMPTIED_GO and _only_markers(el)


def _merge_section(doc, p: etree._Element) -> None:
    """A mark holding a section break goes: the sections merge as Word merges them."""
    if doc is not None:
        from ooxml.layout.section_merge import merge_into_next
        merge_into_next(doc, p)


def _remove_block(doc, el: etree._Element) -> None:
    parent = el.getparent()
    if doc is not None and parent is not None:
        doc.remove_block(el)
    elif parent is not None:
        _drop(None, el)
    sdt = parent.getparent() if parent is not None and parent.tag == W_SDT_CONTENT else None
    if sdt is not None and sdt.getparent() is not None and not any(B.is_block(c) for c in parent):
        _remove_block(doc, sdt)  # a block content control (a TOC) left without blocks goes


def _restore_properties(change: etree._Element) -> None:
    props = change.getparent()
    old = change[0] if len(change) else None
    keep = {change.tag, W_INS, W_DEL, W_MOVE_TO, W_MOVE_FROM, W_RPR if props.tag == W_PPR else None,
            w("sectPr") if props.tag == W_PPR else None, *CELL_MARKS,
            w("headerReference"), w("footerReference")}
    if change.tag == w("tblGridChange"):
        old = change.find(w("tblGrid"))
        keep = {change.tag}
    for child in list(props):
        if isinstance(child.tag, str) and child.tag not in keep:
            props.remove(child)
    if old is not None:
        for child in list(old):
            try:
                insert_child(props, child)
            except ValueError:
                change.addprevious(child)
        for k, v in old.attrib.items():
            props.set(k, v)
    props.remove(change)


def _decide(doc, el: etree._Element, accept: bool, joins: list) -> None:
    r = role(el)
    if r == "run_ins":
        (_unwrap if accept else _drop)(doc, el)
    elif r == "run_del":
        if accept:
            _drop(doc, el)
        else:
            _restore_text(el)
            _unwrap(doc, el)
    elif r in ("mark_ins", "mark_del"):
        p = B.find_ancestor(el, B.W_P)
        _remove_mark(el)
        if (r == "mark_ins") != accept and p is not None:
            joins.append(p)
    elif r in ("row_ins", "row_del"):
        tr = B.find_ancestor(el, B.W_TR)
        if (r == "row_ins") == accept or tr is None:
            _remove_mark(el)
        else:
            tbl = B.find_ancestor(tr, B.W_TBL)
            _remove_block(doc, tr)
            if tbl is not None and not B.table_rows(tbl) and tbl.getparent() is not None:
                _remove_block(doc, tbl)
    elif r == "change":
        if accept:
            el.getparent().remove(el)
        else:
            _restore_properties(el)
    else:
        el.getparent().remove(el)


_ORDER = {"run_ins": 0, "run_del": 0, "change": 1, "cell": 1, "row_ins": 2, "row_del": 2,
          "mark_ins": 3, "mark_del": 3}


def decide(doc, revisions: Iterable[etree._Element], accept: bool, roots: tuple) -> int:
    """Accept (or reject) revisions; returns how many were applied."""
    chosen = sorted(((el, role(el)) for el in revisions), key=lambda pair: _ORDER[pair[1]])
    joins: list[etree._Element] = []
    done = 0
    for el, _ in chosen:
        if el.getparent() is None or not attached(el, roots):
            continue  # went with an earlier revision (a deleted row, a rejected insertion)
        _decide(doc, el, accept, joins)
        done += 1
    for p in joins:
        join_with_next(doc, p)
    return done


def drop_move_ranges(root: etree._Element) -> None:
    for el in list(root.iter(*MOVE_RANGES)):
        el.getparent().remove(el)


def accept_within(el: etree._Element) -> None:
    """Accept every revision inside a detached or new subtree (a copy) without joining paragraphs."""
    for rev in sorted(all_revisions(el), key=lambda x: _ORDER[role(x)]):
        if rev.getparent() is None:
            continue
        r = role(rev)
        if r in ("mark_ins", "mark_del"):
            _remove_mark(rev)
        else:
            _decide(None, rev, True, [])
    drop_move_ranges(el)


@dataclass
class Listed:
    el: etree._Element
    kind: str
    author: str
    date: str
    text: str
