"""The real server over Streamable HTTP on a loopback port, in a thread of the test process."""
from __future__ import annotations

import socket
import threading
import time
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import httpx2
import uvicorn
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

import server
from tests.support.client import DocxClient
from tests.support.services import READY_S
from tools.runtime.sessions.lifetime import Reaper

MODES = ("legacy", "auto")  # 2025-11-25 initialize handshake (MCP sessions) / 2026-07-28 (none)


@contextmanager
def http_server(services, *, reaper: bool = False):
    """Serve ``services`` at ``http://127.0.0.1:PORT/mcp``; yields the URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    app = server.http_app(server.build_server(services), services, "127.0.0.1")
    userver = uvicorn.Server(uvicorn.Config(app, log_level="warning", proxy_headers=False))  # as server.serve_http
    thread = threading.Thread(target=userver.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + READY_S  # polled: a loaded machine may take long to start it
    while not userver.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert userver.started, f"the HTTP server did not start within {READY_S} s"
    reaping = Reaper(services).start() if reaper else None
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    finally:
        if reaping:
            reaping.stop()
        userver.should_exit = True
        thread.join(10)


@asynccontextmanager
async def http_client(url: str, mode: str, roots: list[Path], token: str | None = None, headers: dict | None = None):
    """A DocxClient over Streamable HTTP; ``mode`` is 'legacy' (2025-11-25) or 'auto' (2026-07-28)."""
    headers = {**(headers or {}), **({"Authorization": f"Bearer {token}"} if token else {})}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http, \
            Client(streamable_http_client(url, http_client=http), cache=None, mode=mode) as client:
        yield DocxClient(client, roots)
