"""Equations in a paragraph's line as LaTeX: ``$…$`` inline, ``$$…$$`` display (``m:oMathPara``);
an old ``Equation.3`` object as ``[equation]``.

Its inline kinds are listed in render/renderers.py.
"""
from __future__ import annotations

from lxml import etree

from ooxml.math.legacy import is_legacy_equation
from ooxml.math.text import equation_text
from ooxml.xml.namespaces import M
from render.inline import InlineKind, LineContext
from render.renderer import Renderer

_OMATH = f"{{{M}}}oMath"


shown = equation_text  # an equation as a reader sees it in text: ``$latex$`` or ``$$latex$$``


def _draw(math: etree._Element, ctx: LineContext) -> str:
    if next(math.iterancestors(_OMATH), None) is not None:  # drawn with its outer equation
        return ""
    return shown(math)


def _draw_object(obj: etree._Element, ctx: LineContext) -> str:
    return "[equation]" if is_legacy_equation(obj) else ""


RENDERER = Renderer(inline=(InlineKind("equation", ".//m:oMath", _draw),
                            InlineKind("legacy_equation", ".//w:object", _draw_object)))
