"""MCP tasks (2025-11-25) for long calls: a tools/call with a task answers at once; tasks/get,
tasks/result, tasks/list and tasks/cancel follow it; without a task the call works as before.

mcp 2.3.0's client validates every tools/call answer as a CallToolResult (the first tests show
both SDK limits), so the task-augmented call is sent through the client session's dispatcher;
tasks/* go through the SDK's typed send_request.
"""
from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from contextlib import asynccontextmanager
from pathlib import Path

import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.server import Server
from mcp.shared.exceptions import MCPError
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from pydantic import ValidationError

import server
from tests.support.answer_validator import errors
from tests.support.client import DocxClient, read_part
from tests.support.http_server import http_server
from tools.runtime.protocol import tasks as T
from tools.services import Services

pytestmark = pytest.mark.anyio
RELATED = "io.modelcontextprotocol/related-task"
REPO = Path(__file__).resolve().parents[3]


class GatedOffice:
    """LibreOffice stand-in: a TOC's page layout waits at a gate, then fails (the TOC is written without
    page numbers), so a call stays 'working' as long as the test wants."""

    def __init__(self):
        self.entered, self.gate = threading.Event(), threading.Event()

    def to_pdf(self, src, pdf, timeout=None):
        self.entered.set()
        assert self.gate.wait(30), "the test never opened the gate"
        raise RuntimeError("no layout in this test")

    def close(self):
        pass


@asynccontextmanager
async def legacy_client(tmp_path, on_message=None, office=None):
    services = Services(roots=[tmp_path], **({"office": office} if office else {}))
    async with Client(server.build_server(services), cache=None, mode="legacy", message_handler=on_message) as c:
        yield DocxClient(c, [tmp_path], services)


async def call_as_task(client, name: str, arguments: dict, task: dict | None = None, meta: dict | None = None) -> dict:
    params = {"name": name, "arguments": arguments, "task": task or {}}
    if meta:
        params["_meta"] = meta
    return await client.session._dispatcher.send_raw_request("tools/call", params, {})


async def get(client, task_id: str) -> types.GetTaskResult:
    return await client.session.send_request(
        types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id)), types.GetTaskResult)


async def result(client, task_id: str) -> types.CallToolResult:
    return await client.session.send_request(
        types.GetTaskPayloadRequest(params=types.GetTaskPayloadRequestParams(task_id=task_id)), types.CallToolResult)


async def cancel(client, task_id: str) -> types.CancelTaskResult:
    return await client.session.send_request(
        types.CancelTaskRequest(params=types.CancelTaskRequestParams(task_id=task_id)), types.CancelTaskResult)


async def listed(client, cursor: str | None = None) -> types.ListTasksResult:
    return await client.session.send_request(
        types.ListTasksRequest(params=types.PaginatedRequestParams(cursor=cursor)), types.ListTasksResult)


async def document_with_a_heading(docx: DocxClient) -> None:
    await docx.create()
    await docx.ok("docx_insert_heading", text="One", level=1, position="end:document_body")


async def test_the_sdk_alone_rejects_a_task_from_on_call_tool_and_its_client_rejects_one_from_tools_call():
    """Why tasks/runtime/tasks.py is a middleware: mcp 2.3.0 sieves a tools/call answer as a CallToolResult
    on both sides (mcp/server/runner.py ServerRunner._serialize, mcp/client/session.py send_request)."""
    task = types.Task(task_id="t1", status="working", created_at="2026-01-01T00:00:00Z",
                      last_updated_at="2026-01-01T00:00:00Z", ttl=None)

    async def on_call_tool(ctx, params):
        return types.CreateTaskResult(task=task)
    bare = Server("bare", on_call_tool=on_call_tool)
    async with Client(bare, cache=None, mode="legacy") as client:
        with pytest.raises(MCPError) as refused:
            await client.session._dispatcher.send_raw_request("tools/call", {"name": "x", "task": {}}, {})
    assert refused.value.error.code == types.INTERNAL_ERROR  # "Handler returned an invalid result"

    async with legacy_client(Path("/nonexistent")) as docx:
        request = types.CallToolRequest(params=types.CallToolRequestParams(
            name="docx_export_markdown", arguments={}, task=types.TaskMetadata()))
        with pytest.raises(ValidationError):  # the CreateTaskResult our server sends, checked as a CallToolResult
            await docx.client.session.send_request(request, types.CreateTaskResult)


