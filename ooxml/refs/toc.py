"""Tables of contents: a ``TOC`` field whose result is written in, as Word writes it.

The TOC is a content control of the "Table of Contents" gallery (its ID is ``toc_…``) holding an
optional title paragraph and one paragraph per heading. The field begins in the first entry
paragraph and ends in the last. Each entry links (``w:hyperlink w:anchor``) to a hidden
``_Toc…`` bookmark around its heading, and shows the heading's page number when one is known
(a ``PAGEREF`` field after a right tab with a dot leader).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

from lxml import etree

from ooxml.xml import minting
from ooxml.text import body as B
from ooxml.refs import fields as FL
from ooxml.refs import links as L
from ooxml.text.build import make_run
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import W, w
from ooxml.xml.order import get_or_add, set_child
from ooxml.xml.safexml import parse_part
from ooxml.refs.toc_switches import TocSpec, is_toc
from ooxml.stylesheet.styles_builtin import ensure_style

_LEVELS = re.compile(r"^\s*([1-9])\s*-\s*([1-9])\s*$")
NO_ENTRIES = "No table of contents entries found."


def parse_levels(levels: str) -> tuple[int, int]:
    m = _LEVELS.match(str(levels or ""))
    if not m or int(m.group(1)) > int(m.group(2)):
        raise ValidationError(f"levels '{levels}' is not a range of heading levels like '1-3'.",
                              hint="Use 'FROM-TO' with 1 <= FROM <= TO <= 9, e.g. '1-3'.")
    return int(m.group(1)), int(m.group(2))


@dataclass
class Heading:
    p: etree._Element
    level: int
    text: str


_DIRECT_LEVELS = etree.XPath(".//w:p/w:pPr/w:outlineLvl", namespaces={"w": W})


def headings(doc, lo: int | None, hi: int | None, skip: etree._Element | None = None,
             styles: dict[str, int] | None = None) -> list[Heading]:
    """Body paragraphs with an outline level in lo..hi (none when lo is None), or of a style in
    ``styles`` (style ID -> level, a TOC's \\t switch), in order; the TOC's own paragraphs skipped.

    Candidates are found by one XPath selecting the ``w:pStyle`` of the styles that carry an
    outline level (and direct ``w:outlineLvl``s): the style is read off the hit, not looked up
    again per paragraph, and a Python loop over every paragraph of a large body costs more still.
    """
    styles = styles or {}
    level_of = {sid: doc.styles.outline_level(sid) for sid, st in doc.styles.by_id.items()
                if st.get(w("type"), "paragraph") == "paragraph"} if lo is not None else {}
    with_level = [sid for sid, lvl in level_of.items() if lvl is not None] + list(styles)
    test = " or ".join(f"@w:val='{sid}'" for sid in with_level if sid.isprintable() and "'" not in sid)
    direct = {ol.getparent().getparent() for ol in _DIRECT_LEVELS(doc.body)}
    expr = ".//w:p/w:pPr/w:outlineLvl" + (f" | .//w:p/w:pPr/w:pStyle[{test}]" if test else "")
    own = set(skip.iter(B.W_P)) if skip is not None else set()
    out, prev = [], None
    for hit in etree.XPath(expr, namespaces={"w": W})(doc.body):
        p = hit.getparent().getparent()
        if p is prev or p in own:
            continue  # a paragraph with both a style and a direct level is hit twice
        prev = p
        sid = hit.get(w("val")) if hit.tag == w("pStyle") else B.style_id(p)
        level = _level(p, sid, p in direct, lo, hi, level_of, styles)
        if level is None:
            continue
        text = " ".join(B.paragraph_text(p).split())
        if text:
            out.append(Heading(p, level, text))
    return out


def _level(p, sid: str | None, has_direct: bool, lo, hi, level_of: dict, styles: dict[str, int]) -> int | None:
    """The paragraph's 1-based TOC level, or None when the TOC does not take it."""
    if sid in styles:
        return styles[sid]
    if lo is None:
        return None
    direct = B.direct_outline_level(p) if has_direct else None
    lvl = direct if direct is not None else level_of.get(sid)
    return lvl + 1 if lvl is not None and lo <= lvl + 1 <= hi else None


def existing_toc_bookmark(h: Heading) -> str | None:
    for start in h.p.iter(L.W_BM_START):
        if start.get(w("name"), "").startswith("_Toc"):
            return start.get(w("name"))
    return None


def new_toc_names(count: int, names: set[str]) -> list[str]:
    """``count`` fresh ``_Toc`` names (9 digits, as Word writes them), none in ``names`` (updated)."""
    out = []
    while len(out) < count:
        name = f"_Toc{minting.randbelow(900_000_000) + 100_000_000}"
        if name not in names:
            names.add(name)
            out.append(name)
    return out


def add_toc_bookmarks(found: list[Heading], names: set[str], first_id: int) -> list[tuple[Heading, str]]:
    """Bookmark the headings that have no ``_Toc`` bookmark yet (made in one batch); returns
    (heading, name) for those. Callers announce the change (will_change) first."""
    fresh = new_toc_names(len(found), names)
    pairs = L.bookmark_pairs([(n, first_id + i) for i, n in enumerate(fresh)])
    for h, (start, end) in zip(found, pairs):
        L.wrap_paragraph(h.p, start, end)
    return list(zip(found, fresh))


def _field_runs(instruction: str, kind: str) -> list[etree._Element]:
    runs = FL.field_runs(instruction, "")
    if kind == "begin":
        return runs[:3]  # begin, instruction, separate
    return [runs[-1]]  # end


_ANCHOR, _TEXT, _PAGE = "OXM-ANCHOR", "OXM-TEXT", "OXM-PAGE"  # placeholders in an entry's template


def _prototype(doc, level: int, tab_pos: int, link: bool, page: bool, style_name: str | None = None) -> str:
    """An entry paragraph of ``level`` as XML with placeholders for anchor, text and page: entries
    are made from it by one parse for the whole TOC (element by element through lxml's API, 5,000
    entries took a good part of a second). Its properties still come through order.py."""
    wrapper = etree.Element(w("x"), nsmap={"w": W})
    p = etree.SubElement(wrapper, w("p"))
    ppr = get_or_add(p, "pPr")
    style = ensure_style(doc, style_name or f"toc {level}")
    if style:
        set_child(ppr, "pStyle", val=style)
    tabs = get_or_add(ppr, "tabs")
    etree.SubElement(tabs, w("tab"), {w("val"): "right", w("leader"): "dot", w("pos"): str(tab_pos)})
    set_child(get_or_add(ppr, "rPr"), "noProof")
    holder = etree.SubElement(p, L.W_LINK, {w("anchor"): _ANCHOR, w("history"): "1"}) if link else p
    holder.append(make_run(_TEXT))
    if page:
        etree.SubElement(etree.SubElement(holder, w("r")), w("tab"))
        holder.extend(FL.field_runs(f"PAGEREF {_ANCHOR} \\h", _PAGE))
    xml = etree.tostring(wrapper, encoding="unicode")
    return xml[xml.index(">") + 1:xml.rindex("</")]


def _entry_xml(template: str, text: str, anchor: str, page: int | None) -> str:
    return template.replace(_ANCHOR, escape(anchor, {'"': "&quot;"})).replace(_TEXT, escape(text)) \
        .replace(_PAGE, str(page))


def entries(doc, found: list[Heading], anchors: list[str], pages: list[int | None] | None, tab_pos: int,
            spec: TocSpec | None = None, style_name: str | None = None) -> list[etree._Element]:
    """One paragraph per heading as the TOC's switches ask (links, page numbers); never empty.
    ``style_name``: the entries' style instead of 'toc N' (a table of figures')."""
    link = spec is None or spec.hyperlinks
    templates: dict[tuple[int, bool], str] = {}
    xml = []
    for i, (h, a) in enumerate(zip(found, anchors)):
        page = pages[i] if pages and (spec is None or spec.page_at(h.level)) else None
        key = (h.level, page is not None)
        if key not in templates:
            templates[key] = _prototype(doc, h.level, tab_pos, link, page is not None, style_name)
        xml.append(_entry_xml(templates[key], h.text, a, page))
    if not xml:
        empty = etree.Element(w("p"))
        empty.append(make_run(NO_ENTRIES))
        return [empty]
    return list(parse_part(f'<w:x xmlns:w="{W}">{"".join(xml)}</w:x>'.encode(), "toc entries").getroot())


@dataclass
class Built:
    sdt: etree._Element
    entries: int


def build(doc, instruction: str, found: list[Heading], anchors: list[str], pages: list[int | None] | None,
          title: str | None, tab_pos: int) -> etree._Element:
    """The TOC content control, field result written in."""
    sdt = etree.Element(w("sdt"))
    sdt_pr = etree.SubElement(sdt, w("sdtPr"))
    etree.SubElement(sdt_pr, w("id"), {w("val"): str(minting.randbelow(2**31 - 2) + 1)})
    obj = etree.SubElement(sdt_pr, w("docPartObj"))
    etree.SubElement(obj, w("docPartGallery"), {w("val"): "Table of Contents"})
    etree.SubElement(obj, w("docPartUnique"))
    content = etree.SubElement(sdt, w("sdtContent"))
    fill(doc, content, instruction, found, anchors, pages, title, tab_pos)
    return sdt


def fill(doc, content: etree._Element, instruction: str, found: list[Heading], anchors: list[str],
         pages: list[int | None] | None, title: str | None, tab_pos: int, spec: TocSpec | None = None,
         style_name: str | None = None) -> None:
    if title:
        style = ensure_style(doc, "TOC Heading")
        tp = etree.SubElement(content, w("p"))
        if style:
            set_child(get_or_add(tp, "pPr"), "pStyle", val=style)
        tp.append(make_run(title))
    paras = entries(doc, found, anchors, pages, tab_pos, spec, style_name)
    first, last = paras[0], paras[-1]
    at = 1 if first.find(w("pPr")) is not None else 0
    for i, r in enumerate(_field_runs(instruction, "begin")):
        first.insert(at + i, r)
    last.extend(_field_runs(instruction, "end"))
    content.extend(paras)


def toc_instruction(sdt: etree._Element) -> str:
    for begin in sdt.iter(FL.W_FLDCHAR, w("fldSimple")):
        if begin.tag == w("fldSimple"):
            instr = " ".join((begin.get(w("instr")) or "").split())
        elif begin.get(w("fldCharType")) == "begin":
            instr = FL.instruction_of(begin)
        else:
            continue
        if is_toc(instr):
            return instr
    return 'TOC \\o "1-3" \\h \\z \\u'


def toc_title(doc, sdt: etree._Element) -> str | None:
    content = sdt.find(w("sdtContent"))
    first = content.find(w("p")) if content is not None else None
    if first is None or first.find(f".//{w('fldChar')}") is not None:
        return None
    sid = B.style_id(first)
    if sid and doc.styles.name(sid).lower().replace(" ", "") == "tocheading":
        return B.paragraph_text(first)
    return None
