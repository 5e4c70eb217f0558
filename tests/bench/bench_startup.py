"""Start-up: CPU seconds to the initialize answer over stdio, and wall time until HTTP listens.

    python tests/bench/bench_startup.py [--repeats 5] [--baseline DIR]

Each repeat starts ``python server.py`` over stdio, writes an ``initialize`` request and times the
answer: the server's CPU seconds (user + system, /proc) when it arrives, and the wall time. Then
it starts ``server.py --transport streamable-http`` and times until the port accepts a connection
(the CPU seconds at that moment too). ``--baseline DIR`` starts servers from another checkout in
the same rounds (alternating order), so a change is measured against it on the same load.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "0"}}}


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stdio_init(repo: Path, root: str) -> tuple[float, float]:
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "server.py", "--root", root], cwd=repo, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        p.stdin.write((json.dumps(INIT) + "\n").encode())
        p.stdin.flush()
        line = p.stdout.readline()
        wall, cpu = time.perf_counter() - t0, cpu_of(p.pid)
        assert b'"result"' in line, line[:300]
        return cpu, wall
    finally:
        p.kill()
        p.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_listen(repo: Path, root: str) -> tuple[float, float]:
    port = free_port()
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "server.py", "--root", root, "--transport", "streamable-http",
                          "--port", str(port)], cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return cpu_of(p.pid), time.perf_counter() - t0
            except OSError:
                if p.poll() is not None or time.perf_counter() - t0 > 120:
                    raise RuntimeError("the server did not listen")
                time.sleep(0.01)
    finally:
        p.kill()
        p.wait()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--baseline", type=Path, help="another checkout started in the same rounds")
    args = ap.parse_args(argv)
    repos = {"this": REPO}
    if args.baseline:
        repos["baseline"] = args.baseline.resolve()
    res: dict = {(label, kind): [] for label in repos for kind in ("stdio", "http")}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as root:
        for r in range(args.repeats):
            order = list(repos) if r % 2 == 0 else list(reversed(repos))
            for label in order:
                res[label, "stdio"].append(stdio_init(repos[label], root))
                res[label, "http"].append(http_listen(repos[label], root))
    med = statistics.median
    for label in repos:
        s, h = res[label, "stdio"], res[label, "http"]
        print(f"{label:9s} stdio initialize: CPU {med(c for c, _ in s):.2f} s, wall {med(w for _, w in s):.2f} s | "
              f"HTTP listening: CPU {med(c for c, _ in h):.2f} s, wall {med(w for _, w in h):.2f} s")
    if args.baseline:
        for kind in ("stdio", "http"):
            ratios = [a[0] / b[0] for a, b in zip(res["this", kind], res["baseline", kind])]
            print(f"this / baseline, {kind} CPU: median {med(ratios):.2f}x")


if __name__ == "__main__":
    main()
