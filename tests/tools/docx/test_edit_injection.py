"""An editing tool declares ``e: Edit`` and ``@tool`` opens its unit of work (tools/docx/protocol.py):
no tool opens one itself, and the Edit is no argument an agent sees or may send."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from mcp import Client

import server
from tools.services import Services
from tests.support.registered import editing_tools

pytestmark = pytest.mark.anyio
ROOT = Path(server.__file__).resolve().parent
# Sessions, files, history, listing: no edit of a document (tests/tools/docx/test_tool_protocol.py NOT_EDITS).
NOT_EDITS = {"docx_open", "docx_create", "docx_close", "docx_save", "docx_export_markdown", "docx_cursor_move",
             "docx_undo", "docx_redo", "docx_toolsets"}
OPENS = re.compile(r"with editing\(|\bEdit\(ctx|return e\.answer")


def test_no_tool_module_opens_its_own_unit_of_work():
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "tools").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if OPENS.search(line)]
    assert found == []


def test_every_editing_tool_gets_its_unit_of_work_from_tool():
    from tools.builtin import builtin
    from tools.runtime.call.registry import unit_of_work
    tools = builtin()
    plain = {n for n in editing_tools() if unit_of_work(inspect.unwrap(tools[n].handler)) is None}
    assert plain == NOT_EDITS


async def test_the_edit_is_in_no_listed_schema(tmp_path):
    async with Client(server.build_server(Services(roots=[tmp_path], toolsets=["all"])), cache=None) as client:
        listed, cursor = [], None
        while True:
            page = await client.list_tools(cursor=cursor)
            listed += page.tools
            cursor = page.next_cursor
            if cursor is None:
                break
    with_e = [t.name for t in listed if "e" in t.input_schema.get("properties", {})
              or "e" in t.input_schema.get("required", [])]
    assert len(listed) > 50 and with_e == []


async def test_an_argument_named_e_is_refused(docx):
    await docx.create()
    answer = await docx.call("docx_insert_paragraph", text="x", position="end:document_body", e="sneaky")
    assert answer.is_error and "'e'" in answer.text


async def test_a_tool_opening_on_use_checks_its_arguments_before_the_session(docx):
    """docx_check validates ``rules`` first, as it did before it got its Edit (open_on_use)."""
    answer = await docx.call("docx_check", session_id="doc_99", rules=["nonsense"])
    assert answer.is_error and "nonsense" in answer.text and "doc_99" not in answer.text
