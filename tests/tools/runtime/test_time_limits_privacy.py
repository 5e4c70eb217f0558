"""The privacy tools keep the call time limit at their largest inputs (issue 24 with issue 17's rule): a big
document with revisions, comments and rsids everywhere, and a costly pattern (a lookaround capturing a group:
every paragraph is looked at). Each call answers within the limit and a small margin, done or LimitExceeded
with the document's parts byte-identical, and the next call on the session works. Helpers and limits are
tests/tools/runtime/test_time_limits.py's."""
from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

import server
from ooxml.opc.package import Limits
from tests.builders import build_docx
from tests.support.client import DocxClient
from tests.support import planted
from tests.tools.runtime.test_time_limits import FREE_WITHIN, GROWTH, LIMIT, MARGIN, under_limit
from tools.config.model import Config
from tools.runtime.sessions.overrun import GRACE_S
from tools.services import Services

pytestmark = pytest.mark.anyio
PARAGRAPHS = 20_000
DATE = 'w:author="Alice Author" w:date="2026-01-01T00:00:00Z"'


def busy_body() -> str:
    """PARAGRAPHS paragraphs each with an rsid, a tracked insertion and deletion, a hidden run and a comment
    anchor (comments.xml holds one comment they all share): every scrub category has work everywhere."""
    para = ('<w:p w:rsidR="00A1B2C3"><w:commentRangeStart w:id="0"/><w:r w:rsidR="00A1B2C3"><w:t xml:space="preserve">'
            'alpha Quillfeather gamma {i} </w:t></w:r><w:ins w:id="{a}" ' + DATE + '><w:r><w:t>new{i}</w:t></w:r>'
            '</w:ins><w:del w:id="{b}" ' + DATE + '><w:r><w:delText>old{i}</w:delText></w:r></w:del>'
            '<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden{i}</w:t></w:r><w:commentRangeEnd w:id="0"/></w:p>')
    return "".join(para.format(i=i, a=2 * i + 1, b=2 * i + 2) for i in range(PARAGRAPHS))


COMMENTS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:comments xmlns:w="http://schemas.openxml'
            'formats.org/wordprocessingml/2006/main"><w:comment w:id="0" ' + DATE + ' w:initials="AA"><w:p><w:r>'
            '<w:t>About Quillfeather</w:t></w:r></w:p></w:comment></w:comments>').encode()

# name -> (tool, arguments)
CASES = {
    "redact_text_everywhere": ("docx_redact", {"text": "a"}),  # 100,000s of matches, one per letter
    "redact_costly_pattern": ("docx_redact", {"pattern": r"(?=(a))\1[a-z]+ (?=(Q))\2\w+"}),
    "redact_case_insensitive_words": ("docx_redact", {"pattern": r"\b[a-z]+\d*\b", "case_sensitive": False}),
    "inspect_with_leak_check": ("docx_inspect", {"find": "Quillfeather"}),
    "scrub_every_category": ("docx_scrub", {"categories": [
        "personal_info", "properties", "comments", "revisions", "custom_xml", "hidden_text", "headers_footers",
        "embedded_objects", "chart_data", "alt_text"]}),
}


@pytest.fixture(scope="module")
def busy_docx(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("busy") / "busy.docx"
    return build_docx(path, busy_body(), extra_parts={"word/comments.xml": COMMENTS},
                      rels=[("rIdC", "comments", "comments.xml")],
                      overrides={"word/comments.xml": "application/vnd.openxmlformats-officedocument."
                                                       "wordprocessingml.comments+xml"})


@pytest.mark.parametrize("case", CASES)
async def test_a_privacy_tool_at_its_largest_input_ends_within_the_time_limit(tmp_path, busy_docx, case):
    name, args = CASES[case]
    services = Services(roots=[tmp_path, busy_docx.parent],
                        config=Config(document_limits=Limits(max_call_growth_bytes=GROWTH)))
    async with Client(server.build_server(services), cache=None) as client:
        c = DocxClient(client, [tmp_path, busy_docx.parent], services)
        await c.open(busy_docx)
        await c.save(tmp_path / "before.docx", strip_ids=True)
        answer, took, freed = await under_limit(services, c, name, args)
        if answer.is_error:  # as saved: a part parsed by the failed call reads as it came
            await c.save(tmp_path / "after.docx", strip_ids=True)
    before, after = (dict(planted.members((tmp_path / n).read_bytes())) if (tmp_path / n).exists() else None
                     for n in ("before.docx", "after.docx"))
    print(f"\n{case}: {answer.error_type or 'done'} in {took:.1f} s, freed {freed:.1f} s")  # shown with -s
    assert took < LIMIT + GRACE_S + MARGIN, f"{case}: answered after {took:.1f} s"
    assert not answer.is_error or answer.error_type == "LimitExceeded", answer.text[:600]
    assert after is None or after == before, f"{case}: a failed call changed the document"
    assert freed < FREE_WITHIN, f"{case}: the session was busy {freed:.1f} s after the answer"
