"""Undo of edits inside table cells: the step saves the cell's paragraph, not the table (issue 21),
and one undo still puts every part back byte for byte, for every editing tool aimed at a cell's
paragraph, tracked and not, and for a call that edits a cell's text and then the table's structure."""
from __future__ import annotations

import pytest
from lxml import etree

from tests.support.client import open_direct
from tests.tools.docx.test_tool_protocol import FIXTURE, RECIPES, _parts, _targets, _tool

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _table_and_cell_paragraphs(session):
    tbl = next(session.doc.body.iter(W + "tbl"))
    paras = [p for p in tbl.iter(W + "p") if "".join(t.text or "" for t in p.iter(W + "t")) in ("North", "10")]
    return tbl, paras


async def _open(docx, tmp_path):
    await docx.open(FIXTURE)
    sid = docx.session_id
    return sid, docx.services.sessions.get(None, sid)


@pytest.mark.anyio
async def test_a_cell_text_edit_saves_the_cells_paragraph_not_the_table(tmp_path):
    async with open_direct([FIXTURE.parent, tmp_path]) as docx:
        sid, session = await _open(docx, tmp_path)
        tbl, (north, _) = _table_and_cell_paragraphs(session)
        north_id = session.doc.id_of(north)
        table_before = etree.tostring(tbl)
        await docx.ok("docx_update_paragraph_text", session_id=sid, element_id=north_id, new_text="South")
        step = session.doc.history.undo_steps[-1]
        saved = [op[1] for op in step.ops if op[0] == "swap"]
        assert saved == [north]  # the paragraph itself, not the table holding it
        assert "".join(t.text for t in step.ops[-1][2].iter(W + "t")) == "North"
        assert "South" in (await docx.ok("docx_get_context", session_id=sid, element_id=north_id)).text
        await docx.ok("docx_undo", session_id=sid)
        assert etree.tostring(tbl) == table_before
        shown = (await docx.ok("docx_get_context", session_id=sid, element_id=north_id)).text  # drawn again
        assert "North" in shown and "South" not in shown


def _internal(text: str) -> bool:
    return "without doc.will_change" in text or "internal error" in text.lower()


@pytest.mark.anyio
@pytest.mark.parametrize("tracked", [False, True], ids=["plain", "tracked"])
async def test_every_editing_tool_aimed_at_a_cells_paragraph_is_undone_byte_identically(tmp_path, tracked):
    from PIL import Image
    image = tmp_path / "picture.png"
    Image.new("RGB", (60, 30), (30, 120, 200)).save(image)
    failures, ran = {}, 0
    async with open_direct([FIXTURE.parent, tmp_path]) as docx:
        sid, session = await _open(docx, tmp_path)
        t = _targets((await docx.ok("docx_read_content", session_id=sid)).text)
        _, (north, ten) = _table_and_cell_paragraphs(session)
        t.update(image=str(image), P=session.doc.id_of(north), P2=session.doc.id_of(ten))
        # The recipes' texts ("bold", "plain") in the two cells.
        await docx.ok("docx_update_paragraph_text", session_id=sid, element_id=t["P"], new_text="North in bold")
        await docx.ok("docx_update_paragraph_text", session_id=sid, element_id=t["P2"], new_text="10, plain")
        # Not the cell's last paragraph: deleting it, or putting a table after it, is allowed.
        await docx.ok("docx_insert_paragraph", session_id=sid, text="Below", position=f"after:{t['P2']}")
        if tracked:
            await docx.ok("docx_set_track_changes", session_id=sid, enabled=True, author="Cells")
        for name in sorted(RECIPES):
            setup, call = RECIPES[name]
            done = 0
            for tool, args, keep in setup:
                answer = await docx.call(tool, session_id=sid, **args(t))
                if answer.is_error:
                    break
                t[keep], done = answer.element_id, done + 1
            if done == len(setup):
                parts, steps = _parts(session), len(session.doc.history.undo_steps)
                answer = await docx.call(_tool(name), session_id=sid, **call(t))
                if answer.is_error or len(session.doc.history.undo_steps) == steps:  # refused, or nothing to do
                    if _internal(answer.text) or _parts(session) != parts:
                        failures[name] = [f"failed or no step: {answer.text[:300]}"]
                else:
                    ran += 1
                    await docx.ok("docx_undo", session_id=sid)
                    now = _parts(session)
                    changed = sorted(n for n in set(parts) | set(now) if parts.get(n) != now.get(n))
                    if changed:
                        failures[name] = [f"undo left parts changed: {changed}"]
            for _ in range(done):
                await docx.ok("docx_undo", session_id=sid)
            if name == "docx_set_track_changes" and tracked and session.doc.tracker is None:
                await docx.ok("docx_set_track_changes", session_id=sid, enabled=True, author="Cells")
    assert not failures, "\n".join(f"{n}: {'; '.join(p)}" for n, p in sorted(failures.items()))
    assert ran > len(RECIPES) // 2  # most tools take a cell's paragraph


