"""limits.max_sessions_total: the open document sessions of all clients together, set in the config."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import build_docx, p
from tests.tools.runtime.test_call_budget import in_process
from tests.tools.config.test_config import findings_of
from tools.config.loading import parse_config
from tools.services import Services

pytestmark = pytest.mark.anyio


def services_with(tmp_path: Path, limits: dict) -> Services:
    return Services(roots=[tmp_path], config=parse_config({"limits": limits}, base_dir=tmp_path, env={}))


async def test_the_total_of_sessions_comes_from_the_config_and_the_refusal_names_the_key(tmp_path):
    build_docx(tmp_path / "a.docx", p("x"))
    services = services_with(tmp_path, {"max_sessions_total": 2})
    async with in_process(services) as c:
        first = await c.call("docx_open", file_path="a.docx")
        second = await c.call("docx_create")
        refused = await c.call("docx_open", file_path="a.docx")
    assert not first.is_error and not second.is_error
    assert refused.error_type == "LimitExceeded"
    assert "2 sessions are open on this server" in refused.text and "limits.max_sessions_total" in refused.text
    assert len(services.sessions.all()) == 2


async def test_the_per_client_limit_names_its_own_key_when_every_session_of_the_client_is_busy(tmp_path):
    services = services_with(tmp_path, {"max_sessions": 1, "max_sessions_total": 5})
    async with in_process(services) as c:
        await c.call("docx_create")
        busy = services.sessions.all()[0]
        busy.lock.acquire()  # a call under way on it: it is not ended to make room
        try:
            refused = await c.call("docx_create")
        finally:
            busy.lock.release()
    assert refused.error_type == "LimitExceeded" and "limits.max_sessions)" in refused.text
    assert len(services.sessions.all()) == 1


def test_the_default_total_is_1024():
    assert Services(roots=[]).limits.max_sessions_total == 1024


@pytest.mark.parametrize("value, finding", [
    (0, "limits.max_sessions_total: expected a value above 0, got 0"),
    ("many", "limits.max_sessions_total: expected an integer, got a string"),
])
def test_a_bad_total_is_reported_by_the_config_check(value, finding):
    assert findings_of({"limits": {"max_sessions_total": value}}) == [finding]
