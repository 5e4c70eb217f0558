"""ooxml/lists/numbering_defs.py: what a document's numbering definitions say, read from documents built
with Word's numbering markup (tests/support/list_docs.py)."""
from __future__ import annotations

from ooxml.lists import numbering
from ooxml.model.document import Document
from ooxml.text.body import iter_blocks
from tests.support import list_docs as LD

STYLES = ('<w:style w:type="paragraph" w:styleId="ListStyleLinked"><w:name w:val="Linked"/>'
          '<w:pPr><w:numPr><w:numId w:val="7"/></w:numPr></w:pPr></w:style>'
          '<w:style w:type="paragraph" w:styleId="Numbered"><w:name w:val="Numbered"/>'
          '<w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr></w:style>'
          '<w:style w:type="paragraph" w:styleId="NumberedChild"><w:name w:val="Numbered child"/>'
          '<w:basedOn w:val="Numbered"/></w:style>')


def open_defs(tmp_path, body: str, abstracts: list[str], nums: list[str], styles: str = STYLES):
    path = LD.build(tmp_path / "lists.docx", body, LD.numbering_xml(abstracts, nums), styles)
    doc = Document.open(path)
    return doc, numbering.definitions(doc)


def test_a_level_override_replaces_only_its_own_level(tmp_path):
    _, defs = open_defs(tmp_path, LD.para("a", 2, 0),
                        [LD.abstract(1, LD.outline())],
                        [LD.num(1, 1), LD.num(2, 1, levels={1: LD.lvl(1, "upperRoman", "(%2)")})])
    assert defs.level(2, 1).fmt == "upperRoman" and defs.level(2, 1).text == "(%2)"
    assert defs.level(2, 0) == defs.level(1, 0) and defs.level(1, 1).fmt == "decimal"


def test_a_start_override_belongs_to_the_num_not_to_its_abstract(tmp_path):
    _, defs = open_defs(tmp_path, LD.para("a", 2, 0), [LD.abstract(1, LD.outline())],
                        [LD.num(1, 1), LD.num(2, 1, starts={0: 5})])
    assert defs.nums[2].starts == {0: 5} and defs.nums[1].starts == {}
    assert defs.list_key(1) == defs.list_key(2)  # both count in abstract 1


def test_a_num_style_link_is_followed_to_the_abstract_holding_the_levels(tmp_path):
    holder = LD.abstract(1, LD.outline(("lowerLetter",)), style_link="ListStyleLinked")
    linking = LD.abstract(2, [], num_style_link="ListStyleLinked")
    _, defs = open_defs(tmp_path, LD.para("a", 3, 0), [holder, linking], [LD.num(7, 1), LD.num(3, 2)])
    assert defs.abstract_of(3).aid == "1"
    assert defs.level(3, 0).fmt == "lowerLetter"


def test_a_paragraph_takes_its_number_from_its_style_through_based_on(tmp_path):
    body = LD.para("direct", 1, 2) + LD.para("styled", style="NumberedChild") + LD.para("plain")
    doc, defs = open_defs(tmp_path, body, [LD.abstract(1, LD.outline())], [LD.num(1, 1)])
    direct, styled, plain = list(iter_blocks(doc.body))[:3]
    assert defs.para_num(direct) == (1, 2)
    assert defs.para_num(styled) == (1, 1)
    assert defs.para_num(plain) is None


def test_a_num_without_definitions_numbers_nothing(tmp_path):
    _, defs = open_defs(tmp_path, LD.para("a", 4, 0), [LD.abstract(1, LD.outline())],
                        [LD.num(1, 1), LD.num(4, 9)])
    assert defs.levels(4) == [None] * 9 and defs.counting_plan(4, 0) is None
    assert defs.resolve(None, 5, 0) is None  # a numId no w:num declares


def test_a_level_restarts_the_levels_below_it_unless_they_say_otherwise(tmp_path):
    levels = LD.outline()
    levels[2] = LD.lvl(2, restart=0)  # never restarts
    _, defs = open_defs(tmp_path, LD.para("a", 1, 0), [LD.abstract(1, levels)], [LD.num(1, 1)])
    assert defs.restarted_by(1, 0) == (1, 3, 4, 5, 6, 7, 8)
    assert defs.restarted_by(1, 7) == (8,)
