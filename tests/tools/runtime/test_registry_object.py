"""The registry is an object built from an explicit list of tool modules and held by Services; each
tool has a kind, and what docx_batch refuses derives from it."""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import server
from tools import catalog
from tools.builtin import builtin
from tools.runtime.call.registry import KINDS, Registry, tool, unit_of_work
from tools.services import Services

ROOT = Path(server.__file__).resolve().parent


def test_every_module_defining_tools_is_in_the_catalog_list():
    defining = {p.stem for p in (ROOT / "tools" / "docx").glob("*.py") if "\n@tool(" in p.read_text(encoding="utf-8")}
    listed = {m.__name__.rpartition(".")[2] for m in catalog.MODULES}
    assert defining and defining <= listed


def test_tool_describes_a_function_and_registers_nothing(tmp_path):
    def docx_never_listed(ctx, session_id: str | None) -> str:
        """Test only."""

    described = tool(kind="meta")(docx_never_listed).tool
    assert described.name == "docx_never_listed" and "docx_never_listed" not in builtin()
    assert Registry([described])["docx_never_listed"] is described


def test_services_hold_the_built_in_registry(tmp_path):
    services = Services(roots=[tmp_path])
    assert isinstance(services.registry, Registry) and services.registry is builtin()
    assert services.tool_named("docx_open") is builtin()["docx_open"]


def test_every_tool_has_a_kind_and_edits_are_the_tools_with_an_edit():
    tools = builtin()
    assert {t.kind for t in tools.values()} == set(KINDS)
    with_edit = {n for n, t in tools.items() if unit_of_work(inspect.unwrap(t.handler)) is not None}
    assert {t.name for t in tools.of_kind("edit")} == with_edit - {"docx_batch"} | {"docx_cursor_move"}
    assert all(t.kind == "read" for t in tools.values() if t.read_only)


@pytest.mark.anyio
async def test_a_batch_refuses_exactly_the_tools_that_are_not_edits(docx):
    await docx.create()
    refused = set()
    for name in builtin():
        answer = await docx.call("docx_batch", calls=[{"tool": name, "arguments": {}}])
        if "cannot run inside a batch" in answer.text:
            refused.add(name)
    assert refused == {t.name for t in builtin().values() if t.kind != "edit"}
    assert {"docx_save", "docx_undo", "docx_batch", "docx_get_context"} <= refused
