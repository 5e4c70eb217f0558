"""How wide new content may be at a place: a table's columns, a picture's box (twips, EMU)."""
from __future__ import annotations

from lxml import etree

from ooxml.layout.sections import page_box, section_of
from ooxml.tabular.grid import TableGrid
from ooxml.text import body as B

EMU_PER_TWIP = 635
CELL_MARGINS = 216  # Word's default left + right cell margins (108 twips each)


def available_width(doc, container: etree._Element, anchor: etree._Element) -> int:
    """Twips a table may use at this place: the page's text width, or the cell's inner width."""
    if container.tag == B.W_TC:
        tbl = B.find_ancestor(container, B.W_TBL)
        grid = TableGrid(tbl)
        cell = grid.cell_of(container)
        inner = grid.width_of(cell.start, cell.span) if cell is not None else None
        if inner:
            return max(720, inner - CELL_MARGINS)
        return max(720, page_box(section_of(doc, container)).text_width // 2)
    return page_box(section_of(doc, anchor)).text_width
