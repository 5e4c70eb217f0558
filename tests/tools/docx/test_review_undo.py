"""Tracked changes and undo together: undoing a tracked edit gives back every part byte for byte,
and redoing it gives back the revision marks."""
from __future__ import annotations

import zipfile

import pytest

from tests.builders import build_docx, p
from tests.support.client import NS, read_body

pytestmark = pytest.mark.anyio
TABLE = ("<w:tbl><w:tblGrid><w:gridCol w:w='2000'/><w:gridCol w:w='2000'/></w:tblGrid>"
         "<w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr>"
         "<w:tr><w:tc><w:p><w:r><w:t>c</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>d</w:t></w:r></w:p></w:tc></w:tr>"
         "</w:tbl>")


def parts(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def _ids(body, tag: str) -> list[str]:
    return body.xpath(f"//w:{tag}/@oxm:id", namespaces=NS)


EDITS = {
    "update text": lambda ids: ("docx_update_paragraph_text", dict(element_id=ids["p"][1],
                                                                  new_text="The quick red fox")),
    "insert paragraph": lambda ids: ("docx_insert_paragraph", dict(text="New", position=f"after:{ids['p'][0]}")),
    "delete paragraph": lambda ids: ("docx_delete", dict(element_id=ids["p"][1])),
    "replace text": lambda ids: ("docx_replace_text", dict(old_text="quick", new_text="slow")),
    "set font": lambda ids: ("docx_set_font", dict(element_id=ids["p"][0], bold=True)),
    "insert row": lambda ids: ("docx_insert_row_at", dict(table_id=ids["tbl"][0], position="end")),
    "delete row": lambda ids: ("docx_delete_row", dict(table_id=ids["tbl"][0], row_index=0)),
    "apply style": lambda ids: ("docx_apply_style", dict(element_id=ids["p"][0], style="Heading 1")),
    "set list": lambda ids: ("docx_set_list", dict(element_id=ids["p"][0], list_type="bullet")),
}


@pytest.mark.parametrize("edit", list(EDITS))
async def test_undo_of_a_tracked_edit_restores_every_part_byte_for_byte(docx, tmp_path, edit):
    src = tmp_path / "in.docx"
    build_docx(src, p("Title") + p("The quick brown fox") + TABLE + p("End"))
    await docx.open(src)
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.save(tmp_path / "before.docx")
    body = read_body(tmp_path / "before.docx")
    tool, args = EDITS[edit]({"p": _ids(body, "p"), "tbl": _ids(body, "tbl")})
    await docx.ok(tool, **args)
    await docx.save(tmp_path / "tracked.docx")
    tracked = read_body(tmp_path / "tracked.docx")
    assert tracked.xpath("//w:ins | //w:del | //w:rPrChange | //w:pPrChange", namespaces=NS), "not tracked"
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "after.docx")
    assert parts(tmp_path / "after.docx") == parts(tmp_path / "before.docx")
    await docx.ok("docx_redo")
    await docx.save(tmp_path / "redone.docx")
    assert parts(tmp_path / "redone.docx") == parts(tmp_path / "tracked.docx")


COMMENT_EDITS = {
    "reply": lambda cid: ("docx_reply_comment", dict(comment_id=cid, text="Yes")),
    "resolve": lambda cid: ("docx_resolve_comment", dict(comment_id=cid)),
    "delete": lambda cid: ("docx_delete_comment", dict(comment_id=cid)),
}


async def test_undo_of_a_first_comment_removes_the_comment_parts(docx, tmp_path):
    src = tmp_path / "in.docx"
    build_docx(src, p("Title") + p("The quick brown fox"))
    await docx.open(src)
    body = await docx.save(tmp_path / "before.docx")
    await docx.ok("docx_add_comment", element_id=_ids(body, "p")[1], text="Which fox?")
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "after.docx")
    assert parts(tmp_path / "after.docx") == parts(tmp_path / "before.docx")


@pytest.mark.parametrize("edit", list(COMMENT_EDITS))
async def test_undo_of_a_comment_edit_restores_every_part_byte_for_byte(docx, tmp_path, edit):
    src = tmp_path / "in.docx"
    build_docx(src, p("Title") + p("The quick brown fox"))
    await docx.open(src)
    body = await docx.save(tmp_path / "start.docx")
    added = await docx.ok("docx_add_comment", element_id=_ids(body, "p")[1], text="Which fox?")
    await docx.save(tmp_path / "before.docx")
    tool, args = COMMENT_EDITS[edit](added.element_id)
    await docx.ok(tool, **args)
    await docx.save(tmp_path / "edited.docx")
    assert parts(tmp_path / "edited.docx") != parts(tmp_path / "before.docx"), "the edit changed nothing"
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "after.docx")
    assert parts(tmp_path / "after.docx") == parts(tmp_path / "before.docx")


# Accepting or rejecting a tracked edit is one step too: undo gives the revisions back, redo decides again.
DECIDED = {
  "ins para": lambda ids: ("docx_insert_paragraph", dict(text="New", position=f"after:{ids['p'][0]}")),
  "del para": lambda ids: ("docx_delete", dict(element_id=ids["p"][1])),
  "text": lambda ids: ("docx_update_paragraph_text", dict(element_id=ids["p"][1], new_text="The slow fox")),
  "del row": lambda ids: ("docx_delete_row", dict(table_id=ids["tbl"][0], row_index=0)),
  "ins row": lambda ids: ("docx_insert_row_at", dict(table_id=ids["tbl"][0], position="end")),
  "del table": lambda ids: ("docx_delete", dict(element_id=ids["tbl"][0])),
  "font": lambda ids: ("docx_set_font", dict(element_id=ids["p"][0], bold=True)),
}

@pytest.mark.parametrize("accept", [True, False])
@pytest.mark.parametrize("setup", list(DECIDED))
async def test_undo_of_accept_or_reject_restores_the_revisions_byte_for_byte(docx, tmp_path, setup, accept):
    src = tmp_path / "in.docx"
    build_docx(src, p("Title") + p("The quick brown fox") + TABLE + p("End"))
    await docx.open(src)
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    body = await docx.save(tmp_path / "b0.docx")
    tool, args = DECIDED[setup]({"p": _ids(body, "p"), "tbl": _ids(body, "tbl")})
    await docx.ok(tool, **args)
    await docx.save(tmp_path / "before.docx")
    await docx.ok("docx_accept_revisions" if accept else "docx_reject_revisions")
    await docx.save(tmp_path / "decided.docx")
    assert parts(tmp_path / "decided.docx") != parts(tmp_path / "before.docx")
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "after.docx")
    a, b = parts(tmp_path / "after.docx"), parts(tmp_path / "before.docx")
    assert {k for k in a if a[k] != b.get(k)} == set()
    await docx.ok("docx_redo")
    await docx.save(tmp_path / "redone.docx")
    a, b = parts(tmp_path / "redone.docx"), parts(tmp_path / "decided.docx")
    assert {k for k in a if a[k] != b.get(k)} == set()
