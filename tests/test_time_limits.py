"""Every tool that takes a large input keeps the call time limit, driven by the largest input the
limits allow: the call answers within the limit and a small margin, either done or LimitExceeded
with the document's parts byte-identical, and the next call on the session works (issue 17).

The test services lower limits.max_call_growth_bytes (so "largest" stays quick to build) and the
call time limit (LIMIT seconds).
"""
from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest
from mcp import Client

import server
from ooxml.opc.package import Limits
from tests.builders import build_docx, p, tbl, tc
from tests.support.client import DocxClient
from tests.support.parts import part_bytes
from tools.config.model import Config
from tools.runtime.overrun import GRACE_S
from tools.services import Services

pytestmark = pytest.mark.anyio
LIMIT = 2.0
MARGIN = 3.0  # a loaded 2-core machine: the in-process client encoding 200,000 cells, a starved event loop
FREE_WITHIN = 10.0  # a late call must stop (check its budget) soon after its deadline (a quadratic one ran minutes)
GROWTH = 2 * 1024 * 1024
ROWS = 2000  # the table the table tools work on (10,000 rows: a minute a case on 2 cores)
LINES = "line\n" * 200_000  # 1,000,000 characters: the text limit, as many lines (w:br) as fit
WORDS = " ".join(f"w{i}" for i in range(150_000))[:1_000_000]


