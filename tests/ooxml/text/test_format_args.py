"""ooxml/text/format_args.py: which formatting keys a run or a paragraph takes, and their values."""
from __future__ import annotations

import pytest
from lxml import etree

from ooxml.text.format_args import check_element_properties
from ooxml.xml.errors import ValidationError
from ooxml.xml.namespaces import w

RUN, PARAGRAPH = etree.Element(w("r")), etree.Element(w("p"))


def test_a_paragraph_takes_paragraph_and_run_keys():
    check_element_properties(PARAGRAPH, {"alignment": "center", "bold": True})


def test_a_run_refuses_a_paragraph_key_naming_it_and_the_keys_it_takes():
    with pytest.raises(ValidationError) as refused:
        check_element_properties(RUN, {"alignment": "center"})
    assert "alignment" in refused.value.message and "run" in refused.value.message
    assert "bold" in refused.value.hint and "alignment" not in refused.value.hint


def test_no_properties_is_refused():
    with pytest.raises(ValidationError, match="properties is empty"):
        check_element_properties(RUN, {})


def test_a_known_key_with_a_wrong_value_is_refused():
    with pytest.raises(ValidationError, match="bold"):
        check_element_properties(RUN, {"bold": "false"})
