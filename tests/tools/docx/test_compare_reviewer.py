"""docx_compare reports what a reviewer calls a change, grouped as Word's Compare groups it.

- A field's cached result (a PAGE number, a DATE) is no change: fields compare by instruction.
- A header (or cell, or text box) with one paragraph appended shows one insertion, not its old last
  line inserted, deleted and replaced.
Through the MCP client (the answer's counts), and accept-all = revised, reject-all = original.
"""
from __future__ import annotations

import pytest

from tests.builders import SECT, build_docx, p, part_xml, tbl, tc
from tests.support import redline as RL
from tests.support.client import NS, read_part

pytestmark = pytest.mark.anyio
HEADER_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"


def complex_field(instr: str, result: str) -> str:
    return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> {instr} </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            f'<w:r><w:t>{result}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>')


def simple_field(instr: str, result: str) -> str:
    return f'<w:fldSimple w:instr=" {instr} "><w:r><w:t>{result}</w:t></w:r></w:fldSimple>'


def with_header(path, body: str, header: str):
    sect = SECT.replace("<w:sectPr>", '<w:sectPr><w:headerReference w:type="default" r:id="rIdHdr1"/>')
    return build_docx(path, body, sect=sect, rels=[("rIdHdr1", "header", "header1.xml")],
                      extra_parts={"word/header1.xml": part_xml("w:hdr", header)},
                      overrides={"word/header1.xml": HEADER_CT})


def page_line(number: str, date: str, count: str) -> str:
    return (f'<w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r>{complex_field("PAGE", number)}'
            f'<w:r><w:t xml:space="preserve"> of </w:t></w:r>{simple_field("NUMPAGES", count)}'
            f'<w:r><w:t xml:space="preserve">, printed </w:t></w:r>{complex_field("DATE", date)}</w:p>')


async def compare(docx, a, b):
    return await docx.ok("docx_compare", original_path=str(a), revised_path=str(b))


async def test_field_results_that_differ_are_no_change(docx, tmp_path):
    a = with_header(tmp_path / "a.docx", p("Body.") + page_line("3", "1/2/2026", "9"), page_line("3", "1/2/2026", "9"))
    b = with_header(tmp_path / "b.docx", p("Body.") + page_line("14", "December 25, 2026", "10"),
                    page_line("1", "12/25/2026", "10"))
    ans = await compare(docx, a, b)
    assert ans.head["Changes"] == "0"
    RL.check(a.read_bytes(), b.read_bytes())


async def test_a_field_whose_instruction_changed_is_a_change(docx, tmp_path):
    a = build_docx(tmp_path / "a.docx", p("Body.") + page_line("3", "1/2/2026", "9"))
    b = build_docx(tmp_path / "b.docx", p("Body.") + page_line("3", "1/2/2026", "9").replace(" PAGE ", " SECTIONPAGES "))
    ans = await compare(docx, a, b)
    assert int(ans.head["Changes"]) > 0
    RL.check(a.read_bytes(), b.read_bytes())


async def test_an_edit_next_to_a_field_leaves_the_field_alone(docx, tmp_path):
    a = build_docx(tmp_path / "a.docx", p("Body.") + page_line("3", "1/2/2026", "9"))
    b = build_docx(tmp_path / "b.docx", p("Body.") + page_line("4", "1/3/2026", "9").replace("printed", "made"))
    ans = await compare(docx, a, b)
    assert (ans.head["Insertions"], ans.head["Deletions"]) == ("1", "1")
    RL.check(a.read_bytes(), b.read_bytes())


async def test_a_header_with_one_appended_paragraph_shows_one_insertion(docx, tmp_path):
    a = with_header(tmp_path / "a.docx", p("Body."), p("Acme Corporation - Confidential"))
    b = with_header(tmp_path / "b.docx", p("Body."), p("Acme Corporation - Confidential") + p("Draft for review"))
    ans = await compare(docx, a, b)
    assert ans.head["Changes"] == "1" and ans.head["Insertions"] == "1"
    out = tmp_path / "red.docx"
    await docx.ok("docx_save", session_id=ans.head["Session ID"], file_path=str(out))
    from lxml import etree
    header = etree.fromstring(read_part(out, "word/header1.xml"))
    assert not header.xpath("//w:del | //w:delText", namespaces=NS)  # the old line is not deleted
    assert [t.text for t in header.xpath("//w:ins//w:t", namespaces=NS)] == ["Draft for review"]
    RL.check(a.read_bytes(), b.read_bytes())


