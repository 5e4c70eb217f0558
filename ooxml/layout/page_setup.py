"""Sections as a whole: their ranges, section breaks, page size, orientation and columns.

``sections.py`` answers "which section governs this element" and edits margins; this module
lists sections with what they cover, splits one with a break, and changes its page setup the
way Word's Page Setup dialog does.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import R, W, w
from ooxml.xml.order import get_or_add, insert_child, set_child
from ooxml.layout.sections import DEFAULT_PAGE, page_box

_NS = {"w": W}
BREAK_KINDS = {"next_page": "nextPage", "continuous": "continuous", "even_page": "evenPage",
               "odd_page": "oddPage"}
KIND_OF_TYPE = {v: k for k, v in BREAK_KINDS.items()}
# Paper sizes in twips (portrait width, height), as Word writes them.
PAGE_SIZES = {"a4": (11906, 16838), "a5": (8391, 11906), "a3": (16838, 23811), "letter": (12240, 15840),
              "legal": (12240, 20160)}
MAX_PAGE = 31680  # 22 inches, Word's largest page side
MIN_PAGE = 1440
MIN_TEXT = 720
HF_REFS = (w("headerReference"), w("footerReference"))


@dataclass
class SectionInfo:
    sect: etree._Element
    first: etree._Element | None  # first block of the section's range
    last: etree._Element | None


def section_list(doc) -> list[etree._Element]:
    """Every section's sectPr in order, like ``sections.body_sections`` but kept across edits."""
    from ooxml.text.doc_order import tracked
    return [s for s in tracked(doc, "sections", (w("sectPr"),)) if _is_section(doc, s)]


def _is_section(doc, sect: etree._Element) -> bool:
    parent = sect.getparent()
    if parent is doc.body:
        return True
    return parent.tag == w("pPr") and parent.getparent().tag == B.W_P and \
        (parent.getparent().getparent() is doc.body or parent.getparent().getparent().tag == B.W_SDTCONTENT)


def sections_with_ranges(doc) -> list[SectionInfo]:
    """Every section with the first and last body block it covers."""
    out = []
    start = next(B.iter_blocks(doc.body), None)
    for sect in section_list(doc):
        holder = _break_paragraph(sect)
        if holder is not None:
            out.append(SectionInfo(sect, start, holder))
            start = B.next_block(holder)
        else:  # the body's own sectPr: the rest of the body
            try:
                last = doc.body[-1]  # found without walking the children, unlike len()
            except IndexError:
                last = None
            last = last if last is not None and B.is_block(last) else (B.prev_block(last) if last is not None else None)
            out.append(SectionInfo(sect, start if last is not None else None, last))
    return out


def _break_paragraph(sect: etree._Element) -> etree._Element | None:
    """The body block holding a section break's sectPr (None for the body's own)."""
    ppr = sect.getparent()
    if ppr is None or ppr.tag != w("pPr"):
        return None
    p = ppr.getparent()
    while p.getparent() is not None and p.getparent().tag != B.W_BODY:
        p = p.getparent()  # a break paragraph inside a content control: the control is the block
    return p


def ensure_body_section(doc) -> etree._Element:
    """The body's own sectPr, made explicit (Word's defaults) when the file left it out."""
    sect = doc.body.find(w("sectPr"))
    if sect is None:
        sect = etree.SubElement(doc.body, w("sectPr"))
        set_child(sect, "pgSz", w=str(DEFAULT_PAGE[0]), h=str(DEFAULT_PAGE[1]))
    return sect


def break_kind(sect: etree._Element) -> str:
    t = sect.find(w("type"))
    return KIND_OF_TYPE.get(t.get(w("val")), "next_page") if t is not None else "next_page"


def orientation(sect: etree._Element) -> str:
    sz = sect.find(w("pgSz"))
    if sz is not None and sz.get(w("orient")) in ("landscape", "portrait"):
        return sz.get(w("orient"))
    box = page_box(sect)
    return "landscape" if box.width > box.height else "portrait"


