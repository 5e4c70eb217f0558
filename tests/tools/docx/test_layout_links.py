"""Hyperlinks and bookmarks: external and internal links, the Hyperlink style, Word's bookmark rules."""
from __future__ import annotations

import re

import pytest
from lxml import etree

from tests.builders import NS, build_docx, p
from tests.support.client import by_id, read_part

pytestmark = pytest.mark.anyio


async def bookmark(docx, ok=True, **arguments):
    """docx_add_bookmark: its argument 'name' clashes with DocxClient.call's own first parameter."""
    from tests.support.answer_validator import errors
    from tests.support.client import Answer
    result = await docx.client.call_tool("docx_add_bookmark", arguments)
    answer = Answer(result.content[0].text, bool(result.is_error))
    assert not errors(answer.text)
    assert answer.is_error != ok, answer.text
    return answer
W = f"{{{NS['w']}}}"
R = f"{{{NS['r']}}}"


async def test_external_link_gets_an_external_relationship_and_the_hyperlink_style(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="See ", position="end:document_body")).element_id
    a = await docx.ok("docx_insert_hyperlink", text="our site", url="https://example.com/a?b=1", position=f"end:{para}")
    assert a.element_id.startswith("link_")
    assert "See [our site](https://example.com/a?b=1)" in a.section("Context")
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    link = body.find(".//w:hyperlink", NS)
    rels = etree.fromstring(read_part(out, "word/_rels/document.xml.rels"))
    rel = [r for r in rels if r.get("Id") == link.get(f"{R}id")][0]
    assert rel.get("TargetMode") == "External" and rel.get("Target") == "https://example.com/a?b=1"
    assert link.find("w:r/w:rPr/w:rStyle", NS).get(f"{W}val") == "Hyperlink"
    styles = etree.fromstring(read_part(out, "word/styles.xml"))
    style = styles.find("w:style[@w:styleId='Hyperlink']", NS)
    assert style.get(f"{W}type") == "character" and style.find("w:rPr/w:u", NS) is not None


@pytest.mark.parametrize("url", ["javascript:alert(1)", "example.com", "https://exa mple.com", "http://"])
async def test_bad_addresses_are_refused(docx, url):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")).element_id
    a = await docx.call("docx_insert_hyperlink", text="t", url=url, position=f"end:{para}")
    assert a.is_error and a.error_type == "ValidationError"


async def test_bookmark_and_internal_link(docx, tmp_path):
    await docx.create()
    target = (await docx.ok("docx_insert_paragraph", text="Target", position="end:document_body")).element_id
    src = (await docx.ok("docx_insert_paragraph", text="Go ", position="end:document_body")).element_id
    b = await bookmark(docx, name="Target_1", element_id=target)
    assert b.element_id.startswith("bkm_")
    await docx.ok("docx_insert_hyperlink", text="there", bookmark="Target_1", position=f"end:{src}")
    body = await docx.save(tmp_path / "o.docx")
    tp = by_id(body, target)
    start, end = tp.find("w:bookmarkStart", NS), tp.find("w:bookmarkEnd", NS)
    assert start.get(f"{W}name") == "Target_1" and start.get(f"{W}id") == end.get(f"{W}id")
    assert body.find(".//w:hyperlink", NS).get(f"{W}anchor") == "Target_1"


@pytest.mark.parametrize("name", ["1abc", "has space", "x" * 41, "_Hidden", "Ümlaut-"])
async def test_bookmark_names_follow_words_rules(docx, name):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")).element_id
    a = await bookmark(docx, ok=False, name=name, element_id=para)
    assert a.is_error and a.error_type == "ValidationError" and "40 characters" in a.head["Hint"]


async def test_bookmark_across_paragraphs_pairs_ids_and_duplicates_are_refused(docx, tmp_path):
    await docx.create()
    ids = [(await docx.ok("docx_insert_paragraph", text=t, position="end:document_body")).element_id
           for t in ("a", "b", "c")]
    await bookmark(docx, name="Range", element_id=ids[0], end_id=ids[2])
    await bookmark(docx, name="Other", element_id=ids[1])
    dup = await bookmark(docx, ok=False, name="Range", element_id=ids[1])
    assert dup.is_error and "already exists" in dup.head["Message"]
    back = await bookmark(docx, ok=False, name="Back", element_id=ids[2], end_id=ids[0])
    assert back.is_error and back.error_type == "InvalidPosition"
    body = await docx.save(tmp_path / "o.docx")
    starts = body.findall(".//w:bookmarkStart", NS)
    assert sorted(s.get(f"{W}id") for s in starts) == ["1", "2"]
    assert by_id(body, ids[2]).find("w:bookmarkEnd", NS).get(f"{W}id") == by_id(body, ids[0]).find(
        "w:bookmarkStart", NS).get(f"{W}id")


async def test_list_bookmarks_named_then_hidden(docx, tmp_path):
    body = (p("x").replace("<w:p>", '<w:p><w:bookmarkStart w:id="0" w:name="_GoBack"/><w:bookmarkEnd w:id="0"/>')
            + p("y").replace("<w:p>", '<w:p><w:bookmarkStart w:id="1" w:name="Zed"/><w:bookmarkEnd w:id="1"/>'))
    await docx.open(build_docx(tmp_path / "in.docx", body))
    a = await docx.ok("docx_list_bookmarks")
    content = a.section("Content")
    assert content.index("Zed") < content.index("_GoBack (hidden)")
    assert a.head["Named"] == "1" and a.head["Hidden"] == "1"


async def test_list_and_delete_hyperlink_keeps_text_and_delete_bookmark_keeps_content(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="See ", position="end:document_body")).element_id
    link = (await docx.ok("docx_insert_hyperlink", text="docs", url="https://example.org", position=f"end:{para}")).element_id
    bkm = (await bookmark(docx, name="Here", element_id=para)).element_id
    listing = (await docx.ok("docx_list_hyperlinks")).section("Content")
    assert f"- {link}: [docs](https://example.org) in {para}" in listing
    d = await docx.ok("docx_delete", element_id=link)
    assert "See docs" in d.section("Context") and "](" not in d.section("Context")
    await docx.ok("docx_delete", element_id=bkm)
    body = await docx.save(tmp_path / "o.docx")
    assert body.find(".//w:hyperlink", NS) is None and body.find(".//w:bookmarkStart", NS) is None
    assert "".join(by_id(body, para).itertext()) == "See docs"


async def test_deleting_a_bookmark_between_paragraphs_is_saved_and_undone(docx, tmp_path):
    body = p("one") + '<w:bookmarkStart w:id="7" w:name="Loose"/><w:bookmarkEnd w:id="7"/>' + p("two")
    await docx.open(build_docx(tmp_path / "in.docx", body))
    listing = (await docx.ok("docx_list_bookmarks")).section("Content")
    bkm = re.search(r"(bkm_\w+)", listing).group(1)
    await docx.ok("docx_delete", element_id=bkm)
    saved = await docx.save(tmp_path / "o.docx")
    assert saved.find(".//w:bookmarkStart", NS) is None and saved.find(".//w:bookmarkEnd", NS) is None
    assert ["".join(q.itertext()) for q in saved.findall("w:p", NS)] == ["one", "two"]
    await docx.ok("docx_undo")
    back = await docx.save(tmp_path / "back.docx")
    assert [etree.QName(el).localname for el in back if el.tag != f"{W}sectPr"] == \
        ["p", "bookmarkStart", "bookmarkEnd", "p"]
    assert back.find(".//w:bookmarkStart", NS).get(f"{W}name") == "Loose"
