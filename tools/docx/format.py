"""Formatting tools: fonts, alignment, paragraph properties, format painter."""
from __future__ import annotations

from typing import Literal

from ooxml.text import body as B
from ooxml.text import format_args as FA
from ooxml.text import formatting as F
from ooxml.review import edits
from ooxml.text.format_args import FONT_KEYS, PARAGRAPH_KEYS, RUN_KEYS, check_element_properties
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool


def _target(e, raw: str, arg: str = "element_id"):
    return e.element(raw, {B.W_R, B.W_P}, "paragraph or run", arg, deleted_ok=True)


def _start(e, el) -> None:
    """The run or paragraph formatted: its paragraph's box is shown, it is announced."""
    e.show(_holder(el))
    e.change(el)


def _holder(el):
    return el if el.tag != B.W_R else B.find_ancestor(el, B.W_P)


@tool(idempotent=True, toolset="format", title="Set font")
def docx_set_font(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, size: float | str | None = None,
                  bold: bool | None = None, italic: bool | None = None, underline: bool | str | None = None,
                  color_hex: str | None = None, font_name: str | None = None,
                  east_asian_font: str | None = None) -> None:
    """Set font properties of a run or of a paragraph's runs; omitted ones stay.

    Args:
        size: Points, e.g. 12 or '10.5pt'.
        underline: true/false or a Word type ('double', 'wave').
        color_hex: 'FF0000' or 'auto'.
        font_name: For all scripts, e.g. 'Arial'.
        east_asian_font: East Asian text only.
    """
    el = e.element(element_id, {B.W_R, B.W_P}, "run or paragraph", deleted_ok=True)
    FA.check_font_args(size, underline, color_hex, font_name, east_asian_font)
    args = dict(size=size, bold=bold, italic=italic, underline=underline, color_hex=color_hex,
                font_name=font_name, east_asian_font=east_asian_font)
    _start(e, el)
    with edits.formatting(e.doc, F.runs_of(el)):
        for r in F.runs_of(el):
            F.set_run_font(r, **args)
    changed = ", ".join(f"{k}={v}" for k, v in args.items() if v is not None) or "nothing"
    e.done(el, marker="UPDATED", updated=el, fields={"Changed": changed})


@tool(idempotent=True, toolset="format", title="Set alignment")
def docx_set_alignment(ctx: CallContext, e: Edit, session_id: str | None, element_id: str,
                       alignment: Literal["left", "center", "right", "justify"]) -> None:
    """Align a paragraph (a run's paragraph when given a run)."""
    p = _holder(_target(e, element_id))
    _start(e, p)
    with edits.formatting(e.doc, paragraphs=[p]):
        F.set_alignment(p, alignment)
    e.done(p, marker="UPDATED", updated=p, fields={"Alignment": alignment})


@tool(idempotent=True, toolset="format", title="Set paragraph and run properties")
def docx_set_properties(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, properties: dict) -> None:
    """Set several properties at once on a paragraph (and its runs) or a run.

    Args:
        properties: Keys as the server's instructions list them.
    """
    el = _target(e, element_id)
    check_element_properties(el, properties)
    para_props = {k: v for k, v in properties.items() if k in PARAGRAPH_KEYS}
    font = {k: v for k, v in properties.items() if k in FONT_KEYS}
    flags = {k: v for k, v in properties.items() if k in RUN_KEYS - FONT_KEYS}
    _start(e, el)
    runs = F.runs_of(el) if font or flags else []
    with edits.formatting(e.doc, runs, [el] if para_props else []):
        if para_props:
            F.set_paragraph_props(el, para_props)
        for r in runs:
            if font:
                F.set_run_font(r, **font)
            if flags:
                F.set_run_flags(r, flags)
    e.done(el, marker="UPDATED", updated=el, fields={"Changed": ", ".join(sorted(properties))})


@tool(idempotent=True, toolset="format", title="Copy formatting")
def docx_format_copy(ctx: CallContext, e: Edit, session_id: str | None, source_id: str, target_id: str) -> None:
    """Copy paragraph and run formatting, like Word's format painter."""
    src = _target(e, source_id, "source_id")
    dst = _target(e, target_id, "target_id")
    _start(e, dst)
    with edits.formatting(e.doc, F.runs_of(dst), [dst] if src.tag == dst.tag == B.W_P else []):
        F.copy_format(src, dst)
    e.done(dst, marker="UPDATED", updated=dst, fields={"Source": e.doc.id_of(src)})
