"""HTTP tools against a real upstream on 127.0.0.1: what goes out, what comes back."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import anyio
import pytest

from tests.http_upstream import USER, Upstream
from render.answer import CONTENT_HEADING
from tests.support.answer_validator import errors
from tools.config.loading import parse_config
from tools.runtime.call.dispatch import run_tool
from tools.http.tools import close_clients
from tools.runtime.call.registry import CallContext
from tools.services import Services

TEMPLATE = """{{ .data.name }} <{{ .data.email }}>
{{- range $i, $r := .data.roles }}
- {{ $i }}: {{ $r }}{{ end }}"""


@pytest.fixture(scope="module")
def upstream():
    with Upstream() as up:
        yield up


def services_with(tmp_path: Path, *tools: dict, env: dict | None = None) -> Services:
    config = parse_config({"http_tools": list(tools)}, base_dir=tmp_path, env=env or {})
    return Services(roots=[tmp_path], config=config)


def call(services: Services, name: str, /, **arguments):
    async def go():
        try:
            return await run_tool(services.all_tools().get(name), name, arguments, CallContext(None, services))
        finally:
            await close_clients()
    outcome = anyio.run(go)
    assert errors(outcome.text) == [], outcome.text  # every answer keeps the product's format
    return outcome


def head(answer: str) -> dict[str, str]:
    return dict(re.findall(r"^\*\*([^*]+)\*\*: (.*)$", answer, re.MULTILINE))


def content(answer: str) -> str:
    return answer.split(CONTENT_HEADING + "\n\n", 1)[1].rstrip("\n")


def echoed(answer: str) -> dict:
    """The upstream's /echo report, from the raw-JSON answer (a fenced block)."""
    body = content(answer)
    return json.loads(body[body.index("\n") + 1:body.rindex("\n")])


def echo_tool(endpoint: str, *params: dict, **extra) -> dict:
    return {"name": "echo", "endpoint": endpoint, "params": list(params), **extra}


@pytest.mark.parametrize("value, segment", [
    ("a/b ../c?d#e", "a%2Fb%20..%2Fc%3Fd%23e"),
    ("..", "%2E%2E"),
    (".", "%2E"),
    ("100%", "100%25"),
])
def test_path_value_arrives_as_one_encoded_segment(tmp_path, upstream, value, segment):
    services = services_with(tmp_path, echo_tool(upstream.url + "/echo/items/{id}/detail",
                                                 {"name": "id", "position": "path"}))
    out = call(services, "echo", id=value)
    assert not out.is_error, out.text
    assert echoed(out.text)["path"] == f"/echo/items/{segment}/detail"


def test_header_value_with_crlf_is_refused(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(upstream.url + "/echo", {"name": "X-Trace", "position": "header"}))
    out = call(services, "echo", **{"X-Trace": "abc\r\nX-Evil: 1"})
    assert out.is_error and out.error_type == "ValidationError"
    assert "Header parameter 'X-Trace'" in head(out.text)["Message"]


def test_body_query_and_header_arrive_as_declared(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(
        upstream.url + "/echo/search?v=2",
        {"name": "q", "type": "array", "position": "query"},
        {"name": "limit", "type": "integer", "position": "query"},
        {"name": "name", "position": "body"},
        {"name": "tags", "type": "array", "position": "body"},
        {"name": "flag", "type": "boolean", "position": "body", "default": True},
        {"name": "X-Source", "position": "header"},
        method="POST"))
    out = call(services, "echo", q=["x", "y z"], limit=5, name="Ada", tags=["a", "b"], **{"X-Source": "tests"})
    got = echoed(out.text)
    assert got["method"] == "POST"
    assert got["query"] == {"v": ["2"], "q": ["x", "y z"], "limit": ["5"]}
    assert got["body"] == {"name": "Ada", "tags": ["a", "b"], "flag": True}
    assert got["headers"]["x-source"] == "tests"
    assert got["headers"]["content-type"] == "application/json"


def test_get_without_body_parameters_sends_no_body(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(upstream.url + "/echo", {"name": "q", "position": "query"}))
    got = echoed(call(services, "echo", q="1").text)
    assert got["body"] is None and "content-type" not in got["headers"]


def test_static_header_secret_is_sent_but_never_answered(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(upstream.url + "/echo", headers={"X-Api-Key": "${UP_KEY}"}),
                             env={"UP_KEY": "s3cr3t-value"})
    out = call(services, "echo")
    assert "s3cr3t-value" not in out.text
    assert echoed(out.text)["headers"]["x-api-key"] == "[REDACTED]"  # the upstream got it, echoed, scrubbed


