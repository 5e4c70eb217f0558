"""docx_inspect and docx_scrub (SPEC §11, issue 24): what a document carries, and removing it per category."""
from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.support import planted
from tests.support.client import read_part
from tests.support.corpus import require_corpus

pytestmark = pytest.mark.anyio
SECRET = "Quillfeather"
CORPUS = ["Open-Xml-PowerTools__HC031-Complicated-Document.docx", "tika__memo.docx", "tika__testWORD_2006ml.docx"]
DEFAULT = ("personal_info", "properties", "comments", "revisions", "custom_xml", "hidden_text")
ALL = [*DEFAULT, "headers_footers", "embedded_objects", "chart_data", "alt_text"]


def counts(text: str) -> dict[str, int]:
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^- (\w+): (\d+)", text, re.MULTILINE)}


async def test_inspect_lists_each_category_with_counts_and_where(docx, tmp_path):
    await docx.open(planted.build(tmp_path / "p.docx", SECRET))
    a = await docx.ok("docx_inspect")
    found = counts(a.text)
    assert found["comments"] == 2 and "1 reply" in a.text and "by Reviewer" in a.text
    assert found["revisions"] == 3 and found["custom_xml"] == 2 and found["glossary"] == 1
    assert "watermark in word/header1.xml" in a.text and "attached template: file:///C:/Users/" in a.text
    assert "creator: Alice Author" in a.text and "word/people.xml" in a.text
    assert found["alt_text"] == 5 and found["embedded_objects"] == 1 and found["links"] == 2
    assert found["hidden_text"] == 1
    assert found["chart_data"] == 6 and "cached values in 1 chart(s), 1 embedded workbook(s)" in a.text


async def test_inspect_find_runs_the_leak_check(docx, tmp_path):
    await docx.open(planted.build(tmp_path / "p.docx", SECRET))
    a = await docx.ok("docx_inspect", find=SECRET.lower())
    assert a.head["Leak Check"].startswith("FAILED") and "still there: word/document.xml" in a.text
    await docx.ok("docx_redact", text=SECRET, case_sensitive=False)
    a = await docx.ok("docx_inspect", find=SECRET)
    assert a.head["Leak Check"].startswith("nothing left")


async def test_scrub_everything_on_the_planted_document(docx, tmp_path):
    await docx.open(planted.build(tmp_path / "p.docx", SECRET))
    a = await docx.ok("docx_scrub", categories=ALL)
    assert a.head["Left"] == "nothing"
    out = tmp_path / "s.docx"
    await docx.save(out)
    names = zipfile.ZipFile(out).namelist()
    assert "word/people.xml" not in names and not [n for n in names if n.startswith(("customXml/", "word/embeddings"))]
    assert not [n for n in names if re.match(r"word/(header|footer)\d", n)]
    body = read_part(out).decode()
    assert "<w:ins " not in body and "<w:del " not in body and "commentReference" not in body
    assert "descr=" not in body and "dataBinding" not in body and "w:rsid" not in body
    assert "hidden words" not in body and "Visible" in body
    settings = read_part(out, "word/settings.xml").decode()
    assert "<w:removePersonalInformation/>" in settings and "<w:removeDateAndTime/>" in settings
    assert "attachedTemplate" not in settings and "Alice Author" not in read_part(out, "docProps/core.xml").decode()


async def test_scrub_chart_data_empties_the_caches_and_keeps_the_chart(docx, tmp_path):
    await docx.open(planted.build(tmp_path / "p.docx", SECRET))
    a = await docx.ok("docx_scrub", categories=["chart_data"])
    assert a.head["Left"] == "nothing" and "- chart_data: 6 removed" in a.text
    out = tmp_path / "s.docx"
    await docx.save(out)
    chart = read_part(out, "word/charts/chart1.xml").decode()
    assert "<c:pt " not in chart and SECRET.lower() not in chart.lower() and "externalData" not in chart
    assert '<c:ptCount val="0"/>' in chart and "<c:formatCode>General</c:formatCode>" in chart
    assert "<c:title>" in chart and "<c:barChart>" in chart  # the chart stays, its title (body text) too
    assert "word/embeddings/Microsoft_Excel_Worksheet.xlsx" not in zipfile.ZipFile(out).namelist()
    assert 'r:id="rIdChart"' in read_part(out).decode()


