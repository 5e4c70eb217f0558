"""docx_insert_toc / docx_update_toc: a TOC field with entries written in, linked to _Toc bookmarks."""
from __future__ import annotations

import re

import pytest
from lxml import etree

from tests.builders import NS
from tests.support.client import by_id, read_part

pytestmark = pytest.mark.anyio
W = f"{{{NS['w']}}}"


async def doc_with_headings(docx):
    await docx.create()
    ids = {}
    for text, level in (("Intro", 1), ("Scope", 2), ("Deep", 4), ("Method", 1)):
        ids[text] = (await docx.ok("docx_insert_heading", text=text, level=level, position="end:document_body")).element_id
        await docx.ok("docx_insert_paragraph", text=f"About {text}.", position="end:document_body")
    return ids


async def test_toc_entries_link_to_toc_bookmarks_without_page_numbers(docx, tmp_path):
    ids = await doc_with_headings(docx)
    a = await docx.ok("docx_insert_toc", position=f"before:{ids['Intro']}", title="Contents", page_numbers=False)
    assert a.element_id.startswith("toc_") and a.head["Entries"] == "3"
    assert a.head["Page Numbers"].startswith("left out")
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    sdt = by_id(body, a.element_id)
    assert sdt.find("w:sdtPr/w:docPartObj/w:docPartGallery", NS).get(f"{W}val") == "Table of Contents"
    paras = sdt.findall("w:sdtContent/w:p", NS)
    assert ["".join(p.xpath(".//w:t/text()", namespaces=NS)) for p in paras] == ["Contents", "Intro", "Scope", "Method"]
    assert [p.find("w:pPr/w:pStyle", NS).get(f"{W}val") for p in paras] == ["TOCHeading", "TOC1", "TOC2", "TOC1"]
    assert sdt.xpath(".//w:instrText/text()", namespaces=NS) == [' TOC \\o "1-3" \\h \\z \\u ']
    kinds = [f.get(f"{W}fldCharType") for f in sdt.iter(f"{W}fldChar")]
    assert kinds == ["begin", "separate", "end"]
    for text in ("Intro", "Scope", "Method"):
        anchor = [p for p in paras if "".join(p.xpath(".//w:t/text()", namespaces=NS)) == text][0].find("w:hyperlink", NS).get(f"{W}anchor")
        start = by_id(body, ids[text]).find("w:bookmarkStart", NS)
        assert re.fullmatch(r"_Toc\d{9}", anchor) and start.get(f"{W}name") == anchor
    settings = etree.fromstring(read_part(out, "word/settings.xml"))
    assert settings.find("w:updateFields", NS) is not None
    styles = etree.fromstring(read_part(out, "word/styles.xml"))
    assert styles.find("w:style[@w:styleId='TOC2']/w:pPr/w:ind", NS).get(f"{W}left") == "220"


async def test_update_toc_follows_changed_headings_and_reuses_bookmarks(docx, tmp_path):
    ids = await doc_with_headings(docx)
    toc = (await docx.ok("docx_insert_toc", position="start:document_body", levels="1-4", page_numbers=False)).element_id
    await docx.ok("docx_update_paragraph_text", element_id=ids["Scope"], new_text="Range")
    await docx.ok("docx_insert_heading", text="Results", level=1, position="end:document_body")
    a = await docx.ok("docx_update_toc", page_numbers=False)
    assert a.element_id == toc and a.head["Entries"] == "5" and a.head["Levels"] == "1-4"
    body = await docx.save(tmp_path / "o.docx")
    sdt = by_id(body, toc)
    texts = ["".join(p.xpath(".//w:t/text()", namespaces=NS)) for p in sdt.findall("w:sdtContent/w:p", NS)]
    assert texts == ["Intro", "Range", "Deep", "Method", "Results"]
    assert len(by_id(body, ids["Intro"]).findall("w:bookmarkStart", NS)) == 1


async def test_toc_without_headings_says_so(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="plain", position="end:document_body")
    a = await docx.ok("docx_insert_toc", position="start:document_body", page_numbers=False)
    assert a.head["Entries"] == "0" and "No table of contents entries found." in a.section("Context")


async def test_bad_levels_and_update_without_toc_are_refused(docx):
    await docx.create()
    bad = await docx.call("docx_insert_toc", position="start:document_body", levels="3-1")
    assert bad.is_error and bad.error_type == "ValidationError"
    none = await docx.call("docx_update_toc")
    assert none.is_error and none.error_type == "ElementNotFound" and "docx_insert_toc" in none.head["Hint"]


async def test_delete_toc_removes_the_control(docx, tmp_path):
    ids = await doc_with_headings(docx)
    toc = (await docx.ok("docx_insert_toc", position="start:document_body", page_numbers=False)).element_id
    await docx.ok("docx_delete", element_id=toc)
    body = await docx.save(tmp_path / "o.docx")
    assert body.find("w:sdt", NS) is None and by_id(body, ids["Intro"]) is not None


@pytest.mark.libreoffice
async def test_page_numbers_from_the_layout_report_progress_and_use_the_warm_libreoffice(docx):
    from tests.support.libreoffice import require_soffice
    require_soffice()
    await doc_with_headings(docx)
    seen = []

    async def on_progress(done, total, message):
        seen.append((done, total, message))

    result = await docx.client.call_tool("docx_insert_toc", {"position": "start:document_body"},
                                         progress_callback=on_progress)
    assert not result.is_error, result.content[0].text
    assert "from LibreOffice's layout (3 of 3 found)" in result.content[0].text
    assert "LibreOffice is laying out" in seen[0][2]
    assert [s[0] for s in seen] == sorted(s[0] for s in seen) and len({s[0] for s in seen}) == len(seen)
    assert seen[-1][0] == seen[-1][1]
    await docx.ok("docx_update_toc")
    assert docx.services.office.starts == 1  # one LibreOffice served both layouts
