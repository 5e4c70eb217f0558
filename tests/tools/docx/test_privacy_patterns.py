"""docx_redact(pattern=...) runs the patterns users write (issue 29, defect 11): no pattern is refused for
its shape; one whose match runs too long answers LimitExceeded within the call's time limit and leaves
the document as it was, and the session serves the next call."""
from __future__ import annotations

import re

import pytest
from mcp import Client

import server
from tests.builders import build_docx
from tests.support import planted
from tests.support.client import DocxClient
from tests.tools.docx.test_privacy_redact import EMAIL, assert_only_matches_changed, redacted
from tests.tools.runtime.test_time_limits import FREE_WITHIN, LIMIT, MARGIN, under_limit
from tools.runtime.sessions.overrun import GRACE_S
from tools.services import Services

pytestmark = pytest.mark.anyio
USERS_EMAILS = r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
CATASTROPHIC = r"(a|aa)+$"  # exponential backtracking on a long run of a's not followed by the end


async def test_an_ordinary_email_pattern_is_run_and_redacts_every_address(docx, tmp_path):
    src, out, a = await redacted(docx, tmp_path, EMAIL, pattern=USERS_EMAILS)
    regex = re.compile(USERS_EMAILS)
    assert planted.leaks(src, regex) and planted.leaks(out, regex) == []
    assert a.head["Leak Check"].startswith("nothing left")
    assert_only_matches_changed(src, out, regex)


@pytest.mark.parametrize("pattern", [r"(\w+\.?)+@example\.org", r"(jane|doe|\.)+@example\.org"])
async def test_nested_repetition_is_not_refused(docx, tmp_path, pattern):
    src, out, a = await redacted(docx, tmp_path, EMAIL, pattern=pattern)
    address = re.compile(re.escape(EMAIL))  # what both patterns match; re itself would backtrack on them
    assert planted.leaks(src, address) and planted.leaks(out, address) == [] and int(a.head["Matches"]) > 0


async def test_a_catastrophic_pattern_ends_within_the_limit_and_changes_nothing(tmp_path):
    body = "<w:p><w:r><w:t>" + "a" * 3000 + "!</w:t></w:r></w:p><w:p><w:r><w:t>aa</w:t></w:r></w:p>"
    src = build_docx(tmp_path / "aaa.docx", body)
    services = Services(roots=[tmp_path])
    async with Client(server.build_server(services), cache=None) as client:
        c = DocxClient(client, [tmp_path], services)
        await c.open(src)
        await c.save(tmp_path / "before.docx", strip_ids=True)
        answer, took, freed = await under_limit(services, c, "docx_redact", {"pattern": CATASTROPHIC})
        await c.save(tmp_path / "after.docx", strip_ids=True)
    assert answer.is_error and answer.error_type == "LimitExceeded", answer.text[:600]
    assert took < LIMIT + GRACE_S + MARGIN and freed < FREE_WITHIN, (took, freed)
    before, after = (dict(planted.members((tmp_path / n).read_bytes())) for n in ("before.docx", "after.docx"))
    assert after == before


@pytest.mark.parametrize("pattern", [
    USERS_EMAILS, r"[^\]\\x-]{3}q", r"(?i)straße|ÉCOLE", r"a(?-i:B)c", r"(\d)\1{2}", r"(a)?(?(1)b|c)d",
    r"(?>ab|a)+c", r"x{2,}?y", r"\bword\b", r"[\w\s]+!", r"(?P<n>\.)(?P=n)", r"(?s:a.b)", r"(?m)^z$"])
def test_the_paragraph_filter_is_written_back_exactly_for_regex(pattern):
    """The filter (the pattern without assertions, written back from re's parse for the regex module)
    compiles, is no match-anything fallback, and finds every match the pattern finds."""
    from ooxml.privacy import matcher as MT
    m = MT.for_pattern(pattern, case_sensitive=False)
    assert m.loose.pattern != "(?s:.+)"
    texts = ["jane.doe@mail.example.org", "abcq ]]]q", "STRASSE école", "aBc", "x111y", "abd cd", "ababac",
             "xxxy", "a word here", "a b&c!", "..", "a\nb", "y\nz\nw"]
    for text in texts:
        for hit in m.regex.finditer(text):
            assert any(s < hit.end() and hit.start() < e for s, e in (x.span() for x in m.loose.finditer(text))), \
                (pattern, text)
