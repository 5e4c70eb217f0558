"""Reading the body model: blocks, runs, text, headings, tables.

Plain functions over lxml elements. A *block* is a child of a block container (body, cell,
header, footer, note, comment, content control) that holds content: paragraphs, tables,
content controls and the like. Range markers (bookmarks, comment ranges, proofing marks)
sit between blocks but are not blocks.
"""
from __future__ import annotations

from typing import Iterator

from lxml import etree

from ooxml.xml.namespaces import A, M, MC, R, W, WP, w
from ooxml.xml.numbers import file_int
from ooxml.text.alt_text import is_decorative

W_P, W_R, W_T, W_TBL, W_TR, W_TC = w("p"), w("r"), w("t"), w("tbl"), w("tr"), w("tc")
W_SDT, W_SDTCONTENT, W_BODY, W_SECTPR = w("sdt"), w("sdtContent"), w("body"), w("sectPr")
W_VAL = w("val")
W_DELTEXT = w("delText")
MC_FALLBACK, MC_CHOICE, MC_ALT = f"{{{MC}}}Fallback", f"{{{MC}}}Choice", f"{{{MC}}}AlternateContent"
W_TXBX = w("txbxContent")

MARKERS = {w(n) for n in (
    "bookmarkStart bookmarkEnd commentRangeStart commentRangeEnd proofErr permStart permEnd "
    "moveFromRangeStart moveFromRangeEnd moveToRangeStart moveToRangeEnd customXmlInsRangeStart "
    "customXmlInsRangeEnd customXmlDelRangeStart customXmlDelRangeEnd customXmlMoveFromRangeStart "
    "customXmlMoveFromRangeEnd customXmlMoveToRangeStart customXmlMoveToRangeEnd sectPr tcPr "
    "tblPr tblGrid trPr tblPrEx").split()}
# Elements inside a paragraph that hold runs (we descend into them for text).
RUN_CONTAINERS = {w(n) for n in "hyperlink ins moveTo smartTag customXml fldSimple bdo dir sdtContent".split()}


def props(el: etree._Element, tag: str) -> etree._Element | None:
    """``el.find(tag)`` for a properties child (``w:rPr``, ``w:pPr``: the first child as Word writes
    them): ``find``'s path search costs 10x (docx_compare asks for every run it compares)."""
    n = len(el)
    if n > 8:
        return el[0] if el[0].tag == tag else next(el.iterchildren(tag), None)
    for child in el:  # a run's few children: a Python loop costs less than making lxml's iterator
        if child.tag == tag:
            return child
    return None


def section_mark(p: etree._Element) -> bool:
    """Whether ``p``'s mark holds a section break: ``p.find("w:pPr/w:sectPr") is not None`` in lxml's
    C loops (the path search costs 3x; docx_compare asks for every block it aligns by text)."""
    return any(next(ppr.iterchildren(W_SECTPR), None) is not None for ppr in p.iterchildren(W_PPR))


def is_block(el: etree._Element) -> bool:
    return isinstance(el.tag, str) and el.tag not in MARKERS


def iter_blocks(container: etree._Element) -> Iterator[etree._Element]:
    for child in container:
        if is_block(child):
            yield child


def next_block(el: etree._Element) -> etree._Element | None:
    nxt = el.getnext()  # is_block written out: every editing call's window asks
    while nxt is not None and (nxt.tag in MARKERS or not isinstance(nxt.tag, str)):
        nxt = nxt.getnext()
    return nxt


def prev_block(el: etree._Element) -> etree._Element | None:
    prv = el.getprevious()
    while prv is not None and (prv.tag in MARKERS or not isinstance(prv.tag, str)):
        prv = prv.getprevious()
    return prv


