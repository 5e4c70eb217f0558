"""The tools driven end to end through the SDK's client over stdio against `python server.py`."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.support.answer_validator import errors, parse_head

pytestmark = pytest.mark.anyio
REPO = Path(__file__).resolve().parents[3]


async def test_stdio_session_edit_save_reopen(tmp_path):
    params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(tmp_path)],
                                   cwd=str(REPO))
    async with Client(params, cache=None) as client:
        tools = await client.list_tools()
        assert {"docx_open", "docx_insert_paragraph", "docx_save"} <= {t.name for t in tools.tools}

        async def call(name, **args):
            result = await client.call_tool(name, args)
            text = result.content[0].text
            assert not errors(text), text
            return result.is_error, parse_head(text), text

        _, head, _ = await call("docx_create")
        sid = head["Session ID"]
        _, head, _ = await call("docx_insert_heading", session_id=sid, text="Over stdio", level=1,
                                position="end:document_body")
        heading = head["Element ID"]
        await call("docx_insert_paragraph", session_id=sid, text="Second", position="after:last_insert")
        is_error, head, _ = await call("docx_save", session_id=sid, file_path="stdio.docx")
        assert not is_error and (tmp_path / "stdio.docx").exists()
        is_error, head, _ = await call("docx_open", file_path="/etc/hostname")
        assert is_error and head["Error Type"] == "PermissionDenied"
        _, head, _ = await call("docx_open", file_path="stdio.docx")
        _, _, text = await call("docx_get_structure", session_id=head["Session ID"])
        assert f"H1 Over stdio ({heading})" in text
