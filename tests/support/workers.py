"""Worker processes of the real server with ``--state`` (and HAProxy in front), on loopback.

Every process started here is stopped by the context manager that started it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.services import READY_S, free_port, require, stop, wait_http, wait_port

ROOT = Path(__file__).resolve().parent.parent.parent


class Worker:
    def __init__(self, name: str, root: Path, state: str | None, lease_ms: int = 1000,
                 extra: tuple = (), env: dict | None = None):
        self.name, self.port = name, free_port()
        self.extra, self.env = list(extra), env or {}
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.log = tempfile.NamedTemporaryFile(prefix=f"oxm-{name}-", suffix=".log", delete=False)
        self.root, self.state, self.lease_ms = root, state, lease_ms
        self.proc = self._spawn()

    def _spawn(self) -> subprocess.Popen:
        root, state, lease_ms = self.root, self.state, self.lease_ms
        cmd = [sys.executable, str(ROOT / "server.py"), "--transport", "streamable-http", "--host", "127.0.0.1",
               "--port", str(self.port), "--root", str(root)]
        if state:
            cmd += ["--state", state, "--worker-id", self.name, "--lease-ms", str(lease_ms)]
        return subprocess.Popen(cmd + self.extra, stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT,
                                env={**os.environ, **self.env, "PYTHONPATH": str(ROOT)})

    def restart(self) -> Worker:
        """Start it again on the same port (after a kill)."""
        stop(self.proc)
        self.proc = self._spawn()
        return self.wait()

    @property
    def health_url(self) -> str:
        return self.url.replace("/mcp", "/healthz")

    def wait(self) -> Worker:
        """Ready = /healthz answers 200 (listening, and the state store reachable), polled."""
        try:
            wait_http(self.health_url, READY_S)
        except TimeoutError as e:
            raise TimeoutError(f"{e}; worker {self.name} exit code {self.proc.poll()}, log:\n{self.output()}")
        return self

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        stop(self.proc)
        os.unlink(self.log.name)


@contextmanager
def workers(n: int, root: Path, state: str | None, lease_ms: int = 1000, extra: tuple = (),
            env: dict | None = None) -> Iterator[list[Worker]]:
    started = [Worker(f"w{i + 1}", root, state, lease_ms, extra, env) for i in range(n)]
    try:
        for w in started:
            w.wait()
        yield started
    finally:
        for w in started:
            w.stop()


HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"


class Proxy(str):
    """The /mcp URL through HAProxy, which can also say which workers its health checks see up."""

    def __new__(cls, url: str, stats: str):
        proxy = super().__new__(cls, url)
        proxy.stats = stats
        return proxy

    def up(self) -> set[str]:
        import httpx2
        rows = httpx2.get(self.stats, timeout=5).text.splitlines()
        return {r.split(",")[1] for r in rows[1:] if r.startswith("workers,") and ",UP" in r}

    def wait_up(self, servers: list[Worker], seconds: float = READY_S) -> None:
        """Polls HAProxy's own view until every worker in ``servers`` is UP (its checks passed)."""
        deadline, names = time.monotonic() + seconds, {w.name for w in servers}
        while not names <= self.up():
            if time.monotonic() > deadline:
                raise TimeoutError(f"HAProxy does not see {sorted(names - self.up())} up after {seconds} s")
            time.sleep(0.05)


@contextmanager
def haproxy(servers: list[Worker], first_rule: str = "") -> Iterator[Proxy]:
    """deploy/haproxy.cfg with the test's workers and a free port; yields the /mcp URL (a Proxy).
    ``first_rule``: a backend line put before the config's routing (a benchmark's own routing)."""
    binary = require("haproxy", "haproxy")
    port, stats = free_port(), free_port()
    text = HAPROXY_CFG.read_text()
    if first_rule:
        text = text.replace("    http-request set-var(txn.home)", f"    {first_rule}\n    http-request set-var(txn.home)", 1)
    lines = "\n".join(f"    server {w.name} 127.0.0.1:{w.port} check inter 200ms fall 2 rise 2"
                      for w in servers)
    text = text.replace("bind 127.0.0.1:8080", f"bind 127.0.0.1:{port}")
    text = text.replace("    # @workers@", lines)
    text += f"\nfrontend stats\n    bind 127.0.0.1:{stats}\n    stats enable\n    stats uri /stats\n"
    folder = Path(tempfile.mkdtemp(prefix="oxm-haproxy-"))
    cfg = folder / "haproxy.cfg"
    cfg.write_text(text)
    check = subprocess.run([binary, "-c", "-f", str(cfg)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    proc = subprocess.Popen([binary, "-f", str(cfg), "-db"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port)
        proxy = Proxy(f"http://127.0.0.1:{port}/mcp", f"http://127.0.0.1:{stats}/stats;csv")
        proxy.pid = proc.pid  # its CPU time (benchmarks)
        proxy.wait_up(servers)
        yield proxy
    finally:
        stop(proc)
        cfg.unlink()
        folder.rmdir()
