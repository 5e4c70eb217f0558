"""Each caller has its own quota of open sessions (tenant, MCP session, or for anonymous
sessionless clients their source address, forwarded by trusted proxies); a caller at its quota
ends its own longest-idle session (with a recovery file) rather than locking anyone out."""
from __future__ import annotations

import pytest

from tests.builders import build_docx, p
from tests.support.client import read_body, texts
from tests.support.http_server import MODES, http_client, http_server
from tools.config.loading import parse_config
from tools.services import Services

pytestmark = pytest.mark.anyio


def services_with(tmp_path, limits: dict, trusted: list[str] | None = None) -> Services:
    raw = {"limits": limits}
    if trusted is not None:
        raw["proxy"] = {"forwarded_header": "X-Forwarded-For", "trusted_proxies": trusted}
    return Services(roots=[tmp_path], config=parse_config(raw, base_dir=tmp_path, env={}))


def from_address(address: str) -> dict:
    return {"X-Forwarded-For": address}


async def test_one_anonymous_client_cannot_stop_another_from_opening(tmp_path):
    services = services_with(tmp_path, {"max_sessions_anonymous": 3, "max_sessions_total": 8}, ["127.0.0.1"])
    with http_server(services) as url:
        async with http_client(url, "auto", [tmp_path], headers=from_address("203.0.113.1")) as greedy, \
                http_client(url, "auto", [tmp_path], headers=from_address("203.0.113.2")) as other:
            opened = [await greedy.call("docx_create") for _ in range(12)]
            theirs = await other.call("docx_create")
    assert [a.error_type for a in opened] == [None] * 12, [a.text for a in opened if a.is_error][:1]
    assert not theirs.is_error, theirs.text
    by_address = [s.quota for s in services.sessions.all()]
    assert by_address.count(("address", "203.0.113.1")) == 3 and by_address.count(("address", "203.0.113.2")) == 1


@pytest.mark.parametrize("mode", MODES)
async def test_at_its_quota_a_client_ends_its_longest_idle_session_with_a_recovery_file(tmp_path, mode):
    first, second = build_docx(tmp_path / "first.docx", p("First")), build_docx(tmp_path / "second.docx", p("Two"))
    original = first.read_bytes()
    services = services_with(tmp_path, {"max_sessions_anonymous": 2})
    with http_server(services) as url:
        async with http_client(url, mode, [tmp_path]) as client:
            one = (await client.open(first)).head["Session ID"]
            await client.ok("docx_insert_paragraph", session_id=one, text="Unsaved work", position="end:document_body")
            two = (await client.open(second)).head["Session ID"]
            await client.ok("docx_read_content", session_id=one)  # now "second" is the longest idle
            await client.ok("docx_read_content", session_id=two)  # and now "first" again
            third = await client.call("docx_create")
            gone = await client.call("docx_read_content", session_id=one)
            kept = await client.call("docx_read_content", session_id=two)
    recovery = tmp_path / "~$first.recovered.docx"
    assert not third.is_error, third.text
    assert one in third.head["Ended"] and recovery.name in third.head["Ended"]
    assert gone.error_type == "SessionNotFound" and not kept.is_error
    assert "Unsaved work" in texts(read_body(recovery)) and first.read_bytes() == original


@pytest.mark.parametrize("trusted, shared", [(["127.0.0.1"], False), (["192.0.2.7", "10.0.0.0/8"], True)])
async def test_the_forwarded_address_counts_only_when_a_trusted_proxy_sends_it(tmp_path, trusted, shared):
    services = services_with(tmp_path, {"max_sessions_anonymous": 1}, trusted)
    with http_server(services) as url:
        async with http_client(url, "auto", [tmp_path], headers=from_address("203.0.113.1")) as a, \
                http_client(url, "auto", [tmp_path], headers=from_address("203.0.113.2")) as b:
            await a.create()
            await b.create()
            mine = await a.call("docx_read_content", session_id=a.session_id)
    # Untrusted: both are 127.0.0.1 (the header could be forged), one quota: b's open ended a's session.
    assert mine.error_type == ("SessionNotFound" if shared else None), mine.text
    quotas = {s.quota for s in services.sessions.all()}
    assert quotas == ({("address", "127.0.0.1")} if shared else {("address", "203.0.113.2"), ("address", "203.0.113.1")})


def test_anonymous_callers_get_a_smaller_default_quota():
    limits = Services(roots=[]).limits
    assert limits.max_sessions_anonymous < limits.max_sessions


@pytest.mark.parametrize("proxy, finding", [
    ({"forwarded_header": "X-Forwarded-For"}, "proxy.trusted_proxies: required key is missing"),
    ({"forwarded_header": "X Forwarded", "trusted_proxies": ["10.0.0.1"]},
     "proxy.forwarded_header: 'X Forwarded' is not a header name"),
    ({"forwarded_header": "X-Forwarded-For", "trusted_proxies": ["10.0.0.300"]},
     "proxy.trusted_proxies[0]: '10.0.0.300' is not an IP address or network"),
])
def test_a_bad_proxy_config_is_reported_by_the_config_check(proxy, finding):
    from tests.tools.config.test_config import findings_of
    assert findings_of({"proxy": proxy}) == [finding]


def test_behind_a_chain_of_trusted_proxies_the_rightmost_untrusted_hop_is_the_client():
    from ipaddress import ip_network
    from tools.transport.client_address import ProxySpec, client_address
    spec = ProxySpec("x-forwarded-for", (ip_network("10.0.0.0/8"),))
    headers = [("X-Forwarded-For", "1.2.3.4, 203.0.113.9"), ("x-forwarded-for", "10.0.0.5")]
    assert client_address("10.0.0.1", headers, spec) == "203.0.113.9"  # 1.2.3.4: written by the client itself
    assert client_address("192.0.2.1", headers, spec) == "192.0.2.1"  # not from a trusted proxy: the peer