def lines(n_chars: int) -> str:
    return ("a\n" * (n_chars // 2))[:n_chars]


def big_body() -> str:
    return "".join(p(f"alpha beta gamma delta {i}") for i in range(5000))


def table_body() -> str:
    return tbl([[tc(p(f"r{r}c{c}")) for c in range(4)] for r in range(ROWS)])


def revisions_body() -> str:
    ins = '<w:ins w:id="{i}" w:author="A" w:date="2026-01-01T00:00:00Z"><w:r><w:t>new{i}</w:t></w:r></w:ins>'
    dele = ('<w:del w:id="{i}" w:author="A" w:date="2026-01-01T00:00:00Z"><w:r><w:delText>old{i}</w:delText>'
            '</w:r></w:del>')
    return "".join("<w:p>" + ins.format(i=2 * i + 1) + dele.format(i=2 * i + 2) + "</w:p>" for i in range(5000))


def footnote_markdown() -> str:
    n = 40_000
    return "x" + "".join(f"[^{i}]" for i in range(n)) + "\n\n" + "".join(f"[^{i}]: n\n" for i in range(n))


def table_markdown() -> str:
    """ROWS rows of 20 cells: markdown-it's table rule reads a whole table in one step that cannot
    check the budget (9,000 rows kept the session busy 10 s past the deadline on a loaded machine)."""
    row = "|" + "|".join("c" for _ in range(20)) + "|\n"
    return row + "|" + "|".join("-" for _ in range(20)) + "|\n" + row * ROWS


# name -> (document body, tool, arguments from the ids: first/last paragraph, table, comment)
CASES = {
    "insert_paragraph": ("small", "docx_insert_paragraph", lambda i: {"text": LINES, "position": "end:document_body"}),
    "insert_run": ("small", "docx_insert_run", lambda i: {"text": LINES, "position": f"end:{i['first']}"}),
    "insert_heading": ("small", "docx_insert_heading",
                       lambda i: {"text": "h " * 499_999, "level": 1, "position": "end:document_body"}),
    "update_paragraph_text": ("small", "docx_update_paragraph_text",
                              lambda i: {"element_id": i["first"], "new_text": LINES}),
    "update_paragraph_text_tracked": ("tracked", "docx_update_paragraph_text",
                                      lambda i: {"element_id": i["first"], "new_text": WORDS}),
    "insert_paragraph_to_cell": ("table", "docx_insert_paragraph_to_cell",
                                 lambda i: {"text": LINES, "table_id": i["table"], "row": 0, "col": 0}),
    "add_comment": ("small", "docx_add_comment", lambda i: {"element_id": i["first"], "text": lines(100_000)}),
    "reply_comment": ("commented", "docx_reply_comment", lambda i: {"comment_id": i["comment"],
                                                                   "text": lines(100_000)}),
    "insert_footnote": ("small", "docx_insert_footnote",
                        lambda i: {"element_id": i["first"], "text": "n " * 499_999}),
    "insert_markdown_footnotes": ("small", "docx_insert_markdown",
                                  lambda i: {"markdown": footnote_markdown(), "position": "end:document_body"}),
    "insert_markdown_paragraphs": ("small", "docx_insert_markdown",
                                   lambda i: {"markdown": "para *x* **y**\n\n" * 120_000,
                                              "position": "end:document_body"}),
    "insert_markdown_table": ("small", "docx_insert_markdown",
                              lambda i: {"markdown": table_markdown(), "position": "end:document_body"}),
    "insert_markdown_list": ("small", "docx_insert_markdown",
                             lambda i: {"markdown": "- item\n  - sub\n" * 60_000, "position": "end:document_body"}),
    "insert_list": ("small", "docx_insert_list",
                    lambda i: {"items": ["item " * 40] * 10_000, "position": "end:document_body"}),
    "insert_table": ("small", "docx_insert_table",
                     lambda i: {"rows": 10_000, "cols": 20, "position": "end:document_body",
                                "data": [["x"] * 20] * 10_000}),
    "fill_table": ("table", "docx_fill_table",
                   lambda i: {"table_id": i["table"], "data": [["v" * 40] * 4] * 10_000}),
    "insert_col_at": ("table", "docx_insert_col_at", lambda i: {"table_id": i["table"], "position": "after:0"}),
    "insert_row_at": ("table", "docx_insert_row_at", lambda i: {"table_id": i["table"], "position": f"after:{ROWS // 2}"}),
    "delete_col": ("table", "docx_delete_col", lambda i: {"table_id": i["table"], "col_index": 1}),
    "merge_cells": ("table", "docx_merge_cells", lambda i: {"table_id": i["table"], "start_row": 0, "start_col": 0,
                                                            "end_row": ROWS - 1, "end_col": 3}),
    "copy_table": ("table", "docx_copy_table", lambda i: {"table_id": i["table"], "position": "end:document_body"}),
    "get_table": ("table", "docx_get_table", lambda i: {"table_id": i["table"]}),
    "replace_text": ("big", "docx_replace_text", lambda i: {"old_text": "a", "new_text": "b" * 20}),
    "find_paragraphs": ("big", "docx_find_paragraphs", lambda i: {"query": "delta 4999"}),
    "copy_elements_range": ("big", "docx_copy_elements_range",
                            lambda i: {"start_id": i["first"], "end_id": i["2000th"], "position": "end:document_body"}),
    "set_list_range": ("big", "docx_set_list", lambda i: {"element_id": i["first"], "end_id": i["2000th"],
                                                          "list_type": "number"}),
    "read_content": ("big", "docx_read_content", lambda i: {"max_elements": 200}),
    "get_structure": ("big", "docx_get_structure", lambda i: {}),
    "export_markdown": ("big", "docx_export_markdown", lambda i: {"file_path": "out.md"}),
    "save": ("big", "docx_save", lambda i: {"file_path": "saved.docx"}),
    "accept_revisions": ("revisions", "docx_accept_revisions", lambda i: {}),
    "reject_revisions": ("revisions", "docx_reject_revisions", lambda i: {}),
    "list_revisions": ("revisions", "docx_list_revisions", lambda i: {}),
    "create_header": ("small", "docx_create_header_footer",
                      lambda i: {"kind": "header", "which": "default", "text": LINES}),
    "insert_hyperlink": ("small", "docx_insert_hyperlink",
                         lambda i: {"text": "l" * 1_000_000, "position": f"end:{i['first']}",
                                    "url": "https://example.com/"}),
}

BODIES = {"small": lambda: p("first") + p("last"), "big": big_body, "table": lambda: p("first") + table_body(),
          "revisions": revisions_body, "tracked": lambda: p(WORDS.replace(" w1", " v1")),
          "commented": lambda: p("first") + p("last")}


async def prepared(c: DocxClient, tmp_path: Path, kind: str) -> dict:
    import re
    await c.open(build_docx(tmp_path / f"{kind}.docx", BODIES[kind]()))
    ids = {}
    structure = (await c.ok("docx_read_content", max_elements=1)).text
    ids["first"] = re.search(r"\bpara_[0-9a-f]+", structure).group(0)
    table = re.search(r"\btable_[0-9a-f]+", structure)
    ids["table"] = table.group(0) if table else None
    if kind == "big":
        for key, at in (("2000th", 1999),):
            found = (await c.ok("docx_find_paragraphs", query=f"delta {at}")).text
            ids[key] = re.search(r"\bpara_[0-9a-f]+", found).group(0)
    if kind == "tracked":
        await c.ok("docx_set_track_changes", enabled=True, author="T")
    if kind == "commented":
        ids["comment"] = (await c.ok("docx_add_comment", element_id=ids["first"], text="first")).element_id
    return ids


async def next_call_works(c: DocxClient) -> float:
    """Seconds until the session serves again (SessionBusy retried)."""
    start = time.monotonic()
    while True:
        answer = await c.call("docx_get_history", session_id=c.session_id)  # cheap, and takes the lock
        # SessionBusy, or LimitExceeded when a late thread's C-level steps starved this one of the GIL
        if answer.error_type not in ("SessionBusy", "LimitExceeded") or time.monotonic() - start > 30:
            assert not answer.is_error, answer.text
            return time.monotonic() - start
        await anyio.sleep(0.1)


@pytest.mark.parametrize("case", CASES)
async def test_the_largest_input_ends_within_the_time_limit(tmp_path, case):
    kind, name, arguments = CASES[case]
    services = Services(roots=[tmp_path], config=Config(document_limits=Limits(max_call_growth_bytes=GROWTH)))
    async with Client(server.build_server(services), cache=None) as client:
        c = DocxClient(client, [tmp_path], services)
        ids = await prepared(c, tmp_path, kind)
        args = arguments(ids)
        before = part_bytes(services, c.session_id)
        services.limit_overrides["call_timeout_s"] = LIMIT
        start = time.monotonic()
        answer = await c.call(name, session_id=c.session_id, **args)
        took = time.monotonic() - start
        freed = await next_call_works(c)
        services.limit_overrides.clear()
        after = part_bytes(services, c.session_id) if answer.is_error else None
    assert took < LIMIT + GRACE_S + MARGIN, f"{case}: answered after {took:.1f} s"
    assert not answer.is_error or answer.error_type == "LimitExceeded", answer.text[:600]
    assert after is None or after == before, f"{case}: a failed call changed the document"
    assert freed < FREE_WITHIN, f"{case}: the session was busy {freed:.1f} s after the answer"