async def test_a_cell_with_appended_paragraphs_keeps_its_old_line(docx, tmp_path):
    old = p("Line one of the cell")
    a = build_docx(tmp_path / "a.docx", tbl([[tc(old), tc(p("x"))]]) + p())
    b = build_docx(tmp_path / "b.docx", tbl([[tc(old + p("Line two") + p("Line three")), tc(p("x"))]]) + p())
    ans = await compare(docx, a, b)
    assert ans.head["Insertions"] == "2" and "Deletions" not in ans.head
    RL.check(a.read_bytes(), b.read_bytes())


async def test_an_appended_paragraph_of_other_formatting_rejects_to_the_original(docx, tmp_path):
    a = with_header(tmp_path / "a.docx", p("Body."), p("Title line", '><w:pPr><w:jc w:val="center"/></w:pPr'))
    b = with_header(tmp_path / "b.docx", p("Body."), p("Title line", '><w:pPr><w:jc w:val="center"/></w:pPr')
                    + p("Left note", '><w:pPr><w:jc w:val="right"/></w:pPr'))
    await compare(docx, a, b)
    RL.check(a.read_bytes(), b.read_bytes())


async def test_a_header_with_its_last_paragraph_removed_shows_one_deletion(docx, tmp_path):
    a = with_header(tmp_path / "a.docx", p("Body."), p("Acme Corporation - Confidential") + p("Draft for review"))
    b = with_header(tmp_path / "b.docx", p("Body."), p("Acme Corporation - Confidential"))
    ans = await compare(docx, a, b)
    assert ans.head["Changes"] == "1" and ans.head["Deletions"] == "1"
    out = tmp_path / "red.docx"
    await docx.ok("docx_save", session_id=ans.head["Session ID"], file_path=str(out))
    from lxml import etree
    header = etree.fromstring(read_part(out, "word/header1.xml"))
    assert not header.xpath("//w:ins[w:r]", namespaces=NS)  # the kept line is not inserted again
    assert [t.text for t in header.xpath("//w:delText", namespaces=NS)] == ["Draft for review"]
    RL.check(a.read_bytes(), b.read_bytes())


async def test_removed_last_paragraphs_of_other_formatting_hold_both_ways(docx, tmp_path):
    a = build_docx(tmp_path / "a.docx", tbl([[tc(p("Kept line", '><w:pPr><w:jc w:val="center"/></w:pPr')
                                                 + p("Gone one") + p("Gone two", '><w:pPr><w:jc w:val="right"/></w:pPr')),
                                              tc(p("x"))]]) + p())
    b = build_docx(tmp_path / "b.docx", tbl([[tc(p("Kept line", '><w:pPr><w:jc w:val="center"/></w:pPr')),
                                              tc(p("x"))]]) + p())
    ans = await compare(docx, a, b)
    assert ans.head["Deletions"] == "2" and "Insertions" not in ans.head
    RL.check(a.read_bytes(), b.read_bytes())


async def test_words_changed_side_by_side_are_one_deletion_and_one_insertion(docx, tmp_path):
    a = build_docx(tmp_path / "a.docx", p("The quick brown fox jumps over the lazy dog."))
    b = build_docx(tmp_path / "b.docx", p("The slow red fox jumps over the lazy dog."))
    ans = await compare(docx, a, b)
    assert (ans.head["Deletions"], ans.head["Insertions"]) == ("1", "1")
    assert "[-quick brown-]" in ans.text and "[+slow red+]" in ans.text
    RL.check(a.read_bytes(), b.read_bytes())


def test_a_simple_field_in_deleted_words_comes_back_as_the_field():
    """Its result is compared by the field (its instruction), so rejecting must give the field back."""
    import tempfile
    from pathlib import Path
    folder = Path(tempfile.mkdtemp())
    a = build_docx(folder / "a.docx", '<w:p><w:r><w:t xml:space="preserve">Alpha beta delta zeta </w:t></w:r>'
                   + simple_field("PAGE", "3") + '<w:r><w:t xml:space="preserve"> gamma</w:t></w:r></w:p>')
    b = build_docx(folder / "b.docx", '<w:p><w:r><w:t xml:space="preserve">Alpha beta delta epsilon</w:t></w:r>'
                   + simple_field("STYLEREF Heading1", "Intro") + '<w:r><w:t xml:space="preserve"> gamma</w:t></w:r></w:p>')
    parts, counts = RL.build(a.read_bytes(), b.read_bytes())
    assert counts == {"deletions": 1, "insertions": 1}
    RL.check_parts(parts, a.read_bytes(), b.read_bytes())
