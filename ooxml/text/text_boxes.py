"""Text boxes: where one is (its anchoring paragraph) and new ones as Word writes them.

Word writes a text box twice inside ``mc:AlternateContent``: a DrawingML shape (``wps:wsp``) in
``mc:Choice Requires="wps"`` and a VML copy (``v:shape/v:textbox``) in ``mc:Fallback``. Both hold a
``w:txbxContent``, whose paragraphs are blocks like a cell's. Edits go to the Choice; the Fallback of
an edited box goes at the end of the call (ooxml/text/alt_content.py).
"""
from __future__ import annotations

import copy
from xml.sax.saxutils import quoteattr

from lxml import etree

from ooxml.text import body as B
from ooxml.text.build import make_paragraph
from ooxml.xml.namespaces import A, MC, V, WP, W
from ooxml.xml.safexml import parse_part

WPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
_O = "urn:schemas-microsoft-com:office:office"
_SHAPETYPE = "_x0000_t202"  # Word's text box shape type
DEFAULT_WIDTH = 2_743_200  # 3 inches
LINE, PADDING = 228_600, 182_880  # a paragraph's height and the insets (0.25 in, 0.2 in)
MAX_HEIGHT = 9 * 914_400


def anchor_of(box: etree._Element) -> etree._Element | None:
    """The paragraph whose run holds the text box ``box`` (a ``w:txbxContent``)."""
    return B.find_ancestor(box, B.W_P)


def default_height(paragraphs: int) -> int:
    return min(MAX_HEIGHT, PADDING + LINE * max(1, paragraphs))


def lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def paragraphs(lines: list[str]) -> list[etree._Element]:
    """One paragraph per line (tabs kept as ``w:tab``)."""
    return [make_paragraph(line) for line in lines]


def size_estimate(lines: list[str]) -> int:
    """The bytes a box of ``lines`` adds: the text and each paragraph's markup, twice (Choice and Fallback)."""
    return 2 * sum(len(line.encode()) + 40 for line in lines) + 4000


def _content(paras: list[etree._Element]) -> etree._Element:
    box = etree.Element(B.W_TXBX)
    box.extend(paras)
    return box


def text_box_run(paras: list[etree._Element], cx: int, cy: int, doc_pr: int, ids) -> etree._Element:
    """A ``w:r`` holding an inline text box of ``paras``: the DrawingML Choice and its VML Fallback.
    ``ids``: the part's WordIds (VML shape ids, the shared shape type)."""
    name = quoteattr(f"Text Box {doc_pr}")
    shapetype = "" if ids.has_shapetype(_SHAPETYPE) else (
        f'<v:shapetype id="{_SHAPETYPE}" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe">'
        '<v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>')
    xml = (
        f'<w:r xmlns:w="{W}" xmlns:mc="{MC}" xmlns:wp="{WP}" xmlns:a="{A}" xmlns:wps="{WPS}" xmlns:v="{V}" '
        f'xmlns:o="{_O}"><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
        f'<wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="{cx}" cy="{cy}"/>'
        f'<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="{doc_pr}" name={name}/><wp:cNvGraphicFramePr/>'
        f'<a:graphic><a:graphicData uri="{WPS}"><wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr>'
        f'<a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/>'
        '</a:prstGeom><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill><a:ln w="6350"><a:solidFill>'
        '<a:srgbClr val="000000"/></a:solidFill></a:ln></wps:spPr><wps:txbx/>'
        '<wps:bodyPr rot="0" vert="horz" wrap="square" lIns="91440" tIns="45720" rIns="91440" bIns="45720" '
        'anchor="t" anchorCtr="0"><a:noAutofit/></wps:bodyPr></wps:wsp></a:graphicData></a:graphic></wp:inline>'
        f'</w:drawing></mc:Choice><mc:Fallback><w:pict>{shapetype}'
        f'<v:shape id="{ids.new_vml_id()}" o:spid="{ids.new_vml_id()}" type="#{_SHAPETYPE}" '
        f'style="width:{cx / 12700:.2f}pt;height:{cy / 12700:.2f}pt" fillcolor="white" strokeweight=".5pt">'
        '<v:textbox/></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>')
    run = parse_part(xml.encode(), "text box").getroot()
    box = _content(paras)
    next(run.iter(f"{{{V}}}textbox")).append(copy.deepcopy(box))  # one copy in C: cheap at any size
    next(run.iter(f"{{{WPS}}}txbx")).append(box)
    return run


def choice_box(run: etree._Element) -> etree._Element:
    """The ``w:txbxContent`` a reader sees in ``run`` (the Choice's)."""
    return next(t for t in run.iter(B.W_TXBX) if not B.in_fallback(t))
