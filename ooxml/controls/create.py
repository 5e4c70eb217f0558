"""New content controls (around existing content or empty at a place) and new items of
repeating sections. Every new ``w:sdt`` gets a fresh ``w:id``; copies go through prepare_copy."""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.text import body as B
from ooxml.xml import minting
from ooxml.text.build import make_paragraph, make_run
from ooxml.controls.model import W15, Control
from ooxml.xml.errors import InvalidElementType, ValidationError
from ooxml.xml.mce import declare_ignorable
from ooxml.xml.namespaces import W14, w
from ooxml.xml.wordids import prepare_copy

PLACEHOLDER = "Click or tap here to enter text."
MAX_ITEMS = 500
MAX_NAME = 64
_W14_VAL = f"{{{W14}}}val"


def new_sdt_id() -> str:
    return str(minting.randbelow(2**31 - 2) + 1)


def check_names(tag: str | None, alias: str | None) -> None:
    for arg, value in (("tag", tag), ("alias", alias)):
        if value is not None and (not value.strip() or len(value) > MAX_NAME or any(ord(c) < 32 for c in value)):
            raise ValidationError(f"{arg} must be a short name (1-{MAX_NAME} characters, no control characters).",
                                  hint=f"Pass e.g. {arg}='customer_name'.")


def check_items(kind: str, items) -> list[tuple[str, str]]:
    """Drop-down and combo box items: strings, or {display, value} objects."""
    if kind not in ("dropdown", "combo_box"):
        if items:
            raise ValidationError(f"items are for dropdown and combo_box controls, not {kind}.",
                                  hint="Leave items out for this kind.")
        return []
    if not isinstance(items, list) or not items or len(items) > MAX_ITEMS:
        raise ValidationError(f"A {kind} needs items: a list of 1 to {MAX_ITEMS} choices.",
                              hint='Pass items=["Red", "Green"] or [{"display": "Red", "value": "r"}].')
    out, seen = [], set()
    for item in items:
        if isinstance(item, str):
            display = value = item
        elif isinstance(item, dict) and isinstance(item.get("value", item.get("display")), str):
            value = item.get("value", item.get("display"))
            display = item.get("display", value)
        else:
            raise ValidationError(f"Item {item!r:.40} is not a string or a {{display, value}} object.",
                                  hint='Pass items=["Red", "Green"] or [{"display": "Red", "value": "r"}].')
        if not isinstance(display, str) or not value or value in seen or len(value) > 255 or len(display) > 255:
            raise ValidationError(f"Item values must be unique non-empty texts (at '{str(value)[:40]}').",
                                  hint="Give every item its own value.")
        seen.add(value)
        out.append((display, value))
    return out


def _sub(parent, tag: str, **attrs) -> etree._Element:
    return etree.SubElement(parent, w(tag), {w(k): v for k, v in attrs.items()})


def sdt_pr(kind: str, tag: str | None, alias: str | None, items: list[tuple[str, str]], placeholder: bool,
           rpr: etree._Element | None = None) -> etree._Element:
    pr = etree.Element(w("sdtPr"))
    if rpr is not None:
        pr.append(copy.deepcopy(rpr))
    if alias:
        _sub(pr, "alias", val=alias)
    if tag:
        _sub(pr, "tag", val=tag)
    _sub(pr, "id", val=new_sdt_id())
    if placeholder:
        _sub(pr, "showingPlcHdr")
    if kind == "text":
        _sub(pr, "text")
    elif kind in ("dropdown", "combo_box"):
        holder = _sub(pr, "dropDownList" if kind == "dropdown" else "comboBox")
        for display, value in items:
            _sub(holder, "listItem", displayText=display, value=value)
    elif kind == "date":
        date = _sub(pr, "date")
        _sub(date, "dateFormat", val="M/d/yyyy")
        _sub(date, "lid", val="en-US")
        _sub(date, "storeMappedDataAs", val="dateTime")
        _sub(date, "calendar", val="gregorian")
    elif kind == "picture":
        _sub(pr, "picture")
    elif kind == "checkbox":
        box = etree.SubElement(pr, f"{{{W14}}}checkbox", nsmap={"w14": W14})
        etree.SubElement(box, f"{{{W14}}}checked", {_W14_VAL: "0"})
        etree.SubElement(box, f"{{{W14}}}checkedState", {_W14_VAL: "2612", f"{{{W14}}}font": "MS Gothic"})
        etree.SubElement(box, f"{{{W14}}}uncheckedState", {_W14_VAL: "2610", f"{{{W14}}}font": "MS Gothic"})
    elif kind == "repeating_section":
        etree.SubElement(pr, f"{{{W15}}}repeatingSection", nsmap={"w15": W15})
    return pr


