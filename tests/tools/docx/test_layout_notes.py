"""Footnotes and endnotes: the notes part with Word's separators, references, numbering, listing, deleting."""
from __future__ import annotations

import re

import pytest
from lxml import etree

from tests.builders import NS, build_docx, p, part_xml
from tests.support.client import read_part

pytestmark = pytest.mark.anyio
W = f"{{{NS['w']}}}"


async def test_first_footnote_creates_the_part_with_separators(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Claim.", position="end:document_body")).element_id
    a = await docx.ok("docx_insert_footnote", element_id=para, text="Source: a book.")
    assert a.element_id.startswith("note_") and a.head["Number"] == "1"
    ctx = a.section("Context")
    assert "Claim.[^1]" in ctx and "[^1]: Source: a book." in ctx
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    notes = etree.fromstring(read_part(out, "word/footnotes.xml"))
    assert [(n.get(f"{W}type"), n.get(f"{W}id")) for n in notes] == [
        ("separator", "-1"), ("continuationSeparator", "0"), (None, "1")]
    assert body.find(".//w:footnoteReference", NS).get(f"{W}id") == "1"
    assert 'PartName="/word/footnotes.xml"' in read_part(out, "[Content_Types].xml").decode()
    settings = etree.fromstring(read_part(out, "word/settings.xml"))
    assert [f.get(f"{W}id") for f in settings.findall("w:footnotePr/w:footnote", NS)] == ["-1", "0"]


async def test_anchor_text_splits_the_run_and_numbering_follows_the_document(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Alpha beta gamma", position="end:document_body")).element_id
    await docx.ok("docx_insert_footnote", element_id=para, text="on gamma")
    a = await docx.ok("docx_insert_footnote", element_id=para, text="on alpha", anchor_text="Alpha")
    assert a.head["Number"] == "1"
    assert "Alpha[^1] beta gamma[^2]" in a.section("Context")
    body = await docx.save(tmp_path / "o.docx")
    runs = body.findall(".//w:p/w:r", NS)
    assert ["".join(r.xpath("w:t/text()", namespaces=NS)) for r in runs] == ["Alpha", "", " beta gamma", ""]


async def test_endnote_and_list_notes(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")).element_id
    await docx.ok("docx_insert_footnote", element_id=para, text="foot")
    e = await docx.ok("docx_insert_footnote", element_id=para, text="end", kind="endnote")
    assert e.head["Number"] == "i"
    listing = (await docx.ok("docx_list_notes")).section("Content")
    assert re.search(r"\[\^1\] note_\w+ \(footnote, paragraph para_\w+\) in " + para + ": foot", listing)
    assert "[^i] " + e.element_id in listing
    only = (await docx.ok("docx_list_notes", kind="endnote")).text
    assert "foot" not in only.split("## 📋 Content")[1]


async def test_note_paragraphs_are_edited_with_the_usual_tools(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")).element_id
    a = await docx.ok("docx_insert_footnote", element_id=para, text="first line")
    b = await docx.ok("docx_insert_paragraph", text="second paragraph", position=f"end:{a.element_id}")
    assert "Parent: Footnote " + a.element_id in b.section("Context")
    out = tmp_path / "o.docx"
    await docx.save(out)
    note = etree.fromstring(read_part(out, "word/footnotes.xml"))[-1]
    assert ["".join(p.itertext()) for p in note.findall("w:p", NS)] == [" first line", "second paragraph"]


async def test_delete_a_note_removes_its_reference(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")).element_id
    n1 = (await docx.ok("docx_insert_footnote", element_id=para, text="one")).element_id
    await docx.ok("docx_insert_footnote", element_id=para, text="two")
    d = await docx.ok("docx_delete", element_id=n1)
    assert "Text[^1]" in d.section("Context") and "[^1]: two" in d.section("Context")
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    assert [r.get(f"{W}id") for r in body.iter(f"{W}footnoteReference")] == ["2"]
    ids = [n.get(f"{W}id") for n in etree.fromstring(read_part(out, "word/footnotes.xml"))]
    assert ids == ["-1", "0", "2"]


async def test_old_style_separator_ids_are_followed(docx, tmp_path):
    endnotes = part_xml("w:endnotes", '<w:endnote w:type="separator" w:id="0"><w:p><w:r><w:separator/></w:r></w:p>'
                        '</w:endnote><w:endnote w:type="continuationSeparator" w:id="1"><w:p><w:r>'
                        '<w:continuationSeparator/></w:r></w:p></w:endnote>')
    src = build_docx(tmp_path / "in.docx", p("x"), extra_parts={"word/endnotes.xml": endnotes},
                     rels=[("rId7", "endnotes", "endnotes.xml")],
                     overrides={"word/endnotes.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml"})
    await docx.open(src)
    para = re.findall(r"para_\w+", (await docx.ok("docx_read_content")).text)[0]
    await docx.ok("docx_insert_footnote", element_id=para, text="n")
    out = tmp_path / "o.docx"
    await docx.save(out)
    ids = [n.get(f"{W}id") for n in etree.fromstring(read_part(out, "word/footnotes.xml"))]
    assert ids == ["0", "1", "2"]


async def test_missing_anchor_text_is_refused_unchanged(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")).element_id
    a = await docx.call("docx_insert_footnote", element_id=para, text="n", anchor_text="nope")
    assert a.is_error and a.error_type == "ValidationError"
    out = tmp_path / "o.docx"
    await docx.save(out)
    import zipfile
    assert "word/footnotes.xml" not in zipfile.ZipFile(out).namelist()


def _note_ids(path, kind: str) -> list[str]:
    root = etree.fromstring(read_part(path, f"word/{kind}s.xml"))
    return [n.get(f"{W}id") for n in root if n.get(f"{W}type") is None]


@pytest.mark.parametrize("tracked", [False, True], ids=["untracked", "tracked"])
async def test_deleting_a_reference_deletes_its_note_as_word_does(docx, tmp_path, tracked):
    from tests.support.feature_doc import feature_doc
    opened = await docx.open(feature_doc(tmp_path / "f.docx"))
    pid = next(m for m in re.finditer(r"Paragraph \((para_\w+)\)[^\n]*\n[^\n]*\n([^\n]*)\n", opened.text)
               if "Endnoted" in m.group(2)).group(1)
    if tracked:
        await docx.ok("docx_set_track_changes", session_id=docx.session_id, enabled=True, author="Ann")
    await docx.ok("docx_delete", session_id=docx.session_id, element_id=pid)
    await docx.save(tmp_path / "deleted.docx")
    assert _note_ids(tmp_path / "deleted.docx", "endnote") == ([] if not tracked else ["1"])
    assert _note_ids(tmp_path / "deleted.docx", "footnote") == ["1"]  # other notes stay
    if tracked:
        await docx.ok("docx_accept_revisions", session_id=docx.session_id)
    else:
        await docx.ok("docx_undo", session_id=docx.session_id)
    await docx.save(tmp_path / "after.docx")
    assert _note_ids(tmp_path / "after.docx", "endnote") == ([] if tracked else ["1"])
