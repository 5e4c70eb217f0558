"""Text replaced in equations as find shows them, in LaTeX: ``\\alpha`` → ``\\beta`` or ``x`` → ``y``.

A match counts only where it starts and ends between LaTeX tokens: replacing ``a`` leaves ``\\frac``
alone. The new LaTeX must parse (``ValidationError`` naming the position otherwise); nothing changes
until every equation's new Office Math is built."""
from __future__ import annotations

import re

from lxml import etree

from ooxml.math.from_latex import to_omml
from ooxml.math.to_latex import is_display, to_latex
from ooxml.text import body as B
from ooxml.xml.namespaces import M

_OMATH, _OMATH_PARA = f"{{{M}}}oMath", f"{{{M}}}oMathPara"
_COMMAND = re.compile(r"\\[A-Za-z]+")


def replace_latex(latex: str, old: str, new: str) -> tuple[str, int]:
    """``latex`` with ``old`` replaced where it starts and ends between tokens; how many were."""
    inside = {i for m in _COMMAND.finditer(latex) for i in range(m.start() + 1, m.end())}
    out, count, at = [], 0, 0
    while (i := latex.find(old, at)) >= 0:
        j = i + len(old)
        if i in inside or j in inside:
            out.append(latex[at:i + 1])
            at = i + 1
            continue
        out += [latex[at:i], new]
        count, at = count + 1, j
    out.append(latex[at:])
    return "".join(out), count


def planned(scope: etree._Element, old: str, new: str) -> list[tuple[etree._Element, etree._Element, int]]:
    """(equation, its replacement, count) for each equation under ``scope`` whose LaTeX holds ``old``."""
    out = []
    for math in _equations(scope):
        latex, count = replace_latex(to_latex(math), old, new)
        if count:
            out.append((math, to_omml(latex, is_display(math)), count))
    return out


def _equations(scope: etree._Element):
    """The outermost equations (a display paragraph whole), fallbacks skipped."""
    for math in scope.iter(_OMATH_PARA, _OMATH):
        if math.tag == _OMATH and (math.getparent().tag == _OMATH_PARA or
                                   next(math.iterancestors(_OMATH), None) is not None):
            continue
        if not B.in_fallback(math):
            yield math
