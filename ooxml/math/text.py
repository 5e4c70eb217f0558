"""A paragraph's text with its equations as LaTeX (``$…$``, ``$$…$$``): what find searches.

``body.paragraph_text`` stays the runs' text alone: edits count offsets in it."""
from __future__ import annotations

from lxml import etree

from ooxml.math.to_latex import is_display, to_latex
from ooxml.text import body as B
from ooxml.xml.namespaces import M

_OMATH, _OMATH_PARA = f"{{{M}}}oMath", f"{{{M}}}oMathPara"


def equation_text(math: etree._Element) -> str:
    latex = to_latex(math)
    if not latex:
        return ""
    return f"$${latex}$$" if is_display(math) else f"${latex}$"


def paragraph_text(p: etree._Element) -> str:
    """Runs and equations in reading order (cheap when the paragraph holds no equation)."""
    if next(p.iter(_OMATH), None) is None:
        return B.paragraph_text(p)
    return "".join(_pieces(p))


def _pieces(parent: etree._Element):
    for child in parent:
        tag = child.tag
        if tag == B.W_R:
            yield B.run_text(child)
        elif tag in (_OMATH, _OMATH_PARA):
            yield equation_text(child)
        elif tag == B.W_SDT:
            content = child.find(B.W_SDTCONTENT)
            if content is not None:
                yield from _pieces(content)
        elif tag in B.RUN_CONTAINERS:
            yield from _pieces(child)