def columns(sect: etree._Element) -> tuple[int, int]:
    """(number of columns, spacing in twips)."""
    cols = sect.find(w("cols"))
    if cols is None:
        return 1, 720
    try:
        num = int(cols.get(w("num"), "1"))
    except ValueError:
        num = 1
    try:
        space = int(float(cols.get(w("space"), "720")))
    except ValueError:
        space = 720
    return max(1, num), space


def header_footer_refs(sect: etree._Element) -> dict[tuple[str, str], str]:
    """(kind, which) -> relationship id, for the references this section itself carries."""
    refs = {}
    for ref in sect.iter(*HF_REFS):
        if ref.getparent() is sect:
            kind = "header" if ref.tag == HF_REFS[0] else "footer"
            refs[(kind, ref.get(w("type"), "default"))] = ref.get(f"{{{R}}}id")
    return refs


# ---- section breaks ---------------------------------------------------------------------------

def split_section(old: etree._Element, kind: str) -> etree._Element:
    """A sectPr for a new break that ends the first half of ``old``'s section.

    The new section copies the settings in force. Like Word, the first half keeps the header and
    footer references and the second half (``old``) is linked to it ("link to previous": no
    references of its own); the second half starts the way ``kind`` says.
    """
    new = copy.deepcopy(old)
    for child in list(new):
        if child.tag == w("sectPrChange"):
            new.remove(child)  # a revision record belongs to the original only
    for ref in [r for r in old if r.tag in HF_REFS]:
        old.remove(ref)
    set_child(old, "type", val=BREAK_KINDS[kind])
    return new


# ---- page setup -------------------------------------------------------------------------------------

@dataclass
class PageSetup:
    orientation: str | None = None  # portrait, landscape
    size: tuple[int, int] | None = None  # a named paper (portrait order), turned to the orientation
    exact: tuple[int | None, int | None] | None = None  # width, height as given (None: keep)
    columns: int | None = None
    column_spacing: int | None = None


def check_setup(setup: PageSetup) -> None:
    if setup.orientation not in (None, "portrait", "landscape"):
        raise ValidationError(f"orientation '{setup.orientation}' is not portrait or landscape.",
                              hint="Pass orientation='portrait' or orientation='landscape'.")
    sides = list(setup.size or ()) + [v for v in (setup.exact or ()) if v is not None]
    if sides:
        for side in sides:
            if not MIN_PAGE <= side <= MAX_PAGE:
                raise ValidationError("A page side must be between 1 and 22 inches.",
                                      hint="Named sizes: A4, A5, A3, Letter, Legal.")
    if setup.columns is not None and not 1 <= setup.columns <= 45:
        raise ValidationError("columns must be 1 to 45 (Word's limit).",
                              hint="Pass columns=1 for no columns, or a number up to 45.")
    if setup.column_spacing is not None and not 0 <= setup.column_spacing <= MAX_PAGE:
        raise ValidationError("column_spacing must be 0 to 22 inches.",
                              hint="Pass a length such as 0.5 (inches) or '1.25cm'.")


def apply_setup(sect: etree._Element, setup: PageSetup) -> None:
    """Change one section's page: size, then orientation (margins turn with the page), columns."""
    box = page_box(sect)
    width, height = box.width, box.height
    current = orientation(sect)
    if setup.size is not None:
        short, long_ = sorted(setup.size)
        want = setup.orientation or current
        width, height = (long_, short) if want == "landscape" else (short, long_)
    if setup.exact is not None:
        width = setup.exact[0] if setup.exact[0] is not None else width
        height = setup.exact[1] if setup.exact[1] is not None else height
        if setup.orientation is None:  # the sides given say which way the page stands
            target = "landscape" if width > height else "portrait"
            if target != current:
                _turn_margins(sect, to_landscape=target == "landscape")
            _write_size(sect, width, height, target)
            if setup.columns is not None or setup.column_spacing is not None:
                _set_columns(sect, setup)
            return
        if (width > height) != (setup.orientation == "landscape") and width != height:
            width, height = height, width
    target = setup.orientation or current
    if setup.size is None and setup.exact is None and target != current:
        width, height = height, width
    if target != current:
        _turn_margins(sect, to_landscape=target == "landscape")
    _write_size(sect, width, height, target)
    if setup.columns is not None or setup.column_spacing is not None:
        _set_columns(sect, setup)


