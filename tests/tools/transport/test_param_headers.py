"""2026-07-28 tools/call over Streamable HTTP: the SDK checks Mcp-Param-* headers only against a
tool schema that declares one (x-mcp-header). Walking an editing tool's whole schema on every call
cost the HTTP editing call what the trivial call (no arguments) did not pay (issue 21)."""
from __future__ import annotations

import mcp.server._streamable_http_modern as modern
import pytest

from tests.support.http_server import http_client, http_server
from tools.services import Services
from tools.transport.param_headers import schema_to_check

pytestmark = pytest.mark.anyio


async def test_an_editing_call_is_not_checked_against_headers_its_tool_does_not_declare(tmp_path, monkeypatch):
    checked = []
    validate = modern.validate_mcp_param_headers
    monkeypatch.setattr(modern, "validate_mcp_param_headers",
                        lambda schema, *rest: (checked.append(schema), validate(schema, *rest))[1])
    with http_server(Services(roots=[tmp_path])) as url:
        async with http_client(url, "auto", [tmp_path]) as docx:
            await docx.create()
            inserted = await docx.ok("docx_insert_paragraph", session_id=docx.session_id, text="One",
                                     position="end:document_body")
    assert inserted.head["Element ID"].startswith("para_")
    assert checked == []


def test_a_schema_that_declares_a_header_is_still_checked():
    declared = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
    plain = {"type": "object", "properties": {"region": {"type": "string"}}}
    assert schema_to_check(declared) is declared
    assert schema_to_check(plain) is None