STRUCTURE = {  # the calls after the two cell text edits
    "insert row": [("docx_insert_row_at", lambda t: dict(table_id=t["T"], position="end"))],
    "delete row": [("docx_delete_row", lambda t: dict(table_id=t["T"], row_index=2))],
    "paragraph into the cell": [("docx_insert_paragraph_to_cell", lambda t: dict(text="x", table_id=t["T"],
                                                                               row=2, col=0))],
    "paragraph after the edited one, then it deleted": [
        ("docx_insert_paragraph", lambda t: dict(text="x", position=f"after:{t['P']}")),
        ("docx_delete", lambda t: dict(element_id=t["P"]))],
    "merge cells": [("docx_merge_cells", lambda t: dict(table_id=t["T"], start_row=2, start_col=0,
                                                        end_row=2, end_col=1))],
    "delete column": [("docx_delete_col", lambda t: dict(table_id=t["T"], col_index=0))],
    "fill the table": [("docx_fill_table", lambda t: dict(table_id=t["T"], data=[[], [], ["West", "3"]]))],
    "delete the table": [("docx_delete", lambda t: dict(element_id=t["T"]))],
}


@pytest.mark.anyio
@pytest.mark.parametrize("second", sorted(STRUCTURE))
async def test_a_call_editing_a_cells_text_then_its_table_is_undone_byte_identically(tmp_path, second):
    """The paragraph saved alone first, then the whole table: one undo still restores both."""
    async with open_direct([FIXTURE.parent, tmp_path]) as docx:
        sid, session = await _open(docx, tmp_path)
        t = _targets((await docx.ok("docx_read_content", session_id=sid)).text)
        _, (north, ten) = _table_and_cell_paragraphs(session)
        t.update(P=session.doc.id_of(north), P2=session.doc.id_of(ten))
        parts = _parts(session)
        await docx.ok("docx_batch", session_id=sid, calls=[
            {"tool": "docx_update_paragraph_text", "arguments": {"element_id": t["P"], "new_text": "Nord"}},
            {"tool": "docx_update_paragraph_text", "arguments": {"element_id": t["P2"], "new_text": "11"}},
            *[{"tool": tool, "arguments": args(t)} for tool, args in STRUCTURE[second]]])
        assert _parts(session) != parts
        await docx.ok("docx_undo", session_id=sid)
        assert _parts(session) == parts
        await docx.ok("docx_redo", session_id=sid)
        await docx.ok("docx_undo", session_id=sid)
        assert _parts(session) == parts


