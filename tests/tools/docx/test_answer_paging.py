"""Answers sized for the reader (issue 29, defect 19): docx_compare takes a view like other tools
(compact: the counts), docx_get_structure pages a long document (and says how to get the next
page), and docx_open shows the first page of a long document."""
from __future__ import annotations

import re

import pytest

from tests.builders import build_docx, p, tbl, tc

pytestmark = pytest.mark.anyio

HEADING = ('<w:p><w:pPr><w:outlineLvl w:val="{lvl}"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>')


def _contract(path, blocks: int = 780):
    """Articles (level 1) every 40 blocks, sections (level 2) every 10, a table every 50, clauses between."""
    out = []
    for i in range(blocks):
        if i % 40 == 0:
            out.append(HEADING.format(lvl=0, text=f"Article {i // 40}"))
        elif i % 10 == 0:
            out.append(HEADING.format(lvl=1, text=f"Section {i // 10}"))
        elif i % 50 == 25:
            out.append(tbl([[tc(p(f"t{i} a")), tc(p(f"t{i} b"))]]))
        else:
            out.append(p(f"Clause {i}: the parties agree to the terms set out in this clause."))
    return build_docx(path, "".join(out))


def _versions(tmp_path):
    base = [f"Paragraph {i} says something about the subject at hand." for i in range(60)]
    revised = list(base)
    for i in (5, 30, 55):
        revised[i] = revised[i].replace("something", "another thing")
    return (build_docx(tmp_path / "v1.docx", "".join(p(t) for t in base)),
            build_docx(tmp_path / "v2.docx", "".join(p(t) for t in revised)))


async def _compare(docx, tmp_path, **kw):
    v1, v2 = _versions(tmp_path)
    return await docx.ok("docx_compare", original_path=str(v1), revised_path=str(v2), **kw)


async def test_compare_compact_is_a_count_summary(docx, tmp_path):
    full = await _compare(docx, tmp_path)
    compact = await _compare(docx, tmp_path, view="compact")
    assert compact.head["Changes"] == full.head["Changes"] != "0"
    assert "┌" not in compact.text and "┌" in full.text
    assert len(compact.text) < 800 < len(full.text)


async def test_compare_view_none_is_the_head_alone(docx, tmp_path):
    none = await _compare(docx, tmp_path, view="none")
    assert none.head["Changes"] != "0" and none.head["Session ID"]
    assert "## " not in none.text and "Cursor:" not in none.text


async def test_compare_refuses_an_unknown_view(docx, tmp_path):
    bad = await docx.call("docx_compare", original_path="a.docx", revised_path="b.docx", view="short")
    assert bad.is_error and "view" in bad.text


async def _structure(docx, **kw):
    return await docx.ok("docx_get_structure", **kw)


async def test_structure_of_a_long_document_comes_a_page_at_a_time(docx, tmp_path):
    await docx.open(_contract(tmp_path / "c.docx"))
    first = await _structure(docx)
    assert len(first.text) < 10_000
    assert first.head["Range"].startswith("1-") and first.head["Range"].endswith(" of 780")
    assert re.fullmatch(r"start_element_id=\w+", first.head["Next Page"])


async def test_structure_pages_together_hold_every_heading_once(docx, tmp_path):
    await docx.open(_contract(tmp_path / "c.docx"))
    seen, pages, kw = [], 0, {}
    while True:
        page = await _structure(docx, **kw)
        pages += 1
        seen += re.findall(r"H\d (?:Article|Section) \d+", page.section("Content"))
        if "Next Page" not in page.head:
            assert page.head["Range"].endswith("-780 of 780")
            break
        kw = {"start_element_id": page.head["Next Page"].split("=", 1)[1]}
    assert pages > 1
    expected = [f"H1 Article {i // 40}" if i % 40 == 0 else f"H2 Section {i // 10}" for i in range(0, 780, 10)]
    assert seen == expected


async def test_a_structure_page_ends_where_the_next_begins(docx, tmp_path):
    await docx.open(_contract(tmp_path / "c.docx"))
    first = await _structure(docx, max_entries=5)
    assert len(re.findall(r"^\S*[├└]── ", first.section("Content"), re.M)) <= 5 + 1
    nxt = first.head["Next Page"].split("=", 1)[1]
    second = await _structure(docx, start_element_id=nxt, max_entries=5)
    end = int(first.head["Range"].split(" ")[0].split("-")[1])
    assert second.head["Range"].startswith(f"{end + 1}-")
    assert f"from block {end + 1}" in second.section("Content")


async def test_structure_refuses_a_page_size_out_of_range(docx, tmp_path):
    await docx.open(_contract(tmp_path / "c.docx", 20))
    bad = await docx.call("docx_get_structure", max_entries=0)
    assert bad.is_error and bad.error_type == "ValidationError" and "max_entries" in bad.text


async def test_open_shows_the_first_page_of_a_long_document(docx, tmp_path):
    opened = await docx.open(build_docx(tmp_path / "long.docx", "".join(p(f"Line {i}") for i in range(60))))
    context = opened.section("Context")
    assert "[Document Start]" in context and "│ Line 0 " in context
    assert "Line 59" not in context and "more elements below" in context
    assert opened.cursor_line.startswith("Cursor: after Paragraph ")  # SPEC §5: after the last block
    last = await docx.ok("docx_get_context", element_id="cursor")
    assert "Line 59" in last.section("Context")
