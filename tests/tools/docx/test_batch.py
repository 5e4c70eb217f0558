"""docx_batch (SPEC §11): many editing calls on one session as one step, all or nothing, one answer."""
from __future__ import annotations

import zipfile

import pytest
from mcp import Client

import server
from tests.support.client import NS, DocxClient, by_id, texts
from tools.config.loading import parse_config
from tools.services import Services

pytestmark = pytest.mark.anyio
W_P = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p"


def insert(text: str, position: str = "after:last_insert") -> dict:
    return {"tool": "docx_insert_paragraph", "arguments": {"text": text, "position": position}}


def parts(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


async def started(docx) -> str:
    await docx.create()
    return (await docx.ok("docx_insert_paragraph", text="Start", position="end:document_body")).element_id


async def test_calls_run_in_order_with_special_ids_from_earlier_calls(docx, tmp_path):
    start = await started(docx)
    a = await docx.ok("docx_batch", session_id=docx.session_id, calls=[
        insert("One", f"after:{start}"), insert("Two"),
        {"tool": "docx_update_paragraph_text", "arguments": {"element_id": "last_insert", "new_text": "Two!"}},
        {"tool": "docx_set_font", "arguments": {"element_id": "last_update", "bold": True}},
        insert("Three", "after:cursor")])
    ids = a.head["Element IDs"].split(", ")
    assert a.head["Calls"] == "5" and a.element_id == ids[4] and ids[2] == ids[1]
    assert a.section("Changes").count("@@ calls[") == 5 and "⭐ NEW" in a.section("Document Context")
    assert a.cursor_line == f"Cursor: after Paragraph {ids[4]}"
    body = await docx.save(tmp_path / "batch.docx")
    assert [texts(p) for p in body.iter(W_P)] == ["Start", "One", "Two!", "Three"]
    assert by_id(body, ids[1]).xpath("w:r/w:rPr/w:b", namespaces=NS)


async def test_a_failing_call_applies_nothing_and_is_named(docx, tmp_path):
    start = await started(docx)
    await docx.save(tmp_path / "before.docx")
    a = await docx.call("docx_batch", session_id=docx.session_id, calls=[
        insert("One", f"after:{start}"), {"tool": "docx_set_font", "arguments": {"element_id": "last_insert",
                                                                                  "bold": True}},
        insert("Lost", "after:para_nothere"), insert("Never")])
    assert a.is_error and a.error_type == "ElementNotFound"
    assert a.head["Message"].startswith("calls[2] (docx_insert_paragraph) failed: ")
    assert "Nothing in the batch was applied" in a.head["Message"]
    await docx.save(tmp_path / "after.docx")
    assert parts(tmp_path / "after.docx") == parts(tmp_path / "before.docx")
    cursor = await docx.ok("docx_cursor_get")
    assert cursor.cursor_line == f"Cursor: after Paragraph {start}"
    history = await docx.ok("docx_get_history")
    assert "docx_batch" not in history.text


async def test_one_undo_step_takes_back_the_whole_batch(docx, tmp_path):
    start = await started(docx)
    await docx.ok("docx_batch", calls=[insert("One", f"after:{start}"), insert("Two"), insert("Three")])
    history = await docx.ok("docx_get_history")
    assert history.text.count("docx_batch(") == 1
    undone = await docx.ok("docx_undo")
    assert undone.head["Undone"] == "1 step(s)"
    body = await docx.save(tmp_path / "undone.docx")
    assert [texts(p) for p in body.iter(W_P)] == ["Start"]
    assert (await docx.call("docx_get_context", element_id="last_insert")).element_id == start


async def test_tracked_like_the_calls_it_holds(docx, tmp_path):
    start = await started(docx)
    await docx.ok("docx_set_track_changes", enabled=True, author="Reviewer")
    a = await docx.ok("docx_batch", calls=[insert("Tracked one", f"after:{start}"), insert("Tracked two")])
    assert a.head["Tracked"] == "yes"
    body = await docx.save(tmp_path / "tracked.docx")
    inserted = body.xpath("//w:ins[@w:author='Reviewer']//w:t/text()", namespaces=NS)
    assert "".join(inserted) == "Tracked oneTracked two"


@pytest.mark.parametrize("tool", ["docx_save", "docx_open", "docx_close", "docx_batch", "docx_render_page",
                                  "docx_get_context"])
async def test_lifecycle_and_read_tools_are_refused_before_anything_runs(docx, tmp_path, tool):
    start = await started(docx)
    a = await docx.call("docx_batch", calls=[insert("One", f"after:{start}"), {"tool": tool, "arguments": {}}])
    assert a.is_error and a.error_type == "ValidationError"
    assert a.head["Message"].startswith(f"calls[1]: {tool} cannot run inside a batch")
    body = await docx.save(tmp_path / "refused.docx")
    assert [texts(p) for p in body.iter(W_P)] == ["Start"]


async def test_arguments_are_checked_before_anything_runs(docx, tmp_path):
    start = await started(docx)
    a = await docx.call("docx_batch", calls=[insert("One", f"after:{start}"),
                                             {"tool": "docx_insert_paragraph", "arguments": {"txt": "x"}}])
    assert a.is_error and a.error_type == "ValidationError" and "calls[1] (docx_insert_paragraph)" in a.head["Message"]
    other = await docx.call("docx_batch", calls=[{"tool": "docx_nothing", "arguments": {}}])
    assert other.is_error and "calls[0]: no tool named 'docx_nothing'" in other.head["Message"]
    shapeless = await docx.call("docx_batch", calls=[{"tool": "docx_insert_paragraph", "arguments": ["x"]}])
    assert shapeless.error_type == "ValidationError" and shapeless.head["Message"].startswith("calls[0] is not")
    body = await docx.save(tmp_path / "checked.docx")
    assert [texts(p) for p in body.iter(W_P)] == ["Start"]


async def limited_client(tmp_path, raw_config: dict):
    services = Services(roots=[tmp_path], config=parse_config(raw_config, base_dir=tmp_path))
    return Client(server.build_server(services), cache=None), services


async def test_limits_on_calls_and_growth_are_checked_before_it_starts(tmp_path):
    client, services = await limited_client(tmp_path, {"limits": {"max_batch_calls": 3,
                                                                 "max_call_growth_bytes": 2000}})
    async with client:
        docx = DocxClient(client, [tmp_path], services)
        start = await started(docx)
        many = await docx.call("docx_batch", calls=[insert(str(i)) for i in range(4)])
        assert many.error_type == "LimitExceeded" and "limits.max_batch_calls" in many.head["Message"]
        big = await docx.call("docx_batch", calls=[insert("x" * 1500, f"after:{start}"), insert("y" * 1500)])
        assert big.error_type == "LimitExceeded" and "limits.max_call_growth_bytes" in big.head["Message"]
        body = await docx.save(tmp_path / "limits.docx")
    assert [texts(p) for p in body.iter(W_P)] == ["Start"]


async def test_compact_batch_answer_is_small(docx):
    start = await started(docx)
    a = await docx.ok("docx_batch", view="compact",
                      calls=[insert(f"Paragraph {i} " + "text " * 20, f"after:{start}" if i == 0 else "after:last_insert")
                             for i in range(10)])
    assert len(a.text.encode()) <= 3000 and "┌" not in a.text
    assert len(a.head["Element IDs"].split(", ")) == 10


async def test_a_failure_takes_back_ids_earlier_calls_gave(docx, tmp_path):
    """Elements an earlier call of the batch only showed (and so gave an ID) lose it again."""
    await docx.create()
    await docx.ok("docx_batch", calls=[insert(f"P{i}", "end:document_body") for i in range(30)])
    await docx.save(tmp_path / "plain.docx", strip_ids=True)
    await docx.ok("docx_close", session_id=docx.session_id)
    opened = await docx.ok("docx_open", file_path=str(tmp_path / "plain.docx"), view="none")
    docx.session_id = opened.head["Session ID"]
    found = await docx.ok("docx_find_paragraphs", query="P5")
    p5 = found.section("Content").split("para_")[1].split(":")[0]
    await docx.save(tmp_path / "before.docx")
    a = await docx.call("docx_batch", calls=[insert("New", f"after:para_{p5}"), insert("Lost", "after:para_nothere")])
    assert a.is_error
    await docx.save(tmp_path / "after.docx")
    assert parts(tmp_path / "after.docx") == parts(tmp_path / "before.docx")


async def test_a_call_naming_the_batch_session_with_noise_is_the_same_session(docx):
    """Issue 29 #15: a session_id argument is read one way everywhere ("doc_1 (report)" is doc_1)."""
    start = await started(docx)
    a = await docx.ok("docx_batch", session_id=f"{docx.session_id} (report)", calls=[
        {"tool": "docx_insert_paragraph",
         "arguments": {"session_id": f"{docx.session_id} (report)", "text": "One", "position": f"after:{start}"}}])
    assert a.head["Calls"] == "1"
