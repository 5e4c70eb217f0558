"""Two workers with --state against one, normalised by two workers without it against one (issue 21).

    python tests/bench/bench_scale_ratio.py [--seconds 3] [--rounds 6] [--client raw|sdk] [--direct]   # ~1.5 min
    python tests/bench/bench_scale_ratio.py --client-cost   # CPU a call of the two load generators

16 editing clients (2026-07-28 protocol: docx_create, then inserts with full answers, each checked
a success, then docx_close). By default they are tests/bench/rawload.py (raw HTTP/1.1 keep-alive,
pre-serialised bodies: under 0.1 ms of CPU a call, one process); ``--client sdk`` runs the MCP SDK
client, which spends about as much CPU a call as a worker: on 2 cores it was the ceiling of every phase.
The clients go through HAProxy (deploy/haproxy.cfg): with --state it routes by the worker named in
the session ID; without it a session lives only on the worker that made it and its ID names none,
so each client names its worker in an X-Home header that the bench's HAProxy honours first (the
clients split evenly, as the round-robin creates split them with --state); ``--direct`` sends
them straight to the workers without --state instead.
The workers start once and are warmed up (tool modules imported, thread pools and Redis
connections grown) before the first measured phase; the four set-ups run in rotating order in
each round; per round the figure is (2 with / 1 with) / (2 without / 1 without), goal >= 0.9.
Each phase prints the CPU seconds of the workers, the clients (this process), HAProxy, and with
--state Redis, the requests HAProxy sent each worker, the Redis commands a call (INFO
commandstats, Lua's inner commands included) and the take-overs (xrange: a worker reading a
session's journal).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import asyncio  # noqa: E402

import anyio  # noqa: E402

from tests.bench import rawload  # noqa: E402
from tests.support.http_server import http_client  # noqa: E402
from tests.support.services import redis_server  # noqa: E402
from tests.support.workers import haproxy, workers  # noqa: E402

CLIENTS = 16


def commandstats(url: str) -> dict[str, int]:
    import redis
    return {k: v["calls"] for k, v in redis.Redis.from_url(url).info("commandstats").items()}


def redis_cpu(url: str) -> float:
    import redis
    info = redis.Redis.from_url(url).info("cpu")
    return info["used_cpu_user"] + info["used_cpu_sys"]


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def served(proxy) -> list[int]:
    """Requests HAProxy sent to each worker so far (its stats page, stot column)."""
    import httpx2
    rows = [r.split(",") for r in httpx2.get(proxy.stats, timeout=5).text.splitlines()]
    col = rows[0].index("stot")
    return [int(r[col]) for r in rows[1:] if r[0] == "workers" and r[1] != "BACKEND"]


async def sdk_client(url: str, home: str | None, root: Path, seconds: float, counts: list[int]) -> None:
    """The former load generator: the MCP SDK client (and its answer checks), then docx_close."""
    async with http_client(url, "auto", [root], headers={"X-Home": home} if home else None) as c:
        sid = (await c.create()).head["Session ID"]
        done, deadline = 0, time.monotonic() + seconds
        while time.monotonic() < deadline:
            await c.ok("docx_insert_paragraph", session_id=sid, text=f"p{done}", position="end:document_body")
            done += 1
        counts.append(done)
        await c.ok("docx_close", session_id=sid)


async def sdk_load(urls: list[str], homes: list[str] | None, root: Path, seconds: float) -> float:
    counts: list[int] = []
    async with anyio.create_task_group() as tg:
        for i in range(CLIENTS):
            tg.start_soon(sdk_client, urls[i % len(urls)], homes[i % len(homes)] if homes else None, root,
                          seconds, counts)
    return sum(counts) / seconds


class Setup:
    """n workers with or without --state, the URLs the clients use, and the HAProxy in front."""

    def __init__(self, n: int, state: bool, ws: list, proxy=None):
        self.n, self.state, self.ws, self.proxy = n, state, ws, proxy
        self.urls = [proxy] if proxy else [w.url for w in ws]
        # Without --state a session lives only on the worker that made it, and its ID names no worker:
        # each client names its worker in X-Home (HOME_RULE); with --state HAProxy routes by the ID.
        self.homes = [w.name for w in ws] if proxy and not state else None
        self.name = f"{n} worker{'s' if n > 1 else ''} {'with' if state else 'without'} --state"

    def run(self, folder: Path, seconds: float, client: str) -> tuple[float, int]:
        """Calls a second of the 16 clients and their SessionMoved retries (the SDK load fails on one)."""
        if client == "sdk":
            return anyio.run(sdk_load, self.urls, self.homes, folder, seconds), 0
        return asyncio.run(rawload.load(self.urls, CLIENTS, seconds, self.homes))


HOME_RULE = "use-server %[req.hdr(x-home)] if { req.hdr(x-home) -m found }"


def start_setups(stack: ExitStack, folder: Path, redis_url: str, direct: bool) -> list[Setup]:
    """Four workers started once for the whole run (2 without --state, 2 with), each pair behind an
    HAProxy over its first worker alone and one over both (``direct``: the clients call the workers
    without --state straight), so the phases of a round run back to back."""
    plain = stack.enter_context(workers(2, folder, None))
    durable = stack.enter_context(workers(2, folder, redis_url))
    proxies = [None, None] if direct else [stack.enter_context(haproxy(ws, HOME_RULE)) for ws in (plain[:1], plain)]
    one, two = stack.enter_context(haproxy(durable[:1])), stack.enter_context(haproxy(durable))
    return [Setup(1, False, plain[:1], proxies[0]), Setup(2, False, plain, proxies[1]),
            Setup(1, True, durable[:1], one), Setup(2, True, durable, two)]


def quiet(pids: list[int], limit_s: float = 60.0) -> None:
    """Until the processes are idle (a worker imports the tool modules in a thread after it listens)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        before = sum(cpu_s(p) for p in pids)
        time.sleep(0.5)
        if sum(cpu_s(p) for p in pids) - before < 0.05:
            return


