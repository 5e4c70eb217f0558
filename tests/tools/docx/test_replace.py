"""docx_replace_text: matches across runs, formatting, scope, what is never touched, the answer."""
from __future__ import annotations

import pytest
from lxml import etree

from tests.builders import NS, build_docx, p, part_xml, tbl, tc
from tests.support.client import by_id, read_body, read_part, texts

pytestmark = pytest.mark.anyio
HEADER_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"


async def open_body(docx, tmp_path, body, **kw):
    await docx.open(build_docx(tmp_path / "in.docx", body, **kw))


def runs(el):
    return el.findall(".//w:r", NS)


async def test_match_split_across_runs_is_replaced(docx, tmp_path):
    body = '<w:p><w:r><w:t>Hel</w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>lo wor</w:t></w:r><w:r><w:t>ld!</w:t></w:r></w:p>'
    await open_body(docx, tmp_path, body)
    a = await docx.ok("docx_replace_text", old_text="Hello world", new_text="Bye")
    assert a.head["Replacements"] == "1"
    saved = await docx.save(tmp_path / "o.docx")
    assert texts(saved) == "Bye!"


async def test_new_text_takes_the_format_of_the_run_where_the_match_starts(docx, tmp_path):
    body = '<w:p><w:r><w:t xml:space="preserve">Say </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>hel</w:t></w:r><w:r><w:t>lo</w:t></w:r></w:p>'
    await open_body(docx, tmp_path, body)
    await docx.ok("docx_replace_text", old_text="hello", new_text="HI")
    r = runs(await docx.save(tmp_path / "o.docx"))
    bold = [x for x in r if x.find("w:rPr/w:b", NS) is not None]
    assert [texts(x) for x in bold] == ["HI"] and texts(r[0]) == "Say "


async def test_every_occurrence_is_replaced_and_counted(docx, tmp_path):
    await open_body(docx, tmp_path, p("cat and cat") + p("one cat"))
    a = await docx.ok("docx_replace_text", old_text="cat", new_text="dog")
    assert (a.head["Replacements"], a.head["Paragraphs Changed"]) == ("3", "2")
    assert texts(await docx.save(tmp_path / "o.docx")) == "dog and dogone dog"


async def test_scope_limits_the_replacement(docx, tmp_path):
    await docx.create()
    first = (await docx.ok("docx_insert_paragraph", text="same word", position="end:document_body")).element_id
    second = (await docx.ok("docx_insert_paragraph", text="same word", position="end:document_body")).element_id
    await docx.ok("docx_replace_text", old_text="word", new_text="thing", scope_id=second)
    saved = await docx.save(tmp_path / "o.docx")
    assert (texts(by_id(saved, first)), texts(by_id(saved, second))) == ("same word", "same thing")


async def test_tables_and_cells_are_searched_and_a_cell_can_be_the_scope(docx, tmp_path):
    await open_body(docx, tmp_path, tbl([[tc(p("alpha")), tc(p("alpha"))]]))
    a = await docx.ok("docx_replace_text", old_text="alpha", new_text="beta")
    assert a.head["Replacements"] == "2" and "Parent: Cell" in a.section("Document Context")
    listed = await docx.ok("docx_list_tables")
    table_id = listed.section("Content").split()[1].rstrip(":")
    cell = (await docx.ok("docx_get_cell", table_id=table_id, row=0, col=1)).element_id
    await docx.ok("docx_replace_text", old_text="beta", new_text="gamma", scope_id=cell)
    assert texts(await docx.save(tmp_path / "o.docx")) == "betagamma"


