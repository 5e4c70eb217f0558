"""Setting a control's value by kind: check everything first (``plan``), then write (``apply``).

The value replaces the control's content and keeps its run formatting (the content's first run,
or ``w:rPr`` in ``w:sdtPr`` while the placeholder shows); ``w:showingPlcHdr`` goes. A bound
control's custom XML node gets the value too, so Word's refresh on open shows the same. With
tracking on, text changes go through the tracked word diff (ooxml/review/tracked_text.py).
"""
from __future__ import annotations

import base64
import copy
from dataclasses import dataclass
from datetime import datetime

from lxml import etree

from ooxml.text import body as B
from ooxml.review import revisions as REV
from ooxml.review import tracked_text as TT
from ooxml.text.build import clean_text, copy_props, make_paragraph, make_run
from ooxml.controls import binding as BIND
from ooxml.controls import dates, rich
from ooxml.controls.model import Control
from ooxml.xml.errors import InvalidElementType, ValidationError
from ooxml.xml.namespaces import A, R, W14, WP, w
from ooxml.xml.numbers import file_int
from ooxml.xml.order import get_or_add

MAX_TEXT = 100_000
_W14_VAL = f"{{{W14}}}val"
_PLACEHOLDER_STYLES = {"PlaceholderText", "Placeholder Text"}
_KEEP_IN_CONTENT = B.MARKERS


class LockedControl(ValidationError):
    error_type = "ValidationError"


@dataclass
class Planned:
    ctrl: Control
    display: str  # the text the control shows
    stored: str | None  # what the bound node gets
    item_value: str | None = None  # drop-down / combo box: the chosen item's value
    when: datetime | None = None  # date
    image: object | None = None  # picture: ooxml.text.images.ImageFile
    markdown: bool = False  # a rich text value built from Markdown


def label(ctrl: Control) -> str:
    name = ctrl.tag or ctrl.alias
    return f"'{name}'" if name else "the control"


def check_lock(ctrl: Control) -> None:
    if ctrl.content_locked:
        raise LockedControl(f"Content control {label(ctrl)} is locked (w:lock {ctrl.lock}): its content "
                            "cannot be edited.", hint="Choose another control, or unlock this one in Word first.")


def _text_value(ctrl: Control, value) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValidationError(f"Content control {label(ctrl)} ({ctrl.kind}) takes text, not "
                              f"{type(value).__name__}.", hint="Pass the value as a string.")
    text = value if isinstance(value, str) else repr(value) if isinstance(value, float) else str(value)
    if len(text) > MAX_TEXT:
        raise ValidationError(f"The value for {label(ctrl)} is {len(text):,} characters, over {MAX_TEXT:,}.",
                              hint="Pass a shorter text.")
    return clean_text(text)


def plan(ctrl: Control, value, read_image=None, check_url=None) -> Planned:
    """Check ``value`` against the control's kind, lock and binding; nothing is changed."""
    check_lock(ctrl)
    BIND.refuse_unevaluated(ctrl.binding, label(ctrl))
    kind = ctrl.kind
    if kind in ("text", "rich_text"):
        text = _text_value(ctrl, value)
        markdown = kind == "rich_text" and rich.is_markdown(text)
        if markdown:
            rich.check(text, ctrl.level == "inline", check_url)
        return Planned(ctrl, text, text, markdown=markdown)
    if kind == "checkbox":
        if not isinstance(value, bool):
            raise ValidationError(f"Checkbox {label(ctrl)} takes true or false, not {value!r:.40}.",
                                  hint="Pass a boolean: true checks the box, false clears it.")
        return Planned(ctrl, glyph(ctrl, value)[0], "true" if value else "false")
    if kind in ("dropdown", "combo_box"):
        text = _text_value(ctrl, value)
        for display, item_value in ctrl.items:
            if text in (item_value, display):
                return Planned(ctrl, display, item_value, item_value=item_value)
        if kind == "dropdown":
            known = ", ".join(f"'{v}'" for _, v in ctrl.items[:12]) or "none"
            raise ValidationError(f"Drop-down {label(ctrl)} has no item '{text[:60]}'.",
                                  hint=f"Pass one of its items' values or display texts: {known}.")
        return Planned(ctrl, text, text, item_value=None)
    if kind == "date":
        when = dates.parse_iso(value)
        display = dates.shown(when, ctrl.date_format)
        mode = ctrl.pr.find(f"{w('date')}/{w('storeMappedDataAs')}")
        return Planned(ctrl, display, dates.stored(when, mode.get(w("val")) if mode is not None else None, display),
                       when=when)
    if kind == "picture":
        if not isinstance(value, str) or read_image is None:
            raise ValidationError(f"Picture control {label(ctrl)} takes an image file path.",
                                  hint="Pass the path of a PNG, JPEG or GIF file inside the server's roots.")
        image = read_image(value)
        return Planned(ctrl, "", base64.b64encode(image.data).decode(), image=image)
    raise InvalidElementType(f"Content control {label(ctrl)} is a {kind.replace('_', ' ')}: it has no value to set.",
                             hint="Set the controls inside it; a repeating section grows with docx_add_repeating_item "
                                  "or docx_fill_template.")


