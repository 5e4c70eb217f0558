"""Redis (and HAProxy) for the scale-out tests: started by the test on loopback, stopped after.

Missing binaries skip the test with the reason, or fail it when ``OOXML_MCP_REQUIRE_SOFFICE=1``
(CI: tests/run_all.py installs Debian's redis-server and haproxy when it runs as root).
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from collections.abc import Iterator

from tests.support.libreoffice import soffice_required


def require(binary: str, package: str) -> str:
    import pytest
    path = shutil.which(binary)
    if path is None:
        reason = f"'{binary}' not found (install Debian's {package})"
        if soffice_required():
            pytest.fail(f"{reason}, and OOXML_MCP_REQUIRE_SOFFICE=1 requires it", pytrace=False)
        pytest.skip(reason)
    try:
        import redis  # noqa: F401
    except ImportError:
        if soffice_required():
            pytest.fail("the Python package 'redis' is missing", pytrace=False)
        pytest.skip("the Python package 'redis' is missing (pip install redis)")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


READY_S = 120.0  # generous: on a loaded 2-core machine a process may take tens of seconds to listen


def wait_port(port: int, seconds: float = READY_S) -> None:
    """Return once 127.0.0.1:port accepts a connection (polled), else TimeoutError after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.02)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


def wait_http(url: str, seconds: float = READY_S, status: int = 200) -> None:
    """Return once GET ``url`` answers ``status`` (polled), else TimeoutError after ``seconds``."""
    import httpx2
    deadline, last = time.monotonic() + seconds, None
    while time.monotonic() < deadline:
        try:
            last = httpx2.get(url, timeout=5).status_code
            if last == status:
                return
        except Exception as e:
            last = e
        time.sleep(0.05)
    raise TimeoutError(f"GET {url} did not answer {status} within {seconds} s (last: {last})")


class Redis:
    """A throwaway redis-server on loopback (``url``) that a test may stop and start again on the
    same port; with ``persist`` its data survive the restart (AOF, fsync always)."""

    def __init__(self, persist: bool = False):
        self.binary = require("redis-server", "redis-server")
        self.port, self.persist = free_port(), persist
        self.folder = tempfile.mkdtemp(prefix="oxm-redis-")
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = None

    def start(self) -> Redis:
        aof = ["--appendonly", "yes", "--appendfsync", "always"] if self.persist else ["--appendonly", "no"]
        self.proc = subprocess.Popen([self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--dir", self.folder, "--protected-mode", "yes", *aof],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)
        return self

    def stop(self) -> None:
        stop(self.proc)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def redis_server(persist: bool = False) -> Iterator[str]:
    """A throwaway redis-server on loopback; yields its redis:// URL."""
    with running_redis(persist) as r:
        yield r.url


@contextmanager
def running_redis(persist: bool = False) -> Iterator[Redis]:
    r = Redis(persist)
    try:
        yield r.start()
    finally:
        r.close()


def stop(proc: subprocess.Popen, seconds: float = 5.0) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(seconds)
