"""The Changes block shows every change, even past a box's cut; one element reads whole."""
from __future__ import annotations

import re

import pytest

from tests.builders import build_docx, p, tbl, tc
from tests.support.client import read_part

pytestmark = pytest.mark.anyio

LONG = " ".join(f"word{i}" for i in range(500))  # about 3,400 characters


async def _open_long(docx, tmp_path) -> str:
    await docx.open(build_docx(tmp_path / "in.docx", p(LONG + " final sentence here.")))
    return re.search(r"para_\w+", (await docx.ok("docx_read_content")).text).group(0)


async def test_replacing_the_end_of_a_long_paragraph_shows_the_new_words(docx, tmp_path):
    await _open_long(docx, tmp_path)
    done = await docx.ok("docx_replace_text", old_text="final sentence", new_text="closing remark")
    changes = done.section("Changes")
    assert "no visible change" not in changes
    assert re.search(r"^-….*word499 final sentence here\.$", changes, re.M)
    assert re.search(r"^\+….*word499 closing remark here\.$", changes, re.M)
    await docx.save(tmp_path / "out.docx")
    assert b"closing remark here." in read_part(tmp_path / "out.docx")


async def test_updating_a_long_paragraph_shows_a_window_around_the_change(docx, tmp_path):
    para = await _open_long(docx, tmp_path)
    new = LONG.replace("word250 ", "CHANGED ") + " final sentence here."
    done = await docx.ok("docx_update_paragraph_text", element_id=para, new_text=new)
    changes = done.section("Changes")
    assert re.search(r"^\+….*word249 CHANGED word251.*…$", changes, re.M)
    assert len(max(changes.splitlines(), key=len)) < 200  # a window, not the paragraph


async def test_a_change_in_a_cell_outside_the_shown_columns_is_shown(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", tbl([[tc(p(f"c{i}")) for i in range(12)]])))
    table_id = re.search(r"table_\w+", (await docx.ok("docx_list_tables")).text).group(0)
    done = await docx.ok("docx_fill_table", table_id=table_id, data=[[None] * 11 + ["new value"]])
    changes = done.section("Changes")
    assert f"@@ {table_id} row 0, col 11" in changes
    assert "\n-c11" in changes and "\n+new value" in changes


async def test_one_element_reads_whole(docx, tmp_path):
    para = await _open_long(docx, tmp_path)
    cut = (await docx.ok("docx_read_content")).section("Content")
    assert "final sentence" not in cut
    whole = await docx.ok("docx_read_content", start_element_id=para, max_elements=1)
    assert LONG + " final sentence here." in whole.section("Content")
    switch = await docx.ok("docx_read_content", full_text=True)
    assert LONG + " final sentence here." in switch.section("Content")


@pytest.mark.parametrize("tool, args", [
    ("docx_insert_paragraph", {"text": "Added.", "position": "start:document_body"}),
    ("docx_insert_table", {"rows": 1, "cols": 1, "position": "start:document_body"}),
    ("docx_insert_page_break", {"position": "start:document_body"}),
])
async def test_a_neighbour_given_its_id_by_the_call_is_not_shown_as_changed(docx, tmp_path, tool, args):
    # Opened with view none: no box is drawn, so the first paragraph has no ID before the call.
    opened = await docx.ok("docx_open", file_path=str(build_docx(tmp_path / "in.docx", p("Line 0") + p("Line 1"))),
                           view="none")
    docx.session_id = opened.head["Session ID"]
    changes = (await docx.ok(tool, view="full", **args)).section("Changes").splitlines()
    assert not [line for line in changes if line.startswith("-")], changes
    assert any(re.fullmatch(r" +│ Paragraph \(para_\w+\) +│", line) for line in changes), changes  # unchanged


async def test_a_long_paragraph_changed_before_and_past_its_cut_shows_the_new_words(docx, tmp_path):
    """Issue 29 (7): a change inside the box and one past its cut gave two cut boxes and no new text."""
    para = await _open_long(docx, tmp_path)
    new = LONG.replace("word0 ", "FIRST ").replace("word400 ", "LATE CHANGE ") + " final sentence here."
    changes = (await docx.ok("docx_update_paragraph_text", element_id=para, new_text=new)).section("Changes")
    assert re.search(r"^\+ +│ FIRST word1 ", changes, re.M)  # the boxes show the first change
    assert re.search(r"^-….*word399 word400 word401.*…$", changes, re.M)
    assert re.search(r"^\+….*word399 LATE CHANGE word401.*…$", changes, re.M)
    assert len(max(changes.splitlines(), key=len)) < 200


async def test_two_changes_far_apart_past_the_cut_show_two_windows(docx, tmp_path):
    para = await _open_long(docx, tmp_path)
    new = LONG.replace("word100 ", "ONE ").replace("word400 ", "TWO ") + " final sentence here."
    changes = (await docx.ok("docx_update_paragraph_text", element_id=para, new_text=new)).section("Changes")
    assert re.search(r"^\+….*word99 ONE word101.*…$", changes, re.M)
    assert re.search(r"^\+….*word399 TWO word401.*…$", changes, re.M)


async def test_compact_fill_table_says_which_cells_changed(docx, tmp_path):
    """Issue 29 (7): compact docx_fill_table answered '(no visible change)' after changing cells."""
    await docx.open(build_docx(tmp_path / "in.docx", tbl([[tc(p(f"r{r}c{c}")) for c in range(3)] for r in range(3)])))
    table_id = re.search(r"table_\w+", (await docx.ok("docx_list_tables")).text).group(0)
    done = await docx.ok("docx_fill_table", table_id=table_id, data=[["Paid", "Open", "Done"]], start_row=2,
                         view="compact")
    changes = done.section("Changes")
    assert "no visible change" not in changes
    assert f"@@ {table_id} row 2, col 1\n-r2c1\n+Open" in changes
    assert len(done.text) < 1500
