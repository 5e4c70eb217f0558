"""docx_set_margins: every section's w:pgMar, units, schema order, required attributes, refusals."""
from __future__ import annotations

import pytest

from tests.builders import NS, build_docx, p
from tests.support.client import read_part

pytestmark = pytest.mark.anyio
W = f"{{{NS['w']}}}"


def margins(sect):
    mar = sect.find("w:pgMar", NS)
    return {k.split("}")[1]: v for k, v in mar.attrib.items()}


async def test_margins_set_on_every_section_with_units(docx, tmp_path):
    body = ('<w:p><w:pPr><w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" '
            'w:bottom="1440" w:left="1440" w:header="708" w:footer="709" w:gutter="0"/></w:sectPr></w:pPr></w:p>' + p("two"))
    await docx.open(build_docx(tmp_path / "in.docx", body))
    a = await docx.ok("docx_set_margins", top="2.54cm", bottom="36pt", left=1.5, right="20mm")
    assert a.head["Sections"] == "2"
    body = await docx.save(tmp_path / "o.docx")
    sections = body.findall(".//w:sectPr", NS)
    assert len(sections) == 2
    for sect in sections:
        m = margins(sect)
        assert (m["top"], m["bottom"], m["left"], m["right"]) == ("1440", "720", "2160", "1134")
    assert margins(sections[0])["header"] == "708" and margins(sections[0])["footer"] == "709"


async def test_diff_shows_each_section(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    a = await docx.ok("docx_set_margins", left="2in")
    changes = a.section("Changes")
    assert "-Section 1: top 1.00in, bottom 1.00in, left 1.00in, right 1.00in" in changes
    assert "+Section 1: top 1.00in, bottom 1.00in, left 2.00in, right 1.00in" in changes
    assert a.cursor_line.startswith("Cursor: after Paragraph")


async def test_missing_pgmar_is_created_in_schema_order(docx, tmp_path):
    sect = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:cols w:space="720"/></w:sectPr>'
    await docx.open(build_docx(tmp_path / "in.docx", p("x"), sect=sect))
    await docx.ok("docx_set_margins", top=0.5)
    sect_el = (await docx.save(tmp_path / "o.docx")).find("w:sectPr", NS)
    assert [c.tag.split("}")[1] for c in sect_el] == ["pgSz", "pgMar", "cols"]
    assert margins(sect_el) == {"top": "720", "right": "1440", "bottom": "1440", "left": "1440",
                                "header": "720", "footer": "720", "gutter": "0"}


async def test_missing_gutter_is_added(docx, tmp_path):
    sect = ('<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" '
            'w:left="1440" w:header="700" w:footer="700"/></w:sectPr>')
    await docx.open(build_docx(tmp_path / "in.docx", p("x"), sect=sect))
    await docx.ok("docx_set_margins", right="3cm")
    m = margins((await docx.save(tmp_path / "o.docx")).find("w:sectPr", NS))
    assert m["gutter"] == "0" and m["right"] == "1701" and m["header"] == "700"


async def test_body_without_section_gets_one(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", p("x"), sect=None))
    await docx.ok("docx_set_margins", bottom="1in")
    body = await docx.save(tmp_path / "o.docx")
    assert body[-1].tag == f"{W}sectPr" and margins(body[-1])["bottom"] == "1440"


async def test_margins_leaving_no_text_width_are_refused(docx, tmp_path):
    await docx.create()
    await docx.save(tmp_path / "a.docx")
    a = await docx.call("docx_set_margins", left="4.1in", right="4.1in")
    assert a.is_error and a.error_type == "ValidationError" and "text width" in a.head["Message"]
    await docx.save(tmp_path / "b.docx")
    assert read_part(tmp_path / "a.docx") == read_part(tmp_path / "b.docx")


async def test_no_margin_given_is_refused(docx):
    await docx.create()
    a = await docx.call("docx_set_margins")
    assert a.is_error and a.error_type == "ValidationError"


async def test_bad_length_is_refused(docx):
    await docx.create()
    a = await docx.call("docx_set_margins", top="two inches")
    assert a.is_error and a.error_type == "ValidationError" and "'2.54cm'" in a.head["Hint"]
