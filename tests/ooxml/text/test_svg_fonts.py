"""An SVG's font-family lists resolved to the machine's fonts before the fallback renders (svg_fonts)."""
from __future__ import annotations

import pytest
from lxml import etree

from ooxml.text import svg_fonts

pytestmark = pytest.mark.skipif(not svg_fonts.machine_families(), reason="no fontconfig on this machine")


def _serif() -> str:
    return f"'{svg_fonts.default_family()}'"


def test_a_generic_family_is_named_and_the_default_comes_last():
    sans = svg_fonts.machine_families()["sans-serif"]
    assert svg_fonts.family_list("Arial, sans-serif") == f"Arial, '{sans}', {_serif()}"


def test_the_shorthand_keeps_its_size_and_style():
    mono = svg_fonts.machine_families()["monospace"]
    assert svg_fonts.family_list("italic 12px/30px monospace") == f"italic 12px/30px '{mono}', {_serif()}"


def test_important_stays_last():
    assert svg_fonts.family_list("Arial !important") == f"Arial, {_serif()} !important"


def test_attributes_style_attributes_and_sheets_are_resolved():
    root = etree.fromstring('<svg xmlns="http://www.w3.org/2000/svg"><style>.font:hover { fill: red }\n'
                            'text { font-family: serif }</style><text font-family="Arial" '
                            'style="font-size:9px;font-family:Arial">a</text></svg>')
    svg_fonts.resolve(root)
    sheet, text = root[0].text, root[1]
    assert ".font:hover { fill: red }" in sheet and f"font-family: {_serif()}, {_serif()}" in sheet
    assert text.get("font-family") == f"Arial, {_serif()}"
    assert text.get("style") == f"font-size:9px;font-family:Arial, {_serif()}"


def test_inherit_is_left_to_the_renderer():
    assert svg_fonts.family_list("inherit") == "inherit"
