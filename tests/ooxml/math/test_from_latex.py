"""LaTeX -> OMML (ooxml/math/from_latex.py, mathml.py): the same bytes as before the speed-ups, limits kept."""
from __future__ import annotations

import hashlib

import pytest
from lxml import etree

from ooxml.math.from_latex import display_paragraph, to_omml
from ooxml.text import body as B
from ooxml.xml.errors import ValidationError
from tests.equation_cases import EXPRESSIONS, OMML_SHA256


@pytest.mark.parametrize("i", range(len(EXPRESSIONS)))
def test_omml_is_byte_for_byte_what_it_was(i):
    latex = EXPRESSIONS[i]
    written = etree.tostring(to_omml(latex, True)) + etree.tostring(to_omml(latex, False))
    assert hashlib.sha256(written).hexdigest()[:12] == OMML_SHA256[i], latex


def test_text_with_markup_characters_is_escaped():
    t = to_omml(r"\text{a&b<c>}", False).find(".//{*}t")
    assert t.text == "a&b<c>"


@pytest.mark.parametrize("latex", [r"\sqrt{" * 200 + "x" + "}" * 200, "x^{" * 140 + "y" + "}" * 140])
def test_nesting_past_the_limit_is_refused(latex):
    with pytest.raises(ValidationError, match="nests deeper than 128 levels"):
        to_omml(latex, True)


def test_a_display_paragraph_is_the_paragraph_made_and_the_equation_appended():
    for latex in EXPRESSIONS:  # parsed in one piece (and as UTF-8 bytes): the same tree, byte for byte
        made = etree.Element(B.W_P)
        made.append(to_omml(latex, True))
        assert etree.tostring(display_paragraph(latex)) == etree.tostring(made), latex


def test_a_display_paragraph_of_bad_latex_is_refused_like_the_equation():
    with pytest.raises(ValidationError, match="position"):
        display_paragraph(r"\frac{a}{")
