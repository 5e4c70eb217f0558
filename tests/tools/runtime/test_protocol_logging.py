"""Warnings an agent should see arrive as notifications/message at the level the client sets:
here a dropped undo step (OOXML_MCP_UNDO_STEPS=2), over stdio, in-process and Streamable HTTP."""
from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.support.client import DocxClient
from tests.support.http_server import MODES, http_server
from tools.services import Services

pytestmark = pytest.mark.anyio
REPO = Path(__file__).resolve().parents[3]


class Log:
    def __init__(self):
        self.messages: list[tuple[str, str]] = []

    async def __call__(self, params: types.LoggingMessageNotificationParams) -> None:
        self.messages.append((params.level, str(params.data)))


async def three_inserts(docx: DocxClient) -> None:
    await docx.create()
    for text in ("one", "two", "three"):
        await docx.ok("docx_insert_paragraph", session_id=docx.session_id, text=text, position="end:document_body")


async def test_over_stdio_a_dropped_undo_step_is_a_warning_until_the_client_raises_its_level(tmp_path):
    log = Log()
    params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(tmp_path)],
                                   cwd=str(REPO), env={**os.environ, "OOXML_MCP_UNDO_STEPS": "2"})
    async with Client(params, cache=None, mode="legacy", logging_callback=log) as client:
        docx = DocxClient(client, [tmp_path])
        await three_inserts(docx)
        warned = list(log.messages)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await client.set_logging_level("error")
        await docx.ok("docx_insert_paragraph", text="four", position="end:document_body")
    assert [level for level, _ in warned] == ["warning"] and "oldest 1 step(s)" in warned[0][1]
    assert log.messages == warned  # below the level the client set: not sent


@pytest.mark.parametrize("mode", MODES)
async def test_over_http_the_warning_reaches_the_client(tmp_path, monkeypatch, mode):
    monkeypatch.setenv("OOXML_MCP_UNDO_STEPS", "2")
    log = Log()
    with http_server(Services(roots=[tmp_path])) as url:
        async with httpx2.AsyncClient(timeout=60) as http, \
                Client(streamable_http_client(url, http_client=http), cache=None, mode=mode, logging_callback=log,
                       log_level="warning") as client:
            await three_inserts(DocxClient(client, [tmp_path]))
    assert [level for level, _ in log.messages] == ["warning"] and "can no longer be undone" in log.messages[0][1]


async def test_a_long_session_hears_once_that_old_undo_steps_are_dropped(tmp_path, monkeypatch):
    # Past the limit every call drops a step: a warning each time was a notification on every call.
    monkeypatch.setenv("OOXML_MCP_UNDO_STEPS", "2")
    log = Log()
    with http_server(Services(roots=[tmp_path])) as url:
        async with httpx2.AsyncClient(timeout=60) as http, \
                Client(streamable_http_client(url, http_client=http), cache=None, logging_callback=log,
                       log_level="warning") as client:
            docx = DocxClient(client, [tmp_path])
            await three_inserts(docx)
            for text in ("four", "five", "six"):
                await docx.ok("docx_insert_paragraph", session_id=docx.session_id, text=text,
                              position="end:document_body")
            history = await docx.ok("docx_get_history", session_id=docx.session_id)
    assert [level for level, _ in log.messages] == ["warning"] and "oldest 1 step(s)" in log.messages[0][1]
    assert "(4 older step(s) dropped by the history limit)" in history.text  # still counted
