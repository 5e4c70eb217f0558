"""The real server over stdio as a child process, spoken to in raw JSON-RPC lines, so a test can
close its stdin, signal it or kill the process that launched it, then read what it logged.

Every process started here is stopped by the context manager that started it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.services import READY_S

ROOT = Path(__file__).resolve().parent.parent.parent
SERVER = [sys.executable, str(ROOT / "server.py")]


class StdioServer:
    """JSON-RPC over two pipes to a server process (ours, or a grandchild: ``launcher``)."""

    def __init__(self, write_fd: int, read_fd: int, log: Path):
        self._out = os.fdopen(write_fd, "wb", buffering=0)
        self._in = os.fdopen(read_fd, "rb")
        self.log, self._next = log, 0
        self.pid: int | None = None

    def request(self, method: str, params: dict) -> dict:
        self._next += 1
        self.send({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params})
        while True:  # notifications (log messages, list changes) come first sometimes
            line = self._in.readline()
            assert line, f"the server closed stdout; its log:\n{self.output()}"
            message = json.loads(line)
            if message.get("id") == self._next:
                assert "error" not in message, message
                return message["result"]

    def send(self, message: dict) -> None:
        self._out.write(json.dumps(message).encode() + b"\n")

    def initialize(self) -> None:
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "stop-test", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, name: str, **arguments) -> str:
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        text = result["content"][0]["text"]
        assert not result.get("isError"), text
        return text

    def close_stdin(self) -> None:
        self._out.close()

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def close(self) -> None:
        for stream in (self._out, self._in):
            try:
                stream.close()
            except OSError:
                pass


@contextmanager
def stdio_server(root: Path, *extra: str) -> Iterator[tuple[StdioServer, subprocess.Popen]]:
    """``python server.py --root ROOT`` as our child; its stderr (the log) goes to a file."""
    log = Path(tempfile.mkstemp(prefix="oxm-stdio-", suffix=".log")[1])
    with open(log, "wb") as err:
        proc = subprocess.Popen(SERVER + ["--root", str(root), *extra], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=err, cwd=ROOT,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
    client = StdioServer(os.dup(proc.stdin.fileno()), os.dup(proc.stdout.fileno()), log)
    proc.stdin.close()
    proc.stdout.close()
    client.pid = proc.pid
    try:
        yield client, proc
    finally:
        client.close()
        _stop(proc.pid, proc)
        log.unlink()


LAUNCHER = """
import subprocess, sys, time
child = subprocess.Popen(sys.argv[1:])  # inherits our stdin, stdout and stderr
print(child.pid, flush=True, file=open(sys.argv[0] + ".pid", "w"))
time.sleep(3600)
"""


@contextmanager
def launched_stdio_server(root: Path, folder: Path) -> Iterator[tuple[StdioServer, subprocess.Popen]]:
    """The server as the child of a launcher process (yielded) that can be killed while this test
    keeps the server's pipes open: the server then sees its parent go, not an end of input."""
    script = folder / "launcher.py"
    script.write_text(LAUNCHER)
    log = Path(tempfile.mkstemp(prefix="oxm-stdio-", suffix=".log")[1])
    to_server_r, to_server_w = os.pipe()
    from_server_r, from_server_w = os.pipe()
    with open(log, "wb") as err:
        launcher = subprocess.Popen([sys.executable, str(script), *SERVER, "--root", str(root)],
                                    stdin=to_server_r, stdout=from_server_w, stderr=err, cwd=ROOT,
                                    env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(to_server_r)
    os.close(from_server_w)
    client = StdioServer(to_server_w, from_server_r, log)
    pid_file = Path(str(script) + ".pid")
    deadline = time.monotonic() + READY_S
    while not (pid_file.exists() and pid_file.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.02)
    client.pid = int(pid_file.read_text())
    try:
        yield client, launcher
    finally:
        client.close()
        _stop(launcher.pid, launcher)
        _stop(client.pid, None)
        log.unlink()


def _stop(pid: int, proc: subprocess.Popen | None) -> None:
    """Kill what is still running: our child by its Popen; a grandchild only while its command line
    is still the server's (its ID may be another process's once it has ended)."""
    if proc is not None:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
        return
    try:
        if str(ROOT / "server.py").encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
            os.kill(pid, 9)
    except (ProcessLookupError, FileNotFoundError):
        pass


def wait_gone(pid: int, seconds: float = READY_S) -> bool:
    """Whether process ``pid`` (not our child) ended within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except (ProcessLookupError, FileNotFoundError):
            return True
        time.sleep(0.05)
    return False
