"""--roots-from-client: over stdio the client's roots become the sandbox (within --root); over HTTP
client roots never widen it. Through the SDK client (2025-11-25: roots/list is a server request)."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.builders import build_docx, p
from tests.support.client import DocxClient
from tests.support.http_server import http_server
from tools.runtime.sessions.roots import ClientRoots
from tools.services import Services

pytestmark = pytest.mark.anyio
REPO = Path(__file__).resolve().parents[3]


class Roots:
    """The client's roots, changeable during the test."""

    def __init__(self, *folders: Path):
        self.folders = list(folders)
        self.asked = 0

    async def __call__(self, context) -> types.ListRootsResult:
        self.asked += 1
        return types.ListRootsResult(roots=[types.Root(uri=f.as_uri()) for f in self.folders])


def documents(*folders: Path) -> list[Path]:
    out = []
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        build_docx(folder / "a.docx", p("Hello"))
        out.append(folder / "a.docx")
    return out


async def opened(docx: DocxClient, path: Path) -> str:
    answer = await docx.call("docx_open", file_path=str(path))
    return "ok" if not answer.is_error else answer.error_type


def stdio(tmp_path: Path, *args: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["server.py", "--roots-from-client", *args],
                                 cwd=str(REPO))


async def test_the_clients_roots_within_the_server_folders_become_the_sandbox(tmp_path):
    bound, outside = tmp_path / "bound", tmp_path / "outside"
    in_bound, in_sub, in_outside = documents(bound, bound / "sub", outside)
    roots = Roots(bound / "sub", outside)
    async with Client(stdio(tmp_path, "--root", str(bound)), cache=None, mode="legacy",
                      list_roots_callback=roots) as client:
        docx = DocxClient(client, [bound])
        seen = [await opened(docx, p) for p in (in_sub, in_bound, in_outside)]
        roots.folders = [bound]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await client.send_roots_list_changed()
        after_change = [await opened(docx, p) for p in (in_sub, in_bound, in_outside)]
    assert seen == ["ok", "PermissionDenied", "PermissionDenied"]
    assert after_change == ["ok", "ok", "PermissionDenied"]
    assert roots.asked == 2  # once at the first call, once after the change: not per call


async def test_without_root_the_clients_roots_are_the_sandbox(tmp_path):
    mine, other = documents(tmp_path / "mine", tmp_path / "other")
    async with Client(stdio(tmp_path), cache=None, mode="legacy",
                      list_roots_callback=Roots(tmp_path / "mine")) as client:
        docx = DocxClient(client, [tmp_path / "mine"])
        assert [await opened(docx, mine), await opened(docx, other)] == ["ok", "PermissionDenied"]


async def test_roots_outside_the_server_folders_leave_the_sandbox_and_say_so(tmp_path):
    bound, outside = tmp_path / "bound", tmp_path / "outside"
    in_bound, in_outside = documents(bound, outside)
    heard = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        heard.append((params.level, params.data))
    async with Client(stdio(tmp_path, "--root", str(bound)), cache=None, mode="legacy", logging_callback=on_log,
                      list_roots_callback=Roots(outside)) as client:
        docx = DocxClient(client, [bound])
        assert [await opened(docx, in_bound), await opened(docx, in_outside)] == ["ok", "PermissionDenied"]
    assert heard and heard[0][0] == "warning" and "keeping" in heard[0][1]


@pytest.mark.parametrize("mode", ["legacy"])  # 2026-07-28 has no roots/list
async def test_over_http_client_roots_never_widen_the_sandbox(tmp_path, mode):
    served, elsewhere = tmp_path / "served", tmp_path / "elsewhere"
    in_served, in_elsewhere = documents(served, elsewhere)
    services = Services(roots=[served], client_roots=ClientRoots([served]))  # as if --roots-from-client were given
    roots = Roots(elsewhere)
    with http_server(services) as url:
        async with httpx2.AsyncClient(timeout=60) as http, \
                Client(streamable_http_client(url, http_client=http), cache=None, mode=mode,
                       list_roots_callback=roots) as client:
            docx = DocxClient(client, [served])
            seen = [await opened(docx, in_served), await opened(docx, in_elsewhere)]
    assert seen == ["ok", "PermissionDenied"] and roots.asked == 0
