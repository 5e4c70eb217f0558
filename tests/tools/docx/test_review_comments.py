"""Comments: added, replied to, resolved, deleted and listed as Word 2016+ writes them."""
from __future__ import annotations

import zipfile

import pytest
from lxml import etree

from ooxml.model.document import Document
from ooxml.model.integrity import check_package
from tests.builders import build_docx
from tests.support.client import NS, by_id, read_part

pytestmark = pytest.mark.anyio
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
W16CID = "http://schemas.microsoft.com/office/word/2016/wordml/cid"
CNS = {**NS, "w15": W15, "w16cid": W16CID, "w14": "http://schemas.microsoft.com/office/word/2010/wordml"}


def xp(el, path):
    return el.xpath(path, namespaces=CNS)


def part(path, name):
    return etree.fromstring(read_part(path, name))


@pytest.fixture
async def doc_with_text(docx):
    await docx.create()
    a = await docx.ok("docx_insert_paragraph", text="The quick brown fox jumps.", position="end:document_body")
    b = await docx.ok("docx_insert_paragraph", text="Second paragraph.", position="end:document_body")
    return a.element_id, b.element_id


async def test_comment_on_a_span_creates_the_four_parts(docx, doc_with_text, tmp_path):
    pid, _ = doc_with_text
    a = await docx.ok("docx_add_comment", element_id=pid, text="Which fox?", anchor_text="brown fox", author="Alice")
    assert a.element_id.startswith("comment_")
    assert "⟦brown fox⟧💬" in a.section("Context") and "Which fox?" in a.section("Context")
    out = tmp_path / "c.docx"
    await docx.save(out)
    names = zipfile.ZipFile(out).namelist()
    for name in ("word/comments.xml", "word/commentsExtended.xml", "word/commentsIds.xml", "word/people.xml"):
        assert name in names
    types = read_part(out, "[Content_Types].xml").decode()
    rels = read_part(out, "word/_rels/document.xml.rels").decode()
    for kind in ("comments+xml", "commentsExtended+xml", "commentsIds+xml", "people+xml"):
        assert kind in types
    for rel in ("relationships/comments", "2011/relationships/commentsExtended",
                "2016/09/relationships/commentsIds", "2011/relationships/people"):
        assert rel in rels
    comment = xp(part(out, "word/comments.xml"), "//w:comment")[0]
    assert comment.get(f"{{{NS['w']}}}author") == "Alice" and "Which fox?" in "".join(comment.itertext())
    body = part(out, "word/document.xml")
    para = by_id(body, pid)
    wid = comment.get(f"{{{NS['w']}}}id")
    start, end = xp(para, f"w:commentRangeStart[@w:id='{wid}']"), xp(para, f"w:commentRangeEnd[@w:id='{wid}']")
    assert start and end, "markers are siblings of the runs, in the paragraph"
    assert "".join(start[0].getnext().itertext()) == "brown fox"
    assert xp(end[0].getnext(), f"w:commentReference[@w:id='{wid}']")
    pid_c = xp(comment, "w:p/@w14:paraId")[-1]
    assert xp(part(out, "word/commentsExtended.xml"), f"//w15:commentEx[@w15:paraId='{pid_c}']/@w15:done") == ["0"]
    assert xp(part(out, "word/commentsIds.xml"), f"//w16cid:commentId[@w16cid:paraId='{pid_c}']")
    assert xp(part(out, "word/people.xml"), "//w15:person/@w15:author") == ["Alice"]


async def test_reply_resolve_and_list(docx, doc_with_text, tmp_path):
    pid, _ = doc_with_text
    cid = (await docx.ok("docx_add_comment", element_id=pid, text="Check this.", author="Alice")).element_id
    rid = (await docx.ok("docx_reply_comment", comment_id=cid, text="Checked.", author="Bob")).element_id
    await docx.ok("docx_resolve_comment", comment_id=rid)
    listing = await docx.ok("docx_list_comments")
    assert listing.head["Comments"] == "2" and listing.head["Threads"] == "1"
    content = listing.section("Content")
    assert f"- {cid} | Alice |" in content and "| resolved |" in content
    assert f"↳ {rid} | Bob |" in content and 'on "The quick brown fox jumps."' in content
    out = tmp_path / "r.docx"
    await docx.save(out)
    ext = part(out, "word/commentsExtended.xml")
    comments = xp(part(out, "word/comments.xml"), "//w:comment")
    parent_pid = xp(comments[0], "w:p/@w14:paraId")[-1]
    reply_pid = xp(comments[1], "w:p/@w14:paraId")[-1]
    assert xp(ext, f"//w15:commentEx[@w15:paraId='{reply_pid}']/@w15:paraIdParent") == [parent_pid]
    assert xp(ext, f"//w15:commentEx[@w15:paraId='{parent_pid}']/@w15:done") == ["1"]
    body = part(out, "word/document.xml")
    for c in comments:  # every comment, the reply too, has its markers and reference in the document
        wid = c.get(f"{{{NS['w']}}}id")
        for tag in ("commentRangeStart", "commentRangeEnd", "commentReference"):
            assert len(xp(body, f"//w:{tag}[@w:id='{wid}']")) == 1


