"""docx_batch holds its calls to ONE call's growth limit (issue 29 #13): 80 table copies in one batch
grew a document by 1.1 GB because each copy was checked alone against limits.max_call_growth_bytes."""
from __future__ import annotations

import re

import pytest
from mcp import Client

import server
from tests.builders import build_docx, p, tbl
from tests.support.client import DocxClient, read_part
from tools.config.loading import parse_config
from tools.services import Services

pytestmark = pytest.mark.anyio
ROWS = [[p(f"row {r} column {c} " + "words " * 8) for c in range(4)] for r in range(12)]


async def opened(tmp_path, limit: int):
    path = build_docx(tmp_path / "table.docx", p("Before") + tbl(ROWS) + p("After"))
    services = Services(roots=[tmp_path], config=parse_config({"limits": {"max_call_growth_bytes": limit}},
                                                              base_dir=tmp_path))
    return path, Client(server.build_server(services), cache=None), services


async def table_id(docx) -> str:
    listed = await docx.ok("docx_list_tables", session_id=docx.session_id)
    return re.search(r"\btable_[0-9a-f]+\b", listed.text).group()


def copies(table: str, n: int) -> list[dict]:
    return [{"tool": "docx_copy_table", "arguments": {"table_id": table, "position": "end:document_body"}}] * n


def table_bytes(path) -> int:
    xml = read_part(path)
    return len(xml[xml.index(b"<w:tbl>"):xml.index(b"</w:tbl>")])


async def test_a_batch_of_copies_adds_no_more_than_one_call_may(tmp_path):
    """Batches of 2, 4 and 8 copies under a limit of about 5 copies: 2 and 4 add 1:2, 8 is refused whole."""
    path, client, services = await opened(tmp_path, 1)
    size = table_bytes(path)
    limit = int(size * 5.5)
    path, client, services = await opened(tmp_path, limit)
    async with client:
        docx = DocxClient(client, [tmp_path], services)
        await docx.open(path)
        table = await table_id(docx)
        added, sizes = {}, []
        for n in (2, 4, 8):
            await docx.save(tmp_path / f"before{n}.docx", strip_ids=True)
            answer = await docx.call("docx_batch", session_id=docx.session_id, calls=copies(table, n))
            await docx.save(tmp_path / f"after{n}.docx", strip_ids=True)
            sizes.append(len(read_part(tmp_path / f"after{n}.docx")))
            added[n] = (answer, sizes[-1] - len(read_part(tmp_path / f"before{n}.docx")))
    assert not added[2][0].is_error and not added[4][0].is_error, added[4][0].text[:500]
    assert 1.7 < added[4][1] / added[2][1] < 2.3, added
    refused, grew = added[8]
    assert refused.error_type == "LimitExceeded" and grew == 0, (refused.text[:500], grew)
    assert read_part(tmp_path / "after8.docx") == read_part(tmp_path / "before8.docx")
    message = refused.head["Message"]
    assert "limits.max_call_growth_bytes" in message and "calls[" in message and "already added" in message


async def test_copies_of_what_the_batch_made_count_too(tmp_path):
    """Copy, then copy the copy: what the earlier calls added counts against the one limit."""
    path, client, services = await opened(tmp_path, 1)
    limit = int(table_bytes(path) * 2.5)
    path, client, services = await opened(tmp_path, limit)
    async with client:
        docx = DocxClient(client, [tmp_path], services)
        await docx.open(path)
        table = await table_id(docx)
        await docx.save(tmp_path / "before.docx", strip_ids=True)
        answer = await docx.call("docx_batch", session_id=docx.session_id, calls=[
            {"tool": "docx_copy_table", "arguments": {"table_id": table, "position": "end:document_body"}},
            {"tool": "docx_copy_table", "arguments": {"table_id": "last_insert", "position": "end:document_body"}},
            {"tool": "docx_copy_table", "arguments": {"table_id": "last_insert", "position": "end:document_body"}}])
        await docx.save(tmp_path / "after.docx", strip_ids=True)
    assert answer.error_type == "LimitExceeded" and "calls[2]" in answer.head["Message"], answer.text[:500]
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


async def test_images_and_tables_a_batch_makes_count_against_the_one_limit(tmp_path):
    """Arguments a few bytes long that add much: an image file, a table of rows × cols."""
    import random
    from PIL import Image
    image = tmp_path / "noise.png"  # noise: about 720 KB, it does not compress
    Image.frombytes("RGB", (600, 400), random.Random(29).randbytes(600 * 400 * 3)).save(image)
    _, client, services = await opened(tmp_path, 1)
    path, client, services = await opened(tmp_path, 1_000_000)
    insert_image = {"tool": "docx_insert_image", "arguments": {"image_path": str(image), "position": "end:document_body"}}
    table = {"tool": "docx_insert_table", "arguments": {"rows": 200, "cols": 50, "position": "end:document_body"}}
    async with client:
        docx = DocxClient(client, [tmp_path], services)
        await docx.open(path)
        one = image.stat().st_size
        await docx.save(tmp_path / "before.docx", strip_ids=True)
        assert 500_000 < one < 1_000_000
        images = await docx.call("docx_batch", calls=[insert_image] * 2)
        tables = await docx.call("docx_batch", calls=[table] * 2)
        alone = await docx.call("docx_insert_table", rows=200, cols=50, position="end:document_body")
        await docx.save(tmp_path / "after.docx", strip_ids=True)
    assert images.error_type == "LimitExceeded" and "limits.max_call_growth_bytes" in images.head["Message"], \
        images.text[:400]
    assert tables.error_type == "LimitExceeded" and "calls[1]" in tables.head["Message"], tables.text[:400]
    assert not alone.is_error, alone.text[:400]
    assert read_part(tmp_path / "after.docx") != read_part(tmp_path / "before.docx")  # the table alone went in
