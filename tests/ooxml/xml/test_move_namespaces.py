"""ooxml/xml/move_namespaces.py: which declarations an lxml move keeps. docx_compare moves the
reduced redline's blocks into the revised runs' tree (compare/revised_tree.py); a chart's
``xmlns:r`` (declared on the root too) was dropped there, so the redline's tree was not what its
bytes parse to."""
from __future__ import annotations

import pytest
from lxml import etree

from ooxml.xml.move_namespaces import kept_on_move


A, PIC = "http://schemas.openxmlformats.org/drawingml/2006/main", "http://schemas.openxmlformats.org/drawingml/2006/picture"
DOC = '<w:document xmlns:w="W"><w:body>{}</w:body></w:document>'


@pytest.mark.parametrize("blocks, moves", [
    ('<w:p><x:a xmlns:x="{A}"/><y:b xmlns:y="{A}"/></w:p>', True),  # siblings: neither in the other's scope
    ('<w:p><x:a xmlns:x="{A}"><y:b xmlns:y="{A}"/></x:a></w:p>', False),  # nested: lxml drops the inner one
    ('<w:p><x:a xmlns:x="{A}"><y:b xmlns:y="{PIC}"/></x:a></w:p>', True),  # another namespace
    ('<w:p><w:r xmlns:w="W"/></w:p>', False),  # the root's
    ('<w:p/>', True),
], ids=["siblings", "nested", "other", "root's", "none"])
def test_which_declarations_a_move_would_drop(blocks, moves):
    data = DOC.format(blocks.format(A=A, PIC=PIC)).encode()
    assert kept_on_move(data, ["W"]) is moves
    assert _unchanged_by_a_move(data) is moves  # what lxml does


def _unchanged_by_a_move(data: bytes) -> bool:
    source, target = etree.fromstring(data), etree.fromstring(DOC.format("").encode())
    for el in list(source[0]):
        target[0].append(el)
    return etree.tostring(target) == data
