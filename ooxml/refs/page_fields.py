"""Results of the page fields (PAGE, NUMPAGES, SECTIONPAGES, PAGEREF) from a layout's pages.

``Pages`` is what a layout tells (render/page_layout.py reads it from LibreOffice's PDF): the
physical page where a body block and where a bookmark start. Shown numbers follow the sections'
``w:pgNumType`` (a restart, a format), as Word shows them. PAGE and SECTIONPAGES in a header or
footer differ per page: Word and LibreOffice compute those themselves.
"""
from __future__ import annotations

from typing import Protocol

from lxml import etree

from ooxml.refs import compute as C
from ooxml.refs import field_list as FLD
from ooxml.text import body as B
from ooxml.xml.namespaces import W, w

PAGED = ("PAGE", "NUMPAGES", "SECTIONPAGES", "PAGEREF")
_FORMATS = {"lowerRoman": "roman", "upperRoman": "ROMAN", "lowerLetter": "alphabetic", "upperLetter": "ALPHABETIC"}


class Pages(Protocol):
    total: int

    def of_block(self, block: etree._Element) -> int | None: ...

    def of_bookmark(self, name: str) -> int | None: ...


def computable(f: FLD.Field) -> bool:
    """False for the fields every page shows differently (PAGE, SECTIONPAGES in a header/footer)."""
    return not (f.name in ("PAGE", "SECTIONPAGES") and f.root.tag in (w("hdr"), w("ftr")))


class PageResults:
    def __init__(self, doc, pages: Pages):
        self.doc, self.pages = doc, pages
        self.refs = C.Results(doc, [])
        self._sections: tuple | None = None
        self._firsts: list[int] | None = None

    def of(self, f: FLD.Field) -> str | None:
        if not computable(f):
            return None
        if f.name == "NUMPAGES":
            return C.formatted(self.pages.total, f.switch("\\*"))
        if f.name == "PAGEREF":
            start = self.refs.mark(f.words[1]) if len(f.words) > 1 else None
            if start is None:
                return C.MISSING
            if f.switch("\\p") is not None:
                return self.refs.above_below(f, start)
            page = self.pages.of_bookmark(f.words[1])
            return None if page is None else self._shown(page, self._block(start), f.switch("\\*"))
        block = self._block(f.start)
        if block is None:
            return None
        page = self.pages.of_block(block)
        if page is None:
            return None
        if f.name == "PAGE":
            return self._shown(page, block, f.switch("\\*"))
        return str(self._section_pages(block))

    def blocks_needed(self, fields: list[FLD.Field]) -> set:
        """The body blocks whose pages the fields need: those holding PAGE/SECTIONPAGES, and each
        section's first when a section restarts its numbers or SECTIONPAGES asks."""
        needed = {self._block(f.start) for f in fields if f.name in ("PAGE", "SECTIONPAGES") and computable(f)}
        _, firsts, sects = self._layout()
        restarts = any(s is not None and s.find(w("pgNumType")) is not None
                       and s.find(w("pgNumType")).get(w("start")) for s in sects)
        if restarts or any(f.name == "SECTIONPAGES" for f in fields):
            needed.update(firsts)
        needed.discard(None)
        return needed

    def _block(self, el: etree._Element) -> etree._Element | None:
        body = self.doc.body
        if el.getparent() is body:  # a bookmark between blocks: the next block's page
            return next(el.itersiblings(B.W_P, B.W_TBL), None)
        for a in el.iterancestors():
            if a.getparent() is body:
                return a
        return None

    def _layout(self) -> tuple:
        """(section index per block, first block of each section, each section's sectPr)."""
        if self._sections is None:
            index, firsts, sects, s = {}, [], [], 0
            for block in B.iter_blocks(self.doc.body):
                if len(firsts) == s:
                    firsts.append(block)
                index[block] = s
                sect = block.find("w:pPr/w:sectPr", {"w": W}) if block.tag == B.W_P else None
                if sect is not None:
                    sects.append(sect)
                    s += 1
            sects.append(self.doc.body.find(w("sectPr")))
            self._sections = (index, firsts, sects)
        return self._sections

    def _first_pages(self) -> list[int]:
        if self._firsts is None:
            _, firsts, _ = self._layout()
            self._firsts = [self.pages.of_block(b) or 1 for b in firsts]
        return self._firsts

    def _shown(self, page: int, block: etree._Element | None, picture: str | None) -> str:
        """The number Word shows on physical ``page``: section restarts and formats applied."""
        index, _, sects = self._layout()
        s = index.get(block, 0) if block is not None else 0
        firsts, offset, fmt = self._first_pages(), 0, None
        for i in range(min(s, len(firsts) - 1) + 1):
            num = sects[i].find(w("pgNumType")) if i < len(sects) and sects[i] is not None else None
            start = num.get(w("start")) if num is not None else None
            if start is not None and start.isdigit():
                offset = int(start) - firsts[i]
            fmt = num.get(w("fmt")) if num is not None else None
        return C.formatted(page + offset, picture or _FORMATS.get(fmt or ""))

    def _section_pages(self, block: etree._Element) -> int:
        index, _, _ = self._layout()
        s, firsts = index.get(block, 0), self._first_pages()
        last = (firsts[s + 1] - 1) if s + 1 < len(firsts) else self.pages.total
        return max(1, last - firsts[s] + 1)
