"""docx_compare sees what a chart shows: a chart whose title, series or values changed under the
same relationship ID is the old chart deleted and the new one inserted; rejecting all gives the
original chart back, accepting all the revised one."""
from __future__ import annotations

import pytest

from tests.support.client import NS

pytestmark = pytest.mark.anyio


async def two_versions(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Figures", position="end:document_body")
    made = await docx.ok("docx_insert_chart", kind="column", categories=["Q1", "Q2"],
                         series=[{"name": "Revenue", "values": [1, 2]}], title="Sales Zeta",
                         position="end:document_body")
    await docx.save(tmp_path / "a.docx")
    await docx.ok("docx_update_chart", chart_id=made.head["Element ID"], title="Sales Omega")
    await docx.save(tmp_path / "b.docx")
    return tmp_path / "a.docx", tmp_path / "b.docx"


async def test_a_chart_retitled_is_a_change(docx, tmp_path):
    a, b = await two_versions(docx, tmp_path)
    ans = await docx.ok("docx_compare", original_path=str(a), revised_path=str(b))
    assert ans.head["Insertions"] == "1" and ans.head["Deletions"] == "1", ans.text[:800]
    assert '[-[CHART' in ans.text and "Sales Zeta" in ans.text


async def test_reject_all_gives_the_original_chart_and_accept_all_the_revised(docx, tmp_path):
    a, b = await two_versions(docx, tmp_path)
    for verb, want in (("docx_reject_revisions", "Sales Zeta"), ("docx_accept_revisions", "Sales Omega")):
        sid = (await docx.ok("docx_compare", original_path=str(a), revised_path=str(b))).head["Session ID"]
        await docx.ok(verb, session_id=sid)
        got = await docx.ok("docx_get_chart", session_id=sid,
                            chart_id=(await docx.ok("docx_list_charts", session_id=sid)).text.split("[CHART ")[1].split(":")[0])
        assert f'"title":"{want}"' in got.text, got.text
