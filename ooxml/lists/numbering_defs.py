"""The numbering definitions of a document (numbering.xml), read once per version of its parts.

``abstractNum`` holds up to nine levels (``lvl``: start, numFmt, lvlText, isLgl, lvlRestart, suff,
pStyle); a ``num`` points at one and may override levels (``lvlOverride`` with ``startOverride``
and/or a whole ``lvl``). An abstractNum with ``numStyleLink`` takes its levels from the numbering
style it names (whose ``numPr`` points at the num whose abstractNum has the matching ``styleLink``).
Paragraphs take numbering directly (``w:numPr``) or from their paragraph style (``basedOn`` chain).
Every number read from the file is clamped before use.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from ooxml.xml.namespaces import w
from ooxml.lists.numbering_formats import DRAWN, clamp

LEVELS = 9
W_VAL = w("val")
W_PPR, W_NUMPR, W_NUMID, W_ILVL, W_PSTYLE = w("pPr"), w("numPr"), w("numId"), w("ilvl"), w("pStyle")
W_P = w("p")
MAX_CHAIN = 20
_BEFORE_NUMPR = {w(n) for n in "pStyle keepNext keepLines pageBreakBefore framePr widowControl".split()}


def int_val(el: etree._Element | None, default: int | None = None) -> int | None:
    if el is None:
        return default
    raw = (el.get(W_VAL) or "").strip()
    try:
        return int(raw)
    except ValueError:
        return default


def on(el: etree._Element | None) -> bool:
    return el is not None and el.get(W_VAL, "true") not in ("0", "false", "off")


@dataclass
class Level:
    fmt: str = "decimal"
    text: str | None = None  # lvlText; None: no label
    start: int = 1
    legal: bool = False
    restart: int | None = None  # lvlRestart: None = after any higher level, 0 = never, n = after level n
    suff: str = "tab"
    pstyle: str | None = None
    font: str | None = None  # the label's font (bullets in Symbol/Wingdings are font codes)

    @property
    def fell_back(self) -> bool:
        return self.fmt not in DRAWN


_MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"


def _num_fmt(lvl: etree._Element) -> etree._Element | None:
    """numFmt, or in mc:AlternateContent the Fallback's (Word 2010's custom formats hide there)."""
    found = lvl.find(w("numFmt"))
    if found is None:  # the Choice's format (e.g. 'custom'), drawn as its Fallback would be if unknown
        found = lvl.find(f"{{{_MC}}}AlternateContent/{{{_MC}}}Choice/{w('numFmt')}")
    return found


_W_START, _W_NUMFMT, _W_LVLTEXT, _W_ISLGL = w("start"), w("numFmt"), w("lvlText"), w("isLgl")
_W_LVLRESTART, _W_SUFF, _W_RPR, _W_RFONTS = w("lvlRestart"), w("suff"), w("rPr"), w("rFonts")


def read_level(lvl: etree._Element) -> Level:
    # One pass over the children (hot: every level of every list shown is read).
    first = {}
    for child in lvl:
        first.setdefault(child.tag, child)
    fmt_el = first.get(_W_NUMFMT)
    if fmt_el is None:
        fmt_el = _num_fmt(lvl)
    rpr = first.get(_W_RPR)
    fonts = rpr.find(_W_RFONTS) if rpr is not None else None
    text_el, start_el, suff_el, pstyle_el = (first.get(t) for t in (_W_LVLTEXT, _W_START, _W_SUFF, W_PSTYLE))
    restart = int_val(first.get(_W_LVLRESTART))
    return Level(
        fmt=fmt_el.get(W_VAL, "decimal") if fmt_el is not None else "decimal",
        text=text_el.get(W_VAL) if text_el is not None else None,
        start=clamp(int_val(start_el, 0 if start_el is not None else 1)),
        legal=on(first.get(_W_ISLGL)),
        restart=None if restart is None else max(0, min(restart, LEVELS)),
        suff=suff_el.get(W_VAL, "tab") if suff_el is not None else "tab",
        pstyle=pstyle_el.get(W_VAL) if pstyle_el is not None else None,
        font=(fonts.get(w("ascii")) or fonts.get(w("hAnsi"))) if fonts is not None else None)


def _ilvl(lvl: etree._Element) -> int | None:
    raw = lvl.get(w("ilvl"), "")
    return int(raw) if raw.isdigit() and len(raw) < 10 and int(raw) < LEVELS else None


@dataclass
class Abstract:
    aid: str
    el: etree._Element | None = None  # its w:abstractNum; levels are read from it when first asked
    num_style_link: str | None = None
    style_link: str | None = None
    _levels: list[Level | None] | None = field(default=None, repr=False)

    @property
    def levels(self) -> list[Level | None]:
        # Lazy: a document (or a Markdown insert) may hold hundreds of definitions, few of them shown.
        if self._levels is None:
            self._levels = [None] * LEVELS
            for lvl in (self.el.findall(w("lvl")) if self.el is not None else ()):
                i = _ilvl(lvl)
                if i is not None:
                    self._levels[i] = read_level(lvl)
        return self._levels


@dataclass
class Num:
    nid: int
    aid: str | None
    starts: dict[int, int] = field(default_factory=dict)  # startOverride per level
    levels: dict[int, Level] = field(default_factory=dict)  # lvlOverride/lvl per level


class Definitions:
    def __init__(self, numbering_root: etree._Element | None, styles):
        self.styles = styles
        self.abstracts: dict[str, Abstract] = {}
        self.nums: dict[int, Num] = {}
        if numbering_root is not None:
            self._read(numbering_root)
        self._list_of: dict[int, str | None] = {}
        self._levels: dict[int, list[Level | None]] = {}
        self._restarts: dict[tuple[int, int], tuple[int, ...]] = {}
        self._style_num: dict[str, tuple[int | None, int | None]] = {}
        self._pstyle_level: dict[tuple[str, str], int | None] = {}
        self._resolved: dict[tuple, tuple[int, int] | None] = {}
        self._plans: dict[int, tuple | None] = {}
        self.default_pstyle = self._default_paragraph_style()

    def _read(self, root: etree._Element) -> None:
        for an in root.iter(w("abstractNum")):
            aid = an.get(w("abstractNumId"))
            if aid is None:
                continue
            ab = Abstract(aid, an)
            link = an.find(w("numStyleLink"))
            ab.num_style_link = link.get(W_VAL) if link is not None else None
            link = an.find(w("styleLink"))
            ab.style_link = link.get(W_VAL) if link is not None else None
            self.abstracts.setdefault(aid, ab)
        for num in root.iter(w("num")):
            nid = _int(num.get(w("numId")))
            if nid is None:
                continue
            ref = num.find(w("abstractNumId"))
            n = Num(nid, ref.get(W_VAL) if ref is not None else None)
            for ov in num.findall(w("lvlOverride")):
                i = _ilvl(ov)
                if i is None:
                    continue
                start = ov.find(w("startOverride"))
                if start is not None:
                    n.starts[i] = clamp(int_val(start, 0))
                lvl = ov.find(w("lvl"))
                if lvl is not None:
                    n.levels[i] = read_level(lvl)
            self.nums.setdefault(nid, n)

    def _default_paragraph_style(self) -> str | None:
        for sid, st in self.styles.by_id.items():
            if st.get(w("type")) == "paragraph" and _attr_on(st, "default"):
                return sid
        return None

    # ---- lists: which abstractNum a num really counts in -------------------------------------------
    def abstract_of(self, nid: int) -> Abstract | None:
        """The abstractNum holding the levels of num ``nid`` (numStyleLink followed)."""
        num = self.nums.get(nid)
        ab = self.abstracts.get(num.aid) if num and num.aid is not None else None
        for _ in range(3):
            if ab is None or not ab.num_style_link:
                return ab
            target_nid, _ilvl_ = self.style_num(ab.num_style_link)
            target = self.nums.get(target_nid) if target_nid is not None else None
            nxt = self.abstracts.get(target.aid) if target and target.aid is not None else None
            if nxt is None or nxt is ab:
                return ab
            ab = nxt
        return ab

    def list_key(self, nid: int) -> str | None:
        if nid not in self._list_of:
            ab = self.abstract_of(nid)
            self._list_of[nid] = ab.aid if ab is not None else None
        return self._list_of[nid]

    def levels(self, nid: int) -> list[Level | None]:
        """The nine levels num ``nid`` shows (its lvlOverride levels over its abstractNum's)."""
        found = self._levels.get(nid)
        if found is None:
            num = self.nums.get(nid)
            ab = self.abstract_of(nid) if num is not None else None
            base = list(ab.levels) if ab is not None else [None] * LEVELS
            for i, lv in (num.levels.items() if num is not None else ()):
                base[i] = lv
            found = self._levels[nid] = base
        return found

    def counting_plan(self, nid: int, ilvl: int) -> tuple | None:
        """What counting a paragraph at (nid, ilvl) needs, looked up once: (list key, the nine
        levels, the level's start, the levels it restarts); None when it is not counted."""
        key = nid * LEVELS + ilvl
        plan = self._plans.get(key, _UNSET)
        if plan is _UNSET:
            list_key, levels = self.list_key(nid), self.levels(nid)
            level = levels[ilvl]
            plan = None if list_key is None or level is None else \
                (list_key, levels, level.start, self.restarted_by(nid, ilvl))
            self._plans[key] = plan
        return plan

    def level(self, nid: int, ilvl: int) -> Level | None:
        return self.levels(nid)[ilvl]

    def restarted_by(self, nid: int, ilvl: int) -> tuple[int, ...]:
        """The levels below ``ilvl`` that numbering a paragraph at ``ilvl`` restarts (lvlRestart)."""
        key = (nid, ilvl)
        found = self._restarts.get(key)
        if found is None:
            levels = self.levels(nid)
            found = self._restarts[key] = tuple(
                k for k in range(ilvl + 1, LEVELS)
                if levels[k] is None or levels[k].restart is None or (levels[k].restart != 0 and ilvl < levels[k].restart))
        return found

    # ---- paragraphs --------------------------------------------------------------------------------
    def style_num(self, sid: str) -> tuple[int | None, int | None]:
        """(numId, ilvl) a style gives through its basedOn chain (either may be None)."""
        if sid in self._style_num:
            return self._style_num[sid]
        nid = ilvl = None
        cur, seen = sid, set()
        while cur and cur not in seen and len(seen) < MAX_CHAIN:
            seen.add(cur)
            st = self.styles.by_id.get(cur)
            if st is None:
                break
            numpr = st.find(f"{W_PPR}/{W_NUMPR}")
            if numpr is not None:
                if nid is None:
                    nid = int_val(numpr.find(W_NUMID))
                if ilvl is None:
                    ilvl = int_val(numpr.find(W_ILVL))
            based = st.find(w("basedOn"))
            cur = based.get(W_VAL) if based is not None else None
        self._style_num[sid] = (nid, ilvl)
        return nid, ilvl

    def pstyle_level(self, nid: int, sid: str) -> int | None:
        key = (str(nid), sid)
        if key not in self._pstyle_level:
            ab = self.abstract_of(nid)
            found = None
            if ab is not None:
                found = next((i for i, lv in enumerate(ab.levels) if lv is not None and lv.pstyle == sid), None)
            self._pstyle_level[key] = found
        return self._pstyle_level[key]

    def para_num(self, p: etree._Element) -> tuple[int, int] | None:
        """(numId, ilvl) of a paragraph, or None when it is not numbered. (Hot: runs once per
        paragraph counted, so it reads pPr's children in one pass.)"""
        try:
            ppr = p[0]  # pPr comes first; indexing is much faster than find() or iterating
        except IndexError:
            ppr = None
        nid = ilvl = sid = None
        if ppr is not None and ppr.tag == W_PPR:
            i = 0
            while True:
                try:
                    child = ppr[i]
                except IndexError:
                    break
                tag = child.tag
                if tag == W_PSTYLE:
                    sid = child.get(W_VAL)
                elif tag == W_NUMPR:
                    for j in range(len(child)):
                        c = child[j]
                        if c.tag == W_NUMID:
                            nid = _int(c.get(W_VAL))
                        elif c.tag == W_ILVL:
                            ilvl = _int(c.get(W_VAL))
                    break
                elif tag not in _BEFORE_NUMPR:
                    break  # past where numPr stands in schema order
                i += 1
        return self.resolve(sid, nid, ilvl)

    def resolve(self, sid: str | None, nid: int | None, ilvl: int | None) -> tuple[int, int] | None:
        """(numId, ilvl) of a paragraph whose pPr gives these (pStyle, numId, ilvl), each maybe None."""
        key = (sid, nid, ilvl)
        found = self._resolved.get(key, _UNSET)
        if found is _UNSET:
            found = self._resolved[key] = self._resolve(sid, nid, ilvl)
        return found

    def _resolve(self, sid: str | None, nid: int | None, ilvl: int | None) -> tuple[int, int] | None:
        if sid is None:
            sid = self.default_pstyle
        if sid is not None and (nid is None or ilvl is None):
            s_nid, s_ilvl = self.style_num(sid)
            if nid is None:
                nid = s_nid
            if ilvl is None:  # a style without ilvl means level 0, whatever level links the style (pStyle)
                ilvl = s_ilvl
        if not nid or nid not in self.nums:
            return None
        ilvl = 0 if ilvl is None else max(0, min(ilvl, LEVELS - 1))
        return nid, ilvl


_UNSET = object()
_INTS: dict[str | None, int | None] = {}


def _int(raw: str | None) -> int | None:
    try:
        return _INTS[raw]  # the same few values ("0", "1", ...) on every list paragraph
    except KeyError:
        pass
    try:
        value = int((raw or "").strip())
    except ValueError:
        value = None
    if len(_INTS) < 4096:
        _INTS[raw] = value
    return value


def _attr_on(st: etree._Element, name: str) -> bool:
    return st.get(w(name), "0") in ("1", "true", "on")