def phase(setup: Setup, folder: Path, redis_url: str, seconds: float, client: str) -> float:
    """One measured phase: prints calls/s and the CPU seconds of each process; returns calls/s."""
    pids = [w.proc.pid for w in setup.ws] + ([setup.proxy.pid] if setup.proxy else [])
    cpu0, served0 = [cpu_s(p) for p in pids], served(setup.proxy) if setup.proxy else []
    cmds0, redis0, client0 = commandstats(redis_url), redis_cpu(redis_url), time.process_time()
    rate, moved = setup.run(folder, seconds, client)
    cpu = [cpu_s(p) - c for p, c in zip(pids, cpu0)]
    client_s, redis_s = time.process_time() - client0, redis_cpu(redis_url) - redis0
    cmds = {k: v - cmds0.get(k, 0) for k, v in commandstats(redis_url).items() if v != cmds0.get(k, 0)}
    calls = max(rate * seconds, 1)
    workers_s = cpu[:setup.n]
    line = (f"{setup.name}: {rate:.0f} calls/s; CPU s: workers {' + '.join(f'{c:.2f}' for c in workers_s)} "
            f"({sum(workers_s) * 1000 / calls:.2f} ms a call), clients {client_s:.2f}")
    if setup.proxy:
        per_worker = [b - a for a, b in zip(served0, served(setup.proxy))]
        line += f", HAProxy {cpu[-1]:.2f}; requests a worker {' / '.join(map(str, per_worker))}"
    if setup.state:
        top = ", ".join(f"{k.removeprefix('cmdstat_')} {v / calls:.2f}"
                        for k, v in sorted(cmds.items(), key=lambda kv: -kv[1])[:4])
        line += (f"; Redis {redis_s:.2f} s, commands a call: {top}; take-overs (journal reads) {cmds.get('cmdstat_xrange', 0)}")
    print("    " + line + (f"; SessionMoved retries {moved}" if moved else ""))
    return rate


def client_cost(folder: Path, seconds: float) -> None:
    """CPU a call of each load generator against one worker without --state, alternating."""
    with workers(1, folder, None) as ws:
        quiet([ws[0].proc.pid])
        for _ in range(2):
            for client in ("sdk", "raw"):
                w0, c0 = cpu_s(ws[0].proc.pid), time.process_time()
                rate, _ = Setup(1, False, ws).run(folder, seconds, client)
                calls = rate * seconds
                c, w = time.process_time() - c0, cpu_s(ws[0].proc.pid) - w0
                print(f"  {client}: {rate:.0f} calls/s; CPU a call: clients {c * 1000 / calls:.2f} ms, "
                      f"worker {w * 1000 / calls:.2f} ms (load {os.getloadavg()[0]:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--client", choices=("raw", "sdk"), default="raw")
    ap.add_argument("--client-cost", action="store_true")
    ap.add_argument("--direct", action="store_true", help="clients straight to the workers without --state")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {CLIENTS} clients ({args.client}), "
          f"{args.seconds:g} s a phase")
    folder = Path(tempfile.mkdtemp(prefix="oxm-bench-ratio-"))
    if args.client_cost:
        return client_cost(folder, args.seconds)
    figures, rates = [], {}
    with redis_server() as redis_url, ExitStack() as stack:
        setups = start_setups(stack, folder, redis_url, args.direct)
        every = [w.proc.pid for s in setups for w in s.ws]
        quiet(every)
        for setup in setups:  # warm-up, not counted: thread pools, Redis connections, first renders
            setup.run(folder, 1.0, args.client)
        quiet(every)
        for r in range(args.rounds):
            print(f"  round {r + 1} (load {os.getloadavg()[0]:.1f}):")
            got = {}
            for setup in setups[r % 4:] + setups[:r % 4]:
                got[setup.n, setup.state] = rate = phase(setup, folder, redis_url, args.seconds, args.client)
                rates.setdefault(setup.name, []).append(rate)
            figure = (got[2, True] / got[1, True]) / (got[2, False] / got[1, False])
            figures.append(figure)
            print(f"    2/1 without --state {got[2, False] / got[1, False]:.2f}, with {got[2, True] / got[1, True]:.2f}: "
                  f"(2 with / 1 with) / (2 without / 1 without) = {figure:.2f}")
    med = {name: statistics.median(values) for name, values in rates.items()}
    for name, values in rates.items():
        print(f"  {name}: median {med[name]:.0f} calls/s ({min(values):.0f}-{max(values):.0f})")
    n = [s.name for s in setups]  # 1 without, 2 without, 1 with, 2 with
    print(f"the same figure from the set-ups' medians: {(med[n[3]] / med[n[2]]) / (med[n[1]] / med[n[0]]):.2f}")
    print(f"per-round ratios {' '.join(f'{f:.2f}' for f in figures)}; median {statistics.median(figures):.2f} "
          f"(goal >= 0.9); load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
