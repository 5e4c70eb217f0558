"""The audit log: one JSON line per tools/call (successes, tool errors, protocol errors), secrets hidden."""
from __future__ import annotations

import json
import time
from datetime import datetime

import pytest
import yaml
from mcp import Client

import server
from tools.runtime.call.audit import AuditLog
from tools.config.reload import apply_config_file
from tools.runtime.call.dispatch import Outcome
from tools.services import Services

pytestmark = pytest.mark.anyio
SECRET = "env-secret-0123456789"


@pytest.fixture
def audited(tmp_path, monkeypatch):
    """An in-process client of a server whose config has an audit log; yields (client, read_lines)."""
    monkeypatch.setenv("AUDIT_ACME_TOKEN", "acme-token")
    monkeypatch.setenv("UPSTREAM_KEY", SECRET)
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({
        "audit_log": "audit.jsonl",
        "tenants": {"acme": {"token_env": "AUDIT_ACME_TOKEN"}},
        "http_tools": [{"name": "post_note", "method": "POST", "endpoint": "http://127.0.0.1:9/notes",
                        "headers": {"X-Api-Key": "${UPSTREAM_KEY}"},
                        "params": [{"name": "Authorization", "position": "header"},
                                   {"name": "note", "position": "body"},
                                   {"name": "extra", "type": "object", "position": "body"}]}]}))
    services = Services(roots=[tmp_path], stdio_tenant="acme")
    apply_config_file(services, path)

    def lines() -> list[dict]:
        return [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]

    async def client():
        return Client(server.build_server(services), cache=None)

    return client, lines


async def test_a_success_is_recorded(audited):
    client, lines = audited
    async with await client() as c:
        await c.call_tool("docx_create", {})
    (entry,) = lines()
    assert {k: entry[k] for k in ("tenant", "tool", "arguments", "outcome", "error_type")} == {
        "tenant": "acme", "tool": "docx_create", "arguments": {}, "outcome": "ok", "error_type": None}
    assert entry["duration_ms"] >= 0
    assert datetime.fromisoformat(entry["time"]).tzinfo is not None


async def test_a_tool_error_is_recorded(audited):
    client, lines = audited
    async with await client() as c:
        await c.call_tool("docx_close", {"session_id": "doc_nothere"})
    assert [(e["outcome"], e["error_type"]) for e in lines()] == [("error", "SessionNotFound")]


async def test_protocol_errors_are_recorded(audited):
    client, lines = audited
    async with await client() as c:
        await c.call_tool("docx_close", {"session_id": 5})
        await c.call_tool("no_such_tool", {"x": 1})
    assert [(e["tool"], e["error_type"]) for e in lines()] == [
        ("docx_close", "ValidationError"), ("no_such_tool", "ToolNotFound")]


async def test_secrets_are_redacted(audited):
    client, lines = audited
    async with await client() as c:
        result = await c.call_tool("post_note", {"Authorization": "Bearer abc", "note": f"key is {SECRET}",
                                                 "extra": {"password": "hunter2", "keep": "me"}})
    assert result.is_error  # nothing listens on port 9; the call is still audited
    (entry,) = lines()
    assert entry["arguments"] == {"Authorization": "[REDACTED]", "note": "key is [REDACTED]",
                                  "extra": {"password": "[REDACTED]", "keep": "me"}}
    assert SECRET not in json.dumps(entry) and "hunter2" not in json.dumps(entry)


async def test_long_values_are_truncated(audited):
    client, lines = audited
    long_path = "a" * 295 + ".docx"
    async with await client() as c:
        await c.call_tool("docx_create", {"file_path": long_path})
    assert lines()[0]["arguments"]["file_path"] == "a" * 200 + "…(300 chars)"


def test_size_rotation_keeps_a_bounded_number_of_files(tmp_path):
    log = AuditLog(tmp_path / "audit.jsonl", max_bytes=1000, backups=2)
    for i in range(60):
        log.record(tenant=None, tool=f"tool_{i:02d}", arguments={"i": i}, outcome=Outcome("", False),
                   started=time.perf_counter())
    log.close()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2"]
    assert all((tmp_path / f).stat().st_size <= 1000 for f in files)
    newest = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert newest[-1]["tool"] == "tool_59"


def test_a_line_is_on_disk_when_record_returns(tmp_path):
    log = AuditLog(tmp_path / "audit.jsonl")
    log.record(tenant="t", tool="x", arguments={}, outcome=Outcome("", True, "Timeout"), started=time.perf_counter())
    # Read through another handle without closing the log: nothing waits in a buffer.
    entry = json.loads((tmp_path / "audit.jsonl").read_text())
    assert (entry["outcome"], entry["error_type"]) == ("error", "Timeout")
    log.close()
