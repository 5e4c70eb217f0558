"""Accessibility rule: images, charts, shapes and SmartArt carry alt text or are marked decorative (Word's
a16:decorative extension); VML pictures carry alt text."""
from __future__ import annotations

from lxml import etree

from ooxml.check.findings import ERROR, Finding
from ooxml.xml.namespaces import A, MC, V, W, WP

DRAWING, PICT = f"{{{W}}}drawing", f"{{{W}}}pict"
TAGS = (DRAWING, PICT)
DOC_PR = f"{{{WP}}}docPr"
DECORATIVE = "http://schemas.microsoft.com/office/drawing/2017/decorative"
_FALLBACK = f"{{{MC}}}Fallback"
_KINDS = {"picture": "image", "chart": "chart", "wordprocessingShape": "shape", "wordprocessingGroup": "group",
          "diagram": "SmartArt", "chartex": "chart"}
FIX = "docx_set_alt_text with a short description, or decorative=True when it only decorates."


def findings(name: str, scan) -> list[Finding]:
    out = []
    for el in scan.get(DRAWING):
        kind = _kind(el)
        pr = el.find(f"*/{{{WP}}}docPr")
        if kind is None or pr is None or has_alt(pr) or _in_fallback(el):
            continue
        out.append(Finding("accessibility", "alt-text", ERROR, name, f"{kind} without alt text", FIX, el))
    for el in scan.get(PICT):
        shapes = [s for s in el.iter(f"{{{V}}}shape", f"{{{V}}}rect") if s.find(f"{{{V}}}imagedata") is not None]
        if shapes and not any(s.get("alt") for s in shapes) and not _in_fallback(el):
            out.append(Finding("accessibility", "alt-text", ERROR, name, "image (VML) without alt text", FIX, el))
    return out


def _kind(drawing: etree._Element) -> str | None:
    """What the drawing shows; None for a text box (its text is read) or what is not known."""
    data = drawing.find(f"*/{{{A}}}graphic/{{{A}}}graphicData")
    uri = data.get("uri", "") if data is not None else ""
    kind = _KINDS.get(uri.rstrip("/").rpartition("/")[2])
    if kind == "shape" and any(t.tag.endswith("}txbx") for t in data.iter() if isinstance(t.tag, str)):
        return None
    return kind


def has_alt(doc_pr: etree._Element) -> bool:
    if (doc_pr.get("descr") or "").strip() or (doc_pr.get("title") or "").strip():
        return True
    mark = doc_pr.find(f"{{{A}}}extLst/{{{A}}}ext/{{{DECORATIVE}}}decorative")
    return mark is not None and mark.get("val") in ("1", "true")


def _in_fallback(el: etree._Element) -> bool:
    return next(el.iterancestors(_FALLBACK), None) is not None
