"""The operator config: every problem reported at once with its location; reloads keep the last good one."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import tools.catalog  # noqa: F401  (the built-in tools: the config checks names against the registry)
from render import gotemplate
from tools.config.model import ConfigError
from tools.config.loading import load_config, parse_config
from tools.config.reload import reload_config
from tools.services import Services

ROOT = Path(__file__).resolve().parents[3]
ENV = {"ACME_TOKEN": "acme-token-1", "BETA_TOKEN": "beta-token-2", "API_KEY": "k-123456"}


def tool(name="get_user", **extra) -> dict:
    return {"name": name, "endpoint": "https://api.example.com/users/{userId}",
            "params": [{"name": "userId", "position": "path"}], **extra}


def findings_of(raw, env=ENV, tmp_path=Path("/tmp")) -> list[str]:
    with pytest.raises(ConfigError) as e:
        parse_config(raw, base_dir=tmp_path, env=env)
    return e.value.findings


def known_toolsets() -> str:
    """The toolsets the registry has (feature modules add theirs) and those SPEC §9 names."""
    from tools.config.model import SPEC_TOOLSETS
    from tools.builtin import builtin
    return ", ".join(sorted({t.toolset for t in builtin().values()} | SPEC_TOOLSETS))


BAD = {
    "unknown position": (
        {"http_tools": [tool("a"), tool("b"), tool("c", params=[
            {"name": "userId", "position": "path"}, {"name": "session", "position": "cookie"}])]},
        ["http_tools[2].params[1].position: 'cookie' is not one of body, header, path, query"]),
    "placeholder without a path parameter": (
        {"http_tools": [tool(params=[])]},
        ["http_tools[0].endpoint: placeholder {userId} has no path parameter"]),
    "placeholder whose parameter is elsewhere": (
        {"http_tools": [tool(params=[{"name": "userId", "position": "query"}])]},
        ["http_tools[0].endpoint: placeholder {userId} has no path parameter (parameter 'userId' has position query)"]),
    "path parameter without a placeholder": (
        {"http_tools": [tool(params=[{"name": "userId", "position": "path"}, {"name": "org", "position": "path"}])]},
        ["http_tools[0].params[1]: path parameter 'org' has no placeholder {org} in the endpoint"]),
    "placeholder outside the path": (
        {"http_tools": [{"name": "t", "endpoint": "https://{host}/x?q={q}",
                         "params": [{"name": "host", "position": "path"}, {"name": "q", "position": "path"}]}]},
        ["http_tools[0].endpoint: placeholder {host} is outside the URL path (only the path may have placeholders)",
         "http_tools[0].endpoint: placeholder {q} is outside the URL path (only the path may have placeholders)",
         "http_tools[0].params[0]: path parameter 'host' has no placeholder {host} in the endpoint",
         "http_tools[0].params[1]: path parameter 'q' has no placeholder {q} in the endpoint"]),
    "endpoint not http": (
        {"http_tools": [{"name": "t", "endpoint": "file:///etc/passwd"}]},
        ["http_tools[0].endpoint: 'file:///etc/passwd' is not an absolute http or https URL"]),
    "credentials and env references in the endpoint": (
        {"http_tools": [{"name": "t", "endpoint": "https://me:pw@api.example.com/x?key=${API_KEY}"}]},
        ["http_tools[0].endpoint: credentials in the URL would show in answers and logs; send them in headers "
         "with ${ENV_VAR}",
         "http_tools[0].endpoint: ${...} is substituted only in headers; put secrets in headers"]),
    "header name not a token": (
        {"http_tools": [tool(params=[{"name": "userId", "position": "path"},
                                     {"name": "X Trace:", "position": "header"}])]},
        ["http_tools[0].params[1].name: 'X Trace:' is not a valid HTTP header name "
         "(RFC 9110 token, at most 64 characters)"]),
    "framing header as parameter": (
        {"http_tools": [tool(params=[{"name": "userId", "position": "path"},
                                     {"name": "Content-Length", "position": "header"}])]},
        ["http_tools[0].params[1].name: header 'Content-Length' is set by the HTTP client and cannot be a parameter"]),
    "duplicate tool names": (
        {"http_tools": [tool("get_user"), tool("other"), tool("get_user")]},
        ["http_tools[2].name: duplicate tool name 'get_user' (also http_tools[0])"]),
    "clash with a built-in tool": (
        {"http_tools": [tool("docx_open")]},
        ["http_tools[0].name: 'docx_open' clashes with the built-in tool of that name"]),
    "reserved docx_ prefix": (
        {"http_tools": [tool("docx_fetch_user")]},
        ["http_tools[0].name: 'docx_fetch_user': names starting with 'docx_' are reserved for built-in tools"]),
    "name too long": (
        {"http_tools": [tool("x" * 65)]},
        [f"http_tools[0].name: '{'x' * 65}' is not a valid tool name: use 1-64 characters from A-Z a-z 0-9 _ . -"]),
    "name with a space": (
        {"http_tools": [tool("get user")]},
        ["http_tools[0].name: 'get user' is not a valid tool name: use 1-64 characters from A-Z a-z 0-9 _ . -"]),
    "template syntax error": (
        {"http_tools": [tool(response_template="ok\n{{ range .items }}{{ .name }}")]},
        ["http_tools[0].response_template: line 2, column 30: unexpected end of template: "
         "\"range\" at line 2, column 4 has no \"end\""]),
    "bad storage": (
        {"storage": {"endpoint": 5, "bucket": "x", "max_upload_bytes": -1}},
        ["storage.bucket: unknown key (expected one of: endpoint, region, access_key_id, secret_access_key, "
         "session_token, uploads, max_upload_bytes)",
         "storage.endpoint: expected a string, got an integer",
         "storage.max_upload_bytes: expected a positive integer"]),
    "unknown keys": (
        {"http_tool": [], "http_tools": [tool(endpont="x", params=[{"name": "userId", "position": "path",
                                                                     "requried": True}])]},
        ["http_tool: unknown key (expected one of: toolsets, audit_log, tenants, http_tools, limits, author, allow, answers, recovery_folder, proxy, storage, fetch)",
         "http_tools[0].endpont: unknown key (expected one of: name, description, title, tenants, method, endpoint, "
         "timeout_s, max_response_bytes, headers, params, response_template, strict_template, follow_redirects, "
         "read_only, destructive, idempotent)",
         "http_tools[0].params[0].requried: unknown key (expected one of: name, type, position, required, "
         "description, enum, default, items)"]),
    "bad types": (
        {"toolsets": "core", "http_tools": [tool(timeout_s="10s", method=5, params=[
            {"name": "userId", "position": "path", "required": "yes", "type": "int"}])]},
        ["toolsets: expected a list, got a string",
         "http_tools[0].method: expected a string, got an integer",
         "http_tools[0].params[0].type: 'int' is not one of array, boolean, integer, number, object, string",
         "http_tools[0].params[0].required: expected a boolean, got a string",
         "http_tools[0].timeout_s: expected a number, got a string"]),
    "missing required keys": (
        {"http_tools": [{"description": "no name, no endpoint"}]},
        ["http_tools[0].name: required key is missing", "http_tools[0].endpoint: required key is missing"]),
    "object parameter in the query": (
        {"http_tools": [tool(params=[{"name": "userId", "position": "path"},
                                     {"name": "filter", "type": "object", "position": "query"}])]},
        ["http_tools[0].params[1].type: an object cannot be sent in the query; use position body"]),
    "enum and default of the wrong type": (
        {"http_tools": [tool(params=[{"name": "userId", "position": "path", "type": "integer",
                                      "enum": [1, "two"], "default": 3}])]},
        ["http_tools[0].params[0].enum[1]: 'two' is not an integer",
         "http_tools[0].params[0].default: 3 is not one of the enum values"]),
    "duplicate parameter": (
        {"http_tools": [tool(params=[{"name": "userId", "position": "path"}, {"name": "userId", "position": "body"}])]},
        ["http_tools[0].params[1].name: duplicate parameter name 'userId' (also params[0])"]),
    "unknown tenant referenced": (
        {"tenants": {"acme": {"token_env": "ACME_TOKEN"}}, "http_tools": [tool(tenants=["acme", "globex"])]},
        ["http_tools[0].tenants[1]: unknown tenant 'globex' (configured: acme)"]),
    "token_env missing from the environment": (
        {"tenants": {"acme": {"token_env": "ACME_TOKEN"}, "beta": {"token_env": "NOT_SET_ANYWHERE"}}},
        ["tenants.beta.token_env: environment variable NOT_SET_ANYWHERE is not set (or is empty)"]),
    "two tenants with one token": (
        {"tenants": {"acme": {"token_env": "ACME_TOKEN"}, "copy": {"token_env": "ACME_TOKEN"}}},
        ["tenants.copy.token_env: same token as tenant 'acme'"]),
    "static header secret missing": (
        {"http_tools": [tool(headers={"Authorization": "Bearer ${MISSING_KEY}", "Bad Name": "x"})]},
        ["http_tools[0].headers.Authorization: environment variable MISSING_KEY is not set (or is empty)",
         "http_tools[0].headers.Bad Name: 'Bad Name' is not a valid HTTP header name (RFC 9110 token)"]),
    "unknown toolset": (
        {"toolsets": ["core", "tabels"]},
        [f"toolsets[1]: unknown toolset 'tabels' (known: {known_toolsets()})"]),
    "bad limits": (
        {"limits": {"http_timeout_s": 0, "max_parts": -1, "page_size": 10}},
        ["limits.page_size: unknown key (expected one of: http_timeout_s, http_max_response_bytes, "
         "http_max_answer_chars, max_file_bytes, max_total_uncompressed, max_part_uncompressed, max_ratio, "
         "ratio_floor, max_parts, max_call_growth_bytes, call_timeout_s, session_idle_timeout_s, max_answer_chars, "
         "max_sessions, max_sessions_total, max_batch_calls, max_sessions_anonymous)",
         "limits.http_timeout_s: expected a value above 0, got 0",
         "limits.max_parts: expected a value above 0, got -1"]),
    "audit folder missing": (
        {"audit_log": {"path": "no/such/folder/audit.jsonl", "backups": -1}},
        ["audit_log.path: folder '/tmp/no/such/folder' does not exist",
         "audit_log.backups: expected 0 or more, got -1"]),
    "not a mapping": ([1, 2], ["config: expected a mapping, got a list"]),
}


@pytest.mark.parametrize("raw, expected", BAD.values(), ids=BAD.keys())
def test_bad_config_reports_exactly(raw, expected):
    assert findings_of(raw) == expected


def test_every_problem_is_reported_at_once():
    raw = {"tenants": {"acme": {"token_env": "UNSET_TOKEN"}},
           "http_tools": [tool("a", params=[]), tool("a"), tool("b", tenants=["nobody"])]}
    assert findings_of(raw) == [
        "tenants.acme.token_env: environment variable UNSET_TOKEN is not set (or is empty)",
        "http_tools[0].endpoint: placeholder {userId} has no path parameter",
        "http_tools[1].name: duplicate tool name 'a' (also http_tools[0])",
        "http_tools[2].tenants[0]: unknown tenant 'nobody' (configured: acme)",
    ]


GOOD = """\
toolsets: [core, format, http]
audit_log: {path: logs/audit.jsonl, max_bytes: 100000, backups: 2}
tenants:
  acme: {token_env: ACME_TOKEN}
  beta: {token_env: BETA_TOKEN}
