"""docx_open(url=…): only https:// hosts in the config's fetch.allow; loopback and private
addresses refused unless fetch.allow_addresses lists them (the listener receives nothing);
redirects judged like the first URL; the size limit. An allowed local HTTPS server with a test
certificate works."""
from __future__ import annotations

import pytest

from ooxml.opc.limits import Limits
from tests.builders import build_docx, p
from tests.support.client import open_client
from tests.support.https_server import https_server
from tools.config.model import Config

pytestmark = pytest.mark.anyio


@pytest.fixture
def served(tmp_path):
    doc = build_docx(tmp_path / "remote.docx", p("Fetched over HTTPS")).read_bytes()
    with https_server(tmp_path, {"/doc.docx": (200, {}, doc),
                                 "/away": (302, {"Location": "https://example.org/doc.docx"}, b""),
                                 "/again": (302, {"Location": "/doc.docx"}, b"")}) as s:
        yield s


def fetch_config(served, allow=None, addresses=("127.0.0.1",), **extra) -> Config:
    allow = [f"localhost:{served.port}"] if allow is None else allow
    return Config(fetch={"allow": allow, "allow_addresses": list(addresses), "ca_file": str(served.cert)}, **extra)


async def open_url(tmp_path, config, url):
    async with open_client([tmp_path], config=config) as c:
        return await c.call("docx_open", url=url)


async def test_an_allowed_https_host_opens(served, tmp_path):
    answer = await open_url(tmp_path, fetch_config(served), f"https://localhost:{served.port}/doc.docx")
    assert not answer.is_error, answer.text
    assert "Fetched over HTTPS" in answer.text
    assert served.requests == ["/doc.docx"]


async def test_a_redirect_inside_the_list_is_followed(served, tmp_path):
    answer = await open_url(tmp_path, fetch_config(served), f"https://localhost:{served.port}/again")
    assert not answer.is_error, answer.text
    assert served.requests == ["/again", "/doc.docx"]


async def test_a_host_not_listed_is_refused_and_nothing_is_sent(served, tmp_path):
    answer = await open_url(tmp_path, fetch_config(served, allow=["example.org"]),
                            f"https://localhost:{served.port}/doc.docx")
    assert answer.error_type == "PermissionDenied", answer.text
    assert served.requests == []


async def test_loopback_is_refused_unless_its_address_is_listed(served, tmp_path):
    answer = await open_url(tmp_path, fetch_config(served, addresses=()), f"https://localhost:{served.port}/doc.docx")
    assert answer.error_type == "PermissionDenied" and "loopback" in answer.text, answer.text
    assert served.requests == []


async def test_a_redirect_outside_the_list_is_refused(served, tmp_path):
    answer = await open_url(tmp_path, fetch_config(served), f"https://localhost:{served.port}/away")
    assert answer.error_type == "PermissionDenied" and "example.org" in answer.text, answer.text
    assert served.requests == ["/away"]


async def test_plain_http_is_refused(served, tmp_path):
    answer = await open_url(tmp_path, fetch_config(served), f"http://localhost:{served.port}/doc.docx")
    assert answer.error_type == "ValidationError", answer.text
    assert served.requests == []


async def test_nothing_is_fetched_by_default(served, tmp_path):
    answer = await open_url(tmp_path, Config(), f"https://localhost:{served.port}/doc.docx")
    assert answer.error_type == "PermissionDenied", answer.text
    assert served.requests == []


async def test_the_size_limit_holds(served, tmp_path):
    config = fetch_config(served, document_limits=Limits(max_file_bytes=1000))
    answer = await open_url(tmp_path, config, f"https://localhost:{served.port}/doc.docx")
    assert answer.error_type == "LimitExceeded", answer.text


async def test_file_path_or_url_exactly_one(tmp_path):
    async with open_client([tmp_path]) as c:
        answer = await c.call("docx_open")
    assert answer.error_type == "ValidationError", answer.text
