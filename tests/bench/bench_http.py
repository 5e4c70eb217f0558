"""End-to-end latency of an HTTP tool call against a loopback upstream.

Run: python tests/bench/bench_http.py [N]
The upstream (tests/http_upstream.py) and the HTTP server run in processes of their own.
Prints median and p95 for: the template render alone, the dispatcher in-process (request +
template + answer), the MCP client in-process, and the MCP client over Streamable HTTP (server in a subprocess).
"""
from __future__ import annotations

import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx2  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

import server  # noqa: E402
from render import gotemplate  # noqa: E402
from tests.http_upstream import USER  # noqa: E402
from tools.config.loading import parse_config  # noqa: E402
from tools.runtime.call.dispatch import run_tool  # noqa: E402
from tools.http.tools import close_clients  # noqa: E402
from tools.runtime.call.registry import CallContext  # noqa: E402
from tools.services import Services  # noqa: E402

TEMPLATE = """{{ .data.name }} <{{ .data.email }}>
{{- range $i, $r := .data.roles }}
- {{ $i }}: {{ $r }}{{ end }}"""


def report(label: str, samples_s: list[float]) -> None:
    ms = sorted(s * 1000 for s in samples_s)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"{label:<34} median {statistics.median(ms):8.3f} ms   p95 {p95:8.3f} ms   (n={len(ms)})")


async def timed(n: int, once) -> list[float]:
    for _ in range(min(20, n)):  # warm-up: connections, caches
        await once()
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        await once()
        samples.append(time.perf_counter() - t)
    return samples


def bench_render(n: int) -> None:
    template = gotemplate.get_template(TEMPLATE)
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        template.render(USER)
        samples.append(time.perf_counter() - t)
    report("template render only", samples)


async def bench_dispatch(services: Services, n: int) -> None:
    tool = services.all_tools()["get_user"]
    ctx = CallContext(None, services)

    async def once():
        out = await run_tool(tool, "get_user", {}, ctx)
        assert not out.is_error, out.text
    try:
        report("dispatcher in-process", await timed(n, once))
    finally:
        await close_clients()


async def bench_client(services: Services, n: int) -> None:
    async with Client(server.build_server(services), cache=None) as client:
        await client.list_tools()

        async def once():
            assert not (await client.call_tool("get_user", {})).is_error
        report("MCP client in-process", await timed(n, once))
    await close_clients()


async def bench_http_client(url: str, n: int) -> None:
    async with httpx2.AsyncClient() as http, \
            Client(streamable_http_client(url, http_client=http), cache=None) as client:
        await client.list_tools()

        async def once():
            assert not (await client.call_tool("get_user", {})).is_error
        report("MCP client over Streamable HTTP", await timed(n, once))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(config_path: Path) -> tuple[subprocess.Popen, str]:
    """The real server in its own process, as deployed (in a thread of this process, the GIL
    hand-offs between its loop and the client's add tens of milliseconds per call)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(ROOT / "server.py"), "--transport", "streamable-http",
                             "--port", str(port), "--config", str(config_path)], cwd=config_path.parent)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


def upstream_process() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "http_upstream.py")],
                            stdout=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline().strip()


def main(n: int = 300) -> None:
    upstream, upstream_url = upstream_process()
    try:
        run_all(n, upstream_url)
    finally:
        upstream.terminate()
        upstream.wait(10)
        upstream.stdout.close()


def run_all(n: int, upstream_url: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        raw = {"http_tools": [{"name": "get_user", "endpoint": upstream_url + "/user", "response_template": TEMPLATE}]}
        config_path = Path(tmp) / "config.json"
        config_path.write_text(json.dumps(raw))
        services = Services(roots=[Path(tmp)], config=parse_config(raw, base_dir=Path(tmp), env={}))
        bench_render(n * 10)
        asyncio.run(bench_dispatch(services, n))
        asyncio.run(bench_client(services, n))
        proc, url = serve(config_path)
        try:
            asyncio.run(bench_http_client(url, n))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