@pytest.mark.anyio
@pytest.mark.parametrize("second", sorted(STRUCTURE))
async def test_a_cells_text_edit_then_a_table_edit_are_undone_and_redone_one_by_one(tmp_path, second):
    """Undoing the table's call puts copies of its cells back: the text edit's step still finds its
    paragraph (by its place in the table), for undo and for redo."""
    async with open_direct([FIXTURE.parent, tmp_path]) as docx:
        sid, session = await _open(docx, tmp_path)
        t = _targets((await docx.ok("docx_read_content", session_id=sid)).text)
        _, (north, ten) = _table_and_cell_paragraphs(session)
        t.update(P=session.doc.id_of(north), P2=session.doc.id_of(ten))
        states = [_parts(session)]
        await docx.ok("docx_update_paragraph_text", session_id=sid, element_id=t["P2"], new_text="11")
        states.append(_parts(session))
        for tool, args in STRUCTURE[second]:
            await docx.ok(tool, session_id=sid, **args(t))
            states.append(_parts(session))
        for state in reversed(states[:-1]):
            await docx.ok("docx_undo", session_id=sid)
            assert _parts(session) == state
        for state in states[1:]:
            await docx.ok("docx_redo", session_id=sid)
            assert _parts(session) == state


@pytest.mark.anyio
async def test_a_text_box_in_a_cell_replaced_in_loses_its_stale_fallback_and_undo_brings_it_back(docx, tmp_path):
    """The cell's paragraph saved alone holds the text box: the end of the call still sees its
    stale fallback (ooxml/text/alt_content.py), and undo puts both back."""
    from tests.builders import build_docx, p
    from tests.tools.docx.test_text_boxes import alternate_text_box
    cell = f"<w:tc><w:tcPr><w:tcW w:w='4000' w:type='dxa'/></w:tcPr>{alternate_text_box()}</w:tc>"
    table = f"<w:tbl><w:tblGrid><w:gridCol w:w='4000'/></w:tblGrid><w:tr>{cell}</w:tr></w:tbl>"
    await docx.open(build_docx(tmp_path / "in.docx", p("before") + table + p("after")))
    session = docx.services.sessions.get(None, docx.session_id)
    parts = _parts(session)
    assert (await docx.ok("docx_replace_text", old_text="Datum", new_text="Zebra")).head["Replacements"] == "1"
    xml = _parts(session)["word/document.xml"].decode()
    assert "Datum" not in xml and "mc:Fallback" not in xml
    assert [op[1].tag for op in session.doc.history.undo_steps[-1].ops if op[0] == "swap"] == [W + "p"]
    await docx.ok("docx_undo")
    assert _parts(session) == parts


def test_the_part_table_keeps_itself_as_it_was_at_its_first_change_while_watched():
    """What lets undo skip copying and comparing the package's part table on each call."""
    from types import SimpleNamespace
    from ooxml.opc.part import PartTable
    a, b, c, d = (SimpleNamespace(dirty=dirty) for dirty in (False, True, False, False))
    table, log = PartTable(a=a, b=b), {"b": False}  # b: touched in the call before the table changed
    table["c"] = c  # not watched: nothing kept
    assert table.before is None
    table.watch(log)
    table.pop("a")
    table["d"] = d
    assert table.before == {"a": a, "b": b, "c": c} and dict(table) == {"b": b, "c": c, "d": d}
    assert table.dirty_then == {"a": False, "c": False}  # the touch log knows b's
    table.unwatch()
    assert table.before is None


@pytest.mark.anyio
async def test_a_call_that_adds_a_part_is_undone_to_the_same_part_table(docx, tmp_path):
    from PIL import Image
    image = tmp_path / "picture.png"
    Image.new("RGB", (60, 30), (30, 120, 200)).save(image)
    import shutil
    await docx.open(shutil.copy(FIXTURE, tmp_path / "report.docx"))
    session = docx.services.sessions.get(None, docx.session_id)
    package = session.doc.package
    table, parts = dict(package.parts), _parts(session)
    await docx.ok("docx_insert_image", image_path=str(image), position="end:document_body", width="2cm")
    assert len(package.parts) == len(table) + 1
    await docx.ok("docx_undo")
    assert dict(package.parts) == table and _parts(session) == parts
    await docx.ok("docx_redo")
    assert len(package.parts) == len(table) + 1