def kind(el: etree._Element) -> str:
    """A human name for an element: Paragraph, Heading, Table, Run, Cell ..."""
    q = etree.QName(el)
    if q.namespace == W:
        return {"p": "Paragraph", "tbl": "Table", "r": "Run", "tr": "Row", "tc": "Cell",
                "sdt": "Content Control", "hyperlink": "Hyperlink", "drawing": "Image",
                "body": "Body", "hdr": "Header", "ftr": "Footer", "footnote": "Footnote",
                "endnote": "Endnote", "comment": "Comment", "customXml": "Custom XML",
                "altChunk": "Embedded Document", "ins": "Insertion", "del": "Deletion",
                "bookmarkStart": "Bookmark", "fldChar": "Field", "fldSimple": "Field",
                "sectPr": "Section", "txbxContent": "Text Box"}.get(q.localname, q.localname)
    if q.namespace == M:
        return "Equation"
    return q.localname


# ---- runs and text -------------------------------------------------------------------------

def iter_runs(p: etree._Element) -> Iterator[etree._Element]:
    """The runs of a paragraph in reading order, through hyperlinks, insertions, fields ...

    Deleted runs (w:del) and runs inside text boxes belong elsewhere and are skipped.
    """
    for child in p:
        tag = child.tag
        if tag == W_R:
            yield child
        elif tag == W_SDT:
            content = child.find(W_SDTCONTENT)
            if content is not None:
                yield from iter_runs(content)
        elif tag in RUN_CONTAINERS:
            yield from iter_runs(child)


_TEXT_OF = {w("tab"): "\t", w("br"): "\n", w("cr"): "\n", w("noBreakHyphen"): "\u2011",
            w("ptab"): "\t"}


def run_text(r: etree._Element, deleted: bool = False) -> str:
    """A run's text; ``deleted`` also reads ``w:delText`` (the text of a run inside ``w:del``)."""
    parts = []
    text_tags = (W_T, W_DELTEXT) if deleted else (W_T,)
    for child in r:
        tag = child.tag
        if tag in text_tags:
            parts.append(child.text or "")
        elif tag in _TEXT_OF:
            parts.append(_TEXT_OF[tag])
        elif tag == w("sym"):
            parts.append(_symbol(child.get(w("char"), "")))
    return "".join(parts)


def _symbol(code: str) -> str:
    """The character of a ``w:sym`` (symbol fonts map to U+F0xx); '' when the code is not one."""
    try:
        value = int(code, 16) if 0 < len(code) <= 6 else -1
    except ValueError:
        return ""
    value -= 0xF000 if value >= 0xF000 else 0
    return chr(value) if 0 < value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF else ""


def paragraph_text(p: etree._Element) -> str:
    parts = []  # a loop, not a generator expression: one function less on every editing call
    for r in iter_runs(p):
        parts.append(run_text(r))
    return "".join(parts)


def block_text(el: etree._Element, limit: int = 10_000) -> str:
    """Plain text of any block (tables: cells joined by tabs, rows by newlines)."""
    if el.tag == W_P:
        return paragraph_text(el)
    if el.tag == W_TBL:
        rows = []
        for tr in table_rows(el):
            rows.append("\t".join(cell_text(tc, limit) for tc in row_cells(tr)))
        return "\n".join(rows)[:limit]
    texts = []
    for p in shown_paragraphs(el):
        texts.append(paragraph_text(p))
        if sum(map(len, texts)) > limit:
            break
    return "\n".join(texts)


def cell_text(tc: etree._Element, limit: int = 10_000) -> str:
    """A cell's text: its paragraphs, those in content controls and nested tables too."""
    texts = []
    for child in tc:
        if child.tag == W_P:
            texts.append(paragraph_text(child))
        elif child.tag == W_SDT:
            content = child.find(W_SDTCONTENT)
            if content is not None:
                texts.append(cell_text(content, limit))
        elif child.tag == W_TBL:
            texts.append(block_text(child, limit))
    return "\n".join(texts)


# ---- what a reader shows: markup-compatibility choices, not their fallbacks ----------------------

