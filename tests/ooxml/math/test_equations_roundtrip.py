"""LaTeX -> Office Math -> LaTeX gives the same expression, for the expressions of
tests/equation_cases.py (normalised: both sides parsed by latex2mathml, rows and attributes that
change nothing a reader sees dropped)."""
from __future__ import annotations

import re

import pytest
from latex2mathml.converter import convert
from lxml import etree

from ooxml.math.from_latex import to_omml
from ooxml.math.to_latex import to_latex
from ooxml.xml.errors import ValidationError
from tests.equation_cases import EXPRESSIONS


def normalised(latex: str) -> str:
    """A canonical MathML of ``latex``: what it means, not how it was spelt."""
    root = etree.fromstring(convert(latex).replace(">&<", ">&amp;<").encode())
    for el in list(root.iter()):
        for key in list(el.attrib):
            del el.attrib[key]
    text = etree.tostring(root, encoding="unicode")
    text = re.sub(r"</?mrow>|<mrow/>", "", text)  # grouping only
    return re.sub(r"\s+", " ", text)


def test_there_are_enough_expressions():
    assert len(EXPRESSIONS) >= 150 and len(set(EXPRESSIONS)) == len(EXPRESSIONS)


@pytest.mark.parametrize("display", [True, False])
@pytest.mark.parametrize("latex", EXPRESSIONS)
def test_latex_round_trips_through_office_math(latex, display):
    back = to_latex(to_omml(latex, display))
    assert normalised(back) == normalised(latex), back


@pytest.mark.parametrize("bad, position", [(r"\frac{a}{b", 8), (r"x^{2}}", 5), (r"\foo{x}", 0),
                                           (r"\begin{matrix} a", 0), (r"a^", 2), (r"\frac{a}", 0)])
def test_bad_latex_is_refused_naming_the_position(bad, position):
    with pytest.raises(ValidationError, match=f"position {position} "):
        to_omml(bad, True)
