"""Equation tools (SPEC §12, toolset content): LaTeX in, Office Math written (ooxml/math)."""
from __future__ import annotations

from lxml import etree

from ooxml.math.from_latex import display_paragraph, to_omml
from ooxml.math.to_latex import is_display
from ooxml.review import edits
from ooxml.text import body as B
from ooxml.xml.errors import InvalidElementType
from ooxml.xml.namespaces import M
from ooxml.model.insertion import run_place
from tools.docx.protocol import Edit
from tools.runtime.call.registry import CallContext, tool

_OMATH, _OMATH_PARA = f"{{{M}}}oMath", f"{{{M}}}oMathPara"


@tool(toolset="content", title="Insert an equation")
def docx_insert_equation(ctx: CallContext, e: Edit, session_id: str | None, latex: str, position: str,
                         display: bool = True) -> None:
    """Insert a LaTeX equation as Word math.

    Args:
        display: True: own paragraph (block position); false: inline (run position).
    """
    p = display_paragraph(latex) if display else None  # one parse: paragraph and equation
    math = to_omml(latex, False) if p is None else p[0]
    pos = e.position(position)
    if p is None:
        _place_inline(e, math, pos)
    else:
        e.insert(p, pos)
    e.done(math, marker="NEW", inserted=math, fields={"Position": pos.text})


def _place_inline(e: Edit, math: etree._Element, pos) -> None:
    para, _ = run_place(e.doc, pos)
    e.show(para)
    e.change(para)
    edits.place_run(e.doc, para, math, pos.mode, pos.target)


@tool(toolset="content", title="Replace an equation")
def docx_set_equation(ctx: CallContext, e: Edit, session_id: str | None, element_id: str, latex: str) -> None:
    """Replace an equation (its eq_ ID, or a paragraph holding one) with LaTeX."""
    old = _equation(e, element_id)
    new = to_omml(latex, is_display(old))
    if old.tag == _OMATH and old.getparent().tag == _OMATH_PARA:
        new = new[0]  # the display paragraph keeps its m:oMathPara
    para = B.find_ancestor(old, B.W_P)
    e.show(para)
    e.change(para)
    old.getparent().replace(old, new)
    e.done(para, marker="UPDATED", updated=para, fields=e.not_tracked("Word records no change inside an equation"))


def _equation(e: Edit, element_id: str) -> etree._Element:
    el = e.element(element_id, {_OMATH, _OMATH_PARA, B.W_P}, "equation or paragraph")
    if el.tag != B.W_P:
        return el
    found = [m for m in el.iter(_OMATH_PARA, _OMATH)
             if m.tag == _OMATH_PARA or m.getparent().tag != _OMATH_PARA and
             next(m.iterancestors(_OMATH), None) is None]
    if len(found) != 1:
        raise InvalidElementType(f"Paragraph {element_id} holds {len(found)} equations, not one.",
                                 hint="Pass the equation's eq_ ID (docx_insert_equation answers with it).")
    return found[0]
