"""Repairs of Word rules that change markup, never what the document says: children put in schema order,
Word IDs renumbered, a cell's closing paragraph, line breaks as w:br, deleted text as w:delText, undeclared
prefixes dropped from mc:Ignorable. Each takes the finding's element and ``change`` (called before an
element of a story part changes: the caller's undo) and says whether it fixed it."""
from __future__ import annotations

from lxml import etree

from ooxml.check import word_order
from ooxml.check.word_ids import BOOKMARK, DOC_PR, PARA_ID, TEXT_ID, W_ID, hex_ok
from ooxml.check.word_package import IGNORABLE
from ooxml.text import body as B
from ooxml.xml import order
from ooxml.xml.namespaces import W
from ooxml.xml.wordids import REVISIONS

_T, _BR, _DEL_TEXT = f"{{{W}}}t", f"{{{W}}}br", f"{{{W}}}delText"
_PRESERVE = "{http://www.w3.org/XML/1998/namespace}space"


def reorder(doc, f, change) -> bool:
    el = f.element
    parent = word_order.CONTAINERS[el.tag]
    ranked = [(word_order.rank(parent, c.tag), c) for c in el]
    if any(r is not None and r == prev for r, prev in _pairs(ranked)):
        return False  # a property given twice: which one Word keeps is not ours to choose
    change(el)
    _sort(el, parent, ranked)
    for name in word_order.REQUIRED.get(parent, ()):
        if el.find(f"{{{W}}}{name}") is None:
            order.insert_child(el, etree.Element(f"{{{W}}}{name}"))
    return not word_order.misplaced(parent, tuple(c.tag for c in el))


def _pairs(ranked):
    known = [r for r, c in ranked if r is not None and c.tag not in word_order.REPEATS]
    return zip(sorted(known)[1:], sorted(known))


def _sort(el, parent: str, ranked) -> None:
    """Ranked children in rank order; anything else stays after the ranked child before it (extension
    elements follow what they extend) or, in a paragraph, run, table, row, cell or control, after the
    leading children (it is the content)."""
    keyed, last = [], -1
    leading = parent not in order.ORDER
    for i, (r, child) in enumerate(ranked):
        if r is not None:
            last = r
        keyed.append(((r if r is not None else (10_000 if leading else last)), i, child))
    for _, _, child in sorted(keyed, key=lambda k: (k[0], k[1])):
        el.append(child)  # append moves: the children end in the new order


def para_id(doc, f, change) -> bool:
    el = f.element
    change(el)
    ids = doc.word_ids(el)
    for attr in (PARA_ID, TEXT_ID):
        value = el.get(attr)
        if value is not None and (not hex_ok(value) or (attr == PARA_ID and "twice" in f.what)):
            el.set(attr, ids.new_para_id())
    return True


def word_id(doc, f, change) -> bool:
    el = f.element
    if el.tag == DOC_PR:
        change(el)
        el.set("id", str(doc.word_ids(el).new_doc_pr()))
        return True
    if el.tag in REVISIONS:
        change(el)
        el.set(W_ID, str(_next_id(doc, el)))
        return True
    if el.tag == BOOKMARK:
        return _bookmark(doc, el, change)
    return False


def _next_id(doc, el) -> int:
    """Above every w:id of the part (revisions, bookmarks, comments share Word's numbering); the part is
    read once per WordIds, the counters keep it right after that."""
    ids = doc.word_ids(el)
    if not hasattr(ids, "check_floor"):
        taken = [int(v) for v in el.getroottree().getroot().xpath("//@w:id", namespaces={"w": W}) if v.isdigit()]
        ids.check_floor = max(taken, default=0) + 1
    n = max(ids.next_revision, ids.next_bookmark, ids.check_floor)
    ids.next_revision = ids.next_bookmark = n + 1
    return n


def _bookmark(doc, start, change) -> bool:
    """The repeated bookmark and its end (the first end of that id after it) take a new id."""
    old = start.get(W_ID)
    end = next((e for e in start.itersiblings() if e.tag == f"{{{W}}}bookmarkEnd" and e.get(W_ID) == old), None)
    if end is None:
        found = start.xpath("following::w:bookmarkEnd[@w:id=$v][1]", namespaces={"w": W}, v=old)
        end = found[0] if found else None
    if end is None:
        return False
    new = str(_next_id(doc, start))
    for el in (start, end):
        change(el)
        el.set(W_ID, new)
    return True


def cell_end(doc, f, change) -> bool:
    tc = f.element
    change(tc)
    tc.append(etree.Element(B.W_P))
    return True


def newline(doc, f, change) -> bool:
    """``a\\nb`` in one w:t becomes w:t a, w:br, w:t b in the same run."""
    t = f.element
    change(t)
    pieces = (t.text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    t.text = pieces[0]
    _keep_spaces(t)
    at = t
    for piece in pieces[1:]:
        br = etree.Element(_BR)
        at.addnext(br)
        at = br
        if piece:
            nt = etree.Element(_T)
            nt.text = piece
            _keep_spaces(nt)
            at.addnext(nt)
            at = nt
    return True


def _keep_spaces(t) -> None:
    if t.text and t.text != t.text.strip():
        t.set(_PRESERVE, "preserve")


def deleted_text(doc, f, change) -> bool:
    t = f.element
    change(t)
    t.tag = _DEL_TEXT if t.tag == _T else f"{{{W}}}delInstrText"
    return True


def prefixes(doc, f, change) -> bool:
    el = f.element
    change(el)
    kept = [p for p in el.get(IGNORABLE, "").split() if p in el.nsmap]
    if kept:
        el.set(IGNORABLE, " ".join(kept))
    else:
        del el.attrib[IGNORABLE]
    return True