def _write_size(sect: etree._Element, width: int, height: int, target: str) -> None:
    sz = get_or_add(sect, "pgSz")
    sz.set(w("w"), str(width))
    sz.set(w("h"), str(height))
    if target == "landscape":
        sz.set(w("orient"), "landscape")
    elif w("orient") in sz.attrib:
        del sz.attrib[w("orient")]  # portrait is the default


def check_result(sections: list[etree._Element], setup: PageSetup) -> None:
    """Refuse a setup that leaves some section without room for text (before anything changes)."""
    for i, sect in enumerate(sections):
        trial = copy.deepcopy(sect)
        apply_setup(trial, setup)
        box = page_box(trial)
        num, space = columns(trial)
        text = box.width - box.left - box.right - box.gutter
        if text < MIN_TEXT or box.height - abs(box.top) - abs(box.bottom) < MIN_TEXT:
            raise ValidationError(f"Section {i + 1}: the margins leave less than 0.5in of text on a "
                                  f"{box.width / 1440:.2f}in × {box.height / 1440:.2f}in page.",
                                  hint="Use a larger page or smaller margins (docx_set_margins).")
        if num > 1 and (text - (num - 1) * space) / num < MIN_TEXT:
            raise ValidationError(f"Section {i + 1}: {num} columns {space / 1440:.2f}in apart leave less "
                                  f"than 0.5in per column.", hint="Use fewer columns or less spacing.")


def _turn_margins(sect: etree._Element, to_landscape: bool) -> None:
    """Word turns the margins with the page: a quarter turn, the top margin becomes the left one."""
    mar = sect.find(w("pgMar"))
    if mar is None:
        return
    vals = {k: mar.get(w(k)) for k in ("top", "right", "bottom", "left")}
    if None in vals.values():
        return
    if to_landscape:
        new = {"left": vals["top"], "bottom": vals["left"], "right": vals["bottom"], "top": vals["right"]}
    else:
        new = {"top": vals["left"], "left": vals["bottom"], "bottom": vals["right"], "right": vals["top"]}
    for k, v in new.items():
        mar.set(w(k), v.lstrip("-") if k in ("left", "right") else v)


def _set_columns(sect: etree._Element, setup: PageSetup) -> None:
    cols = sect.find(w("cols"))
    if cols is None:
        cols = insert_child(sect, etree.Element(w("cols")))
    if setup.columns is not None:
        if setup.columns == 1:
            cols.attrib.pop(w("num"), None)
        else:
            cols.set(w("num"), str(setup.columns))
        for col in cols.findall(w("col")):  # explicit widths no longer fit: equal columns
            cols.remove(col)
        cols.attrib.pop(w("equalWidth"), None)
    cols.set(w("space"), str(setup.column_spacing if setup.column_spacing is not None
                              else cols.get(w("space"), "720")))


def size_name(width: int, height: int) -> str:
    short, long_ = sorted((width, height))
    for name, (a, b) in PAGE_SIZES.items():
        if abs(a - short) <= 20 and abs(b - long_) <= 20:
            return {"a4": "A4", "a5": "A5", "a3": "A3", "letter": "Letter", "legal": "Legal"}[name]
    return "custom"


def setup_line(i: int, sect: etree._Element) -> str:
    """``Section 2: A4 11.69in × 8.27in landscape, 2 columns (0.50in apart)``."""
    box = page_box(sect)
    num, space = columns(sect)
    cols = "1 column" if num == 1 else f"{num} columns ({space / 1440:.2f}in apart)"
    return (f"Section {i + 1}: {size_name(box.width, box.height)} {box.width / 1440:.2f}in × "
            f"{box.height / 1440:.2f}in {orientation(sect)}, {cols}")
