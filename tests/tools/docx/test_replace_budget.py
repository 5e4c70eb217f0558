"""docx_replace_text cannot grow a document without bound (issue 12, defect 4).

A replace whose matches would add more than the per-call limit (``limits.max_call_growth_bytes``,
16 MiB by default, configurable) is refused before any change, with LimitExceeded. Replacing
is linear in the text however many matches a paragraph has.
"""
from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import Client

from tests.support.client import DocxClient, read_body, read_part, texts
from tools.config.loading import parse_config

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def client_with_limits(tmp_path: Path, **limits):
    import server
    from tools.services import Services

    config = parse_config({"limits": limits}, base_dir=tmp_path, env={})
    async with Client(server.build_server(Services(roots=[tmp_path], config=config)), cache=None) as client:
        yield DocxClient(client, [tmp_path])


async def test_runaway_replace_is_refused_before_it_starts(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Hello world", position="end:document_body")
    first = await docx.ok("docx_replace_text", old_text="l", new_text="l" * 99_999)
    assert first.head["Replacements"] == "3"
    await docx.save(tmp_path / "before.docx")
    a = await docx.call("docx_replace_text", old_text="l", new_text="l" * 99_999)
    assert a.is_error and a.error_type == "LimitExceeded", a.text
    assert "299,997 occurrence" in a.head["Message"] and "max_call_growth_bytes" in a.head["Hint"]
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


async def test_growth_limit_comes_from_the_config(tmp_path):
    async with client_with_limits(tmp_path, max_call_growth_bytes=1000) as docx:
        await docx.create()
        await docx.ok("docx_insert_paragraph", text="a b c d e", position="end:document_body")
        await docx.ok("docx_replace_text", old_text=" ", new_text="-" * 200)  # 4 × 199 bytes: allowed
        a = await docx.call("docx_replace_text", old_text="a", new_text="x" * 1002)
        assert a.is_error and a.error_type == "LimitExceeded" and "1,000 bytes" in a.head["Message"]


async def test_shrinking_replace_is_never_limited(tmp_path):
    async with client_with_limits(tmp_path, max_call_growth_bytes=1) as docx:
        await docx.create()
        await docx.ok("docx_insert_paragraph", text="aaaa " * 1000, position="end:document_body")
        a = await docx.ok("docx_replace_text", old_text="aaaa ", new_text="b")
        assert a.head["Replacements"] == "1000"


async def test_many_matches_across_runs_replace_exactly(docx, tmp_path):
    """The one-pass rewrite: matches inside a run, spanning runs, and adjacent to each other."""
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="abab", position="end:document_body")).element_id
    await docx.ok("docx_insert_run", text="ab|ab", position=f"end:{para}")
    await docx.ok("docx_insert_run", text="ba", position=f"end:{para}")
    a = await docx.ok("docx_replace_text", old_text="ba", new_text="<>")
    text = "abab" + "ab|ab" + "ba"  # one match spans the first two runs
    assert a.head["Replacements"] == str(text.count("ba"))
    body = await docx.save(tmp_path / "out.docx")
    assert texts(body) == text.replace("ba", "<>")


async def test_a_long_paragraph_with_many_matches_is_replaced(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="l" * 200_000, position="end:document_body")
    a = await docx.ok("docx_replace_text", old_text="l", new_text="LL")
    assert a.head["Replacements"] == "200000"
    assert texts(read_body(await _saved(docx, tmp_path))) == "LL" * 200_000


async def _saved(docx, tmp_path):
    await docx.save(tmp_path / "out.docx")
    return tmp_path / "out.docx"


@pytest.mark.parametrize("tool", ["docx_copy_elements_range", "docx_copy_paragraph", "docx_copy_table"])
async def test_copies_over_the_growth_limit_are_refused_before_copying(tmp_path, tool):
    """Copying the body into itself doubles it each call: the per-call limit stops that at once."""
    async with client_with_limits(tmp_path, max_call_growth_bytes=20_000) as docx:
        await docx.create()
        para = (await docx.ok("docx_insert_paragraph", text="x" * 30_000, position="end:document_body")).element_id
        table = (await docx.ok("docx_insert_table", rows=40, cols=5, position="end:document_body",  # 200 cells:
                               data=[["y" * 50] * 5] * 40)).element_id  # within the limit as new, over it copied
        await docx.save(tmp_path / "before.docx")
        args = {"docx_copy_elements_range": {"start_id": para, "end_id": table},
                "docx_copy_paragraph": {"element_id": para},
                "docx_copy_table": {"table_id": table}}[tool]
        a = await docx.call(tool, position="end:document_body", **args)
        assert a.is_error and a.error_type == "LimitExceeded" and "20,000 bytes" in a.head["Message"], a.text
        await docx.save(tmp_path / "after.docx")
        assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")