async def test_initialize_advertises_tasks_and_the_long_tools_say_they_may_run_as_tasks(tmp_path):
    services = Services(roots=[tmp_path], toolsets=["all"])
    async with Client(server.build_server(services), cache=None, mode="legacy") as client:
        caps = client.server_capabilities.tasks
        tools = (await client.list_tools()).tools
    assert caps.list is not None and caps.cancel is not None and caps.requests.tools.call is not None
    optional = {t.name for t in tools if t.execution and t.execution.task_support == "optional"}
    assert optional == T.TASK_TOOLS
    assert all(t.execution is None for t in tools if t.name not in T.TASK_TOOLS)


@pytest.fixture
def statuses(monkeypatch) -> list[dict]:
    """The notifications/tasks/status a client receives (mcp 2.3.0's client parses none: they are types-only)."""
    seen, original = [], ClientSession._on_notify

    async def on_notify(self, dctx, method, params):
        if method == "notifications/tasks/status":
            seen.append(dict(params))
        return await original(self, dctx, method, params)
    monkeypatch.setattr(ClientSession, "_on_notify", on_notify)
    return seen


def initialize_over_http(url: str, version: str) -> dict:
    """The initialize answer a client of ``version`` gets (raw: the SDK client always asks the newest)."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    response = httpx2.post(url, json=body, headers={"Accept": "application/json, text/event-stream"}, timeout=60)
    text = response.text
    if response.headers["content-type"].startswith("text/event-stream"):
        text = next(line[5:] for line in text.splitlines() if line.startswith("data:"))
    return json.loads(text)["result"]


async def test_only_clients_of_a_version_with_tasks_see_the_tasks_capability(tmp_path):
    with http_server(Services(roots=[tmp_path])) as url:
        older = await asyncio.to_thread(initialize_over_http, url, "2025-06-18")
        current = await asyncio.to_thread(initialize_over_http, url, "2025-11-25")
    assert older["protocolVersion"] == "2025-06-18" and "tasks" not in older["capabilities"]
    assert older["capabilities"]["tools"] == current["capabilities"]["tools"]  # the rest is unchanged
    assert current["protocolVersion"] == "2025-11-25"
    assert set(current["capabilities"]["tasks"]) == {"list", "cancel", "requests"}


async def test_the_owner_hears_each_status_change_as_notifications_tasks_status(tmp_path, statuses):
    office = GatedOffice()
    async with legacy_client(tmp_path, office=office) as docx:
        await document_with_a_heading(docx)
        done = (await call_as_task(docx.client, "docx_export_markdown", {}))["task"]["taskId"]
        await result(docx.client, done)
        failed = (await call_as_task(docx.client, "docx_export_markdown", {"session_id": "doc_missing"}))
        await result(docx.client, failed["task"]["taskId"])
        stopped = (await call_as_task(docx.client, "docx_insert_toc", {"position": "start:document_body"}))
        assert await asyncio.to_thread(office.entered.wait, 10)
        await cancel(docx.client, stopped["task"]["taskId"])
        office.gate.set()
        await until_saved(docx, tmp_path / "after.docx")  # the cancelled call has ended: it says nothing more
        assert await until(lambda: len(statuses) >= 3)
        final = {t.task_id: t for t in (await listed(docx.client)).tasks}
    said = [(s["taskId"], s["status"]) for s in statuses]
    assert said == [(done, "completed"), (failed["task"]["taskId"], "failed"), (stopped["task"]["taskId"], "cancelled")]
    for note in statuses:  # each one the task as tasks/get shows it
        assert note == final[note["taskId"]].model_dump(by_alias=True, exclude_none=True, mode="json")


async def test_a_task_answers_at_once_and_tasks_result_waits_for_the_tool_answer(tmp_path):
    notes = []

    async def on_message(message):
        if isinstance(message, types.ProgressNotification):
            notes.append(message.params)
    office = GatedOffice()
    async with legacy_client(tmp_path, on_message, office) as docx:
        await document_with_a_heading(docx)
        created = await call_as_task(docx.client, "docx_insert_toc", {"position": "start:document_body"},
                                     {"ttl": 60_000}, {"progressToken": "toc-1"})
        task_id = created["task"]["taskId"]
        assert created["task"]["status"] == "working" and created["task"]["ttl"] == 60_000
        assert await asyncio.to_thread(office.entered.wait, 10)
        assert (await get(docx.client, task_id)).status == "working"
        waiting = asyncio.create_task(result(docx.client, task_id))
        await asyncio.sleep(0.2)
        assert not waiting.done()  # tasks/result blocks while the task works
        office.gate.set()
        answer = await asyncio.wait_for(waiting, 30)
        done = await get(docx.client, task_id)
        body = await docx.save(tmp_path / "out.docx")
    text = answer.content[0].text
    assert not answer.is_error and not errors(text) and "Insert Toc" in text
    assert answer.meta[RELATED] == {"taskId": task_id}
    assert done.status == "completed"
    assert body.xpath(".//w:instrText[contains(., 'TOC')]", namespaces={"w": T_W})
    assert notes and notes[0].progress_token == "toc-1" and notes[0].meta[RELATED] == {"taskId": task_id}


T_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


async def test_tasks_cancel_stops_the_call_and_leaves_the_document_byte_identical(tmp_path):
    office = GatedOffice()
    async with legacy_client(tmp_path, office=office) as docx:
        await document_with_a_heading(docx)
        await docx.save(tmp_path / "before.docx")
        created = await call_as_task(docx.client, "docx_insert_toc", {"position": "start:document_body"})
        task_id = created["task"]["taskId"]
        assert await asyncio.to_thread(office.entered.wait, 10)
        cancelled = await cancel(docx.client, task_id)
        with pytest.raises(MCPError) as no_result:
            await result(docx.client, task_id)
        with pytest.raises(MCPError) as again:
            await cancel(docx.client, task_id)
        office.gate.set()  # the call's thread ends now: its commit is refused, its changes undone
        await until_saved(docx, tmp_path / "after.docx")
        later = await get(docx.client, task_id)
    assert cancelled.status == "cancelled" == later.status
    assert no_result.value.error.code == types.INVALID_REQUEST
    assert again.value.error.code == types.INVALID_PARAMS and "already cancelled" in again.value.error.message
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


async def until_saved(docx: DocxClient, path: Path) -> None:
    """Save once the cancelled call's thread has let go of the session (SessionBusy until then)."""
    deadline = time.monotonic() + 15
    while True:
        answer = await docx.call("docx_save", session_id=docx.session_id, file_path=str(path))
        if not answer.is_error or answer.error_type != "SessionBusy" or time.monotonic() > deadline:
            assert not answer.is_error, answer.text
            return
        await asyncio.sleep(0.05)


