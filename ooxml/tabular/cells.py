"""A cell's content: its blocks, whether it is empty, its text set, a copied cell cleared, content moved."""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.text import body as B
from ooxml.text.build import MARK_RPR_DROP, copy_props
from ooxml.xml.namespaces import M, W, w
from ooxml.xml.order import get_or_add, insert_child, remove_child

# A copied cell keeps its formatting, not its revision records (their ids would clash) nor merges.
_TCPR_REVISIONS = ("cellIns", "cellDel", "cellMerge", "tcPrChange")
_TCPR_MERGES = ("gridSpan", "hMerge", "vMerge")


def cell_blocks(tc: etree._Element) -> list[etree._Element]:
    return [c for c in tc if isinstance(c.tag, str) and c.tag != w("tcPr")]


_CONTENT = etree.XPath(".//w:r[*[not(self::w:rPr)]] | .//m:oMath | .//m:oMathPara | .//w:fldSimple"
                       " | .//w:object | .//w:pict | .//w:drawing",
                       namespaces={"w": W, "m": M})


def is_empty_cell(tc: etree._Element) -> bool:
    """No text, image, table or other content: only empty paragraphs and range markers."""
    for child in cell_blocks(tc):
        if child.tag in B.MARKERS:
            continue
        if child.tag != B.W_P or _CONTENT(child):
            return False
    return True


def set_cell_text(doc, tc: etree._Element, text: str) -> None:
    """Make the cell hold one paragraph with ``text``: unchanged words keep their runs, new text is formatted
    like the text it replaces (an empty cell: its paragraph mark)."""
    doc.will_change(tc)
    if getattr(doc, "tracker", None) is not None:
        from ooxml.review.tracked_text import set_cell_text as tracked
        return tracked(doc, tc, text)
    keep = tc.find(w("p"))
    if keep is None:
        keep = etree.SubElement(tc, w("p"))
    for child in cell_blocks(tc):
        if child is not keep and child.tag not in B.MARKERS:
            doc.remove_block(child)
    from ooxml.review.tracked_text import set_paragraph_text as by_words
    by_words(doc, keep, text, track=False)  # unchanged words keep their runs, as tracked
    doc.forget_order(tc)


def clear_copied_cell(tc: etree._Element, keep_span: bool = False) -> None:
    """Reduce a copied cell to one empty paragraph keeping its formatting (pPr, first run's rPr).

    Merges and revision records go; a copied row keeps its cells' spans (``keep_span``).
    """
    tcpr = tc.find(w("tcPr"))
    if tcpr is not None:
        for name in _TCPR_REVISIONS + (("hMerge", "vMerge") if keep_span else _TCPR_MERGES):
            remove_child(tcpr, name)
    first = tc.find(w("p"))
    model_rpr = None
    ppr = None
    if first is not None:
        ppr = first.find(w("pPr"))
        run = next((r for r in B.iter_runs(first) if r.find(w("rPr")) is not None), None)
        model_rpr = run.find(w("rPr")) if run is not None else None
    for child in cell_blocks(tc):
        tc.remove(child)
    p = etree.SubElement(tc, w("p"))
    if ppr is not None:
        ppr = copy_props(ppr)
        remove_child(ppr, "sectPr")
        p.append(ppr)
    carry_run_format(p, model_rpr)


def carry_run_format(p: etree._Element, model_rpr: etree._Element | None) -> None:
    """Give an empty copied paragraph's mark the formatting of the first run it had (font, bold ...),
    as Word does for a new row: text typed or set there takes it. Revision marks stay behind."""
    ppr = p.find(w("pPr"))
    mark = ppr.find(w("rPr")) if ppr is not None else None
    if mark is not None:
        for child in [c for c in mark if c.tag in MARK_RPR_DROP]:
            mark.remove(child)
    if model_rpr is not None:
        mark = mark if mark is not None else insert_child(get_or_add(p, "pPr"), etree.Element(w("rPr")))
        for child in model_rpr:
            name = etree.QName(child).localname if isinstance(child.tag, str) else ""
            if child.tag != w(name) or child.tag in MARK_RPR_DROP:
                continue
            old = mark.find(child.tag)
            try:
                insert_child(mark, copy.deepcopy(child))
            except ValueError:  # a property the schema table does not place: left out
                continue
            if old is not None:
                mark.remove(old)
    if mark is not None and not len(mark):
        mark.getparent().remove(mark)


def move_content(src: etree._Element, dst: etree._Element) -> None:
    """Append the blocks (and markers) of cell ``src`` to cell ``dst``; ``src`` is left empty."""
    for child in cell_blocks(src):
        dst.append(child)


def ensure_final_paragraph(tc: etree._Element) -> None:
    blocks = [c for c in cell_blocks(tc) if c.tag not in B.MARKERS]
    if not blocks or blocks[-1].tag != B.W_P:
        tc.append(etree.Element(w("p")))
