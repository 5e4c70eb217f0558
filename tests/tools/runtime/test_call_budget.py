"""Each call has a budget: off the event loop, one call at a time per session, a time limit,
a bounded answer; and a failed call leaves nothing behind (no session, no change)."""
from __future__ import annotations

import logging
import re
import threading
import time
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import Client

import server
from ooxml.xml.errors import InvalidDocument
from tests.builders import build_docx, p, tbl
from tests.support.client import DocxClient
from tests.support.http_server import http_client, http_server
from tools.builtin import builtin
from tools.services import Services

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def in_process(services: Services):
    async with Client(server.build_server(services), cache=None) as client:
        yield DocxClient(client, list(services.roots))


def slowed(monkeypatch, tool_name: str, seconds: float, log: list | None = None) -> threading.Event:
    """Make a tool block its thread (time.sleep, as a long parse or save would) for ``seconds``;
    the event is set when the first call starts blocking."""
    tool, blocking = builtin()[tool_name], threading.Event()
    original = tool.handler

    def slow(ctx, **arguments):
        result = original(ctx, **arguments)  # takes the session's lock first
        start = time.monotonic()
        blocking.set()
        time.sleep(seconds)
        if log is not None:
            log.append((arguments.get("session_id"), start, time.monotonic()))
        return result
    monkeypatch.setattr(tool, "handler", slow)
    return blocking


async def test_a_long_call_does_not_stall_other_http_clients(tmp_path, monkeypatch):
    blocking = slowed(monkeypatch, "docx_read_content", 3.0)
    services = Services(roots=[tmp_path])
    done = {}
    with http_server(services) as url:
        async with http_client(url, "auto", [tmp_path]) as a, http_client(url, "auto", [tmp_path]) as b:
            await a.create()
            started = time.monotonic()

            async def long_call():
                await a.ok("docx_read_content", session_id=a.session_id)
                done["long"] = time.monotonic() - started

            async def short_calls():
                await anyio.to_thread.run_sync(blocking.wait, 10)  # the long call is under way
                await b.create()
                await b.ok("docx_insert_paragraph", session_id=b.session_id, text="meanwhile",
                           position="end:document_body")
                done["short"] = time.monotonic() - started

            async with anyio.create_task_group() as tg:
                tg.start_soon(long_call)
                tg.start_soon(short_calls)
    # On the event loop, the other client's calls would wait for the 3 s call to end.
    assert done["long"] >= 3.0 and done["short"] < done["long"] - 1.0, done


async def test_calls_on_one_session_never_interleave_and_other_sessions_run_meanwhile(tmp_path, monkeypatch):
    log: list = []
    slowed(monkeypatch, "docx_get_structure", 0.6, log)
    services = Services(roots=[tmp_path])
    async with in_process(services) as c:
        one, two = [(await c.ok("docx_create")).head["Session ID"] for _ in range(2)]
        async with anyio.create_task_group() as tg:
            for sid in (one, one, two):
                tg.start_soon(lambda s=sid: c.ok("docx_get_structure", session_id=s))
    spans = {sid: sorted((s, e) for i, s, e in log if i == sid) for sid in (one, two)}
    (a_start, a_end), (b_start, b_end) = spans[one]
    (c_start, c_end), = spans[two]
    assert b_start >= a_end  # same session: one after the other
    assert c_start < a_end and a_start < c_end or c_start < b_end and b_start < c_end  # other session: overlaps


async def test_a_client_cannot_park_every_worker_thread_on_one_session(tmp_path, monkeypatch):
    slowed(monkeypatch, "docx_get_structure", 0.5)
    services = Services(roots=[tmp_path])
    answers = []
    async with in_process(services) as c:
        sid = (await c.ok("docx_create")).head["Session ID"]

        async def structure():
            answers.append(await c.call("docx_get_structure", session_id=sid))
        async with anyio.create_task_group() as tg:
            for _ in range(7):
                tg.start_soon(structure)
        other = await c.ok("docx_create")  # the server still serves
    refused = [a for a in answers if a.is_error]
    assert len(answers) - len(refused) == 4 and other.head["Session ID"]
    assert {a.error_type for a in refused} == {"LimitExceeded"} and "already under way" in refused[0].text


