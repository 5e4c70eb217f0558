"""docx_compare through the MCP client: two files, a file against a session, a session against itself.

The answer opens a new session holding the redline; its revisions list, accept and reject like
Word's; accepting all gives the revised document and rejecting all the original.
"""
from __future__ import annotations

import zipfile

import pytest

from tests.builders import build_docx, p, tbl, tc
from tests.support.client import NS, read_body

pytestmark = pytest.mark.anyio
W = NS["w"]


async def save(docx, path, sid):
    await docx.ok("docx_save", session_id=sid, file_path=str(path))
    return read_body(path)


def texts(body) -> list[str]:
    from ooxml.text.body import paragraph_text
    return [paragraph_text(x) for x in body.iter(f"{{{W}}}p")]


def pair(tmp_path):
    a = build_docx(tmp_path / "v1.docx", p("The quick brown fox.") + p("Delete me.") + p("Stays.")
                   + tbl([[tc(p("a1")), tc(p("b1"))]]))
    b = build_docx(tmp_path / "v2.docx", p("The slow brown fox.") + p("Stays.") + p("Added.")
                   + tbl([[tc(p("a1")), tc(p("b1"))], [tc(p("a2")), tc(p("b2"))]]))
    return a, b


async def test_two_files_open_a_redline_session(docx, tmp_path):
    a, b = pair(tmp_path)
    ans = await docx.ok("docx_compare", original_path=str(a), revised_path=str(b), author="Rev")
    head = ans.head
    assert head["Session ID"].startswith("doc_")
    assert int(head["Changes"]) == int(head["Insertions"]) + int(head["Deletions"]) + int(head["Table Changes"])
    assert "[-quick-]" in ans.text or "quick" in ans.text  # the context shows the first change
    listing = await docx.ok("docx_list_revisions", session_id=head["Session ID"])
    assert "Rev" in listing.text and int(listing.head["Revisions"]) > 0
    out = tmp_path / "redline.docx"
    body = await save(docx, out, head["Session ID"])
    assert body.xpath("//w:del[@w:author='Rev']//w:delText[.='quick']", namespaces=NS)
    assert body.xpath("//w:ins[@w:author='Rev']//w:t[.='slow']", namespaces=NS)
    assert body.xpath("//w:trPr/w:ins", namespaces=NS)  # the new row is a row insertion
    dates = set(body.xpath("//w:ins/@w:date | //w:del/@w:date", namespaces=NS))
    assert len(dates) == 1  # one timestamp


async def test_accept_all_gives_revised_and_reject_all_original(docx, tmp_path):
    a, b = pair(tmp_path)
    sid = (await docx.ok("docx_compare", original_path=str(a), revised_path=str(b))).head["Session ID"]
    await docx.ok("docx_accept_revisions", session_id=sid)
    assert texts(await save(docx, tmp_path / "acc.docx", sid)) == texts(read_body(b))
    sid = (await docx.ok("docx_compare", original_path=str(a), revised_path=str(b))).head["Session ID"]
    await docx.ok("docx_reject_revisions", session_id=sid)
    assert texts(await save(docx, tmp_path / "rej.docx", sid)) == texts(read_body(a))


async def test_self_compare_has_no_revision(docx, tmp_path):
    a, _ = pair(tmp_path)
    ans = await docx.ok("docx_compare", original_path=str(a), revised_path=str(a))
    assert ans.head["Changes"] == "0"
    body = await save(docx, tmp_path / "same.docx", ans.head["Session ID"])
    assert not body.xpath("//w:ins | //w:del | //w:rPrChange | //w:pPrChange", namespaces=NS)


async def test_session_against_itself_after_untracked_edits(docx, tmp_path):
    a, _ = pair(tmp_path)
    opened = await docx.open(a)
    sid = opened.head["Session ID"]
    body = read_body(a)
    first = (await docx.ok("docx_read_content", session_id=sid)).text
    import re
    ids = re.findall(r"(para_[0-9a-f]+)", first)
    await docx.ok("docx_update_paragraph_text", session_id=sid, element_id=ids[0], new_text="A rewritten first line.")
    await docx.ok("docx_delete", session_id=sid, element_id=ids[1])
    await docx.ok("docx_insert_paragraph", session_id=sid, text="Brand new closing line.", position="end:document_body")
    edited = texts(await save(docx, tmp_path / "edited.docx", sid))
    red = await docx.ok("docx_compare", session_id=sid)
    rid = red.head["Session ID"]
    assert rid != sid and int(red.head["Changes"]) > 0
    await docx.ok("docx_accept_revisions", session_id=rid)
    assert texts(await save(docx, tmp_path / "acc.docx", rid)) == edited
    rid = (await docx.ok("docx_compare", session_id=sid)).head["Session ID"]
    await docx.ok("docx_reject_revisions", session_id=rid)
    assert texts(await save(docx, tmp_path / "rej.docx", rid)) == texts(body)


