"""POST /files streams an accepted upload to the store: the real server's peak memory grows by a
small part of the file's size, not by the file (tools/transport/files.py); over the limit it is
refused with LimitExceeded and nothing is stored."""
from __future__ import annotations

import hashlib

import httpx2
import pytest
import yaml

from tests.support.workers import Worker

LIMIT = 64 << 20
SIZE = 32 << 20


def status(pid: int, field: str) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field}")


@pytest.fixture(scope="module")
def worker(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("upload-stream")
    config = tmp / "config.yaml"
    config.write_text(yaml.safe_dump({"storage": {"max_upload_bytes": LIMIT}}))
    w = Worker("u1", tmp, None, extra=("--config", str(config))).wait()
    try:
        yield w
    finally:
        w.stop()


def post(worker, body, name="big.docx"):
    url = worker.url.replace("/mcp", "/files")
    try:
        return httpx2.post(url, params={"name": name}, content=body, timeout=120)
    except httpx2.TransportError:
        return None  # answered 413 and closed while the client still sent: refused too


def stored(worker) -> list:
    return sorted(p for p in worker.root.rglob("*") if p.is_file() and p.suffix == ".docx")


def test_an_accepted_upload_is_streamed_not_held(worker):
    post(worker, b"x" * 1024)  # the first request's imports and buffers, outside the measure
    pid = worker.proc.pid
    open(f"/proc/{pid}/clear_refs", "w").write("5")  # the peak (VmHWM) starts again from now
    before = status(pid, "VmRSS")
    chunk = bytes(range(256)) * 4096  # 1 MB
    answer = post(worker, (chunk for _ in range(SIZE // len(chunk))))
    assert answer is not None and answer.status_code == 201, answer and answer.text
    body = answer.json()
    assert body["bytes"] == SIZE and body["sha256"] == hashlib.sha256(chunk * (SIZE // len(chunk))).hexdigest()
    growth = status(pid, "VmHWM") - before
    print(f"peak growth {growth / 2**20:.1f} MB for a {SIZE >> 20} MB upload")
    assert growth < SIZE / 4, f"peak grew {growth >> 20} MB for a {SIZE >> 20} MB upload"


def test_an_upload_over_the_limit_is_refused_and_nothing_is_stored(worker):
    before = stored(worker)
    chunk = b"z" * (1 << 20)
    answer = post(worker, (chunk for _ in range((LIMIT >> 20) + 2)), name="over.docx")
    assert answer is None or (answer.status_code == 413 and answer.json()["error"]["type"] == "LimitExceeded"), \
        answer.text
    assert stored(worker) == before