async def test_calls_without_a_session_are_not_capped_for_anonymous_http_clients(tmp_path, monkeypatch):
    slowed(monkeypatch, "docx_list_sessions", 0.3)
    services = Services(roots=[tmp_path])
    answers = []
    with http_server(services) as url:
        async def list_sessions():
            async with http_client(url, "auto", [tmp_path]) as c:
                answers.append(await c.call("docx_list_sessions"))
        async with anyio.create_task_group() as tg:
            for _ in range(6):
                tg.start_soon(list_sessions)
    assert len(answers) == 6 and not any(a.is_error for a in answers)


# ---- the time limit ------------------------------------------------------------------------------

def table_doc(path: Path) -> Path:
    return build_docx(path, p("alpha beta") + tbl([["a", "b"], ["c", "d"]]) + p("gamma alpha"))


CALLS = {
    "replace": ("docx_replace_text", lambda ids: {"old_text": "alpha", "new_text": "omega"}),
    "fill": ("docx_fill_table", lambda ids: {"table_id": ids["table"], "data": [["1", "2"]] * 5}),
    "copy range": ("docx_copy_elements_range",
                   lambda ids: {"start_id": ids["first"], "end_id": ids["last"], "position": "end:document_body"}),
    "find": ("docx_find_paragraphs", lambda ids: {"query": "alpha"}),
}


@pytest.mark.parametrize("case", CALLS, ids=list(CALLS))
async def test_a_call_past_its_time_limit_ends_with_limit_exceeded_and_changes_nothing(tmp_path, case):
    path = table_doc(tmp_path / "t.docx")
    services = Services(roots=[tmp_path])
    async with in_process(services) as c:
        await c.open(path)
        content = (await c.ok("docx_read_content")).text
        paras = re.findall(r"\bpara_[0-9a-f]+", content)
        ids = {"table": re.search(r"\btable_[0-9a-f]+", content).group(0), "first": paras[0], "last": paras[-1]}
        await c.ok("docx_save", session_id=c.session_id)
        before = path.read_bytes()
        name, arguments = CALLS[case]
        services.limit_overrides["call_timeout_s"] = 1e-9
        answer = await c.call(name, session_id=c.session_id, **arguments(ids))
        services.limit_overrides.clear()
        listed = await c.ok("docx_list_sessions")
        await c.ok("docx_save", session_id=c.session_id)
    assert answer.error_type == "LimitExceeded", answer.text
    assert "time limit" in answer.head["Message"] and "call_timeout_s" in answer.head["Hint"]
    assert "| no |" in listed.text and path.read_bytes() == before


async def test_the_call_time_limit_comes_from_the_config_and_the_command_line(tmp_path):
    from tools.config.reload import apply_config_file
    config = tmp_path / "c.json"
    config.write_text('{"limits": {"call_timeout_s": 5, "session_idle_timeout_s": 90, "max_answer_chars": 9000}}')
    services = server.make_services(server.parse_args(["--root", str(tmp_path), "--idle-timeout", "12"]))
    apply_config_file(services, config)
    assert (services.limits.call_timeout_s, services.limits.session_idle_timeout_s,
            services.limits.max_answer_chars) == (5, 12, 9000)


# ---- answers and heads ---------------------------------------------------------------------------

async def test_a_long_answer_is_cut_at_the_limit_and_says_so(tmp_path):
    path = build_docx(tmp_path / "long.docx", "".join(p(f"Paragraph number {i} " * 6) for i in range(200)))
    services = Services(roots=[tmp_path], limit_overrides={"max_answer_chars": 3000})
    async with in_process(services) as c:
        await c.open(path)
        answer = await c.ok("docx_read_content", max_elements=200)
    assert len(answer.text) <= 3000 and "answer cut at 3000 characters" in answer.text
    assert answer.head["Status"].endswith("Success")


async def test_replace_does_not_echo_a_huge_argument_in_its_head(docx, tmp_path):
    path = build_docx(tmp_path / "r.docx", p("short text"))
    await docx.open(path)
    answer = await docx.ok("docx_replace_text", old_text="l" * 100_000, new_text="x")
    assert len(answer.head["Old Text"]) <= 500 and "100000 characters" in answer.head["Old Text"]
    assert len(answer.text) < 2000 and "cut at" not in answer.text


