"""Prompts for the common jobs: listed with their arguments, each a short guide naming SPEC's tools in order."""
from __future__ import annotations

import pytest
from mcp.shared.exceptions import MCPError

from tests.support.http_server import MODES, http_client, http_server
from tools.services import Services

pytestmark = pytest.mark.anyio


def order_of(text: str, *names: str) -> list[int]:
    return [text.index(n) for n in names]


async def test_four_jobs_are_listed_with_their_arguments(docx):
    prompts = {p.name: p for p in (await docx.client.list_prompts()).prompts}
    assert set(prompts) == {"review_with_comments", "redline_versions", "fill_template", "tidy_formatting"}
    assert [(a.name, a.required) for a in prompts["redline_versions"].arguments] == \
        [("original_path", True), ("revised_path", True)]


async def test_a_guide_names_the_tools_in_the_order_an_agent_uses_them(docx):
    redline = (await docx.client.get_prompt("redline_versions", {"original_path": "v1.docx",
                                                                 "revised_path": "v2.docx"})).messages[0].content.text
    fill = (await docx.client.get_prompt("fill_template", {"file_path": "t.docx", "data": '{"name": "Ada"}'}))
    fill_text = fill.messages[0].content.text
    review = (await docx.client.get_prompt("review_with_comments", {"file_path": "a.docx"})).messages[0].content.text
    assert "docx_compare original_path=v1.docx revised_path=v2.docx" in redline
    assert order_of(redline, "docx_compare", "docx_list_revisions", "docx_save") == sorted(
        order_of(redline, "docx_compare", "docx_list_revisions", "docx_save"))
    assert order_of(fill_text, "docx_open", "docx_list_content_controls", "docx_fill_template", "docx_save") == \
        sorted(order_of(fill_text, "docx_open", "docx_list_content_controls", "docx_fill_template", "docx_save"))
    assert "query='{{'" in fill_text and '{"name": "Ada"}' in fill_text
    assert "docx_add_comment" in review and "clarity, errors and consistency" in review
    assert all(len(t) < 1000 for t in (redline, fill_text, review))


async def test_a_missing_argument_or_unknown_prompt_is_invalid_params(docx):
    for name, arguments in (("fill_template", {"file_path": "t.docx"}), ("summarise", {})):
        with pytest.raises(MCPError) as e:
            await docx.client.get_prompt(name, arguments)
        assert e.value.error.code == -32602


@pytest.mark.parametrize("mode", MODES)
async def test_prompts_over_http(tmp_path, mode):
    with http_server(Services(roots=[tmp_path])) as url:
        async with http_client(url, mode, [tmp_path]) as docx:
            listed = [p.name for p in (await docx.client.list_prompts()).prompts]
            got = await docx.client.get_prompt("tidy_formatting", {"file_path": "a.docx"})
    assert "tidy_formatting" in listed and "docx_apply_style" in got.messages[0].content.text
