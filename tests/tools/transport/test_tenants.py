"""Tenants over Streamable HTTP: the real server on a loopback port, one bearer token per tenant."""
from __future__ import annotations

from contextlib import asynccontextmanager

import httpx2
import pytest
import yaml
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.support.answer_validator import errors, parse_head
from tools.config.reload import apply_config_file
from tools.builtin import builtin
from tools.services import Services
from tests.support.http_server import http_server

pytestmark = pytest.mark.anyio
TOKENS = {"acme": "acme-secret-token", "beta": "beta-secret-token"}
ACME_TOOLS = [f"acme_tool_{i:03d}" for i in range(150)]


def config_for(tmp) -> dict:
    tool = lambda name, tenants: {"name": name, "endpoint": "http://127.0.0.1:9/x", "tenants": tenants}  # noqa: E731
    return {
        "tenants": {"acme": {"token_env": "TEST_ACME_TOKEN"}, "beta": {"token_env": "TEST_BETA_TOKEN"}},
        "http_tools": [*(tool(n, ["acme"]) for n in ACME_TOOLS), tool("beta_only", ["beta"]),
                       {"name": "shared_ping", "endpoint": "http://127.0.0.1:9/ping"}],
    }


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tenants")
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump(config_for(tmp)))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TEST_ACME_TOKEN", TOKENS["acme"])
        mp.setenv("TEST_BETA_TOKEN", TOKENS["beta"])
        services = Services(roots=[tmp])
        apply_config_file(services, path)
    with http_server(services) as served:
        yield served


@asynccontextmanager
async def connect(url: str, tenant: str):
    headers = {"Authorization": f"Bearer {TOKENS[tenant]}"}
    async with httpx2.AsyncClient(headers=headers) as http, \
            Client(streamable_http_client(url, http_client=http), cache=None) as client:
        yield client


async def all_pages(client) -> list[list[str]]:
    pages, cursor = [], None
    while True:
        page = await client.list_tools(cursor=cursor)
        pages.append([t.name for t in page.tools])
        cursor = page.next_cursor
        if cursor is None:
            return pages


async def call(client, name: str, **arguments) -> tuple[bool, str]:
    result = await client.call_tool(name, arguments)
    text = result.content[0].text
    assert errors(text) == [], text
    return result.is_error, text


async def test_acme_pages_through_its_150_tools(url):
    async with connect(url, "acme") as client:
        pages = await all_pages(client)
    core = [name for name, t in builtin().items() if t.toolset == "core"]  # listed by default, with HTTP tools
    total = len(core) + 151  # pages of 100, the last one partial
    assert [len(p) for p in pages] == [100] * (total // 100) + ([total % 100] if total % 100 else [])
    assert sum(pages, []) == [*core, *ACME_TOOLS, "shared_ping"]


async def test_beta_sees_only_its_own_and_shared_tools(url):
    async with connect(url, "beta") as client:
        pages = await all_pages(client)
    core = [name for name, t in builtin().items() if t.toolset == "core"]
    assert pages == [[*core, "beta_only", "shared_ping"]]


async def test_a_tenant_cannot_call_another_tenants_tool(url):
    async with connect(url, "beta") as client:
        await all_pages(client)
        is_error, text = await call(client, "acme_tool_000")
    assert is_error and parse_head(text)["Error Type"] == "ToolNotFound"


async def test_sessions_are_per_tenant(url):
    async with connect(url, "acme") as acme, connect(url, "beta") as beta:
        _, created = await call(acme, "docx_create")
        session_id = parse_head(created)["Session ID"]
        _, acme_list = await call(acme, "docx_list_sessions")
        _, beta_list = await call(beta, "docx_list_sessions")
        is_error, closed = await call(beta, "docx_close", session_id=session_id)
    assert session_id in acme_list and session_id not in beta_list
    assert is_error and parse_head(closed)["Error Type"] == "SessionNotFound"


async def test_garbage_cursor_is_an_invalid_params_error(url):
    async with connect(url, "acme") as client:
        with pytest.raises(MCPError) as e:
            await client.list_tools(cursor="not-a-cursor")
    assert e.value.code == -32602


def initialize(url: str, token: str | None, session_id: str | None = None) -> httpx2.Response:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if session_id:
        headers["mcp-session-id"] = session_id
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize" if not session_id else "tools/list",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}} if not session_id else {}}
    return httpx2.post(url, json=body, headers=headers)


@pytest.mark.parametrize("token", [None, "a-third-token", "Bearer"])
def test_missing_or_unknown_token_is_refused(url, token):
    response = initialize(url, token)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")


async def test_the_sdk_client_with_an_unknown_token_fails(url):
    async with httpx2.AsyncClient(headers={"Authorization": "Bearer a-third-token"}) as http:
        with pytest.raises(BaseException) as e:  # the SDK wraps it in task-group ExceptionGroups
            async with Client(streamable_http_client(url, http_client=http), cache=None) as client:
                await client.list_tools()
    assert "Unauthorized: send 'Authorization: Bearer <token>'" in repr(e.value)


def test_another_tenants_mcp_session_id_is_refused(url):
    session_id = initialize(url, TOKENS["acme"]).headers["mcp-session-id"]
    assert initialize(url, TOKENS["acme"], session_id).status_code == 200
    assert initialize(url, TOKENS["beta"], session_id).status_code == 404
