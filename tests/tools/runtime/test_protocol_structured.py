"""Opt-in structured output (config answers.structured): the head as structuredContent under one shared
outputSchema, beside the unchanged Markdown text; off by default."""
from __future__ import annotations

import json

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.support.client import open_client
from tests.support.http_server import MODES, http_server
from tools.config.reload import apply_config_file
from tools.services import Services
from tools.runtime.protocol.structured import SCHEMA

pytestmark = pytest.mark.anyio


def structured_services(tmp_path) -> Services:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"answers": {"structured": True}}))
    services = Services(roots=[tmp_path])
    apply_config_file(services, config)
    return services


async def calls(client: Client):
    tools = (await client.list_tools()).tools
    created = await client.call_tool("docx_create", {})
    sid = created.structured_content["sessionId"]
    inserted = await client.call_tool("docx_insert_paragraph", {"session_id": sid, "text": "x",
                                                                "position": "end:document_body"})
    failed = await client.call_tool("docx_delete", {"session_id": sid, "element_id": "para_000000"})
    return tools, sid, inserted, failed


async def check(tools, sid, inserted, failed) -> None:
    assert {json.dumps(t.output_schema, sort_keys=True) for t in tools} == {json.dumps(SCHEMA, sort_keys=True)}
    assert inserted.structured_content == {"status": "success", "operation": "Insert Paragraph", "sessionId": sid,
                                           "elementId": inserted.structured_content["elementId"]}
    assert inserted.structured_content["elementId"].startswith("para_")
    assert f"**Element ID**: {inserted.structured_content['elementId']}" in inserted.content[0].text
    assert failed.is_error and failed.structured_content["status"] == "error"
    assert failed.structured_content["errorType"] == "ElementNotFound" and failed.structured_content["hint"]


async def test_the_head_comes_as_structured_content_when_the_config_asks(tmp_path):
    services = structured_services(tmp_path)
    async with Client(__import__("server").build_server(services), cache=None) as client:
        await check(*await calls(client))


async def test_off_by_default(tmp_path):
    async with open_client([tmp_path]) as docx:
        tools = (await docx.client.list_tools()).tools
        created = await docx.client.call_tool("docx_create", {})
    assert all(t.output_schema is None for t in tools) and created.structured_content is None


@pytest.mark.parametrize("mode", MODES)
async def test_structured_output_over_http(tmp_path, mode):
    with http_server(structured_services(tmp_path)) as url:
        async with httpx2.AsyncClient(timeout=60) as http, \
                Client(streamable_http_client(url, http_client=http), cache=None, mode=mode) as client:
            await check(*await calls(client))


def test_a_structured_flag_that_is_not_a_boolean_is_a_config_error(tmp_path):
    from tools.config.model import ConfigError
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"answers": {"structured": "yes"}}))
    with pytest.raises(ConfigError) as e:
        apply_config_file(Services(roots=[tmp_path]), config)
    assert any("answers.structured" in str(f) for f in e.value.findings)


async def test_a_json_answer_brings_its_document_as_data_and_a_markdown_one_none(tmp_path):
    async with Client(__import__("server").build_server(structured_services(tmp_path)), cache=None) as client:
        sid = (await client.call_tool("docx_create", {})).structured_content["sessionId"]
        await client.call_tool("docx_insert_paragraph", {"session_id": sid, "text": "x", "position": "end:document_body"})
        as_json = await client.call_tool("docx_changes", {"session_id": sid, "format": "json"})
        as_markdown = await client.call_tool("docx_changes", {"session_id": sid})
    fenced = as_json.content[0].text.split("```json\n", 1)[1].split("\n```", 1)[0]
    assert as_json.structured_content["data"] == json.loads(fenced) and json.loads(fenced)["changes"]
    assert "data" not in as_markdown.structured_content


async def test_a_batch_lists_the_ids_its_calls_made_as_element_ids(tmp_path):
    async with Client(__import__("server").build_server(structured_services(tmp_path)), cache=None) as client:
        sid = (await client.call_tool("docx_create", {})).structured_content["sessionId"]
        batch = await client.call_tool("docx_batch", {"session_id": sid, "calls": [
            {"tool": "docx_insert_paragraph", "arguments": {"text": t, "position": "end:document_body"}}
            for t in ("one", "two")]})
    made = batch.structured_content["elementIds"]
    assert len(made) == 2 and all(i.startswith("para_") for i in made)
    assert f"**Element IDs**: {', '.join(made)}" in batch.content[0].text