def glyph(ctrl: Control, checked: bool) -> tuple[str, str | None]:
    """(character, font) Word shows for the checkbox in that state."""
    box = ctrl.pr.find(f"{{{W14}}}checkbox")
    state = box.find(f"{{{W14}}}{'checkedState' if checked else 'uncheckedState'}") if box is not None else None
    code = state.get(_W14_VAL) if state is not None else None
    try:
        char = chr(int(code, 16)) if code and len(code) <= 6 else None
    except ValueError:
        char = None
    default = "☒" if checked else "☐"
    font = state.get(f"{{{W14}}}font") if state is not None else None
    return (char if char and char.isprintable() else default), (font or "MS Gothic")


# ---- writing ------------------------------------------------------------------------------------

def apply(doc, planned: Planned, stores: dict | None = None, image_rid=None) -> None:
    """Write a checked value into the document (and the bound node). The caller announced nothing:
    this calls will_change/changed itself."""
    ctrl = planned.ctrl
    sdt = ctrl.el
    doc.will_change(sdt)
    pr = ctrl.pr
    tracked = REV.tracker(doc) is not None
    rpr = model_rpr(ctrl)
    if ctrl.kind == "checkbox":
        checked = planned.stored == "true"
        box = pr.find(f"{{{W14}}}checkbox")
        state = box.find(f"{{{W14}}}checked")
        if state is None:
            state = etree.SubElement(box, f"{{{W14}}}checked")
            box.insert(0, state)
        state.set(_W14_VAL, "1" if checked else "0")
        _set_glyph(doc, ctrl, *glyph(ctrl, checked), rpr, tracked)
    elif ctrl.kind == "picture":
        _set_picture(doc, ctrl, planned.image, image_rid)
    else:
        if ctrl.kind in ("dropdown", "combo_box"):
            holder = pr.find(w("dropDownList" if ctrl.kind == "dropdown" else "comboBox"))
            if planned.item_value is not None:
                holder.set(w("lastValue"), planned.item_value)
            elif w("lastValue") in holder.attrib:
                del holder.attrib[w("lastValue")]
        if ctrl.kind == "date":
            pr.find(w("date")).set(w("fullDate"), dates.full_date(planned.when))
        if planned.markdown and not tracked:
            rich.place(doc, ctrl, planned.display, rpr)
        else:
            write_text(doc, ctrl, planned.display, rpr, tracked)
    _clear_placeholder(pr)
    if ctrl.binding is not None:
        found = BIND.bound_node(doc.package, ctrl.binding, stores)
        if found is not None:
            BIND.write_node(found[0], found[1], planned.stored or "")
    doc.changed(sdt)


def _clear_placeholder(pr: etree._Element) -> None:
    for el in pr.findall(w("showingPlcHdr")):
        pr.remove(el)


def model_rpr(ctrl: Control) -> etree._Element | None:
    """The run formatting the new content takes, without the placeholder's character style."""
    content = ctrl.content
    first = next(B.iter_runs(content), None) if content is not None and ctrl.level == "inline" else \
        next(content.iter(B.W_R), None) if content is not None else None
    rpr = None
    if first is not None and not ctrl.placeholder:
        rpr = first.find(w("rPr"))
    if rpr is None and ctrl.pr is not None:  # what replaces the placeholder text (ECMA-376 17.5.2.27)
        rpr = ctrl.pr.find(w("rPr"))
    if rpr is None:
        return None
    rpr = copy_props(rpr)
    style = rpr.find(w("rStyle"))
    if style is not None and style.get(w("val")) in _PLACEHOLDER_STYLES:
        rpr.remove(style)
    return rpr if len(rpr) else None


def _run_holder(ctrl: Control) -> etree._Element | None:
    """Where the control's text lives: its content (inline), else its first paragraph."""
    content = ctrl.content
    if content is None:
        content = etree.SubElement(ctrl.el, w("sdtContent"))
    if ctrl.level == "inline":
        return content
    return next(content.iter(B.W_P), None)


