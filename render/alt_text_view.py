"""Alt text where a box's line does not show it: a table's (``w:tblDescription``) and a chart's (its
frame's ``wp:docPr``), as a line under the box. Images and shapes show theirs inline ([IMG: …])."""
from __future__ import annotations

from lxml import etree

from ooxml.text import alt_text as ALT
from ooxml.text import body as B
from ooxml.xml.errors import InvalidElementType
from ooxml.xml.namespaces import w
from render.renderer import Renderer

_CHART = "{http://schemas.openxmlformats.org/drawingml/2006/chart}chart"
_TBL_PR = w("tblPr")


def alt_lines(doc, el: etree._Element) -> list[str]:
    if el.tag == B.W_TBL:
        alt = ALT.read(el)
        return [f'    Alt text: "{alt.text}"'] if alt.text else []
    out = []
    for ref in el.iter(_CHART):
        try:
            alt = ALT.read(ALT.holder_of(ref))
        except InvalidElementType:
            continue  # a chart reference outside a drawing: nothing to say
        if alt.decorative or alt.text:
            what = "decorative" if alt.decorative else f'"{alt.text}"'
            out.append(f"    Alt text of {doc.id_of(ref) if doc is not None else 'chart'}: {what}")
    return out


RENDERER = Renderer(below=alt_lines, below_tags=frozenset({w("tblDescription"), _CHART}))
