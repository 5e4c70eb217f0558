"""Every way the server process stops keeps unsaved work in a recovery file and logs where
(issue 29 defect 1): SIGTERM (Docker, systemd, Kubernetes), SIGINT, SIGHUP without a config, over
Streamable HTTP and stdio; over stdio also the client closing stdin and the launching process dying.
Each test runs the real server process and reads the file it wrote and the log it printed."""
from __future__ import annotations

import re
import signal
import subprocess

import anyio
import pytest

from tests.builders import build_docx, p
from tests.support.client import read_body, texts
from tests.support.http_server import http_client
from tests.support.stdio_process import launched_stdio_server, stdio_server, wait_gone
from tests.support.workers import Worker

pytestmark = pytest.mark.anyio
EXIT_S = 60  # generous: a loaded machine is slow; a working server exits in about a second


def document(tmp_path):
    return build_docx(tmp_path / "report.docx", p("Original text"))


def assert_kept(tmp_path, log: str, text: str) -> None:
    """The recovery file beside the document has the edit, and the log names that file."""
    recovery = tmp_path / "~$report.recovered.docx"
    assert recovery.exists(), f"no recovery file; the server's log:\n{log}"
    assert text in texts(read_body(recovery))
    assert str(recovery) in log, log
    assert texts(read_body(tmp_path / "report.docx")) == "Original text"  # never over the original


# ---- Streamable HTTP -------------------------------------------------------------------------------

@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
async def test_a_signal_to_the_http_server_keeps_unsaved_work(tmp_path, sig):
    path = document(tmp_path)
    worker = Worker("w1", tmp_path, None).wait()
    try:
        async with http_client(worker.url, "auto", [tmp_path]) as client:
            await client.open(path)
            await client.ok("docx_insert_paragraph", session_id=client.session_id, text="Unsaved edit",
                            position="end:document_body")
        worker.proc.send_signal(sig)
        code = worker.proc.wait(EXIT_S)
        log = worker.output()
    finally:
        worker.stop()
    assert_kept(tmp_path, log, "Unsaved edit")
    assert code == 0, f"exit code {code}; log:\n{log}"


async def test_sigterm_keeps_the_work_of_a_client_still_connected(tmp_path):
    """A 2025-11-25 client with its MCP session (and stream) open when the stop comes."""
    path = document(tmp_path)
    worker = Worker("w1", tmp_path, None).wait()
    try:
        async with http_client(worker.url, "legacy", [tmp_path]) as client:
            await client.open(path)
            await client.ok("docx_insert_paragraph", text="Unsaved edit", position="end:document_body")
            worker.proc.send_signal(signal.SIGTERM)
            code = worker.proc.wait(EXIT_S)
        log = worker.output()
    finally:
        worker.stop()
    assert_kept(tmp_path, log, "Unsaved edit")
    assert code == 0, f"exit code {code}; log:\n{log}"


async def test_the_http_server_prints_where_it_listens(tmp_path):
    worker = Worker("w1", tmp_path, None).wait()
    try:
        log = worker.output()
    finally:
        worker.stop()
    assert re.search(rf"listening on http://127\.0\.0\.1:{worker.port}/mcp\b", log), log


# ---- stdio -------------------------------------------------------------------------------------------

def edit_over_stdio(server, path) -> None:
    server.initialize()
    server.call("docx_open", file_path=str(path))
    server.call("docx_insert_paragraph", text="Unsaved edit", position="end:document_body")


def test_stdio_client_closing_stdin_keeps_unsaved_work(tmp_path):
    path = document(tmp_path)
    with stdio_server(tmp_path) as (server, proc):
        edit_over_stdio(server, path)
        server.close_stdin()
        code = proc.wait(EXIT_S)
        log = server.output()
    assert_kept(tmp_path, log, "Unsaved edit")
    assert code == 0, log


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
def test_a_signal_to_the_stdio_server_keeps_unsaved_work(tmp_path, sig):
    path = document(tmp_path)
    with stdio_server(tmp_path) as (server, proc):
        edit_over_stdio(server, path)
        proc.send_signal(sig)
        try:
            code = proc.wait(EXIT_S)
        except subprocess.TimeoutExpired:
            code = None
        log = server.output()
    assert_kept(tmp_path, log, "Unsaved edit")
    assert code == 0, f"exit code {code}; log:\n{log}"


def test_stdio_server_whose_launcher_dies_keeps_unsaved_work(tmp_path):
    """The process that started the server is killed; the server's stdin stays open (this test
    holds it), so only the parent's going tells the server that nobody will come back."""
    path = document(tmp_path)
    folder = tmp_path / "launcher"
    folder.mkdir()
    with launched_stdio_server(tmp_path, folder) as (server, launcher):
        edit_over_stdio(server, path)
        launcher.kill()
        launcher.wait(EXIT_S)
        gone = wait_gone(server.pid, EXIT_S)
        log = server.output()
    assert gone, f"the server still runs {EXIT_S} s after its parent died; log:\n{log}"
    assert_kept(tmp_path, log, "Unsaved edit")


async def test_sighup_with_a_config_reloads_it_and_the_server_keeps_its_sessions(tmp_path):
    """With --config SIGHUP is the operator's reload (docs/config.md), not a stop."""
    path = document(tmp_path)
    config = tmp_path / "config.yaml"
    config.write_text("limits:\n  call_timeout_s: 60\n")
    worker = Worker("w1", tmp_path, None, extra=("--config", str(config))).wait()
    try:
        async with http_client(worker.url, "auto", [tmp_path]) as client:
            await client.open(path)
            worker.proc.send_signal(signal.SIGHUP)
            await anyio.sleep(1.0)
            still = await client.call("docx_insert_paragraph", session_id=client.session_id, text="After the reload",
                                      position="end:document_body")
        running = worker.proc.poll() is None
        ended = (tmp_path / "~$report.recovered.docx").exists()
    finally:
        worker.stop()  # SIGTERM: now the session ends, with its recovery file
    assert running and not still.is_error, still.text
    assert not ended
