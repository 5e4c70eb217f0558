"""HTTP load: concurrent clients editing their own documents, beside the trivial-call floor.

Run: python tests/bench/bench_http_load.py [--clients 8,32] [--seconds 5] [--mode auto|legacy] [--baseline DIR]

The server runs in its own process on a loopback port (as deployed); the clients run here,
one MCP client each (Streamable HTTP). For every concurrency level, in the same run:
- the floor: every client calls docx_list_sessions as fast as it can;
- editing: every client opens its own copy of a 60-paragraph document and inserts,
  updates and replaces text in it.
Each phase is bounded in time (``--seconds``) and in calls per client (``--max-calls``).
Printed: throughput (calls/s), p50 and p99 latency, the worst client's p99, and the ratios
the issue sets as targets (editing throughput >= 70% of the floor at 8 clients; no client's
p99 above 5x the floor's p99). It never fails on a figure: it prints them.

Floor and editing phases alternate for ``--rounds`` rounds; each figure is the median of the
per-round ratios with their range. Beside the wall-clock throughput it prints the server's CPU
per call (its threads, /proc/PID/task/*/schedstat; "loop" is the event loop's thread, "tools"
the worker threads) and this process's (the clients'): the clients share the 2 cores with the
server, so ``floor CPU / editing CPU`` is the ratio a server with cores of its own would reach.
Only the timed calls are counted, in time and in CPU: connecting the clients, and the editing
clients' docx_open and docx_close, happen before and after the timed window. The clients' own
imports are frozen out of their garbage collector (a full collection stalls every client).
``--baseline DIR`` runs a second server from another checkout (``git archive main``) in the same
rounds, alternating with this one, and prints this / baseline editing CPU per call.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shutil
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

from tests.support.answer_validator import parse_head  # noqa: E402
from tests.bench.bench_http import free_port  # noqa: E402
from tests.bench.bench_open import thread_times as thread_cpu  # noqa: E402
from tests.builders import build_docx, p  # noqa: E402


def serve(root: Path, checkout: Path = ROOT) -> tuple[subprocess.Popen, str]:
    port = free_port()
    # Every client calls from 127.0.0.1 (and 2026-07-28 clients have no MCP session): one anonymous
    # caller, whose quota (limits.max_sessions_anonymous, 16) would end the others' documents.
    config = root / "bench-config.json"
    config.write_text('{"limits": {"max_sessions_anonymous": 256}}')
    proc = subprocess.Popen([sys.executable, str(checkout / "server.py"), "--transport", "streamable-http",
                             "--port", str(port), "--root", str(root), "--config", str(config)], cwd=root)
    import socket
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


def server_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """The server's CPU (event loop thread, other threads) and this process's between start and stop."""

    def __init__(self, pid: int):
        self.pid = pid

    def start(self) -> None:
        self.threads, self.mine = thread_cpu(self.pid), time.process_time()

    def stop(self) -> dict:
        after, mine = thread_cpu(self.pid), time.process_time()
        spent = {tid: ns - self.threads.get(tid, 0) for tid, ns in after.items()}
        loop = spent.get(str(self.pid), 0) / 1e9
        return {"loop_s": loop, "tools_s": sum(spent.values()) / 1e9 - loop, "client_s": mine - self.mine}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


class Client1:
    """One client's connection and its call latencies."""

    def __init__(self, client):
        self.client = client
        self.latencies: list[float] = []

    async def call(self, name: str, **arguments) -> str:
        t = time.perf_counter()
        result = await self.client.call_tool(name, arguments)
        self.latencies.append(time.perf_counter() - t)
        text = result.content[0].text
        if result.is_error:
            raise RuntimeError(f"{name} failed: {text}")
        return text


async def floor_loop(c: Client1, stop: float, max_calls: int, n: int, sid: str | None) -> None:
    while time.monotonic() < stop and len(c.latencies) < max_calls:
        await c.call("docx_list_sessions")


async def open_own(c: Client1, n: int, root: Path) -> str:
    return parse_head(await c.call("docx_open", file_path=str(root / f"client{n}.docx")))["Session ID"]


async def edit_loop(c: Client1, stop: float, max_calls: int, n: int, sid: str) -> None:
    i = 0
    while time.monotonic() < stop and len(c.latencies) < max_calls:
        kind = i % 3
        if kind == 0:
            text = await c.call("docx_insert_paragraph", session_id=sid, text=f"client {n} line {i}",
                                position="end:document_body")
            last = parse_head(text).get("Element ID")
        elif kind == 1:
            await c.call("docx_update_paragraph_text", session_id=sid, element_id=last, new_text=f"edited {i}")
        else:
            await c.call("docx_replace_text", session_id=sid, old_text=f"edited {i - 1}", new_text=f"done {i}",
                         scope_id=last)
        i += 1


async def phase(url: str, mode: str, clients: int, seconds: float, max_calls: int, root: Path,
                editing: bool, meter: CpuMeter) -> dict:
    async with contextlib_stack(url, mode, clients) as conns:
        for c in conns:  # warm-up: connections, tool lists
            await c.call("docx_list_sessions")
        sids = await asyncio.gather(*(open_own(c, n, root) for n, c in enumerate(conns))) if editing \
            else [None] * len(conns)
        for c in conns:
            c.latencies.clear()  # set-up, not part of the figures
        loop = edit_loop if editing else floor_loop
        meter.start()
        start = time.monotonic()
        stop = start + seconds
        await asyncio.gather(*(loop(c, stop, max_calls, n, sid) for n, (c, sid) in enumerate(zip(conns, sids))))
        wall = time.monotonic() - start
        cpu = meter.stop()
        latencies = [list(c.latencies) for c in conns]
        if editing:
            await asyncio.gather(*(c.call("docx_close", session_id=sid) for c, sid in zip(conns, sids)))
    every = [x for lat in latencies for x in lat]
    calls = max(len(every), 1)
    return {"calls": len(every), "throughput": len(every) / wall, "p50": statistics.median(every),
            "p99": percentile(every, 0.99), "worst_client_p99": max(percentile(lat, 0.99) for lat in latencies),
            **{k.replace("_s", "_ms"): v * 1000 / calls for k, v in cpu.items()},
            "cpu_ms": (cpu["loop_s"] + cpu["tools_s"]) * 1000 / calls}


