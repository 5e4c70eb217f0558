"""Making and changing lists: numPr on paragraphs over numbering.xml definitions.

A list type is a number format at a level (``number`` = decimal, ``bullet``, letters, romans).
Definitions of the document are reused where one fits: an unused num whose level has the format,
or an abstractNum whose level has it (a new num over it, with a startOverride, restarts it as
Word's "Restart at 1" does). Only then is a new abstractNum written, with Word's default levels.
No w15 markup is written, so nothing depends on which namespaces the part declares.
"""
from __future__ import annotations

import re

from lxml import etree

from ooxml.xml import minting
from ooxml.text import body as B
from ooxml.lists import numbering as N
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import w
from ooxml.lists.numbering_defs import LEVELS, Definitions
from ooxml.opc.types import CT, RT
from ooxml.xml.order import get_or_add, remove_child

LIST_TYPES = {"bullet": "bullet", "number": "decimal", "lower_letter": "lowerLetter",
              "upper_letter": "upperLetter", "lower_roman": "lowerRoman", "upper_roman": "upperRoman"}
TYPE_OF_FMT = {fmt: name for name, fmt in LIST_TYPES.items()}
_CYCLE = {"decimal": ("decimal", "lowerLetter", "lowerRoman"), "lowerLetter": ("lowerLetter", "lowerRoman", "decimal"),
          "lowerRoman": ("lowerRoman", "decimal", "lowerLetter"), "upperLetter": ("upperLetter", "decimal", "lowerLetter"),
          "upperRoman": ("upperRoman", "upperLetter", "decimal")}
_BULLETS = (("\uf0b7", "Symbol"), ("o", "Courier New"), ("\uf0a7", "Wingdings"))
_LEVEL_REF = re.compile(r"%([1-9])")
MAX_SCAN = 5_000  # blocks looked at when searching back for the list to continue
_NUMBERING_XML = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                  b'<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>')


def check_type(list_type: str, allow_none: bool = True) -> None:
    names = list(LIST_TYPES) + (["none"] if allow_none else [])
    if list_type not in names:
        raise ValidationError(f"list_type '{list_type}' is not a list type.", hint="Use one of: " + ", ".join(names))


def check_level(level: int) -> None:
    if not isinstance(level, int) or not 0 <= level < LEVELS:
        raise ValidationError(f"level must be 0 to {LEVELS - 1}, not {level}.",
                              hint="0 is the outermost level of a list.")


def type_of(defs: Definitions, nid: int, ilvl: int) -> str | None:
    level = defs.level(nid, ilvl)
    return TYPE_OF_FMT.get(level.fmt) if level is not None else None


# ---- the numbering part ---------------------------------------------------------------------------

def numbering_root(doc, create: bool = True) -> etree._Element | None:
    """THE writer of the numbering part: its root, touched (the caller changes it); the part, its
    Override and relationship added when missing (None then unless ``create``)."""
    part = doc.related_part(RT.NUMBERING)
    if part is None:
        if not create:
            return None
        name = doc.package.free_name("word/numbering.xml", "word/numbering{}.xml")
        part = doc.package.add_part(name, _NUMBERING_XML, CT.NUMBERING)
        doc.package.relate_part(doc.main_name, RT.NUMBERING, name)
    part.touch()
    return part.tree.getroot()


def place_abstract(root: etree._Element, abstract: etree._Element) -> None:
    """Schema order: numPicBullet*, abstractNum*, num*, numIdMacAtCleanup?"""
    anchors = root.findall(w("abstractNum")) or root.findall(w("numPicBullet"))
    if anchors:
        anchors[-1].addnext(abstract)
    else:
        root.insert(0, abstract)


def place_num(root: etree._Element, num: etree._Element) -> None:
    nums = root.findall(w("num"))
    cleanup = root.find(w("numIdMacAtCleanup"))
    if nums:
        nums[-1].addnext(num)
    elif cleanup is not None:
        cleanup.addprevious(num)
    else:
        root.append(num)