async def test_a_tool_that_does_not_run_as_a_task_is_refused_and_nothing_changes(tmp_path):
    async with legacy_client(tmp_path) as docx:
        await document_with_a_heading(docx)
        await docx.save(tmp_path / "before.docx")
        with pytest.raises(MCPError) as refused:
            await call_as_task(docx.client, "docx_insert_paragraph", {"text": "x", "position": "end:document_body"})
        await docx.save(tmp_path / "after.docx")
        plain = await docx.ok("docx_export_markdown")  # without a task a task tool answers as before
    assert refused.value.error.code == types.METHOD_NOT_FOUND and "without 'task'" in refused.value.error.message
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")
    assert "Export Markdown" in plain.text


async def test_a_tool_error_makes_a_failed_task_whose_result_is_the_error_answer(tmp_path):
    async with legacy_client(tmp_path) as docx:
        created = await call_as_task(docx.client, "docx_export_markdown", {"session_id": "doc_missing"})
        answer = await result(docx.client, created["task"]["taskId"])
        state = await get(docx.client, created["task"]["taskId"])
    assert answer.is_error and "SessionNotFound" in answer.content[0].text
    assert state.status == "failed" and state.status_message


async def test_tasks_list_pages_the_callers_tasks_and_unknown_ids_or_cursors_are_invalid_params(tmp_path):
    async with legacy_client(tmp_path) as docx:
        await docx.create()
        made = [(await call_as_task(docx.client, "docx_export_markdown", {}))["task"]["taskId"]
                for _ in range(T.PAGE + 2)]
        first = await listed(docx.client)
        second = await listed(docx.client, first.next_cursor)
        for bad in (lambda: get(docx.client, "no-such-task"), lambda: listed(docx.client, "forged")):
            with pytest.raises(MCPError) as e:
                await bad()
            assert e.value.error.code == types.INVALID_PARAMS
    assert len(first.tasks) == T.PAGE and second.next_cursor is None
    assert [t.task_id for t in first.tasks + second.tasks] == made


