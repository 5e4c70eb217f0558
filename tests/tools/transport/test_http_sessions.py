"""Over Streamable HTTP a document session belongs to whoever opened it, and ends with it.

Both MCP protocol generations: 'legacy' is the 2025-11-25 initialize handshake (an MCP
session, Mcp-Session-Id), 'auto' settles on 2026-07-28 (no MCP session: the tenant alone,
or nobody).
"""
from __future__ import annotations

import json
import re
import time

import anyio
import pytest

from tests.builders import build_docx, p
from tests.support.client import read_body, texts
from tests.support.http_server import MODES, http_client, http_server
from tools.runtime.call.audit import AuditLog
from tools.services import Services

pytestmark = pytest.mark.anyio
IDLE_S = 2.0  # idle-timeout tests: longer than two back-to-back calls take on a loaded machine


def services_in(tmp_path, audit=None, **limits) -> Services:
    return Services(roots=[tmp_path], limit_overrides=limits, audit=audit)


def document(tmp_path, name="report.docx", text="Original text"):
    return build_docx(tmp_path / name, p(text))


async def wait_until(condition, seconds: float = 120.0) -> bool:
    """Polls ``condition`` (generous bound: only a broken server waits it out on a loaded machine)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        await anyio.sleep(0.05)
    return condition()


# ---- identity ------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
async def test_another_client_neither_lists_nor_reaches_a_session_by_leaving_out_its_id(tmp_path, mode):
    path = document(tmp_path)
    original = path.read_bytes()
    services = services_in(tmp_path)
    with http_server(services) as url:
        async with http_client(url, mode, [tmp_path]) as a, http_client(url, mode, [tmp_path]) as b:
            opened = await a.open(path)
            listed = await b.ok("docx_list_sessions")
            intrusion = await b.call("docx_insert_paragraph", text="intruder", position="end:document_body")
            saved = await b.call("docx_save")
    assert a.session_id not in listed.text and listed.head["Sessions"] == "0"
    expected = "SessionNotFound" if mode == "legacy" else "ValidationError"  # legacy: B has none of its own
    assert intrusion.is_error and intrusion.error_type == expected
    assert saved.is_error and saved.error_type == expected
    assert opened.head["Session ID"] == a.session_id and path.read_bytes() == original


async def test_without_tenants_a_2026_client_must_name_the_session(tmp_path):
    services = services_in(tmp_path)
    with http_server(services) as url:
        async with http_client(url, "auto", [tmp_path]) as a:
            await a.create()
            omitted = await a.call("docx_insert_paragraph", text="x", position="end:document_body")
            named = await a.call("docx_insert_paragraph", session_id=a.session_id, text="x",
                                 position="end:document_body")
            listed = await a.ok("docx_list_sessions")
    assert omitted.error_type == "ValidationError" and "session_id is required" in omitted.head["Message"]
    assert "Session ID" in omitted.head["Hint"]
    assert not named.is_error and listed.head["Sessions"] == "0"


async def test_a_2025_session_belongs_to_its_mcp_session_not_to_other_clients_naming_it(tmp_path):
    path = document(tmp_path)
    original = path.read_bytes()
    services = services_in(tmp_path)
    with http_server(services) as url:
        async with http_client(url, "legacy", [tmp_path]) as a:
            await a.open(path)
            own = await a.ok("docx_list_sessions")
            for mode in MODES:
                async with http_client(url, mode, [tmp_path]) as b:
                    used = await b.call("docx_insert_paragraph", session_id=a.session_id, text="intruder",
                                        position="end:document_body")
                    closed = await b.call("docx_close", session_id=a.session_id)
                    assert used.error_type == "SessionNotFound" and closed.error_type == "SessionNotFound", mode
            still = await a.ok("docx_read_content", session_id=a.session_id)
    assert a.session_id in own.text and "intruder" not in still.text and path.read_bytes() == original


async def test_with_tenants_a_2026_session_belongs_to_the_tenant_and_a_2025_one_to_its_mcp_session(
        tmp_path, monkeypatch):
    from tools.config.reload import apply_config_file
    monkeypatch.setenv("TEST_ACME_TOKEN", "acme-secret-token")
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"tenants": {"acme": {"token_env": "TEST_ACME_TOKEN"}}}))
    services = services_in(tmp_path)
    apply_config_file(services, config)
    with http_server(services) as url:
        async with http_client(url, "auto", [tmp_path], "acme-secret-token") as modern, \
                http_client(url, "auto", [tmp_path], "acme-secret-token") as modern2, \
                http_client(url, "legacy", [tmp_path], "acme-secret-token") as legacy:
            await modern.create()
            await legacy.create()
            seen_by_modern2 = await modern2.ok("docx_list_sessions")
            used_by_modern2 = await modern2.call("docx_insert_paragraph", text="by the tenant",
                                                 position="end:document_body")
            reached = await modern2.call("docx_read_content", session_id=legacy.session_id)
            seen_by_legacy = await legacy.ok("docx_list_sessions")
    assert modern.session_id in seen_by_modern2.text and legacy.session_id not in seen_by_modern2.text
    assert not used_by_modern2.is_error  # the tenant's only session: reachable by leaving out the id
    assert reached.error_type == "SessionNotFound"
    assert legacy.session_id in seen_by_legacy.text and modern.session_id not in seen_by_legacy.text


async def test_session_ids_carry_at_least_64_random_bits(docx):
    ids = {(await docx.ok("docx_create")).head["Session ID"] for _ in range(20)}
    assert len(ids) == 20
    for sid in ids:
        assert re.fullmatch(r"doc_[0-9a-f]{16,}", sid), sid


async def test_a_blank_session_id_is_a_validation_error(docx, tmp_path):
    path = document(tmp_path)
    original = path.read_bytes()
    await docx.open(path)
    answer = await docx.call("docx_insert_paragraph", session_id="   ", text="x", position="end:document_body")
    await docx.ok("docx_save", session_id=docx.session_id)
    assert answer.error_type == "ValidationError" and "blank" in answer.head["Message"]
    assert answer.head.get("Hint")
    assert texts(read_body(path)) == "Original text" and original != path.read_bytes()  # saved, unchanged text


# ---- lifetime ------------------------------------------------------------------------------------

async def test_clients_that_disconnect_without_closing_do_not_lock_everyone_out(tmp_path):
    services = services_in(tmp_path)
    with http_server(services) as url:
        for _ in range(66):  # the old limit was 64 per tenant, forever
            async with http_client(url, "legacy", [tmp_path]) as gone:
                await gone.create()
        assert await wait_until(lambda: not services.sessions.all())
        async with http_client(url, "legacy", [tmp_path]) as late:
            answer = await late.call("docx_create")
    assert not answer.is_error, answer.text


async def test_a_session_ends_with_its_mcp_session_and_unsaved_changes_go_to_a_recovery_file(tmp_path):
    path = document(tmp_path)
    original = path.read_bytes()
    services = services_in(tmp_path, audit=AuditLog(tmp_path / "audit.jsonl"))
    with http_server(services) as url:
        async with http_client(url, "legacy", [tmp_path]) as a:
            await a.open(path)
            await a.ok("docx_insert_paragraph", text="Unsaved work", position="end:document_body")
        assert await wait_until(lambda: not services.sessions.all())  # DELETE ended the MCP session
        async with http_client(url, "legacy", [tmp_path]) as b:
            reopened = await b.open(path)
    recovery = tmp_path / "~$report.recovered.docx"
    assert path.read_bytes() == original
    assert "Unsaved work" in texts(read_body(recovery))
    assert recovery.name in reopened.head["Recovered"] and "MCP session ended" in reopened.head["Recovered"]
    events = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    ended = [e for e in events if e.get("event") == "session_ended" and e["recovery"]]
    assert len(ended) == 1 and ended[0]["recovery"] == str(recovery) and ended[0]["file"] == str(path)


@pytest.mark.parametrize("mode", MODES)
async def test_idle_sessions_end_after_the_timeout_with_a_recovery_file(tmp_path, mode):
    path = document(tmp_path)
    original = path.read_bytes()
    services = services_in(tmp_path, session_idle_timeout_s=IDLE_S)
    with http_server(services, reaper=True) as url:
        async with http_client(url, mode, [tmp_path]) as a:
            await a.open(path)
            await a.ok("docx_insert_paragraph", session_id=a.session_id, text="Typed, then left",
                       position="end:document_body")
            assert await wait_until(lambda: not services.sessions.all())
        async with http_client(url, mode, [tmp_path]) as b:
            gone = await b.call("docx_read_content", session_id=a.session_id)
            reopened = await b.open(path)
    assert gone.error_type == "SessionNotFound"
    assert path.read_bytes() == original
    assert "Typed, then left" in texts(read_body(tmp_path / "~$report.recovered.docx"))
    assert "idle" in reopened.head["Recovered"]


async def test_a_new_unsaved_document_is_recovered_in_the_first_root_without_replacing_older_recoveries(tmp_path):
    services = services_in(tmp_path, session_idle_timeout_s=IDLE_S)
    with http_server(services, reaper=True) as url:
        for text in ("first draft", "second draft"):
            async with http_client(url, "auto", [tmp_path]) as a:
                await a.create()
                await a.ok("docx_insert_paragraph", session_id=a.session_id, text=text, position="end:document_body")
                assert await wait_until(lambda: not services.sessions.all())
    found = sorted(tmp_path.glob("~$new-document-*.recovered*.docx"))
    assert sorted(texts(read_body(f)) for f in found) == ["first draft", "second draft"]


async def test_a_saved_session_that_ends_leaves_no_recovery_file(tmp_path):
    path = document(tmp_path)
    services = services_in(tmp_path)
    with http_server(services) as url:
        async with http_client(url, "legacy", [tmp_path]) as a:
            await a.open(path)
            await a.ok("docx_insert_paragraph", text="Saved work", position="end:document_body")
            await a.ok("docx_save")
        assert await wait_until(lambda: not services.sessions.all())
    assert not list(tmp_path.glob("~$*")) and "Saved work" in texts(read_body(path))


async def test_a_file_reopened_while_its_recovery_file_is_written_is_told_of_it(tmp_path, monkeypatch):
    """The old session is gone from the list before its recovery file is written: the reopen waits."""
    import tools.runtime.sessions.lifetime as lifetime
    real = lifetime.write_recovery

    def slow_write_recovery(services, session):
        time.sleep(1.5)
        return real(services, session)

    monkeypatch.setattr(lifetime, "write_recovery", slow_write_recovery)
    path = document(tmp_path)
    services = services_in(tmp_path)
    with http_server(services) as url:
        async with http_client(url, "legacy", [tmp_path]) as a:
            await a.open(path)
            await a.ok("docx_insert_paragraph", text="Unsaved work", position="end:document_body")
        assert await wait_until(lambda: not services.sessions.all())
        async with http_client(url, "legacy", [tmp_path]) as b:
            reopened = await b.open(path)
    assert "~$report.recovered.docx" in reopened.head["Recovered"], reopened.text[:400]
