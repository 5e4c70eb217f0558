"""Numbering definitions that lie: out-of-range values, missing levels, reference cycles.

Labels stay bounded and every view still answers; no number read from the file sizes anything.
"""
from __future__ import annotations

import re

import pytest

from tests.support import list_docs as LD

pytestmark = pytest.mark.anyio


def labels(answer_text: str) -> list[str]:
    return [ln.rsplit("] ", 1)[1] for ln in answer_text.splitlines() if ln.startswith("[")]


async def open_case(docx, tmp_path, body, numbering, styles=""):
    await docx.open(LD.build(tmp_path / "h.docx", body, numbering, styles))
    return labels((await docx.ok("docx_read_content")).text)


async def test_huge_and_negative_starts_are_clamped(docx, tmp_path):
    numbering = LD.numbering_xml([LD.abstract(0, [LD.lvl(0, "decimal", "%1.", start=99999999999)]),
                                  LD.abstract(1, [LD.lvl(0, "upperRoman", "%1.", start=-5)]),
                                  LD.abstract(2, [LD.lvl(0, "lowerLetter", "%1)", start=30000)])],
                                 [LD.num(1, 0), LD.num(2, 1), LD.num(3, 2)])
    body = LD.para("big", 1, 0) + LD.para("neg", 2, 0) + LD.para("letters", 3, 0)
    got = await open_case(docx, tmp_path, body, numbering)
    assert got[0] == "32767. big" and got[1] == "0. neg"
    assert got[2].endswith(") letters") and len(got[2]) <= 60


async def test_out_of_range_levels_and_undefined_template_levels(docx, tmp_path):
    numbering = LD.numbering_xml([LD.abstract(0, [LD.lvl(0, "decimal", "%1.%9.%5")])], [LD.num(1, 0)])
    body = LD.para("deep", 1, 1000000) + LD.para("first", 1, 0) + LD.para("minus", 1, -3)
    got = await open_case(docx, tmp_path, body, numbering)
    assert got == ["deep", "1.1.1 first", "2.1.1 minus"]  # level 8 has no definition: no label


async def test_num_style_link_cycle_and_based_on_cycle_end(docx, tmp_path):
    styles = (LD.numstyle("Loop", "Loop", 1) +
              '<w:style w:type="paragraph" w:styleId="A"><w:name w:val="A"/><w:basedOn w:val="B"/></w:style>'
              '<w:style w:type="paragraph" w:styleId="B"><w:name w:val="B"/><w:basedOn w:val="A"/>'
              '<w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr></w:style>')
    numbering = LD.numbering_xml([LD.abstract(0, [], num_style_link="Loop"), LD.abstract(1, LD.outline())],
                                 [LD.num(1, 0), LD.num(2, 1)])
    body = LD.para("linked", 1, 0) + LD.para("styled", style="A") + LD.para("styled", style="A")
    got = await open_case(docx, tmp_path, body, numbering, styles)
    assert got == ["linked", "1. styled", "2. styled"]


async def test_numbering_part_that_is_not_numbering_xml_is_ignored(docx, tmp_path):
    bad = b'<?xml version="1.0"?><x:other xmlns:x="urn:x"><x:num/></x:other>'
    got = await open_case(docx, tmp_path, LD.para("text", 1, 0), bad)
    assert got == ["text"]
    a = await docx.ok("docx_get_structure")
    assert re.search(r"Blocks\*\*: 1", a.text)