class contextlib_stack:
    """``clients`` MCP clients over Streamable HTTP, opened and closed together."""

    def __init__(self, url: str, mode: str, clients: int):
        self.url, self.mode, self.n = url, mode, clients

    async def __aenter__(self) -> list[Client1]:
        from contextlib import AsyncExitStack
        self.stack = AsyncExitStack()
        conns = []
        for _ in range(self.n):
            http = await self.stack.enter_async_context(httpx2.AsyncClient(timeout=120))
            client = await self.stack.enter_async_context(
                Client(streamable_http_client(self.url, http_client=http), cache=None, mode=self.mode))
            conns.append(Client1(client))
        return conns

    async def __aexit__(self, *exc) -> None:
        try:
            await self.stack.aclose()
        except Exception as e:  # a client-side teardown race under load; the figures are already taken
            print(f"  (closing the clients: {type(e).__name__})")


def show(label: str, r: dict) -> None:
    print(f"  {label:<8} {r['calls']:6d} calls  {r['throughput']:7.1f} calls/s  p50 {r['p50'] * 1000:7.1f} ms  "
          f"p99 {r['p99'] * 1000:7.1f} ms  worst client p99 {r['worst_client_p99'] * 1000:7.1f} ms  "
          f"server CPU {r['cpu_ms']:.2f} ms/call (loop {r['loop_ms']:.2f}, tools {r['tools_ms']:.2f}), "
          f"clients {r['client_ms']:.2f}")


class Target:
    """One server under test (this checkout or the baseline) and its figures at one concurrency."""

    def __init__(self, label: str, checkout: Path):
        self.label = label
        self.root = Path(tempfile.mkdtemp(prefix="ooxml-mcp-load-"))
        self.proc, self.url = serve(self.root, checkout)
        self.meter = CpuMeter(self.proc.pid)

    def reset(self, clients: int) -> None:
        for n in range(clients):
            build_docx(self.root / f"client{n}.docx", "".join(p(f"Paragraph {i} of client {n}.") for i in range(60)))
        self.ratios, self.cpu_ratios, self.worst, self.edit_cpu, self.floor_cpu = [], [], [], [], []

    def round(self, r: int, args, clients: int) -> None:
        got = {}
        for editing in ((False, True) if r % 2 == 0 else (True, False)):  # alternating order
            got[editing] = asyncio.run(phase(self.url, args.mode, clients, args.seconds, args.max_calls, self.root,
                                             editing=editing, meter=self.meter))
        floor, edit = got[False], got[True]
        show(f"floor {r + 1}", floor)
        show(f"edit {r + 1}", edit)
        self.ratios.append(edit["throughput"] / floor["throughput"])
        self.cpu_ratios.append(floor["cpu_ms"] / edit["cpu_ms"])
        self.worst.append(edit["worst_client_p99"] / floor["p99"])
        self.edit_cpu.append(edit["cpu_ms"])
        self.floor_cpu.append(floor["cpu_ms"])

    def summary(self, clients: int) -> None:
        target = " (target >= 0.70)" if clients in (8, 32) else ""
        print(f"  {self.label}: editing/floor throughput: median {spread(self.ratios)}{target}; CPU-normalised "
              f"(floor CPU/call / editing CPU/call): {spread(self.cpu_ratios)}; worst editing client p99 / "
              f"floor p99 {spread(self.worst)} (target <= 5)")

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.root, ignore_errors=True)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", default="8,32")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3, help="floor and editing phases, alternating")
    ap.add_argument("--max-calls", type=int, default=2000, help="per client and phase")
    ap.add_argument("--mode", default="auto", choices=["auto", "legacy"])
    ap.add_argument("--checkout", type=Path, default=ROOT, help="run the server of another checkout")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="also run the server of this checkout (e.g. git archive main), alternating with the other")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; protocol mode {args.mode}; "
          f"{args.seconds:g} s per phase")
    # The clients' process holds ~100,000 objects of its imports: each full collection of them
    # (60-220 ms, about one a phase) stalled every client's call in flight and counted as the server's p99.
    gc.collect()
    gc.freeze()
    targets = [Target("this", args.checkout.resolve())]
    try:
        if args.baseline is not None:
            targets.append(Target("baseline", args.baseline.resolve()))
        for clients in [int(x) for x in args.clients.split(",")]:
            print(f"{clients} concurrent clients")
            for t in targets:
                t.reset(clients)
            for r in range(args.rounds):
                for t in (targets if r % 2 == 0 else targets[::-1]):
                    if len(targets) > 1:
                        print(f"  [{t.label}]")
                    t.round(r, args, clients)
            for t in targets:
                t.summary(clients)
            if len(targets) > 1:
                this, base = targets
                print(f"  this / baseline server CPU per call: editing "
                      f"{spread([a / b for a, b in zip(this.edit_cpu, base.edit_cpu)])}, floor "
                      f"{spread([a / b for a, b in zip(this.floor_cpu, base.floor_cpu)])} (round by round)")
            print(f"  load average {os.getloadavg()[0]:.2f}")
    finally:
        for t in targets:
            t.close()


if __name__ == "__main__":
    main()
