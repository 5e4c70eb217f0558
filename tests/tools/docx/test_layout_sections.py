"""Sections and page setup: docx_list_sections, docx_insert_section_break, docx_set_page_setup, margins per section."""
from __future__ import annotations

import re

import pytest

from tests.builders import NS, build_docx, p
from tests.support.client import by_id

pytestmark = pytest.mark.anyio
W = f"{{{NS['w']}}}"


def ids_in(text: str, prefix: str) -> list[str]:
    return re.findall(rf"\b{prefix}_[0-9a-f]{{6,8}}\b", text)


async def three_paragraphs(docx):
    await docx.create()
    ids = []
    for text in ("one", "two", "three"):
        a = await docx.ok("docx_insert_paragraph", text=text, position="end:document_body")
        ids.append(a.element_id)
    return ids


async def test_list_sections_of_a_new_document_shows_one_letter_portrait_section(docx):
    ids = await three_paragraphs(docx)
    a = await docx.ok("docx_list_sections")
    content = a.section("Content")
    assert a.head["Sections"] == "1"
    assert f"{ids[0]} .. {ids[2]}" in content
    assert "Letter 8.50in × 11.00in portrait, 1 column" in content
    assert "margins: top 1.00in" in content and len(ids_in(content, "sect")) == 1


async def test_section_break_splits_the_section_and_copies_its_setup(docx, tmp_path):
    ids = await three_paragraphs(docx)
    a = await docx.ok("docx_insert_section_break", position=f"after:{ids[0]}", kind="continuous")
    sect_id = a.element_id
    assert sect_id.startswith("sect_") and a.head["Break Paragraph"] == ids[0]
    body = await docx.save(tmp_path / "o.docx")
    first = by_id(body, ids[0]).find("w:pPr/w:sectPr", NS)
    last = body.find("w:sectPr", NS)
    assert first is not None and first.find("w:pgSz", NS).get(f"{W}w") == "12240"
    assert last.find("w:type", NS).get(f"{W}val") == "continuous"
    listing = (await docx.ok("docx_list_sections")).section("Content")
    assert f"{ids[0]} .. {ids[0]}" in listing and f"{ids[1]} .. {ids[2]}" in listing
    assert "starts: continuous" in listing


async def test_break_after_a_table_gets_its_own_paragraph(docx, tmp_path):
    await docx.create()
    t = (await docx.ok("docx_insert_table", rows=1, cols=1, position="end:document_body")).element_id
    a = await docx.ok("docx_insert_section_break", position=f"after:{t}")
    body = await docx.save(tmp_path / "o.docx")
    holder = body.find("w:p", NS)
    assert holder.find("w:pPr/w:sectPr", NS) is not None and holder.getprevious().tag == f"{W}tbl"
    assert a.head["Kind"] == "next_page"


async def test_section_break_inside_a_cell_is_refused(docx):
    await docx.create()
    t = (await docx.ok("docx_insert_table", rows=1, cols=1, position="end:document_body")).element_id
    cell = ids_in((await docx.ok("docx_get_table", table_id=t)).text, "cell")[0]
    a = await docx.call("docx_insert_section_break", position=f"end:{cell}")
    assert a.is_error and a.error_type == "InvalidPosition"


async def test_landscape_swaps_size_and_turns_margins(docx, tmp_path):
    body = ('<w:p><w:r><w:t>x</w:t></w:r></w:p>')
    sect = ('<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1000" w:right="2000" w:bottom="3000" '
            'w:left="4000" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>')
    await docx.open(build_docx(tmp_path / "in.docx", body, sect=sect))
    a = await docx.ok("docx_set_page_setup", orientation="landscape")
    assert "+Section 1: A4 11.69in × 8.27in landscape" in a.section("Changes")
    sect_el = (await docx.save(tmp_path / "o.docx")).find("w:sectPr", NS)
    sz = sect_el.find("w:pgSz", NS)
    assert (sz.get(f"{W}w"), sz.get(f"{W}h"), sz.get(f"{W}orient")) == ("16838", "11906", "landscape")
    mar = {k: sect_el.find("w:pgMar", NS).get(f"{W}{k}") for k in ("top", "right", "bottom", "left")}
    assert mar == {"left": "1000", "top": "2000", "right": "3000", "bottom": "4000"}
    await docx.ok("docx_set_page_setup", orientation="portrait")
    sect_el = (await docx.save(tmp_path / "o2.docx")).find("w:sectPr", NS)
    mar = {k: sect_el.find("w:pgMar", NS).get(f"{W}{k}") for k in ("top", "right", "bottom", "left")}
    assert mar == {"top": "1000", "right": "2000", "bottom": "3000", "left": "4000"}
    assert sect_el.find("w:pgSz", NS).get(f"{W}orient") is None


