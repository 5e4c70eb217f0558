"""What tools/list costs an agent (SPEC §11): core by default, toolsets on demand, lean descriptions.

Sizes are the JSON bytes of the tools/list results as the client receives them, all pages.
"""
from __future__ import annotations

import json
import re
from contextlib import asynccontextmanager

import pytest
from mcp import Client
from mcp.types import ToolListChangedNotification

import server
from tools.runtime.call import toolsets as T
from tools.builtin import builtin
from tools.services import Services
from tests.support.client import DocxClient

pytestmark = pytest.mark.anyio
DEFAULT_LIST_MAX = 24 * 1024
TOOLSET_LIST_MAX = 40 * 1024
ALL_LIST_MAX = 40 * 1024  # every toolset at once (issue 29)


@asynccontextmanager
async def listing_client(tmp_path, toolsets=None, on_message=None):
    services = Services(roots=[tmp_path], toolsets=toolsets)
    # legacy: the stdio-like stream loop, where list_changed notifications reach the client
    async with Client(server.build_server(services), cache=None, message_handler=on_message,
                      mode="legacy") as client:
        yield DocxClient(client, [tmp_path], services)


async def listed(client) -> tuple[list[str], int]:
    """The names listed and the JSON bytes of every page, as received."""
    names, size, cursor = [], 0, None
    while True:
        page = await client.list_tools(cursor=cursor)
        size += len(page.model_dump_json(by_alias=True, exclude_none=True).encode())
        names += [t.name for t in page.tools]
        cursor = page.next_cursor
        if cursor is None:
            return names, size


async def test_default_list_is_the_core_toolset_under_24_kb(tmp_path):
    async with listing_client(tmp_path) as docx:
        names, size = await listed(docx.client)
    print(f"\ndefault tools/list: {len(names)} tools, {size} bytes")
    assert names == [t.name for t in builtin().values() if t.toolset == "core"]
    assert {"docx_batch", "docx_toolsets", "docx_open", "docx_save"} <= set(names)
    assert size <= DEFAULT_LIST_MAX


@pytest.mark.parametrize("toolset", T.names())
async def test_each_toolset_listed_alone_is_under_40_kb(tmp_path, toolset):
    async with listing_client(tmp_path, toolsets=[toolset]) as docx:
        names, size = await listed(docx.client)
    print(f"\ntools/list of toolset {toolset}: {len(names)} tools, {size} bytes")
    assert names and all(builtin()[n].toolset == toolset for n in names)
    assert size <= TOOLSET_LIST_MAX


async def test_all_lists_every_tool_and_is_measured(tmp_path):
    async with listing_client(tmp_path, toolsets=["all"]) as docx:
        names, size = await listed(docx.client)
    print(f"\ntools/list with all: {len(names)} tools, {size} bytes")
    assert names == list(builtin())
    assert size <= ALL_LIST_MAX


async def test_listed_schemas_leave_out_null_but_calls_may_send_it(tmp_path):
    async with listing_client(tmp_path, toolsets=["all"]) as docx:
        page = await docx.client.list_tools()
        own = [(t.name, k, p) for t in page.tools for k, p in t.input_schema["properties"].items()]
        assert own and [x for x in own if "null" in json.dumps([x[2].get(k, "") for k in ("type", "enum", "anyOf")])] == []
        fill = next(t for t in page.tools if t.name == "docx_fill_table")
        assert "null" in fill.input_schema["properties"]["data"]["items"]["items"]["type"]  # null skips a cell
        await docx.create()
        a = await docx.ok("docx_insert_paragraph", text="x", position="end:document_body", style=None, view=None)
        assert a.element_id.startswith("para_")


async def test_an_unknown_argument_is_refused_by_name(tmp_path):
    async with listing_client(tmp_path) as docx:
        await docx.create()
        bad = await docx.call("docx_insert_paragraph", text="x", position="end:document_body", colour="red")
        assert bad.is_error and bad.error_type == "ValidationError" and "colour" in bad.text


async def test_a_bad_view_names_the_views(tmp_path):
    async with listing_client(tmp_path) as docx:
        await docx.create()
        bad = await docx.call("docx_insert_paragraph", text="x", position="end:document_body", view="short")
        assert bad.is_error and all(v in bad.text for v in ("full", "compact", "none"))


