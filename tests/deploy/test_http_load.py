"""Concurrent HTTP clients editing their own documents: no call reaches another client's
document, and every save is complete (the correctness half of tests/bench/bench_http_load.py)."""
from __future__ import annotations

import zipfile

import anyio
import pytest

from tests.builders import build_docx, p
from tests.support.client import W, read_body, texts
from tests.support.http_server import http_client, http_server
from tools.services import Services

pytestmark = pytest.mark.anyio
CLIENTS = 6
EDITS = 8


async def edit_own_document(url: str, mode: str, root, n: int, seen: dict) -> None:
    path = build_docx(root / f"client{n}.docx", p(f"Document of client {n}"))
    async with http_client(url, mode, [root]) as c:
        await c.open(path)
        for i in range(EDITS):
            await c.ok("docx_insert_paragraph", session_id=c.session_id, text=f"client {n} edit {i}",
                       position="end:document_body")
            if i % 3 == 0:
                await c.ok("docx_save", session_id=c.session_id)
        await c.ok("docx_save", session_id=c.session_id)
        seen[n] = c.session_id


async def test_concurrent_clients_edit_only_their_own_documents_and_every_save_is_complete(tmp_path):
    services = Services(roots=[tmp_path])
    seen: dict[int, str] = {}
    with http_server(services) as url:
        async with anyio.create_task_group() as tg:
            for n in range(CLIENTS):
                tg.start_soon(edit_own_document, url, ("legacy", "auto")[n % 2], tmp_path, n, seen)
    assert len(set(seen.values())) == CLIENTS
    for n in range(CLIENTS):
        path = tmp_path / f"client{n}.docx"
        assert zipfile.ZipFile(path).testzip() is None
        paragraphs = [texts(el) for el in read_body(path).iter(f"{{{W}}}p")]
        assert paragraphs == [f"Document of client {n}"] + [f"client {n} edit {i}" for i in range(EDITS)]
