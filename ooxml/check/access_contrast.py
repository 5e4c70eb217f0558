"""Accessibility rule: text contrast of at least 4.5:1 (WCAG 2.1, 1.4.3) between a run's colour (its own,
else its character and paragraph styles', else the document default) and what is behind it (its
shading, its paragraph's, its cell's, else the page colour, else white). Only text with a colour or
shading of its own, or with a coloured style, is judged: text with neither is Word's automatic colour."""
from __future__ import annotations

from lxml import etree

from ooxml.check import contrast as C
from ooxml.check.findings import ERROR, WARNING, Finding
from ooxml.text import body as B
from ooxml.xml.namespaces import W

COLOR, SHD, PSTYLE, RSTYLE = f"{{{W}}}color", f"{{{W}}}shd", f"{{{W}}}pStyle", f"{{{W}}}rStyle"
TAGS = (COLOR, SHD, PSTYLE, RSTYLE)
MINIMUM, LARGE = 4.5, 3.0
_VAL, _FILL, _R, _RPR, _PPR, _TCPR = (f"{{{W}}}val", f"{{{W}}}fill", f"{{{W}}}r", f"{{{W}}}rPr", f"{{{W}}}pPr",
                                      f"{{{W}}}tcPr")
WHITE = (255, 255, 255)


def findings(doc, name: str, scan, styles: "StyleColours") -> list[Finding]:
    runs = _candidates(scan, styles)
    if not runs:
        return []
    page = _page(doc)
    out, flagged = [], set()
    for r in runs:
        p = r.getparent()
        while p is not None and p.tag != B.W_P:
            p = p.getparent()
        if p in flagged or not "".join(r.itertext(f"{{{W}}}t")).strip():
            continue
        fg = _colour(r, p, styles)
        bg = _background(r, p) or page or WHITE
        if fg is not None and C.ratio(fg, bg) < MINIMUM:
            flagged.add(p)
            # 3:1 is enough for large text (18pt, or 14pt bold): between the two, a warning
            severity = ERROR if C.ratio(fg, bg) < LARGE else WARNING
            out.append(Finding("accessibility", "contrast", severity, name, f"text colour {_hex(fg)} on {_hex(bg)}: "
                               f"contrast {C.ratio(fg, bg):.1f}:1, below {MINIMUM}:1", "Use a darker text colour "
                               "or a lighter background (docx_set_font color=).", r))
    return out


class StyleColours:
    """Text colour and shading of each style (following basedOn), and the document default."""

    def __init__(self, styles_root: etree._Element | None):
        self.by_id = {}
        self.default = None
        if styles_root is None:
            return
        raw = {}
        for st in styles_root.iter(f"{{{W}}}style"):
            color = st.find(f"{{{W}}}rPr/{COLOR}")
            based = st.find(f"{{{W}}}basedOn")
            raw[st.get(f"{{{W}}}styleId")] = (C.rgb(color.get(_VAL)) if color is not None else None,
                                              based.get(_VAL) if based is not None else None)
        for sid in raw:
            self.by_id[sid] = _follow(raw, sid)
        default = styles_root.find(f"{{{W}}}docDefaults/{{{W}}}rPrDefault/{_RPR}/{COLOR}")
        self.default = C.rgb(default.get(_VAL)) if default is not None else None


def _follow(raw: dict, sid: str, depth: int = 0):
    color, based = raw.get(sid, (None, None))
    if color is None and based and depth < 10:
        return _follow(raw, based, depth + 1)
    return color


def _candidates(scan, styles: StyleColours) -> list[etree._Element]:
    """Runs with a colour or shading of their own, runs under shading, runs of coloured styles."""
    out: dict = {}
    for el in scan.get(COLOR, SHD, RSTYLE):
        holder = el.getparent().getparent()
        if holder is None:
            continue
        if el.tag == RSTYLE and styles.by_id.get(el.get(_VAL)) is None:
            continue
        if el.tag == SHD and C.rgb(el.get(_FILL)) is None:
            continue
        if holder.tag == _R:
            out[holder] = None
        elif holder.tag in (B.W_P, B.W_TC):
            out.update(dict.fromkeys(holder.iter(_R)))
    for el in scan.get(PSTYLE):
        if styles.by_id.get(el.get(_VAL)) is not None and el.getparent().getparent() is not None:
            out.update(dict.fromkeys(el.getparent().getparent().iter(_R)))
    return list(out)


def _grandchild(el, props: str, tag: str):
    """``el.find(f"{props}/{tag}")`` by lxml's C iterators: ElementPath's Python steps cost 5-10 us a
    call, paid several times per candidate run (2,000 runs of a 50,000-paragraph document)."""
    for holder in el.iterchildren(props):
        for found in holder.iterchildren(tag):
            return found
    return None


def _colour(r, p, styles: StyleColours):
    color = _grandchild(r, _RPR, COLOR)
    if color is not None:
        return C.rgb(color.get(_VAL))  # 'auto': Word picks black or white against the background
    rstyle = _grandchild(r, _RPR, RSTYLE)
    if rstyle is not None and styles.by_id.get(rstyle.get(_VAL)) is not None:
        return styles.by_id[rstyle.get(_VAL)]
    pstyle = _grandchild(p, _PPR, PSTYLE) if p is not None else None
    if pstyle is not None and styles.by_id.get(pstyle.get(_VAL)) is not None:
        return styles.by_id[pstyle.get(_VAL)]
    return styles.default


def _background(r, p):
    for props, el in ((_RPR, r), (_PPR, p)):
        shd = _grandchild(el, props, SHD) if el is not None else None
        if shd is not None and C.rgb(shd.get(_FILL)):
            return C.rgb(shd.get(_FILL))
    tc = next(r.iterancestors(B.W_TC), None)
    shd = _grandchild(tc, _TCPR, SHD) if tc is not None else None
    return C.rgb(shd.get(_FILL)) if shd is not None else None


def _page(doc):
    bg = doc.root.find(f"{{{W}}}background")
    return C.rgb(bg.get(f"{{{W}}}color")) if bg is not None else None


def _hex(c) -> str:
    return "#%02X%02X%02X" % c