async def test_finished_tasks_go_after_their_ttl_and_working_ones_stay(tmp_path):
    store = T.Tasks()
    done, working = store.create(("a", None), "docx_compare", 1000), store.create(("a", None), "docx_compare", 1000)
    done.finish("completed")
    done.born = working.born = time.monotonic() - 2
    assert [t.id for t in store.owned(("a", None))] == [working.id]
    with pytest.raises(MCPError):
        store.find(("a", None), done.id)
    with pytest.raises(MCPError):
        store.find(("b", None), working.id)  # another owner's task is unknown to it


async def test_a_caller_keeps_at_most_32_tasks_and_the_oldest_finished_one_makes_room():
    store, me = T.Tasks(), ("a", None)
    made = [store.create(me, "docx_compare", None) for _ in range(T.MAX_PER_OWNER)]
    with pytest.raises(MCPError) as full:
        store.create(me, "docx_compare", None)
    made[3].finish("completed")
    newest = store.create(me, "docx_compare", None)
    other = store.create(("b", None), "docx_compare", None)  # another caller's count is its own
    assert full.value.error.code == types.INVALID_REQUEST and "still working" in full.value.error.message
    assert made[3].id not in store.by_id and newest.id in store.by_id and other.id in store.by_id


async def test_over_streamable_http_a_task_is_its_mcp_sessions_and_2026_clients_call_as_before(tmp_path):
    services = Services(roots=[tmp_path])
    with http_server(services) as url:
        async with httpx2.AsyncClient(timeout=60) as http, \
                Client(streamable_http_client(url, http_client=http), cache=None, mode="legacy") as client:
            await DocxClient(client, [tmp_path]).create()
            task_id = (await call_as_task(client, "docx_export_markdown", {}))["task"]["taskId"]
            answer = await result(client, task_id)
            async with httpx2.AsyncClient(timeout=60) as http2, \
                    Client(streamable_http_client(url, http_client=http2), cache=None, mode="legacy") as other:
                with pytest.raises(MCPError) as foreign:
                    await get(other, task_id)
                others = await listed(other)
        assert await until(lambda: task_id not in services.tasks.by_id)  # its MCP session ended: its tasks go
        async with httpx2.AsyncClient(timeout=60) as http, \
                Client(streamable_http_client(url, http_client=http), cache=None, mode="auto") as modern:
            caps = modern.server_capabilities.tasks
            plain = await modern.session.send_request(types.CallToolRequest(params=types.CallToolRequestParams(
                name="docx_create", arguments={}, task=types.TaskMetadata())), types.CallToolResult)
            with pytest.raises(MCPError) as unserved:
                await listed(modern)
    assert not answer.is_error and answer.meta[RELATED] == {"taskId": task_id}
    assert foreign.value.error.code == types.INVALID_PARAMS and others.tasks == []
    assert caps is None and "Create Document" in plain.content[0].text  # the task is ignored, as MCP asks
    assert unserved.value.error.code == types.METHOD_NOT_FOUND


async def test_over_streamable_http_the_task_status_notification_reaches_its_mcp_session_only(tmp_path, statuses):
    services = Services(roots=[tmp_path])
    with http_server(services) as url:
        async with httpx2.AsyncClient(timeout=60) as http, \
                Client(streamable_http_client(url, http_client=http), cache=None, mode="legacy") as client, \
                httpx2.AsyncClient(timeout=60) as http2, \
                Client(streamable_http_client(url, http_client=http2), cache=None, mode="legacy") as other:
            await DocxClient(client, [tmp_path]).create()
            task_id = (await call_as_task(client, "docx_export_markdown", {}))["task"]["taskId"]
            await result(client, task_id)
            heard = await until(lambda: statuses)
            await other.list_tools()  # the other session's stream carries no one else's task
    assert heard and [(s["taskId"], s["status"]) for s in statuses] == [(task_id, "completed")]


async def test_over_stdio_a_task_runs_and_answers(tmp_path):
    params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(tmp_path)], cwd=str(REPO))
    async with Client(params, cache=None, mode="legacy") as client:
        await DocxClient(client, [tmp_path]).create()
        task_id = (await call_as_task(client, "docx_export_markdown", {}))["task"]["taskId"]
        answer = await result(client, task_id)
        tasks = await listed(client)
    assert not answer.is_error and "Export Markdown" in answer.content[0].text
    assert [(t.task_id, t.status) for t in tasks.tasks] == [(task_id, "completed")]


async def until(condition, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True
