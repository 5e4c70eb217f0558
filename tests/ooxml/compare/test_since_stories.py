"""docx_changes (ooxml/compare/since.py) in every story, not only the body: a paragraph of a header, a
footnote or a text box deleted, inserted or changed is listed (with its part outside the main one), also
after undo and redo and in a new session."""
from __future__ import annotations

import json
import re

import pytest

from tests.builders import build_docx, p, part_xml

pytestmark = pytest.mark.anyio
HDR = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"
FN = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
SECT = ('<w:sectPr><w:headerReference w:type="default" r:id="rId9"/><w:pgSz w:w="12240" w:h="15840"/>'
        '</w:sectPr>')
NOTES = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
         '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
         '</w:footnote><w:footnote w:id="1">' + p("Note one.") + p("Note two.") + '</w:footnote>')


def boxes(text: str) -> list[tuple[str, str]]:
    """(paragraph ID, first line of its text) of each paragraph box drawn in an answer."""
    return re.findall(r"Paragraph \((para_[0-9a-f]+)\)[^\n]*\n[^\n]*\n\s*│ ([^│\n]*?)\s*│", text)


def listed(answer) -> list[dict]:
    m = re.search(r"```json\n(.*)\n```", answer.text, re.S)
    assert m, answer.text
    return json.loads(m.group(1))["changes"]


async def header_ids(docx, tmp_path) -> dict[str, str]:
    """Open a document whose header holds two paragraphs; their IDs by first word."""
    body = p("Body.") + '<w:p><w:r><w:footnoteReference w:id="1"/></w:r></w:p>'
    src = build_docx(tmp_path / "in.docx", body, sect=SECT,
                     extra_parts={"word/header1.xml": part_xml("w:hdr", p("Head one.") + p("Head two.")),
                                  "word/footnotes.xml": part_xml("w:footnotes", NOTES)},
                     rels=[("rId9", "header", "header1.xml"), ("rId10", "footnotes", "footnotes.xml")],
                     overrides={"word/header1.xml": HDR, "word/footnotes.xml": FN})
    await docx.open(src)
    shown = (await docx.ok("docx_get_header_footer")).text
    return {text.split()[1]: eid for eid, text in boxes(shown)}


async def changes(docx) -> list[dict]:
    return listed(await docx.ok("docx_changes", session_id=docx.session_id, format="json"))


async def reopened(docx, tmp_path) -> None:
    out = tmp_path / "saved.docx"
    await docx.save(out)
    await docx.ok("docx_close", session_id=docx.session_id)
    await docx.open(out)


async def test_a_header_paragraph_deleted_is_listed_with_its_part(docx, tmp_path):
    ids = await header_ids(docx, tmp_path)
    await docx.ok("docx_delete", element_id=ids["two."], session_id=docx.session_id)
    found = await changes(docx)
    assert [(c["change"], c["id"], c.get("part"), c.get("before")) for c in found] == [
        ("deleted", ids["two."], "word/header1.xml", "Head two.")]


async def test_a_header_paragraph_inserted_and_changed_are_listed_with_their_part(docx, tmp_path):
    ids = await header_ids(docx, tmp_path)
    sid = docx.session_id
    new = (await docx.ok("docx_insert_paragraph", text="Head three.", position=f"after:{ids['two.']}",
                         session_id=sid)).element_id
    await docx.ok("docx_update_paragraph_text", element_id=ids["one."], new_text="Head first.", session_id=sid)
    found = {c["id"]: c for c in await changes(docx)}
    assert {i: (c["change"], c.get("part")) for i, c in found.items()} == {
        new: ("inserted", "word/header1.xml"), ids["one."]: ("text", "word/header1.xml")}


async def test_a_header_deletion_undone_is_not_listed_and_redone_is(docx, tmp_path):
    ids = await header_ids(docx, tmp_path)
    sid = docx.session_id
    await docx.ok("docx_delete", element_id=ids["two."], session_id=sid)
    await docx.ok("docx_undo", session_id=sid)
    assert await changes(docx) == []
    await docx.ok("docx_redo", session_id=sid)
    assert [(c["change"], c["id"], c.get("part")) for c in await changes(docx)] == [
        ("deleted", ids["two."], "word/header1.xml")]


async def test_a_footnote_paragraph_deleted_is_listed_as_its_notes_text_with_its_part(docx, tmp_path):
    await header_ids(docx, tmp_path)
    shown = (await docx.ok("docx_list_notes", session_id=docx.session_id)).text
    note, para = re.search(r"(note_[0-9a-f]+) \(footnote, paragraph (para_[0-9a-f]+)\)", shown).groups()
    await docx.ok("docx_delete", element_id=para, session_id=docx.session_id)  # "Note one."
    found = await changes(docx)
    assert [(c["change"], c["id"], c.get("part")) for c in found] == [("text", note, "word/footnotes.xml")]
    assert "Note one." in found[0]["before"] and "Note one." not in found[0]["after"]


async def test_a_header_paragraph_deleted_in_a_new_session_by_its_saved_id_is_listed(docx, tmp_path):
    ids = await header_ids(docx, tmp_path)
    await reopened(docx, tmp_path)
    await docx.ok("docx_delete", element_id=ids["two."], session_id=docx.session_id)
    found = await changes(docx)
    assert [(c["change"], c["id"], c.get("part")) for c in found] == [
        ("deleted", ids["two."], "word/header1.xml")]



async def test_a_text_box_paragraph_deleted_is_listed(docx, tmp_path):
    await header_ids(docx, tmp_path)
    await docx.ok("docx_insert_text_box", text="Box one.\nBox two.", position="end:document_body",
                  session_id=docx.session_id)
    await reopened(docx, tmp_path)
    shown = (await docx.ok("docx_read_content", session_id=docx.session_id)).text
    para = re.search(r"(para_[0-9a-f]+): Box two\.", shown).group(1)
    await docx.ok("docx_delete", element_id=para, session_id=docx.session_id)
    found = await changes(docx)
    # the box's paragraph, and nothing of its host (whose stale VML fallback went: no image went)
    assert [(c["change"], c["id"], c.get("before")) for c in found] == [("deleted", para, "Box two.")]