async def test_file_against_session(docx, tmp_path):
    a, b = pair(tmp_path)
    sid = (await docx.open(b)).head["Session ID"]
    ans = await docx.ok("docx_compare", session_id=sid, original_path=str(a))
    rid = ans.head["Session ID"]
    await docx.ok("docx_reject_revisions", session_id=rid)
    assert texts(await save(docx, tmp_path / "rej.docx", rid)) == texts(read_body(a))


async def test_refuse_policy_names_documents_with_revisions(docx, tmp_path):
    tracked = build_docx(tmp_path / "tracked.docx", '<w:p><w:ins w:id="1" w:author="X" w:date="2024-01-01T00:00:00Z">'
                         '<w:r><w:t>new</w:t></w:r></w:ins></w:p>')
    a, _ = pair(tmp_path)
    before = await docx.ok("docx_list_sessions")
    ans = await docx.call("docx_compare", original_path=str(a), revised_path=str(tracked), existing_revisions="refuse")
    assert ans.error_type == "InvalidDocument" and "tracked change" in ans.text
    assert (await docx.ok("docx_list_sessions")).head == before.head  # no session left behind
    ok = await docx.ok("docx_compare", original_path=str(a), revised_path=str(tracked))
    assert int(ok.head["Changes"]) > 0


async def test_bad_inputs_are_named_errors(docx, tmp_path):
    a, _ = pair(tmp_path)
    junk = tmp_path / "junk.docx"
    junk.write_bytes(b"not a zip at all")
    ans = await docx.call("docx_compare", original_path=str(a), revised_path=str(junk))
    assert ans.error_type == "InvalidDocument"
    ans = await docx.call("docx_compare", original_path="/etc/passwd", revised_path=str(a))
    assert ans.error_type == "PermissionDenied"
    ans = await docx.call("docx_compare", original_path=str(a))
    assert ans.error_type == "ValidationError"
    ans = await docx.call("docx_compare", original_path=str(a), revised_path=str(a), granularity="line")
    assert ans.error_type == "ValidationError"
    assert (await docx.ok("docx_list_sessions")).head["Sessions"] == "0"


async def test_a_damaged_file_is_named_as_the_original_or_the_revised(docx, tmp_path):
    a, b = pair(tmp_path)
    with zipfile.ZipFile(b) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    parts["word/document.xml"] = parts["word/document.xml"].replace(b"</w:body>", b"<w:p><w:r></w:p></w:body>")
    broken = tmp_path / "broken.docx"
    with zipfile.ZipFile(broken, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    ans = await docx.call("docx_compare", original_path=str(a), revised_path=str(broken))
    assert ans.error_type == "InvalidDocument" and "The revised document (broken.docx): " in ans.text
    ans = await docx.call("docx_compare", original_path=str(broken), revised_path=str(a))
    assert ans.error_type == "InvalidDocument" and "The original document (broken.docx): " in ans.text
    ans = await docx.call("docx_compare", original_path=str(a), revised_path=str(tmp_path / "nope.docx"))
    assert "nope.docx" in ans.text
    assert (await docx.ok("docx_list_sessions")).head["Sessions"] == "0"


async def test_unrelated_documents_say_so(docx, tmp_path):
    a = build_docx(tmp_path / "x.docx", p("Completely different words here."))
    b = build_docx(tmp_path / "y.docx", p("Nothing alike at all, other vocabulary."))
    ans = await docx.ok("docx_compare", original_path=str(a), revised_path=str(b))
    assert "replaces everything" in ans.head["Unrelated"] or "deletes everything" in ans.head["Unrelated"]


async def test_a_created_document_against_itself_shows_everything_added(docx, tmp_path):
    sid = (await docx.create()).head["Session ID"]
    await docx.ok("docx_insert_paragraph", session_id=sid, text="Written by the agent.", position="end:document_body")
    red = await docx.ok("docx_compare", session_id=sid)
    assert red.head["Insertions"] == "1" and "[+Written by the agent.+]" in red.text
    rid = red.head["Session ID"]
    await docx.ok("docx_reject_revisions", session_id=rid)
    assert "Written" not in "".join(texts(await save(docx, tmp_path / "rej.docx", rid)))


async def test_moves_through_the_tool(docx, tmp_path):
    a = build_docx(tmp_path / "m1.docx", p("First stays here.") + p("This paragraph moves.") + p("Last stays here."))
    b = build_docx(tmp_path / "m2.docx", p("First stays here.") + p("Last stays here.") + p("This paragraph moves."))
    ans = await docx.ok("docx_compare", original_path=str(a), revised_path=str(b), detect_moves=True)
    assert ans.head["Moves"] == "1" and "Insertions" not in ans.head
    body = await save(docx, tmp_path / "moved.docx", ans.head["Session ID"])
    assert body.xpath("//w:moveFrom", namespaces=NS) and body.xpath("//w:moveTo", namespaces=NS)