async def test_deleted_text_and_field_codes_are_never_touched(docx, tmp_path):
    body = ('<w:p><w:r><w:t xml:space="preserve">PAGE </w:t></w:r>'
            '<w:del w:id="1" w:author="a" w:date="2024-01-01T00:00:00Z"><w:r><w:delText>PAGE</w:delText></w:r></w:del>'
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>')
    await open_body(docx, tmp_path, body)
    a = await docx.ok("docx_replace_text", old_text="PAGE", new_text="Seite")
    assert a.head["Replacements"] == "1"
    saved = await docx.save(tmp_path / "o.docx")
    assert saved.find(".//w:delText", NS).text == "PAGE" and saved.find(".//w:instrText", NS).text == " PAGE "


async def test_headers_are_searched_too(docx, tmp_path):
    header = part_xml("w:hdr", p("Company name"))
    await open_body(docx, tmp_path, p("The name"), extra_parts={"word/header1.xml": header},
                    rels=[("rId7", "header", "header1.xml")], overrides={"word/header1.xml": HEADER_CT})
    a = await docx.ok("docx_replace_text", old_text="name", new_text="title")
    assert a.head["Replacements"] == "2"
    await docx.save(tmp_path / "o.docx")
    hdr = etree.fromstring(read_part(tmp_path / "o.docx", "word/header1.xml"))
    assert texts(hdr) == "Company title" and texts(read_body(tmp_path / "o.docx")) == "The title"


async def test_no_match_is_a_success_with_zero_replacements(docx, tmp_path):
    await open_body(docx, tmp_path, p("nothing here"))
    a = await docx.ok("docx_replace_text", old_text="absent", new_text="x")
    assert a.head["Replacements"] == "0" and "nothing changed" in a.section("Content")
    assert "Changes" not in a.text


async def test_empty_old_text_is_a_validation_error(docx, tmp_path):
    await open_body(docx, tmp_path, p("x"))
    a = await docx.call("docx_replace_text", old_text="", new_text="y")
    assert a.is_error and a.error_type == "ValidationError"


async def test_newlines_in_new_text_become_breaks(docx, tmp_path):
    await open_body(docx, tmp_path, p("a-b"))
    await docx.ok("docx_replace_text", old_text="-", new_text="\n")
    saved = await docx.save(tmp_path / "o.docx")
    assert saved.find(".//w:br", NS) is not None
    assert all("\n" not in (t.text or "") for t in saved.iter(f"{{{NS['w']}}}t"))


async def test_diff_shows_each_changed_paragraph_up_to_ten(docx, tmp_path):
    await open_body(docx, tmp_path, "".join(p(f"item {i} x") for i in range(14)))
    a = await docx.ok("docx_replace_text", old_text="x", new_text="y")
    changes = a.section("Changes")
    assert changes.count("-  │ item") == 10 and changes.count("+  │ item") == 10
    assert "4 more changed paragraphs not shown" in changes


async def test_last_update_is_the_last_changed_paragraph(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="foo", position="end:document_body")
    last = (await docx.ok("docx_insert_paragraph", text="foo bar", position="end:document_body")).element_id
    a = await docx.ok("docx_replace_text", old_text="foo", new_text="baz")
    assert a.element_id == last
    b = await docx.ok("docx_get_context", element_id="last_update")
    assert b.element_id == last


async def test_emptied_runs_are_removed(docx, tmp_path):
    body = '<w:p><w:r><w:t>ab</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>cd</w:t></w:r></w:p>'
    await open_body(docx, tmp_path, body)
    await docx.ok("docx_replace_text", old_text="abcd", new_text="z")
    saved = await docx.save(tmp_path / "o.docx")
    assert [texts(r) for r in runs(saved)] == ["z"]


# ---- finding: only paragraphs whose text holds the match are read for their segments ----------------

_MIXED = (  # every way runs nest in a paragraph, and text a replace never reads
    f'<w:document xmlns:w="{NS["w"]}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
    '<w:body><w:p><w:r><w:t>ab</w:t></w:r><w:del><w:r><w:t>X</w:t></w:r></w:del><w:r><w:t>cd</w:t></w:r></w:p>'
    '<w:p><w:hyperlink><w:r><w:t>a</w:t></w:r></w:hyperlink><w:sdt><w:sdtContent><w:r><w:t>bc</w:t></w:r>'
    '</w:sdtContent></w:sdt><w:r><w:tab/><w:t>d</w:t></w:r></w:p>'
    '<w:p><w:r><w:t>a</w:t><w:drawing><w:txbxContent><w:p><w:r><w:t>bcd abcd</w:t></w:r></w:p></w:txbxContent>'
    '</w:drawing><w:t>bcd</w:t></w:r></w:p>'
    '<w:p><w:r><mc:AlternateContent><mc:Choice><w:p><w:r><w:t>abcd</w:t></w:r></w:p></mc:Choice><mc:Fallback>'
    '<w:p><w:r><w:t>abcd</w:t></w:r></w:p></mc:Fallback></mc:AlternateContent></w:r></w:p>'
    '<w:tbl><w:tr><w:tc><w:p><w:ins><w:r><w:t>abc</w:t></w:r></w:ins><w:r><w:rPr/><w:t>d abcd</w:t></w:r></w:p>'
    '</w:tc></w:tr></w:tbl></w:body></w:document>')


@pytest.mark.parametrize("old", ["abcd", "bc", "d", "a", "ab", "bcd abc", "X", "cd"])
def test_finding_reads_the_same_paragraphs_as_reading_every_one(old):
    from ooxml.text import replace as RP
    root = etree.fromstring(_MIXED)
    for scope in [root[0], *root[0].iter(f"{{{NS['w']}}}tc"), *root[0].iter(f"{{{NS['w']}}}p")]:
        want = [(m.p, m.spans) for m in RP.find_all(RP.paragraphs_of(scope), old)]
        assert [(m.p, m.spans) for m in RP.find_in_scope(scope, old)] == want