def write_text(doc, ctrl: Control, text: str, rpr, tracked: bool) -> None:
    content = ctrl.content if ctrl.content is not None else etree.SubElement(ctrl.el, w("sdtContent"))
    if ctrl.level == "inline":
        if tracked and not ctrl.placeholder:
            segs, old = TT.segments(B.iter_runs(content))
            TT.apply_edits(doc, segs, TT.word_edits(old, text), B.find_ancestor(ctrl.el, B.W_P),
                           empty_anchor=None)
            return
        _replace_runs(content, text, rpr)
        if tracked:  # placeholder text is no content: the value is all new
            REV.mark_inline_inserted(doc, [r for r in content if r.tag == B.W_R])
        return
    # A block control's value is its first paragraph (a table or other content before it goes);
    # row and cell controls keep their structure and take the value in their first paragraph.
    para = content.find(B.W_P) if ctrl.level == "block" else next(content.iter(B.W_P), None)
    if para is None:
        cell = next(content.iter(B.W_TC), None) if ctrl.level != "block" else None
        holder = cell if cell is not None else content
        para = make_paragraph()
        holder.append(para)
    if tracked and not ctrl.placeholder:
        TT.set_paragraph_text(doc, para, text)
        if ctrl.level == "block":
            for child in [c for c in content if c is not para and B.is_block(c)]:
                REV.delete_block(doc, child)
        return
    lines = text.split("\n") if ctrl.level == "block" else [text]
    _replace_runs(para, lines[0], rpr)
    _drop_other_blocks(content, para, ctrl.level)
    last = para
    for line in lines[1:]:
        new = copy.deepcopy(para)
        for child in [c for c in new if c.tag != w("pPr")]:
            new.remove(child)
        _append_text(new, line, rpr)
        last.addnext(new)
        last = new
        if tracked:
            REV.mark_inserted(doc, new)
    if tracked:
        REV.mark_inline_inserted(doc, [r for r in para if r.tag == B.W_R])


def _drop_other_blocks(content: etree._Element, keep: etree._Element, level: str) -> None:
    """A block control's value is one paragraph (lines below): its other blocks go. Row and cell
    controls keep their structure (the value goes into the first paragraph)."""
    if level != "block" or keep.getparent() is not content:
        return
    for child in list(content):
        if child is not keep and B.is_block(child):
            content.remove(child)


def _replace_runs(holder: etree._Element, text: str, rpr) -> None:
    """Everything but paragraph properties and range markers goes; the text comes in one run."""
    for child in list(holder):
        if child.tag == w("pPr") or child.tag in _KEEP_IN_CONTENT:
            continue
        holder.remove(child)
    _append_text(holder, text, rpr)


def _append_text(holder: etree._Element, text: str, rpr) -> None:
    if text:
        holder.append(make_run(text, copy.deepcopy(rpr) if rpr is not None else None))
    elif holder.tag == w("sdtContent"):
        holder.append(make_run("", copy.deepcopy(rpr) if rpr is not None else None))


def _set_glyph(doc, ctrl: Control, char: str, font: str, rpr, tracked: bool) -> None:
    holder = _run_holder(ctrl)
    run = next(holder.iter(B.W_R), None) if holder is not None else None
    if run is None or run.find(B.W_T) is None:
        write_text(doc, ctrl, char, rpr, False)
        run = next(_run_holder(ctrl).iter(B.W_R))
    elif tracked:
        TT.set_run_text(doc, run, char)
    else:
        run.find(B.W_T).text = char
        for extra in run.findall(B.W_T)[1:]:
            run.remove(extra)
    for r in (_run_holder(ctrl).iter(B.W_R) if tracked else [run]):
        rpr_el = r.find(w("rPr"))
        if rpr_el is None:
            rpr_el = etree.Element(w("rPr"))
            r.insert(0, rpr_el)
        fonts = get_or_add(rpr_el, "rFonts")
        for attr in ("ascii", "hAnsi", "eastAsia"):
            fonts.set(w(attr), font)


def _set_picture(doc, ctrl: Control, image, rid: str) -> None:
    content = ctrl.content if ctrl.content is not None else etree.SubElement(ctrl.el, w("sdtContent"))
    blip = next(content.iter(f"{{{A}}}blip"), None)
    nat_cx, nat_cy = image.natural_emu()
    if blip is not None:
        blip.set(f"{{{R}}}embed", rid)
        for ext in list(content.iter(f"{{{WP}}}extent")) + list(content.iter(f"{{{A}}}ext")):
            if ext.get("cx") is None:  # an extension list's a:ext, not a size
                continue
            cx = file_int(ext.get("cx"), nat_cx, 1, 27273042316900)
            ext.set("cy", str(max(1, cx * nat_cy // max(nat_cx, 1))))
        return
    from ooxml.text.images import fit_size, inline_drawing
    cx, cy = fit_size((nat_cx, nat_cy), None, None, 5486400, 8229600)
    run = etree.Element(w("r"))
    run.append(inline_drawing(rid, cx, cy, doc.word_ids(ctrl.el).new_doc_pr(), image.name))
    holder = content if ctrl.level == "inline" else next(content.iter(B.W_P), None)
    if holder is None:
        holder = make_paragraph()
        content.append(holder)
    for child in [c for c in holder if c.tag == w("r")]:
        holder.remove(child)
    holder.append(run)

