"""A refused 100 MB upload streams: the server process (a real one) does not grow by more than the
limit's buffer plus a margin, whether the size is declared (refused before the body is read) or not
(refused as the body is counted)."""
from __future__ import annotations

import httpx2
import pytest
import yaml

from tests.support.workers import Worker

LIMIT = 1 << 20
TOTAL = 100 << 20
MARGIN = 24 << 20  # the interpreter's own noise on a call (allocator arenas, SSL-free loopback buffers)


def rss_of(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.fixture(scope="module")
def worker(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("upload-memory")
    config = tmp / "config.yaml"
    config.write_text(yaml.safe_dump({"storage": {"max_upload_bytes": LIMIT}}))
    w = Worker("m1", tmp, None, extra=("--config", str(config))).wait()
    try:
        yield w
    finally:
        w.stop()


def post(worker, body, headers=None):
    url = worker.url.replace("/mcp", "/files")
    try:
        return httpx2.post(url, params={"name": "big.docx"}, content=body, headers=headers or {}, timeout=120)
    except httpx2.TransportError:
        return None  # the server answered 413 and closed while the client was still sending: refused too


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_a_refused_100_mb_upload_does_not_grow_the_server(worker, declared):
    post(worker, b"x" * 1024)  # the first request's imports and buffers, outside the measure
    before = rss_of(worker.proc.pid)
    chunk = b"z" * (1 << 20)
    body = chunk * (TOTAL // len(chunk)) if declared else (chunk for _ in range(TOTAL // len(chunk)))
    answer = post(worker, body)
    assert answer is None or answer.status_code == 413, answer.text
    assert rss_of(worker.proc.pid) - before <= LIMIT + MARGIN