def _max_id(root: etree._Element, tag: str, attr: str) -> int:
    best = -1
    for el in root.iter(w(tag)):
        raw = el.get(w(attr), "")
        if raw.isdigit():
            best = max(best, int(raw))
    return best


def _level_xml(ilvl: int, fmt: str, start_level: int = 0) -> etree._Element:
    lvl = etree.Element(w("lvl"), {w("ilvl"): str(ilvl)})
    etree.SubElement(lvl, w("start"), {w("val"): "1"})
    if fmt == "bullet":
        char, font = _BULLETS[ilvl % 3]
        etree.SubElement(lvl, w("numFmt"), {w("val"): "bullet"})
        etree.SubElement(lvl, w("lvlText"), {w("val"): char})
    else:
        etree.SubElement(lvl, w("numFmt"), {w("val"): fmt})
        closing = ")" if fmt == "lowerLetter" and ilvl == start_level else "."
        etree.SubElement(lvl, w("lvlText"), {w("val"): f"%{ilvl + 1}{closing}"})
    etree.SubElement(lvl, w("lvlJc"), {w("val"): "right" if fmt.endswith("Roman") else "left"})
    ppr = etree.SubElement(lvl, w("pPr"))
    etree.SubElement(ppr, w("ind"), {w("left"): str(720 * (ilvl + 1)), w("hanging"): "360"})
    if fmt == "bullet":
        rpr = etree.SubElement(lvl, w("rPr"))
        etree.SubElement(rpr, w("rFonts"), {w("ascii"): font, w("hAnsi"): font, w("hint"): "default"})
    return lvl


def level_formats(fmt: str, level: int) -> list[str]:
    """Formats of nine levels with ``fmt`` at ``level``, Word's 1. a. i. cycle around it."""
    if fmt == "bullet":
        return ["bullet"] * LEVELS
    return [_CYCLE[fmt][(k - level) % 3] if k >= level else _CYCLE["decimal"][k % 3] for k in range(LEVELS)]


def add_abstract(root: etree._Element, fmt: str, level: int) -> str:
    aid = str(_max_id(root, "abstractNum", "abstractNumId") + 1)
    an = etree.Element(w("abstractNum"), {w("abstractNumId"): aid})
    etree.SubElement(an, w("nsid"), {w("val"): f"{minting.randbits(32):08X}"})
    etree.SubElement(an, w("multiLevelType"), {w("val"): "hybridMultilevel"})
    for k, f in enumerate(level_formats(fmt, level)):
        an.append(_level_xml(k, f, level))
    place_abstract(root, an)
    return aid


def add_num(root: etree._Element, aid: str, starts: dict[int, int] | None = None) -> int:
    nid = max(_max_id(root, "num", "numId"), 0) + 1
    num = etree.Element(w("num"), {w("numId"): str(nid)})
    etree.SubElement(num, w("abstractNumId"), {w("val"): aid})
    for ilvl, start in sorted((starts or {}).items()):
        ov = etree.SubElement(num, w("lvlOverride"), {w("ilvl"): str(ilvl)})
        etree.SubElement(ov, w("startOverride"), {w("val"): str(start)})
    place_num(root, num)
    return nid


# ---- choosing definitions -------------------------------------------------------------------------

def _num_ids(elements) -> set[int]:
    out = set()
    for el in elements:
        for numid in el.iter(w("numId")):
            raw = numid.get(w("val"), "")
            if raw.isdigit() and len(raw) < 10 and int(raw):
                out.add(int(raw))
    return out


def _lists(defs: Definitions, nids: set[int]) -> set[str]:
    return {key for nid in nids if (key := defs.list_key(nid)) is not None}


def _style_lists(doc, defs: Definitions) -> set[str]:
    """Lists paragraph styles number with: wherever their paragraphs are, count them as in use."""
    styles = doc.styles.root
    return _lists(defs, _num_ids([styles])) if styles is not None else set()