def _shown(kind: str) -> str:
    return "☐" if kind == "checkbox" else "" if kind == "picture" else PLACEHOLDER


def _checkbox_rpr() -> etree._Element:
    rpr = etree.Element(w("rPr"))
    _sub(rpr, "rFonts", ascii="MS Gothic", hAnsi="MS Gothic", eastAsia="MS Gothic")
    return rpr


def _empty_run(kind: str) -> etree._Element | None:
    text = _shown(kind)
    if kind == "checkbox":
        return make_run(text, _checkbox_rpr())
    return make_run(text) if text else None


def new_inline(kind: str, tag, alias, items) -> etree._Element:
    sdt = etree.Element(w("sdt"))
    sdt.append(sdt_pr(kind, tag, alias, items, placeholder=kind not in ("checkbox", "picture")))
    content = _sub(sdt, "sdtContent")
    run = _empty_run(kind)
    if run is not None:
        content.append(run)
    return sdt


def new_block(kind: str, tag, alias, items) -> etree._Element:
    sdt = etree.Element(w("sdt"))
    if kind == "repeating_section":
        sdt.append(sdt_pr(kind, tag, alias, items, placeholder=False))
        content = _sub(sdt, "sdtContent")
        content.append(_item_wrapping([make_paragraph()]))
        return sdt
    sdt.append(sdt_pr(kind, tag, alias, items, placeholder=kind not in ("checkbox", "picture")))
    content = _sub(sdt, "sdtContent")
    p = make_paragraph()
    run = _empty_run(kind)
    if run is not None:
        p.append(run)
    content.append(p)
    return sdt


def _item_wrapping(blocks: list[etree._Element]) -> etree._Element:
    item = etree.Element(w("sdt"))
    pr = _sub(item, "sdtPr")
    _sub(pr, "id", val=new_sdt_id())
    etree.SubElement(pr, f"{{{W15}}}repeatingSectionItem", nsmap={"w15": W15})
    content = _sub(item, "sdtContent")
    for b in blocks:
        content.append(b)
    return item


def wrapper(kind: str, el: etree._Element, tag, alias, items) -> tuple[etree._Element, etree._Element]:
    """A control to go around an existing paragraph, table, run, row or cell: (the control, the
    element ``el`` goes into). The caller puts both in place."""
    level = "inline" if el.tag == B.W_R else "block"
    if kind in ("checkbox", "picture") and el.tag not in (B.W_R, B.W_P):
        raise InvalidElementType(f"A {kind} control wraps a run or a paragraph, not a {B.kind(el)}.",
                                 hint="Pass a run or paragraph ID as element_id, or use position.")
    if kind == "repeating_section" and level == "inline":
        raise InvalidElementType("A repeating section wraps paragraphs, tables or rows, not a run.",
                                 hint="Pass a paragraph, table or row ID as element_id.")
    sdt = etree.Element(w("sdt"))
    sdt.append(sdt_pr(kind, tag, alias, items, placeholder=False))
    content = _sub(sdt, "sdtContent")
    if kind == "repeating_section":
        item = _item_wrapping([])
        content.append(item)
        return sdt, item.find(w("sdtContent"))
    return sdt, content


def add_item(doc, section: Control, after: etree._Element | None, empty: bool = False) -> etree._Element:
    """A new item after ``after`` (default: the last), copied from it with fresh IDs."""
    content = section.content
    items = [c for c in content if c.tag == B.W_SDT] if content is not None else []
    if not items:
        raise InvalidElementType("The repeating section has no item to copy.",
                                 hint="Insert content into it first, or insert a new repeating section.")
    model = after if after is not None else items[-1]
    new = copy.deepcopy(model)
    prepare_copy(new, doc.word_ids(section.el))
    if empty:
        for t in new.iter(B.W_T):
            t.text = ""
    model.addnext(new)
    return new


def declare_namespaces(doc, sdt: etree._Element) -> None:
    """Once a new control is in its part: the w14/w15 it uses declared on the part's root and listed in
    mc:Ignorable, as Word writes them (lxml declared them on the control's own elements)."""
    root = doc.part_of(sdt).tree.getroot()
    for uri, prefix in ((W14, "w14"), (W15, "w15")):
        if next(sdt.iter(f"{{{uri}}}*"), None) is not None:
            doc.will_change(root)  # the root's attributes (mc:Ignorable), for undo
            declare_ignorable(root, uri, prefix)
