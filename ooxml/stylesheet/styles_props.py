"""Style properties in the keys of docx_set_properties, own and resolved.

Resolved = document defaults (``w:docDefaults``), then each style of the ``basedOn`` chain from
the root down, each overriding what came before. Values read back as the tools take them:
lengths in points ('12pt'), sizes in points, booleans, line spacing as a multiple or a length.
"""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import w

W_VAL = w("val")
MAX_CHAIN = 20
_JC = {"both": "justify", "left": "left", "start": "left", "center": "center", "right": "right", "end": "right",
       "distribute": "distribute"}
_TOGGLES_P = (("keepNext", "keep_with_next"), ("keepLines", "keep_together"),
              ("pageBreakBefore", "page_break_before"), ("widowControl", "widow_control"))
_TOGGLES_R = (("b", "bold"), ("i", "italic"), ("strike", "strike"), ("caps", "all_caps"),
              ("smallCaps", "small_caps"))


def _on(el: etree._Element) -> bool:
    return el.get(W_VAL, "true") not in ("0", "false", "off")


def _pt(twips: str | None) -> str | None:
    try:
        value = int(twips) / 20
    except (TypeError, ValueError):
        return None
    return f"{value:g}pt"


def _toggles(props: etree._Element, table) -> dict:
    """The on/off properties of ``table`` that ``props`` sets, by their argument names."""
    return {key: _on(el) for tag, key in table if (el := props.find(w(tag))) is not None}


def paragraph_props(ppr: etree._Element | None) -> dict:
    if ppr is None:
        return {}
    out = _toggles(ppr, _TOGGLES_P)
    sp = ppr.find(w("spacing"))
    if sp is not None:
        for attr, key in (("before", "space_before"), ("after", "space_after")):
            if sp.get(w(attr)) is not None and _pt(sp.get(w(attr))):
                out[key] = _pt(sp.get(w(attr)))
        line = sp.get(w("line"))
        if line is not None and line.lstrip("-").isdigit():
            rule = sp.get(w("lineRule"), "auto")
            out["line_spacing"] = round(int(line) / 240, 2) if rule == "auto" else _pt(line)
    ind = ppr.find(w("ind"))
    if ind is not None:
        for attrs, key in ((("left", "start"), "left_indent"), (("right", "end"), "right_indent")):
            raw = next((ind.get(w(a)) for a in attrs if ind.get(w(a)) is not None), None)
            if _pt(raw):
                out[key] = _pt(raw)
        if _pt(ind.get(w("hanging"))):
            out["first_line_indent"] = "-" + _pt(ind.get(w("hanging"))).lstrip("-")
        elif _pt(ind.get(w("firstLine"))):
            out["first_line_indent"] = _pt(ind.get(w("firstLine")))
    jc = ppr.find(w("jc"))
    if jc is not None:
        out["alignment"] = _JC.get(jc.get(W_VAL, ""), jc.get(W_VAL))
    return out


def run_props(rpr: etree._Element | None) -> dict:
    if rpr is None:
        return {}
    out = _toggles(rpr, _TOGGLES_R)
    u = rpr.find(w("u"))
    if u is not None:
        val = u.get(W_VAL, "single")
        out["underline"] = False if val == "none" else (True if val == "single" else val)
    sz = rpr.find(w("sz"))
    if sz is not None and (sz.get(W_VAL) or "").isdigit():
        out["size"] = f"{int(sz.get(W_VAL)) / 2:g}pt"
    color = rpr.find(w("color"))
    if color is not None and color.get(W_VAL):
        out["color_hex"] = color.get(W_VAL)
    fonts = rpr.find(w("rFonts"))
    if fonts is not None:
        name = fonts.get(w("ascii")) or fonts.get(w("hAnsi"))
        theme = fonts.get(w("asciiTheme")) or fonts.get(w("hAnsiTheme"))
        if name or theme:
            out["font_name"] = name or f"(theme {theme})"
        if fonts.get(w("eastAsia")) and fonts.get(w("eastAsia")) != name:
            out["east_asian_font"] = fonts.get(w("eastAsia"))
    hl = rpr.find(w("highlight"))
    if hl is not None:
        out["highlight"] = hl.get(W_VAL)
    va = rpr.find(w("vertAlign"))
    if va is not None:
        out["superscript"] = va.get(W_VAL) == "superscript"
        out["subscript"] = va.get(W_VAL) == "subscript"
    return out


def own_props(style: etree._Element) -> dict:
    return {**paragraph_props(style.find(w("pPr"))), **run_props(style.find(w("rPr")))}


def chain(styles_root: etree._Element | None, style: etree._Element) -> list[etree._Element]:
    """The style and its basedOn ancestors, root first (cycles and missing styles cut the chain)."""
    by_id = {st.get(w("styleId")): st for st in styles_root.iter(w("style"))} if styles_root is not None else {}
    out, cur, seen = [], style, set()
    while cur is not None and id(cur) not in seen and len(out) < MAX_CHAIN:
        seen.add(id(cur))
        out.append(cur)
        based = cur.find(w("basedOn"))
        cur = by_id.get(based.get(W_VAL)) if based is not None else None
    return out[::-1]


def defaults(styles_root: etree._Element | None) -> dict:
    if styles_root is None:
        return {}
    dd = styles_root.find(w("docDefaults"))
    if dd is None:
        return {}
    return {**paragraph_props(dd.find(f"{w('pPrDefault')}/{w('pPr')}")),
            **run_props(dd.find(f"{w('rPrDefault')}/{w('rPr')}"))}


def resolved_props(styles_root: etree._Element | None, style: etree._Element) -> dict:
    out = defaults(styles_root) if style.get(w("type"), "paragraph") != "numbering" else {}
    for st in chain(styles_root, style):
        out.update(own_props(st))
    return out


def show(props: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in props.items()) or "(none)"