async def test_delete_comment_takes_its_replies_and_marks(docx, doc_with_text, tmp_path):
    pid, _ = doc_with_text
    cid = (await docx.ok("docx_add_comment", element_id=pid, text="One", author="A")).element_id
    await docx.ok("docx_reply_comment", comment_id=cid, text="Two", author="B")
    keep = (await docx.ok("docx_add_comment", element_id=pid, text="Other", anchor_text="fox")).element_id
    a = await docx.ok("docx_delete_comment", comment_id=cid)
    assert "1 replies" in a.head["Deleted"]
    out = tmp_path / "d.docx"
    await docx.save(out)
    comments = xp(part(out, "word/comments.xml"), "//w:comment")
    assert len(comments) == 1 and "Other" in "".join(comments[0].itertext())
    body = part(out, "word/document.xml")
    assert len(xp(body, "//w:commentRangeStart")) == 1 and len(xp(body, "//w:commentReference")) == 1
    assert len(xp(part(out, "word/commentsExtended.xml"), "//w15:commentEx")) == 1
    assert len(xp(part(out, "word/commentsIds.xml"), "//w16cid:commentId")) == 1
    missing = await docx.call("docx_delete_comment", comment_id=cid)
    assert missing.is_error and missing.error_type == "ElementNotFound"
    assert keep


async def test_range_comment_over_paragraphs(docx, doc_with_text, tmp_path):
    pid, pid2 = doc_with_text
    await docx.ok("docx_add_comment", element_id=pid, end_id=pid2, text="Both")
    out = tmp_path / "range.docx"
    await docx.save(out)
    body = part(out, "word/document.xml")
    assert xp(by_id(body, pid), "w:commentRangeStart") and xp(by_id(body, pid2), "w:commentRangeEnd")
    listing = await docx.ok("docx_list_comments")
    assert "The quick brown fox jumps. Second paragraph." in listing.text


async def test_anchor_text_must_occur_and_errors_change_nothing(docx, doc_with_text, tmp_path):
    pid, _ = doc_with_text
    a = await docx.call("docx_add_comment", element_id=pid, text="x", anchor_text="wolf")
    assert a.is_error and a.error_type == "ValidationError"
    out = tmp_path / "none.docx"
    await docx.save(out)
    assert "word/comments.xml" not in zipfile.ZipFile(out).namelist()


async def test_comments_from_other_tools_with_only_comments_xml(docx, tmp_path):
    comments = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:comments xmlns:w="' + NS["w"] + '">'
                '<w:comment w:id="7" w:author="Old Tool"><w:p><w:r><w:t>Legacy note</w:t></w:r></w:p></w:comment>'
                '</w:comments>').encode()
    body = ('<w:p><w:commentRangeStart w:id="7"/><w:r><w:t>Anchored words</w:t></w:r><w:commentRangeEnd w:id="7"/>'
            '<w:r><w:commentReference w:id="7"/></w:r></w:p>')
    path = build_docx(tmp_path / "legacy.docx", body, extra_parts={"word/comments.xml": comments},
                      rels=[("rId9", "comments", "comments.xml")],
                      overrides={"word/comments.xml": "application/vnd.openxmlformats-officedocument."
                                                      "wordprocessingml.comments+xml"})
    await docx.open(path)
    listing = await docx.ok("docx_list_comments")
    line = next(line for line in listing.section("Content").splitlines() if "Legacy note" in line)
    old_id = line.split()[1]
    assert "Old Tool" in line and '"Anchored words"' in line and "| open |" in line
    await docx.ok("docx_reply_comment", comment_id=old_id, text="A reply", author="Alice")
    await docx.ok("docx_resolve_comment", comment_id=old_id)
    out = tmp_path / "legacy-out.docx"
    await docx.save(out)
    comments = xp(part(out, "word/comments.xml"), "//w:comment")
    assert all(xp(c, "w:p/@w14:paraId") for c in comments), "paraIds added so commentsExtended can name them"
    ext = part(out, "word/commentsExtended.xml")
    assert len(xp(ext, "//w15:commentEx")) == 2 and xp(ext, "//w15:commentEx[@w15:paraIdParent]")
    doc = Document.open(out)
    try:
        assert check_package(doc, all_parts=True) == []
    finally:
        doc.close()


def test_check_package_reports_words_review_rules(tmp_path):
    body = ('<w:p><w:ins w:id="1" w:author="a"><w:r><w:t>x</w:t></w:r></w:ins>'
            '<w:del w:id="1" w:author="a"><w:r><w:t>y</w:t></w:r></w:del>'
            '<w:r><w:delText>z</w:delText></w:r><w:commentRangeStart w:id="4"/></w:p>')
    doc = Document.open(build_docx(tmp_path / "bad.docx", body))
    try:
        found = check_package(doc, all_parts=True)
    finally:
        doc.close()
    assert "word/document.xml: revision w:id 1 is used more than once" in found
    assert "word/document.xml: w:delText outside a deletion" in found
    assert "word/document.xml: w:t inside a deletion (deleted text must be w:delText)" in found
    assert "word/document.xml: comment range 4 has no end" in found