async def test_named_size_and_columns_on_one_section(docx, tmp_path):
    ids = await three_paragraphs(docx)
    sect_id = (await docx.ok("docx_insert_section_break", position=f"after:{ids[0]}")).element_id
    await docx.ok("docx_set_page_setup", section_id=sect_id, page_size="A5", columns=2, column_spacing="1cm")
    body = await docx.save(tmp_path / "o.docx")
    first = by_id(body, sect_id)
    assert first.find("w:pgSz", NS).get(f"{W}w") == "8391"
    cols = first.find("w:cols", NS)
    assert cols.get(f"{W}num") == "2" and cols.get(f"{W}space") == "567"
    assert [c.tag.split("}")[1] for c in first].index("cols") > [c.tag.split("}")[1] for c in first].index("pgMar")
    assert body.find("w:sectPr", NS).find("w:pgSz", NS).get(f"{W}w") == "12240"  # the other section kept


async def test_unknown_page_size_is_refused_and_nothing_changes(docx):
    await three_paragraphs(docx)
    a = await docx.call("docx_set_page_setup", page_size="B7")
    assert a.is_error and a.error_type == "ValidationError" and "A4" in a.head["Hint"]


async def test_margins_of_one_section(docx, tmp_path):
    ids = await three_paragraphs(docx)
    sect_id = (await docx.ok("docx_insert_section_break", position=f"after:{ids[0]}")).element_id
    await docx.ok("docx_set_margins", left="2in", section_id=sect_id)
    body = await docx.save(tmp_path / "o.docx")
    assert by_id(body, sect_id).find("w:pgMar", NS).get(f"{W}left") == "2880"
    assert body.find("w:sectPr/w:pgMar", NS).get(f"{W}left") == "1440"


async def test_listing_a_body_without_section_properties_changes_nothing(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", p("x"), sect=None))
    a = await docx.ok("docx_list_sections")
    assert a.head["Sections"] == "1" and "Word's defaults" in a.section("Content")
    body = await docx.save(tmp_path / "o.docx")
    assert body.find("w:sectPr", NS) is None


@pytest.mark.parametrize("kind,val", [("even_page", "evenPage"), ("odd_page", "oddPage"), ("next_page", "nextPage")])
async def test_break_kinds_set_how_the_next_section_starts(docx, tmp_path, kind, val):
    ids = await three_paragraphs(docx)
    await docx.ok("docx_insert_section_break", position=f"after:{ids[1]}", kind=kind)
    body = await docx.save(tmp_path / "o.docx")
    assert body.find("w:sectPr/w:type", NS).get(f"{W}val") == val


async def test_explicit_width_and_height_set_the_page_and_its_orientation(docx, tmp_path):
    await three_paragraphs(docx)
    a = await docx.ok("docx_set_page_setup", width="297mm", height="210mm")
    assert "A4 11.69in × 8.27in landscape" in a.section("Changes")
    sz = (await docx.save(tmp_path / "o.docx")).find("w:sectPr/w:pgSz", NS)
    assert (sz.get(f"{W}w"), sz.get(f"{W}h"), sz.get(f"{W}orient")) == ("16838", "11906", "landscape")


async def test_columns_too_narrow_are_refused(docx):
    await three_paragraphs(docx)
    a = await docx.call("docx_set_page_setup", columns=12, column_spacing="1in")
    assert a.is_error and a.error_type == "ValidationError" and "per column" in a.head["Message"]


async def test_deleting_a_section_break_joins_the_sections(docx, tmp_path):
    ids = await three_paragraphs(docx)
    sect = (await docx.ok("docx_insert_section_break", position=f"after:{ids[0]}")).element_id
    await docx.ok("docx_delete", element_id=sect)
    assert (await docx.ok("docx_list_sections")).head["Sections"] == "1"
    body = await docx.save(tmp_path / "o.docx")
    assert len(body.findall(".//w:sectPr", NS)) == 1


async def test_deleting_a_break_keeps_the_headers_the_joined_section_showed(docx, tmp_path):
    ids = await three_paragraphs(docx)
    hdr = (await docx.ok("docx_create_header_footer", text="Head")).element_id
    sect = (await docx.ok("docx_insert_section_break", position=f"after:{ids[0]}")).element_id
    await docx.ok("docx_delete", element_id=sect)
    assert (await docx.ok("docx_get_header_footer")).element_id == hdr
    body = await docx.save(tmp_path / "o.docx")
    assert body.find("w:sectPr/w:headerReference", NS) is not None
