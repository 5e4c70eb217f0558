"""Sections: which w:sectPr governs an element, page text area, margins.

A section's properties sit in the ``w:pPr/w:sectPr`` of its last paragraph; the last section's
in ``w:body/w:sectPr``. Revision records (``w:sectPrChange``) hold old copies that are not
sections and are never edited.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.text import body as B
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import W, w
from ooxml.xml.numbers import MAX_TWIPS, file_int
from ooxml.xml.order import get_or_add

_NS = {"w": W}
_NEXT_BREAK = etree.XPath("following-sibling::w:p[w:pPr/w:sectPr][1]/w:pPr/w:sectPr", namespaces=_NS)
_BREAKS = etree.XPath("./w:p/w:pPr/w:sectPr | ./w:sdt/w:sdtContent/w:p/w:pPr/w:sectPr | ./w:sectPr",
                      namespaces=_NS)

# Word's defaults (Letter, 1in margins) when a file leaves them out.
DEFAULT_PAGE = (12240, 15840)
PGMAR_DEFAULTS = {"top": "1440", "right": "1440", "bottom": "1440", "left": "1440",
                  "header": "720", "footer": "720", "gutter": "0"}
MIN_TEXT_TWIPS = 720  # a text column narrower than half an inch is not a page anyone wants


def body_sections(body: etree._Element) -> list[etree._Element]:
    """Every section's sectPr in document order (section breaks, then the body's own)."""
    return list(_BREAKS(body))


def body_block(doc, el: etree._Element) -> etree._Element | None:
    """The child of the body that holds ``el`` (None outside the body)."""
    top = doc.top_block(el)
    return top if top is not None and top.getparent() is doc.body else None


def section_of(doc, el: etree._Element) -> etree._Element | None:
    """The sectPr governing ``el``; elements outside the body get the last section."""
    block = body_block(doc, el) if el is not doc.body else None
    if block is not None:
        own = block.find(f"{w('pPr')}/{w('sectPr')}") if block.tag == B.W_P else None
        if own is not None:
            return own
        nxt = _NEXT_BREAK(block)
        if nxt:
            return nxt[0]
    return doc.body.find(w("sectPr"))


def _int(el: etree._Element | None, attr: str, default: int) -> int:
    if el is None:
        return default
    return file_int(el.get(w(attr)), default, -MAX_TWIPS, MAX_TWIPS)


@dataclass
class PageBox:
    width: int  # twips
    height: int
    top: int
    bottom: int
    left: int
    right: int
    gutter: int

    @property
    def text_width(self) -> int:
        return max(MIN_TEXT_TWIPS, self.width - self.left - self.right - self.gutter)

    @property
    def text_height(self) -> int:
        return max(MIN_TEXT_TWIPS, self.height - abs(self.top) - abs(self.bottom))


def page_box(sect: etree._Element | None) -> PageBox:
    sz = sect.find(w("pgSz")) if sect is not None else None
    mar = sect.find(w("pgMar")) if sect is not None else None
    d = PGMAR_DEFAULTS
    return PageBox(_int(sz, "w", DEFAULT_PAGE[0]), _int(sz, "h", DEFAULT_PAGE[1]),
                   _int(mar, "top", int(d["top"])), _int(mar, "bottom", int(d["bottom"])),
                   _int(mar, "left", int(d["left"])), _int(mar, "right", int(d["right"])),
                   _int(mar, "gutter", 0))


def check_margins(sections: list[etree._Element], new: dict[str, int]) -> None:
    """Refuse margins that leave no room for text in some section (before anything changes)."""
    for key in ("left", "right"):
        if key in new and new[key] < 0:
            raise ValidationError(f"{key} margin cannot be negative.",
                                  hint="Give a margin of 0 or more, e.g. '2cm' or 1 (inch).")
    for i, sect in enumerate(sections or [None]):
        box = page_box(sect)
        left, right = new.get("left", box.left), new.get("right", box.right)
        top, bottom = new.get("top", box.top), new.get("bottom", box.bottom)
        if box.width - left - right - box.gutter < MIN_TEXT_TWIPS:
            raise ValidationError(f"Section {i + 1}: left + right margins leave less than 0.5in of text width "
                                  f"(page width {box.width / 1440:.2f}in).",
                                  hint="Use smaller left/right margins.")
        if box.height - abs(top) - abs(bottom) < MIN_TEXT_TWIPS:
            raise ValidationError(f"Section {i + 1}: top + bottom margins leave less than 0.5in of text height "
                                  f"(page height {box.height / 1440:.2f}in).",
                                  hint="Use smaller top/bottom margins.")


_PGMAR_ATTRS = ("top", "right", "bottom", "left", "header", "footer", "gutter")


def set_margins(sect: etree._Element, new: dict[str, int]) -> None:
    """Set some of top/bottom/left/right; the schema's other required attributes are kept or defaulted."""
    pg_mar = get_or_add(sect, "pgMar")
    for name in _PGMAR_ATTRS:
        if name in new:
            pg_mar.set(w(name), str(new[name]))
        elif pg_mar.get(w(name)) is None:
            pg_mar.set(w(name), PGMAR_DEFAULTS[name])  # all seven are required by CT_PageMar


def margins_line(i: int, sect: etree._Element | None) -> str:
    box = page_box(sect)
    return (f"Section {i + 1}: top {box.top / 1440:.2f}in, bottom {box.bottom / 1440:.2f}in, "
            f"left {box.left / 1440:.2f}in, right {box.right / 1440:.2f}in")