def in_fallback(el: etree._Element) -> bool:
    """Inside an ``mc:Fallback``: a copy for older readers (Word and LibreOffice show the Choice)."""
    return next(el.iterancestors(MC_FALLBACK), None) is not None


def shown_paragraphs(root: etree._Element) -> Iterator[etree._Element]:
    """Every paragraph in ``root`` (itself included) but those in ``mc:Fallback`` copies."""
    return (p for p in root.iter(W_P) if not in_fallback(p))


def text_boxes(p: etree._Element) -> list[etree._Element]:
    """The text boxes (``w:txbxContent``) anchored in paragraph ``p`` itself, fallbacks aside."""
    return [t for t in p.iter(W_TXBX) if find_ancestor(t, W_P) is p and not in_fallback(t)]


_DRAWINGS = (w("drawing"), w("pict"))


_CHART_REF = "{http://schemas.openxmlformats.org/drawingml/2006/chart}chart"


def run_images(r: etree._Element) -> list[str]:
    """Names for the images of a run: the docPr name/descr, else the embedded target id."""
    names = []
    for drawing in r.iter(_DRAWINGS):
        if in_fallback(drawing) or next(drawing.iter(_CHART_REF, W_TXBX), None) is not None:
            continue  # a chart or text box is drawn as one (render/charts_view.py, text_boxes_view.py)
        doc_pr = next(drawing.iter(f"{{{WP}}}docPr"), None)
        blip = next(drawing.iter(f"{{{A}}}blip"), None)
        name = None
        if doc_pr is not None:
            name = "decorative" if is_decorative(doc_pr) else doc_pr.get("descr") or doc_pr.get("name")
        if not name and blip is not None:
            name = blip.get(f"{{{R}}}embed")
        names.append(name or "image")
    return names


# ---- paragraphs: style, headings -------------------------------------------------------------

# ``iterchildren(tag)`` is ``find(tag)``'s lookup without lxml's Python path code (drawn per box).
W_PPR, W_PSTYLE, W_OUTLINELVL = w("pPr"), w("pStyle"), w("outlineLvl")


def style_id(p: etree._Element) -> str | None:
    for ppr in p.iterchildren(W_PPR):
        for ps in ppr.iterchildren(W_PSTYLE):
            return ps.get(W_VAL)
        return None
    return None


def direct_outline_level(p: etree._Element) -> int | None:
    ol = None
    for ppr in p.iterchildren(W_PPR):
        ol = next(ppr.iterchildren(W_OUTLINELVL), None)
        break
    if ol is None:
        return None
    level = file_int(ol.get(W_VAL), -1, -1, 9)
    return level if level >= 0 else None


# ---- tables ------------------------------------------------------------------------------------

def table_rows(tbl: etree._Element) -> list[etree._Element]:
    """Rows of a table, including rows wrapped in content controls or custom XML."""
    rows = []
    for child in tbl:
        if child.tag == W_TR:
            rows.append(child)
        elif child.tag in (W_SDT, w("customXml")):
            rows.extend(r for r in child.iter(W_TR) if find_ancestor(r, W_TBL) is tbl)  # not nested tables' rows
    return rows


def row_cells(tr: etree._Element) -> list[etree._Element]:
    cells = []
    for child in tr:
        if child.tag == W_TC:
            cells.append(child)
        elif child.tag in (W_SDT, w("customXml")):
            cells.extend(c for c in child.iter(W_TC) if _owning_row(c) is tr)
    return cells


def _owning_row(tc: etree._Element) -> etree._Element | None:
    parent = tc.getparent()
    while parent is not None and parent.tag != W_TR:
        parent = parent.getparent()
    return parent


def find_ancestor(el: etree._Element, tags: set[str] | str) -> etree._Element | None:
    tags = {tags} if isinstance(tags, str) else tags
    parent = el.getparent()
    while parent is not None and parent.tag not in tags:
        parent = parent.getparent()
    return parent