async def test_docx_toolsets_changes_the_list_and_tells_the_client(tmp_path):
    told = []

    async def on_message(message):
        if isinstance(message, ToolListChangedNotification):
            told.append(message)
    async with listing_client(tmp_path, on_message=on_message) as docx:
        a = await docx.ok("docx_toolsets", enable=["tables"])
        assert a.head["Listed"] == "core, tables" and "layout" in a.head["Not Listed"]
        names, _ = await listed(docx.client)
        assert "docx_insert_table" in names and "docx_set_font" not in names
        await docx.ok("docx_toolsets", disable=["tables"])
        names, _ = await listed(docx.client)
        assert "docx_insert_table" not in names
        bad = await docx.call("docx_toolsets", enable=["tabels"])
        assert bad.is_error and bad.error_type == "ValidationError" and "tables" in bad.head["Hint"]
    assert len(told) == 2  # one per change, none for the refused call


async def test_a_tool_not_listed_still_runs(tmp_path):
    async with listing_client(tmp_path) as docx:
        names, _ = await listed(docx.client)
        assert "docx_insert_table" not in names
        await docx.create()
        a = await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body")
        assert a.element_id.startswith("table_")


def test_toolsets_flag_chooses_the_start():
    args = server.parse_args(["--toolsets", "core,tables"])
    assert args.toolsets == ["core", "tables"]
    assert T.at_start(server.make_services(args)) == {"core", "tables"}
    assert T.at_start(server.make_services(server.parse_args(["--toolsets", "all"]))) is None
    with pytest.raises(SystemExit):
        server.make_services(server.parse_args(["--toolsets", "core,tabels"]))


SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z'(])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(text) if len(s.strip()) >= 20]


def test_every_description_and_schema_is_lean():
    """One or two sentences per tool, arguments described only where the name does not say it,
    no sentence said by two tools (shared conventions are said once, in the server's instructions)."""
    seen: dict[str, str] = {}
    for tool in builtin().values():
        d = tool.description
        assert 30 <= len(d) <= 320 and "\n\n" not in d, f"{tool.name}: description of {len(d)} characters"
        assert len(sentences(d)) <= 3, f"{tool.name}: {len(sentences(d))} sentences"
        props = tool.input_schema["properties"]
        assert "description" not in props.get("session_id", {}), f"{tool.name}: session_id described"
        for name, prop in props.items():
            assert len(prop.get("description", "")) <= 400, f"{tool.name}.{name}: long argument description"
        size = len(json.dumps(server.to_mcp(tool).model_dump(by_alias=True, exclude_none=True)))
        assert size <= 1600, f"{tool.name}: {size} bytes listed"
        texts = [d] + [p["description"] for p in props.values() if "description" in p]
        for sentence in {s for text in texts for s in sentences(text)}:
            assert sentence not in seen, f"'{sentence}' said by {seen.get(sentence)} and {tool.name}"
            seen[sentence] = tool.name


def test_instructions_say_the_shared_conventions_once():
    text = server.build_server(Services(roots=[])).instructions
    for convention in ("last_insert", "MODE:TARGET", "document_body", "compact", "docx_toolsets", "docx_batch"):
        assert convention in text
    assert all(name in text for name in T.names())


async def test_over_http_the_list_is_per_mcp_session(tmp_path):
    """2025-11-25 clients: each MCP session has its own list; 2026-07-28 requests keep none."""
    from tests.support.http_server import http_client, http_server
    with http_server(Services(roots=[tmp_path])) as url:
        async with http_client(url, "legacy", [tmp_path]) as one, http_client(url, "legacy", [tmp_path]) as two:
            await one.ok("docx_toolsets", enable=["review"])
            assert "docx_add_comment" in (await listed(one.client))[0]
            assert "docx_add_comment" not in (await listed(two.client))[0]
        async with http_client(url, "auto", [tmp_path]) as modern:
            refused = await modern.call("docx_toolsets", enable=["review"])
            assert refused.is_error and "--toolsets" in refused.head["Hint"]
            shown = await modern.ok("docx_toolsets")  # asking what is listed needs no state
            assert shown.head["Listed"] == "core"