def _fits(defs: Definitions, aid: str, fmt: str, level: int) -> bool:
    """The abstractNum's ``level`` draws ``fmt`` from 1 and shows no other level's number: a new
    list over it starts at 1 (or a, A, i, I), whatever the lists sharing it have counted."""
    ab = defs.abstracts.get(aid)
    if ab is None or ab.num_style_link or ab.style_link:
        return False
    lv = ab.levels[level]
    if lv is None or lv.fmt != fmt or not lv.text:
        return False
    return fmt == "bullet" or (lv.start == 1 and set(_LEVEL_REF.findall(lv.text)) == {str(level + 1)})


def new_list(doc, list_type: str, level: int, after: etree._Element | None = None) -> int:
    """A num that starts a new list of ``list_type`` at ``level``, whose items stand before ``after``.

    Nums over one abstractNum share its counters, so a definition is reused only where that
    cannot renumber another list: an abstractNum no paragraph uses (its plain num, or a new one);
    one used only before the new list (a new num with a startOverride restarts it); for bullets,
    which show no count, any bullet list. Else a new abstractNum with Word's default levels.
    """
    fmt = LIST_TYPES[list_type]
    defs = N.definitions(doc)
    fitting = [a for a in defs.abstracts if _fits(defs, a, fmt, level)]
    plain = {n.aid: n.nid for n in sorted(defs.nums.values(), key=lambda n: -n.nid)
             if not n.starts and not n.levels and n.aid is not None}
    if fmt == "bullet":
        for aid in fitting:
            if aid in plain:
                return plain[aid]
    root = None
    if fitting:
        in_use = _lists(defs, _num_ids([doc.body])) | _style_lists(doc, defs)
        unused = [a for a in fitting if a not in in_use]
        if unused:
            if unused[0] in plain:
                return plain[unused[0]]
            root = numbering_root(doc)
            nid = add_num(root, unused[0])
            N.invalidate(doc)
            return nid
        later = _lists(defs, _num_ids(_blocks_from(after))) | _style_lists(doc, defs)
        earlier_only = [a for a in fitting if a not in later]
        if earlier_only:
            root = numbering_root(doc)
            nid = add_num(root, earlier_only[0], {level: 1})
            N.invalidate(doc)
            return nid
    root = numbering_root(doc)
    nid = add_num(root, add_abstract(root, fmt, level))
    N.invalidate(doc)
    return nid


def _blocks_from(el: etree._Element | None):
    """``el`` and everything after it in its story, block by block, climbing out of containers."""
    cur = el
    while cur is not None:
        node = cur
        while node is not None:
            yield node
            node = node.getnext()
        parent = cur.getparent()
        cur = None
        while parent is not None and cur is None:
            cur = parent.getnext()
            parent = parent.getparent()


def restart_num(doc, nid: int, ilvl: int, start: int) -> int:
    """A new num over the list of ``nid`` that restarts level ``ilvl`` at ``start``."""
    defs = N.definitions(doc)
    ab = defs.abstract_of(nid)
    root = numbering_root(doc)
    new = add_num(root, ab.aid if ab is not None else defs.nums[nid].aid, {ilvl: start})
    N.invalidate(doc)
    return new


def fits_list(defs: Definitions, nid: int, list_type: str, level: int) -> bool:
    """A list of ``list_type``: its level ``level`` has that format; or, for the generic types
    (number, bullet), the list as a whole does (level 0), as when an item of a numbered list moves
    in to its 'a.' level. A named format (upper_letter ...) must be the one the level shows."""
    if type_of(defs, nid, level) == list_type:
        return True
    return list_type in ("number", "bullet") and type_of(defs, nid, 0) == list_type