@pytest.mark.anyio
@pytest.mark.parametrize("decision", ["docx_accept_revisions", "docx_reject_revisions"])
async def test_accepting_or_rejecting_a_cells_deleted_paragraph_is_undone_byte_identically(tmp_path, decision):
    """Accepting a deleted paragraph mark joins the paragraph to the next one in the cell (both
    change, one goes): the paragraphs saved alone and then the table, in one step."""
    async with open_direct([FIXTURE.parent, tmp_path]) as docx:
        sid, session = await _open(docx, tmp_path)
        _, (north, ten) = _table_and_cell_paragraphs(session)
        first = session.doc.id_of(ten)
        await docx.ok("docx_insert_paragraph", session_id=sid, text="Below", position=f"after:{first}")
        await docx.ok("docx_set_track_changes", session_id=sid, enabled=True, author="Cells")
        await docx.ok("docx_update_paragraph_text", session_id=sid, element_id=first, new_text="10 and more")
        await docx.ok("docx_delete", session_id=sid, element_id=first)
        parts = _parts(session)
        await docx.ok(decision, session_id=sid)
        assert _parts(session) != parts
        await docx.ok("docx_undo", session_id=sid)
        assert _parts(session) == parts


def _doc_with_a_cell(monkeypatch):
    from ooxml.model.document import Document
    from ooxml.xml.namespaces import w
    from ooxml.model.undo_limits import UndoLimits
    doc = Document.create()
    doc.history.configure(UndoLimits(check=True))  # the suite's check mode, given as the server gives it
    tbl = etree.fromstring(f'<w:tbl xmlns:w="{W[1:-1]}"><w:tr><w:tc><w:tcPr/><w:p/></w:tc></w:tr></w:tbl>')
    doc.insert_block(tbl, container=doc.body)
    return doc, w, tbl.find(f".//{W}tc"), tbl.find(f".//{W}p")


def test_announcing_a_cells_paragraph_then_changing_its_cell_is_caught_in_check_mode(monkeypatch):
    """Only the paragraph is saved: a change beside it (here the cell's properties, reported on the
    paragraph) could not be undone, and the suite's check mode fails the call at its end."""
    doc, w, tc, p = _doc_with_a_cell(monkeypatch)
    doc.history.begin()
    doc.will_change(p)
    p.set(w("rsidR"), "00AB12CD")
    tc.find(w("tcPr")).set(w("x"), "1")
    doc.changed(p)
    with pytest.raises(AssertionError, match="changed outside the paragraphs announced"):
        doc.history.commit("test", "")


def test_announcing_a_cells_paragraph_then_its_cell_saves_the_table_and_undoes_both(monkeypatch):
    doc, w, tc, p = _doc_with_a_cell(monkeypatch)
    tbl = tc.getparent().getparent()
    before = etree.tostring(tbl)
    doc.history.begin()
    doc.will_change(p)
    p.set(w("rsidR"), "00AB12CD")
    doc.will_change(tc)
    tc.find(w("tcPr")).set(w("x"), "1")
    doc.changed(tc)
    step = doc.history.commit("test", "")
    assert [op[1] for op in step.ops if op[0] == "swap"] == [tbl]  # one record: the table
    doc.history.undo(1)
    assert etree.tostring(tbl) == before


@pytest.mark.anyio
async def test_a_failed_call_after_a_cells_text_edit_leaves_the_document_byte_identical(tmp_path):
    async with open_direct([FIXTURE.parent, tmp_path]) as docx:
        sid, session = await _open(docx, tmp_path)
        _, (north, ten) = _table_and_cell_paragraphs(session)
        first, second = session.doc.id_of(north), session.doc.id_of(ten)
        parts, steps = _parts(session), len(session.doc.history.undo_steps)
        answer = await docx.call("docx_batch", session_id=sid, calls=[
            {"tool": "docx_update_paragraph_text", "arguments": {"element_id": first, "new_text": "Nord"}},
            {"tool": "docx_update_paragraph_text", "arguments": {"element_id": second, "new_text": "11"}},
            {"tool": "docx_delete", "arguments": {"element_id": second}}])  # a cell's last paragraph: refused
        assert answer.is_error and "Nothing in the batch was applied" in answer.text
        assert _parts(session) == parts and len(session.doc.history.undo_steps) == steps
