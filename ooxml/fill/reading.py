"""What a fill reads in a root, read once and shared: by the dry run and the fill, and by every copy
of a repeated item or row (a copy's reading is its template's, mapped element by element).

Scope-free: the controls (``model.read``), the tables and rows, the paragraphs with their
placeholders, and for each the ``w:sdt``/``w:tr`` above it below the root (what ``Fill.skip``
may hold). A paragraph's placeholders are read at first need. The fill marks what it changes
(``stale``): a paragraph, row or table holding a change is read again from the tree.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.controls import model as M
from ooxml.fill import placeholders as PH
from ooxml.review import tracked_text as TT
from ooxml.text import body as B
from ooxml.xml.namespaces import w

_GUARDS = (B.W_SDT, B.W_TR)  # what Fill.skip holds: handled controls, sections' items, rows and copies
_INSTR, _SIMPLE, _INSTR_ATTR = w("instrText"), w("fldSimple"), w("instr")
_UNREAD = object()
_NO_VALUE = {"repeating_section", "repeating_item", "group", "doc_part", "other"}  # kinds the fill never sets


def chain(el: etree._Element, root: etree._Element) -> tuple:
    """``el`` (when a guard) and its guard ancestors below ``root``; the root's own are all of them
    (a copy's ancestors are its template's: the section or table being repeated is among them)."""
    out = [el] if el.tag in _GUARDS else []
    for a in el.iterancestors(*_GUARDS):
        if a is root:
            break
        out.append(a)
    return tuple(out)


@dataclass(slots=True)
class Para:
    p: etree._Element
    chain: tuple | None  # None for a paragraph without "{" or a merge field (see guards)
    merge: bool  # holds a MERGEFIELD instruction
    found: object = _UNREAD  # PH.find's (segs, text, matches), None without "{"
    tags: list | None = None  # PH.unsupported of found

    def guards(self, root: etree._Element) -> tuple:
        if self.chain is None:  # read again after a change: it is in the tree
            self.chain = chain(self.p, root)
        return self.chain

    def read(self):
        if self.found is _UNREAD:
            self.found = PH.find(self.p) if PH.might_hold(self.p) else None
        return self.found

    def unsupported(self) -> list[str]:
        if self.tags is None:
            self.tags = PH.unsupported(self.found[1], self.found[2])
        return self.tags


@dataclass(slots=True)
class Control:
    ctrl: M.Control
    chain: tuple
    named: bool  # a control the fill may set: a kind with a value, a tag or alias, not a TOC

    @classmethod
    def read(cls, sdt: etree._Element, root: etree._Element) -> Control:
        ctrl = M.read(sdt)
        return cls(ctrl, chain(sdt, root), ctrl.kind not in _NO_VALUE and bool(ctrl.tag or ctrl.alias)
                   and not M.is_toc(ctrl))

    def moved(self, one, many) -> Control:
        ctrl = M.Control.__new__(M.Control)  # copy.copy's reduce protocol costs more than the rest here
        ctrl.__dict__.update(self.ctrl.__dict__)
        ctrl.el = one(ctrl.el)
        return Control(ctrl, many(self.chain), self.named)


@dataclass
class Table:
    tbl: etree._Element
    chain: tuple
    rows: list  # [tr]


class Reading:
    def __init__(self, root: etree._Element, build: bool = True):
        self.root = root
        self.size = None  # bytes of the root serialized (a template's growth per copy)
        self._index = None
        if not build:
            return
        self.controls = [Control.read(sdt, root) for sdt in M.iter_sdts(root)]
        self.tables = [Table(t, chain(t, root), B.table_rows(t)) for t in root.iter(B.W_TBL)]
        merging = _merge_paragraphs(root)
        braced = _braced(root)
        self.paras = [Para(p, chain(p, root), True) if p in merging else
                      Para(p, chain(p, root), False) if p in braced else Para(p, None, False, None)
                      for p in root.iter(B.W_P)]
        self._by_p = None
        self.row_names: dict = {}  # tr -> the dotted names of its placeholders, in order

    def para(self, p: etree._Element) -> Para | None:
        if self._by_p is None:
            self._by_p = {x.p: x for x in self.paras}
        return self._by_p.get(p)

    def byte_size(self) -> int:
        if self.size is None:
            self.size = len(etree.tostring(self.root))
        return self.size

    def copy_of(self) -> tuple[etree._Element, Reading, list]:
        """A deep copy of the root, its reading and its elements in ``iter()`` order (before anything
        changes the copy)."""
        new = self.root.__deepcopy__(None)  # copy.deepcopy's dispatch costs a third of the copy of a row
        if self._index is None:
            self._index = {el: i for i, el in enumerate(self.root.iter())}
        els = list(new.iter())
        return new, self._mapped(new, els), els

    def _mapped(self, new: etree._Element, els: list) -> Reading:
        at = self._index
        one = lambda el: els[at[el]] if el in at else el  # noqa: E731  (above the root: shared)
        many = lambda els_: tuple(one(e) for e in els_)  # noqa: E731
        out = Reading(new, build=False)
        out.size = self.size
        out.controls = [c.moved(one, many) for c in self.controls]
        out.tables = [Table(one(t.tbl), many(t.chain), [one(r) for r in t.rows]) for t in self.tables]
        out.paras = [Para(one(x.p), x.chain and many(x.chain), x.merge, _mapped_found(x.found, one), x.tags)
                     for x in self.paras]
        out._by_p = None
        out.row_names = {one(tr): names for tr, names in self.row_names.items()}
        return out


def _mapped_found(found, one):
    if found is _UNREAD or found is None:
        return found
    segs, text, matches = found
    return [TT.Seg(one(s.child), s.start, s.text) for s in segs], text, matches


def _braced(root: etree._Element) -> set:
    """The paragraphs ``PH.might_hold``: those with a ``w:t`` whose text (or tail, as ``itertext``
    reads it) holds "{"; one pass over the root's ``w:t``, not a walk of each paragraph's text."""
    found = set()
    for t in root.iter(B.W_T):
        if "{" in (t.text or "") or (t.tail and "{" in t.tail):
            found.update(t.iterancestors(B.W_P))
    return found


def _merge_paragraphs(root: etree._Element) -> set:
    """The paragraphs holding a MERGEFIELD instruction (one pass over the few field elements)."""
    found = set()
    for el in root.iter(_INSTR, _SIMPLE):
        text = el.text if el.tag == _INSTR else el.get(_INSTR_ATTR)
        if text and "MERGEFIELD" in text.upper():
            p = B.find_ancestor(el, B.W_P)
            if p is not None:
                found.add(p)
    return found