limits: {http_timeout_s: 5, http_max_response_bytes: 2048, max_parts: 500}
http_tools:
  - name: get_user
    description: Look up one user by id
    tenants: [acme]
    method: GET
    endpoint: https://api.example.com/users/{userId}
    timeout_s: 3
    headers: {Authorization: "Bearer ${API_KEY}", Accept: application/json}
    params:
      - {name: userId, type: string, required: true, position: path, description: The user's id}
      - {name: X-Request-Source, type: string, position: header}
      - {name: fields, type: array, position: body, items: {type: string}}
      - {name: verbose, type: boolean, position: query, default: false}
      - {name: mode, position: query, enum: [short, long]}
    response_template: |
      {{ .data.name }} <{{ .data.email }}>
      {{- range $i, $r := .data.roles }}
      - {{ $i }}: {{ $r }}{{ end }}
  - name: create_ticket
    method: post
    endpoint: https://tickets.example.com/api/tickets
    follow_redirects: false
    strict_template: true
    params:
      - {name: title, position: body, required: true}
      - {name: priority, type: integer, position: body, default: 3}
"""


@pytest.fixture
def good_file(tmp_path, monkeypatch) -> Path:
    for k, v in ENV.items():
        monkeypatch.setenv(k, v)
    (tmp_path / "logs").mkdir()
    path = tmp_path / "ooxml-mcp.yaml"
    path.write_text(GOOD)
    return path


def test_good_config_with_every_feature(good_file):
    config = load_config(good_file)
    assert config.toolsets == ["core", "format", "http"]
    assert config.tenant_for_token("acme-token-1") == "acme" and config.tenant_for_token("nope") is None
    assert (config.audit.path, config.audit.max_bytes, config.audit.backups) == (
        good_file.parent / "logs/audit.jsonl", 100000, 2)
    assert config.document_limits.max_parts == 500
    get_user, ticket = config.tools
    assert (get_user.name, get_user.tenants, get_user.toolset) == ("get_user", frozenset({"acme"}), "http")
    assert get_user.input_schema["required"] == ["userId"]
    assert get_user.input_schema["properties"]["verbose"]["default"] is False
    assert config.http_tools[0].timeout_s == 3 and config.http_tools[1].timeout_s == 5
    assert config.http_tools[0].max_response_bytes == 2048
    assert (ticket.tenants, ticket.read_only, ticket.destructive) == (None, False, True)
    assert ticket.input_schema["required"] == ["title"]


def test_secrets_stay_out_of_the_config_repr(good_file):
    text = repr(load_config(good_file))
    assert not any(secret in text for secret in ENV.values())


def test_json_config_is_accepted(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"http_tools": [tool()]}))
    assert [t.name for t in load_config(path, env={}).tools] == ["get_user"]


def test_yaml_syntax_error_has_line_and_column(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("http_tools:\n  - name: [oops\n")
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert e.value.findings[0].startswith(f"{path}: line 3, column 1: invalid YAML")


def test_duplicate_yaml_key_is_a_finding(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("audit_log: a.jsonl\naudit_log: b.jsonl\n")
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert e.value.findings == ["line 2: duplicate key 'audit_log'"]


# ---------------------------------------------------------------- reloads

def test_invalid_reload_keeps_the_last_good_config(good_file, tmp_path, capsys):
    services = Services(roots=[tmp_path])
    assert reload_config(services, good_file)
    good = services.config
    good_file.write_text(GOOD.replace("position: header", "position: cookie"))
    assert not reload_config(services, good_file)
    assert services.config is good
    err = capsys.readouterr().err
    assert "not reloaded, keeping the last good one" in err
    assert "http_tools[0].params[1].position: 'cookie' is not one of body, header, path, query" in err


def test_reload_drops_the_changed_template_from_the_cache(good_file, tmp_path):
    services = Services(roots=[tmp_path])
    reload_config(services, good_file)
    source = services.config.http_tools[0].response_template
    cached = gotemplate.get_template(source)
    assert gotemplate.get_template(source) is cached
    good_file.write_text(GOOD.replace("{{ .data.name }} <", "{{ .data.name | printf \"%q\" }} <"))
    assert reload_config(services, good_file)
    assert gotemplate.get_template(source) is not cached


def test_reload_keeps_the_template_of_an_unchanged_tool_cached(good_file, tmp_path):
    services = Services(roots=[tmp_path])
    reload_config(services, good_file)
    cached = gotemplate.get_template(services.config.http_tools[0].response_template)
    good_file.write_text(GOOD.replace("name: create_ticket", "name: open_ticket"))
    assert reload_config(services, good_file)
    assert gotemplate.get_template(services.config.http_tools[0].response_template) is cached


def test_stdio_tenant_must_be_configured(good_file):
    with pytest.raises(ConfigError) as e:
        load_config(good_file, stdio_tenant="globex")
    assert e.value.findings == ["--tenant: 'globex' is not a configured tenant (configured: acme, beta)"]


def test_sighup_reloads_the_config(good_file, tmp_path):
    import server
    services = Services(roots=[tmp_path])
    reload_config(services, good_file)
    previous = signal.getsignal(signal.SIGHUP)
    try:
        server.reload_on_sighup(services, str(good_file))
        good_file.write_text(GOOD.replace("name: create_ticket", "name: open_ticket"))
        os.kill(os.getpid(), signal.SIGHUP)
        assert [t.name for t in services.config.tools] == ["get_user", "open_ticket"]
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_server_refuses_to_start_with_an_invalid_config(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(textwrap.dedent("""\
        http_tools:
          - {name: a, endpoint: "https://x/{id}"}
          - {name: a, endpoint: "https://x", params: [{name: s, position: cookie}]}
        """))
    run = subprocess.run([sys.executable, str(ROOT / "server.py"), "--config", str(path)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert run.returncode == 2
    assert "has 3 problem(s)" in run.stderr
    for finding in ["http_tools[0].endpoint: placeholder {id} has no path parameter",
                    "http_tools[1].name: duplicate tool name 'a' (also http_tools[0])",
                    "http_tools[1].params[0].position: 'cookie' is not one of body, header, path, query"]:
        assert finding in run.stderr
