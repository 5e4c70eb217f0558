"""Equations in a paragraph's line: ``$x^2$``, their text as Word's linear form would read (m:t runs).

Registered as an inline kind of render/inline.py at import (render/blocks.py imports this module).
"""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import M
from render.inline import InlineKind, LineContext, register

_M_T = f"{{{M}}}t"


def equation_text(math: etree._Element) -> str:
    return "".join(t.text or "" for t in math.iter(_M_T))


def _draw(math: etree._Element, ctx: LineContext) -> str:
    text = equation_text(math)
    return f"${text}$" if text else ""


register(InlineKind("equation", ".//m:oMath[not(ancestor::m:oMath)]", _draw))
