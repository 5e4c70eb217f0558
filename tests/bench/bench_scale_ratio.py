"""Two workers with --state against one, normalised by two workers without it against one (issue 21).

    python tests/bench/bench_scale_ratio.py [--seconds 4] [--rounds 2] [--client raw|sdk]
    python tests/bench/bench_scale_ratio.py --client-cost   # CPU a call of the two load generators

16 editing clients (2026-07-28 protocol: docx_create, then inserts with full answers, each checked
a success). By default they are tests/bench/rawload.py (raw HTTP/1.1 keep-alive, pre-serialised
bodies: about 0.1 ms of CPU a call); ``--client sdk`` runs bench_scale.editing_client (the MCP SDK
client, about as much CPU a call as a worker: on 2 cores it was the ceiling of every phase).
With --state the clients go through HAProxy (deploy/haproxy.cfg routes by session_id); without it
they go straight to the workers, split evenly (a session lives only where it was created). The
four set-ups run in rotating order in each round; per round the figure is
(2 with / 1 with) / (2 without / 1 without), goal >= 0.9. For each --state phase it also prints the
Redis commands per edit (INFO commandstats), so a command every call pays shows up (xrange =
a worker reading a session's journal to take it over), the requests HAProxy sent each worker, and
each worker's CPU seconds (an idle second worker means the routing sends it nothing).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import asyncio  # noqa: E402

import anyio  # noqa: E402

from tests.bench import rawload  # noqa: E402
from tests.bench.bench_scale import load as sdk_load  # noqa: E402
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


def run_load(urls: list[str], folder: Path, seconds: float, client: str) -> tuple[float, int]:
    """Calls a second of the 16 clients and their SessionMoved retries (not counted by the SDK load)."""
    if client == "sdk":
        return anyio.run(sdk_load, urls, folder, CLIENTS, seconds), 0
    return asyncio.run(rawload.load(urls, CLIENTS, seconds))


def phase(n: int, state: str | None, folder: Path, seconds: float, client: str) -> tuple[float, dict[str, int], list[float]]:
    """Calls per second, Redis commands during the phase, and each worker's CPU seconds in it."""
    if state:  # each phase starts from an empty store (the last phase's sessions count against the quota)
        import redis
        redis.Redis.from_url(state).flushall()
    before = commandstats(state) if state else {}
    with workers(n, folder, state) as ws:
        cpu0 = [cpu_s(w.proc.pid) for w in ws]
        client0, redis0 = time.process_time(), redis_cpu(state) if state else 0.0
        if state:
            with haproxy(ws) as url:
                proxy0 = cpu_s(url.pid)
                rate, moved = run_load([url], folder, seconds, client)
                proxy = cpu_s(url.pid) - proxy0
                print(f"    HAProxy requests per worker: {' / '.join(map(str, served(url)))}")
        else:
            rate, moved = run_load([w.url for w in ws], folder, seconds, client)
        cpu = [cpu_s(w.proc.pid) - c for w, c in zip(ws, cpu0)]
        print(f"    CPU s besides the workers: clients (this process) {time.process_time() - client0:.2f}"
              + (f", HAProxy {proxy:.2f}, Redis {redis_cpu(state) - redis0:.2f}" if state else "")
              + (f"; SessionMoved retries {moved}" if moved else ""))
    after = commandstats(state) if state else {}
    return rate, {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}, cpu


def client_cost(folder: Path, seconds: float) -> None:
    """CPU a call of each load generator against one worker without --state, alternating."""
    for _ in range(2):
        for client in ("sdk", "raw"):
            with workers(1, folder, None) as ws:
                w0, c0 = cpu_s(ws[0].proc.pid), time.process_time()
                rate, _ = run_load([ws[0].url], folder, seconds, client)
                calls = rate * seconds
                c, w = time.process_time() - c0, cpu_s(ws[0].proc.pid) - w0
                print(f"  {client}: {rate:.0f} calls/s; CPU a call: clients {c * 1000 / calls:.2f} ms, "
                      f"worker {w * 1000 / calls:.2f} ms (load {os.getloadavg()[0]:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--client", choices=("raw", "sdk"), default="raw")
    ap.add_argument("--client-cost", action="store_true")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {CLIENTS} clients ({args.client}), "
          f"{args.seconds:g} s a phase")
    folder = Path(tempfile.mkdtemp(prefix="oxm-bench-ratio-"))
    if args.client_cost:
        return client_cost(folder, args.seconds)
    setups = [(1, False), (2, False), (1, True), (2, True)]
    figures = []
    with redis_server() as redis_url:
        for r in range(args.rounds):
            rates = {}
            for n, with_state in setups[r % 4:] + setups[:r % 4]:
                rate, cmds, cpu = phase(n, redis_url if with_state else None, folder, args.seconds, args.client)
                rates[n, with_state] = rate
                edits = rate * args.seconds
                per_edit = ", ".join(f"{k.removeprefix('cmdstat_')} {v / max(edits, 1):.2f}"
                                     for k, v in sorted(cmds.items(), key=lambda kv: -kv[1])[:6])
                print(f"  round {r + 1}: {n} worker(s) {'with' if with_state else 'without'} --state: "
                      f"{rate:.0f} calls/s, worker CPU {' + '.join(f'{c:.1f}' for c in cpu)} s "
                      f"({sum(cpu) * 1000 / max(edits, 1):.1f} ms a call)"
                      + (f"; Redis commands per call: {per_edit}; journal reads (take-overs) "
                         f"{cmds.get('cmdstat_xrange', 0)}" if with_state else ""))
            figure = (rates[2, True] / rates[1, True]) / (rates[2, False] / rates[1, False])
            figures.append(figure)
            print(f"  round {r + 1}: (2 with / 1 with) / (2 without / 1 without) = {figure:.2f}")
    print(f"median {statistics.median(figures):.2f} (goal >= 0.9)")


if __name__ == "__main__":
    main()