# ---- failed calls leave nothing behind -----------------------------------------------------------

async def test_a_failed_open_leaves_no_session_open(tmp_path, monkeypatch):
    import tools.docx.session as session_tools
    build_docx(tmp_path / "a.docx", p("x"))

    def broken_answer(*args, **kwargs):
        raise InvalidDocument("this document cannot be shown")
    services = Services(roots=[tmp_path])
    async with in_process(services) as c:
        monkeypatch.setattr(session_tools, "answer", broken_answer)
        failed = await c.call("docx_open", file_path="a.docx")
        monkeypatch.undo()
        listed = await c.ok("docx_list_sessions")
    assert failed.error_type == "InvalidDocument" and listed.head["Sessions"] == "0"
    assert services.sessions.all() == []


async def test_an_open_refused_by_the_session_limit_holds_nothing(tmp_path, monkeypatch):
    from ooxml.model.document import Document
    path = build_docx(tmp_path / "a.docx", p("x"))
    closed = []
    original_close = Document.close
    monkeypatch.setattr(Document, "close", lambda self: (closed.append(self), original_close(self)))
    services = Services(roots=[tmp_path], limit_overrides={"max_sessions": 1})
    async with in_process(services) as c:
        await c.open(path)
        busy = services.sessions.all()[0]
        busy.lock.acquire()  # a call under way on it: not ended to make room (tools/runtime/sessions/quotas.py)
        try:
            refused = await c.call("docx_open", file_path="a.docx")
        finally:
            busy.lock.release()
    assert refused.error_type == "LimitExceeded" and len(services.sessions.all()) == 1 and len(closed) == 1


async def test_the_server_log_names_the_tool_that_failed(tmp_path, caplog, monkeypatch):
    def crash(ctx, session_id=None):
        raise RuntimeError("boom")
    monkeypatch.setattr(builtin()["docx_list_tables"], "handler", crash)
    async with in_process(Services(roots=[tmp_path])) as c:
        with caplog.at_level(logging.ERROR, logger="ooxml_mcp"):
            answer = await c.call("docx_list_tables")
    assert answer.error_type == "InternalError"
    assert [r.getMessage() for r in caplog.records] == ["tool docx_list_tables failed"]


async def test_stdio_keeps_one_client_semantics(docx):
    await docx.create()
    omitted = await docx.ok("docx_insert_paragraph", text="no id needed", position="end:document_body")
    listed = await docx.ok("docx_list_sessions")
    assert omitted.element_id and docx.session_id in listed.text



async def test_the_in_flight_limit_counts_a_session_named_with_noise_as_the_same_session(tmp_path, monkeypatch):
    """Issue 29 #15: "doc_1" and "doc_1 (report)" are one session, for the store and for the in-flight count."""
    slowed(monkeypatch, "docx_get_structure", 0.5)
    services = Services(roots=[tmp_path])
    answers = []
    async with in_process(services) as c:
        sid = (await c.ok("docx_create")).head["Session ID"]

        async def structure(named):
            answers.append(await c.call("docx_get_structure", session_id=named))
        async with anyio.create_task_group() as tg:
            for i in range(7):
                tg.start_soon(structure, sid if i % 2 else f"{sid} (report)")
    refused = [a for a in answers if a.is_error]
    assert len(answers) - len(refused) == 4, [a.text[:200] for a in answers]
    assert {a.error_type for a in refused} == {"LimitExceeded"} and "already under way" in refused[0].text


def test_a_session_id_argument_is_read_by_one_function():
    """Issue 29 #15: the store split the argument, the in-flight count stripped it. Only
    tools/runtime/sessions/sessions.session_key takes a session_id string apart now."""
    root = Path(__file__).resolve().parents[3]
    shapes = re.compile(r"\b(?:session_id|sid)\w*\)?\s*(?:or\s*\"\"\)?)?\.(?:split|strip|partition)\(")
    found = [f"{path.relative_to(root)}:{n}" for path in [root / "server.py", *(root / "tools").rglob("*.py")]
             if path.name != "sessions.py"
             for n, line in enumerate(path.read_text().splitlines(), 1) if shapes.search(line)]
    assert not found, found
