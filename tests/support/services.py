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


def wait_port(port: int, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


@contextmanager
def redis_server() -> Iterator[str]:
    """A throwaway redis-server on loopback; yields its redis:// URL."""
    binary = require("redis-server", "redis-server")
    port = free_port()
    folder = tempfile.mkdtemp(prefix="oxm-redis-")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", folder, "--protected-mode", "yes"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(proc)
        shutil.rmtree(folder, ignore_errors=True)


def stop(proc: subprocess.Popen, seconds: float = 5.0) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(seconds)