def test_slow_upstream_times_out_with_a_clear_error(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(upstream.url + "/slow?s=3", timeout_s=0.3))
    started = time.perf_counter()
    out = call(services, "echo")
    assert time.perf_counter() - started < 2
    assert out.error_type == "Timeout"
    assert "within 0.3 s" in head(out.text)["Message"]


def test_oversize_response_stops_at_the_limit(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(upstream.url + "/big?n=3000000", max_response_bytes=100_000))
    out = call(services, "echo")
    assert out.error_type == "LimitExceeded"
    assert "over the size limit of 100000 bytes" in head(out.text)["Message"]


def test_declared_oversize_response_is_refused_before_reading(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(upstream.url + "/big-declared", max_response_bytes=1000))
    out = call(services, "echo")
    assert out.error_type == "LimitExceeded"
    assert "declares 5242880 bytes" in head(out.text)["Message"]


def test_template_output_is_the_answer(tmp_path, upstream):
    services = services_with(tmp_path, {"name": "get_user", "endpoint": upstream.url + "/user",
                                        "response_template": TEMPLATE})
    out = call(services, "get_user")
    assert not out.is_error, out.text
    assert content(out.text) == "Ada <ada@example.com>\n- 0: admin\n- 1: dev"
    assert head(out.text)["HTTP Status"] == "200 OK"


def test_empty_template_answers_the_raw_json(tmp_path, upstream):
    services = services_with(tmp_path, {"name": "get_user", "endpoint": upstream.url + "/user"})
    body = content(call(services, "get_user").text)
    assert body.startswith("```json\n")
    assert json.loads(body.removeprefix("```json\n").removesuffix("\n```")) == USER


def test_template_render_error_answer_includes_the_raw_response(tmp_path, upstream):
    services = services_with(tmp_path, {"name": "get_user", "endpoint": upstream.url + "/user",
                                        "response_template": "{{ index .data.roles 5 }}"})
    out = call(services, "get_user")
    assert out.error_type == "TemplateError"
    message = head(out.text)["Message"]
    assert "Raw response:" in message and '"email": "ada@example.com"' in message


def test_error_status_gives_status_and_body_excerpt(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(upstream.url + "/status/404"))
    out = call(services, "echo")
    assert out.error_type == "UpstreamError"
    assert head(out.text)["Message"].startswith("The service answered HTTP 404 Not Found: ")
    assert "no such user" in head(out.text)["Message"]


def test_redirect_on_the_same_host_is_followed(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(upstream.url + "/redirect?to=/echo/landed"))
    assert echoed(call(services, "echo").text)["path"] == "/echo/landed"


def test_redirect_to_another_host_is_refused(tmp_path, upstream):
    other = upstream.url.replace("127.0.0.1", "localhost") + "/echo"
    services = services_with(tmp_path, echo_tool(upstream.url + f"/redirect?to={other}"))
    out = call(services, "echo")
    assert out.error_type == "UpstreamError"
    assert "leaves the endpoint's host" in head(out.text)["Message"]


def test_unreachable_upstream_is_an_upstream_error(tmp_path):
    services = services_with(tmp_path, echo_tool("http://127.0.0.1:9/nothing"))
    out = call(services, "echo")
    assert out.error_type == "UpstreamError"
    assert head(out.text)["Message"].startswith("Could not reach 127.0.0.1")


def test_input_schema_comes_from_the_declared_params(tmp_path):
    services = services_with(tmp_path, echo_tool(
        "https://api.example.com/users/{userId}",
        {"name": "userId", "position": "path", "required": True, "description": "The user's id"},
        {"name": "fields", "type": "array", "position": "body", "items": {"type": "string"}},
        {"name": "mode", "position": "query", "enum": ["short", "long"], "default": "short"}))
    tool = services.all_tools()["echo"]
    assert tool.input_schema == {
        "type": "object", "additionalProperties": False, "required": ["userId"],
        "properties": {
            "userId": {"type": "string", "description": "The user's id (sent in the URL path)", "minLength": 1},
            "fields": {"type": "array", "description": "Sent in the JSON body.", "items": {"type": "string"}},
            "mode": {"type": "string", "description": "Sent in the query string.", "enum": ["short", "long"],
                     "default": "short"}}}
    assert (tool.toolset, tool.open_world, tool.read_only) == ("http", True, True)


def test_arguments_are_validated_before_any_request(tmp_path, upstream):
    services = services_with(tmp_path, echo_tool(upstream.url + "/echo/{id}", {"name": "id", "position": "path"}))
    out = call(services, "echo", id="")
    assert out.error_type == "ValidationError"