def previous_list(doc, p: etree._Element, list_type: str, level: int) -> int | None:
    """The numId of ``p``'s own list or the nearest list before it, if it is a ``list_type`` list."""
    defs = N.definitions(doc)
    cur, seen = p, 0
    while cur is not None and seen < MAX_SCAN:
        paras = [cur] if cur.tag == B.W_P else list(cur.iter(B.W_P))[::-1]
        for q in paras:
            ref = defs.para_num(q)
            if ref is not None and fits_list(defs, ref[0], list_type, level):
                return ref[0]
        cur, seen = B.prev_block(cur), seen + 1
    return None


# ---- paragraphs -----------------------------------------------------------------------------------

def set_num(p: etree._Element, nid: int, ilvl: int) -> None:
    ppr = get_or_add(p, "pPr")
    remove_child(ppr, "numPr")
    numpr = get_or_add(ppr, "numPr")
    etree.SubElement(numpr, w("ilvl"), {w("val"): str(ilvl)})
    etree.SubElement(numpr, w("numId"), {w("val"): str(nid)})


def clear_num(doc, p: etree._Element) -> None:
    """Take ``p`` out of its list; numId 0 cancels numbering its style would give."""
    ppr = p.find(w("pPr"))
    if ppr is not None:
        remove_child(ppr, "numPr")
        if not len(ppr) and not ppr.attrib:
            p.remove(ppr)
    if N.definitions(doc).para_num(p) is not None:
        set_num(p, 0, 0)
        p.find(f"{w('pPr')}/{w('numPr')}").remove(p.find(f"{w('pPr')}/{w('numPr')}/{w('ilvl')}"))


def set_style_if_plain(p: etree._Element, sid: str | None) -> None:
    if sid is None:
        return
    ppr = get_or_add(p, "pPr")
    if ppr.find(w("pStyle")) is None:
        get_or_add(ppr, "pStyle").set(w("val"), sid)


def new_style_list(doc, fmt: str, style_id: str) -> int:
    """A list of its own for a list style (List Bullet, List Number): level 0 linked to the style."""
    root = numbering_root(doc)
    aid = add_abstract(root, fmt, 0)
    lvl0 = root.find(f"{w('abstractNum')}[@{w('abstractNumId')}='{aid}']/{w('lvl')}")
    lvl0.find(w("numFmt")).addnext(etree.Element(w("pStyle"), {w("val"): style_id}))  # start, numFmt, pStyle
    nid = add_num(root, aid)
    N.invalidate(doc)
    return nid


def restarting_num(doc, nid: int, share: bool) -> int:
    """A new num for a copy of the whole list of ``nid``, numbering afresh.

    ``share``: the original list stands wholly before the copy, whose first item is at level 0, so a
    num over the same abstractNum restarting level 0 does it (a startOverride on every level, as
    Word writes "Restart at 1"; only the first item's level acts). Otherwise the original would
    continue the copy's counters: the copy gets an abstractNum of its own, a copy of its levels.
    """
    defs = N.definitions(doc)
    ab = defs.abstract_of(nid)
    aid = ab.aid if ab is not None else defs.nums[nid].aid
    root = numbering_root(doc)
    if share or aid is None:
        starts = {i: lv.start for i, lv in enumerate(defs.levels(nid)) if lv is not None}
        new = add_num(root, aid, starts)
    else:
        new = add_num(root, _copy_abstract(root, aid))
    N.invalidate(doc)
    return new


def _copy_abstract(root: etree._Element, aid: str) -> str:
    import copy
    source = next(a for a in root.iter(w("abstractNum")) if a.get(w("abstractNumId")) == aid)
    dup = copy.deepcopy(source)
    new_id = str(_max_id(root, "abstractNum", "abstractNumId") + 1)
    dup.set(w("abstractNumId"), new_id)
    for tag in ("styleLink", "numStyleLink"):  # one list per numbering style
        for el in dup.findall(w(tag)):
            dup.remove(el)
    nsid = dup.find(w("nsid"))
    if nsid is not None:
        nsid.set(w("val"), f"{minting.randbits(32):08X}")
    place_abstract(root, dup)
    return new_id