async def test_scrub_authors_become_one_alias(docx, tmp_path):
    await docx.open(planted.build(tmp_path / "p.docx", SECRET))
    await docx.ok("docx_scrub", categories=["personal_info"])
    await docx.save(tmp_path / "s.docx")
    for part in ("word/document.xml", "word/comments.xml"):
        xml = read_part(tmp_path / "s.docx", part).decode()
        assert "Reviewer" not in xml and 'w:author="Author"' in xml and "w:date=" not in xml


@pytest.mark.parametrize("name", CORPUS)
async def test_scrub_by_default_leaves_nothing_in_its_categories(docx, tmp_path, name):
    src = shutil.copy(require_corpus() / name, tmp_path / name)
    await docx.open(src)
    before = counts((await docx.ok("docx_inspect")).text)
    assert before["comments"] and before["revisions"] and before["personal_info"]
    a = await docx.ok("docx_scrub")
    assert a.head["Left"] == "nothing"
    after = counts((await docx.ok("docx_inspect")).text)
    assert all(after[c] == 0 for c in DEFAULT)
    assert {c: after[c] for c in ("headers_footers", "glossary")} == {c: before[c] for c in ("headers_footers", "glossary")}


async def test_undo_of_a_scrub_restores_every_part_byte_for_byte(docx, tmp_path):
    src = shutil.copy(require_corpus() / CORPUS[0], tmp_path / CORPUS[0])
    await docx.open(src)
    await docx.save(tmp_path / "before.docx")
    await docx.ok("docx_scrub", categories=ALL)
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "after.docx")
    before, after = (dict(planted.members((tmp_path / n).read_bytes())) for n in ("before.docx", "after.docx"))
    assert before == after


async def test_an_unknown_category_is_refused(docx, tmp_path):
    await docx.open(planted.build(tmp_path / "p.docx", SECRET))
    a = await docx.call("docx_scrub", categories=["comments", "secrets"])
    assert a.is_error and a.error_type == "ValidationError" and "secrets" in a.text and "alt_text" in a.head["Hint"]


async def test_scrub_personal_info_leaves_no_author_name_or_comment_date_in_any_part(docx, tmp_path):
    """people.xml (authors, their user IDs) goes with its relationship; commentsExtensible (no text, no
    names) loses the dates Word writes there; commentsExtended holds neither and is kept."""
    src = planted.build(tmp_path / "p.docx", SECRET)
    with zipfile.ZipFile(src, "a") as z:
        z.writestr("word/commentsExtensible.xml", '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<w16cex:commentsExtensible xmlns:w16cex="http://schemas.microsoft.com/office/word/2018/wordml/cex">'
                   '<w16cex:commentExtensible w16cex:durableId="2A3B4C5D" w16cex:dateUtc="2024-01-02T03:04:05Z"/>'
                   '</w16cex:commentsExtensible>')
    await docx.open(src)
    before = (await docx.ok("docx_inspect")).text
    assert "1 comment date(s)" in before and "word/commentsExtensible.xml" in before and "word/people.xml" in before
    await docx.ok("docx_scrub", categories=["personal_info"])
    assert counts((await docx.ok("docx_inspect")).text)["personal_info"] == 0
    await docx.save(tmp_path / "s.docx", strip_ids=True)
    out = tmp_path / "s.docx"
    assert planted.leaks(out, re.compile("Reviewer|2024-01-02")) == []
    assert "people.xml" not in read_part(out, "word/_rels/document.xml.rels").decode()
    assert 'w16cex:durableId="2A3B4C5D"/>' in read_part(out, "word/commentsExtensible.xml").decode()
    assert "w15:paraIdParent" in read_part(out, "word/commentsExtended.xml").decode()


async def test_scrub_alt_text_removes_a_tables_caption_and_description(docx, tmp_path):
    """Issue 29 #10: a table's alt text (w:tblCaption, w:tblDescription) is alt text too."""
    from tests.support import planted_places
    await docx.open(planted_places.build(tmp_path / "t.docx", "table_alt_text", SECRET))
    assert counts((await docx.ok("docx_inspect")).text)["alt_text"] == 2
    a = await docx.ok("docx_scrub", categories=["alt_text"])
    assert a.head["Left"] == "nothing" and a.head["Removed"] == "2"
    out = tmp_path / "s.docx"
    await docx.save(out)
    body = read_part(out).decode()
    assert "tblCaption" not in body and "tblDescription" not in body and SECRET not in body
