"""The operator's config (SPEC §9): load YAML or JSON, validate it as a whole, install, reload.

Validation never stops at the first problem: every finding is collected with its location
(``http_tools[2].params[1].position: 'cookie' is not one of body, header, path, query``) and
raised together in one ``ConfigError``, so an operator fixes a config in one round.
"""
from __future__ import annotations

import hmac
import json
import logging
import os
import re
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from ooxml.opc.link_policy import DEFAULT as DEFAULT_LINK_POLICY, FETCHING_FIELDS, KNOWN_SCHEMES, LinkPolicy
from ooxml.opc.package import Limits as DocumentLimits
from tools.transport.client_address import ProxySpec
from tools.http.spec import CONTROL_RE, PLACEHOLDER_RE, HttpToolSpec, ParamSpec  # noqa: F401 (re-exported)
from tools.http.tools import build_tools
from tools.runtime.limits import RUNTIME_LIMIT_TYPES, RuntimeLimits
from tools.runtime.registry import BUILTIN, NAME_RE, Tool

log = logging.getLogger("ooxml_mcp")

TOP_KEYS = ("toolsets", "audit_log", "tenants", "http_tools", "limits", "author", "allow", "answers", "recovery_folder", "proxy")
ALLOW_KEYS = ("url_schemes", "field_kinds")
PROXY_KEYS = ("forwarded_header", "trusted_proxies")
TOOL_KEYS = ("name", "description", "title", "tenants", "method", "endpoint", "timeout_s", "max_response_bytes",
             "headers", "params", "response_template", "strict_template", "follow_redirects",
             "read_only", "destructive", "idempotent")
PARAM_KEYS = ("name", "type", "position", "required", "description", "enum", "default", "items")
AUDIT_KEYS = ("path", "max_bytes", "backups", "fsync")
HTTP_LIMIT_KEYS = ("http_timeout_s", "http_max_response_bytes", "http_max_answer_chars")
DOC_LIMIT_KEYS = tuple(f.name for f in fields(DocumentLimits))
RUNTIME_LIMIT_KEYS = tuple(RUNTIME_LIMIT_TYPES)
POSITIONS = ("body", "header", "path", "query")
PARAM_TYPES = ("array", "boolean", "integer", "number", "object", "string")
METHODS = ("DELETE", "GET", "PATCH", "POST", "PUT")
RESERVED_PREFIX = "docx_"
# Named in SPEC §9-§11, known even before they exist; "all" lists every toolset (tools/runtime/toolsets.py).
SPEC_TOOLSETS = {"core", "tables", "format", "review", "http", "styles", "layout", "forms", "privacy", "all"}

TCHAR_RE = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")  # RFC 9110 token
PARAM_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
ENV_REF_RE = re.compile(r"\$\{([^}]*)\}")
# Framing and hop-by-hop headers belong to the HTTP client; letting config set them invites
# request smuggling.
CLIENT_HEADERS = {"host", "content-length", "transfer-encoding", "connection", "te", "upgrade",
                  "trailer", "keep-alive", "proxy-connection"}


class ConfigError(Exception):
    """The config is unusable; ``findings`` lists every problem, each with its location."""

    def __init__(self, findings: list[str]):
        self.findings = list(findings)
        super().__init__(f"{len(self.findings)} problem(s) in the config:\n" + "\n".join(self.findings))


@dataclass
class AuditSpec:
    path: Path
    max_bytes: int = 10 * 1024 * 1024
    backups: int = 5
    fsync: bool = False


@dataclass
class HttpLimits:
    http_timeout_s: float = 10.0
    http_max_response_bytes: int = 1024 * 1024
    http_max_answer_chars: int = 50_000


@dataclass
class Config:
    source: Path | None = None
    toolsets: list[str] | None = None
    answers_view: str | None = None  # answers.view: the server's default answer view (render/views.py)
    answers_structured: bool = False  # answers.structured: the head as structuredContent (tools/runtime/structured.py)
    author: str | None = None  # default author of tracked changes and comments
    recovery_folder: Path | None = None  # where recovery files go when not beside the document
    tenant_tokens: dict[str, str] = field(default_factory=dict, repr=False)  # tenant -> bearer token
    http_tools: list[HttpToolSpec] = field(default_factory=list)
    audit: AuditSpec | None = None
    limits: HttpLimits = field(default_factory=HttpLimits)
    document_limits: DocumentLimits = field(default_factory=DocumentLimits)
    runtime_limits: RuntimeLimits = field(default_factory=RuntimeLimits)
    link_policy: LinkPolicy = DEFAULT_LINK_POLICY  # link schemes and field kinds allowed beyond the defaults
    secrets: frozenset[str] = field(default_factory=frozenset, repr=False)  # to redact from logs
    tools: list[Tool] = field(default_factory=list)
    proxy: ProxySpec | None = None  # which forwarded header to believe, from which proxies

    @property
    def tenants(self) -> list[str]:
        return list(self.tenant_tokens)

    def tenant_for_token(self, token: str | None) -> str | None:
        """The tenant whose token this is; compared in constant time, every token checked."""
        found = None
        for tenant, expected in self.tenant_tokens.items():
            if token is not None and hmac.compare_digest(token.encode(), expected.encode()):
                found = tenant
        return found


# ---------------------------------------------------------------- findings and type checks

class Findings(list):
    def add(self, where: str, message: str) -> None:
        self.append(f"{where}: {message}" if where else message)


def at(where: str, key: object) -> str:
    return f"{where}.{key}" if where else str(key)


KINDS = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}
KIND_WORDS = {"string": "a string", "boolean": "a boolean", "integer": "an integer", "number": "a number",
              "array": "a list", "object": "a mapping"}


def kind_of(value: Any) -> str:
    for kind in ("boolean", "integer", "number", "string", "array", "object"):
        if KINDS[kind](value):
            return KIND_WORDS[kind]
    return "null" if value is None else type(value).__name__


def expect(f: Findings, where: str, value: Any, kind: str, *, positive: bool = False) -> bool:
    if not KINDS[kind](value):
        f.add(where, f"expected {KIND_WORDS[kind]}, got {kind_of(value)}")
        return False
    if positive and value <= 0:
        f.add(where, f"expected a value above 0, got {value}")
        return False
    return True


def option(f: Findings, where: str, mapping: dict, key: str, kind: str, default: Any, **kw) -> Any:
    """``mapping[key]`` if present and of the right kind, else ``default`` (noting a finding)."""
    if key not in mapping:
        return default
    value = mapping[key]
    return value if expect(f, at(where, key), value, kind, **kw) else default


def keys_of(f: Findings, where: str, value: Any, allowed: tuple, required: tuple = ()) -> dict | None:
    if not isinstance(value, dict):
        f.add(where or "config", f"expected a mapping, got {kind_of(value)}")
        return None
    for key in value:
        if key not in allowed:
            f.add(at(where, key), f"unknown key (expected one of: {', '.join(allowed)})")
    for key in required:
        if key not in value:
            f.add(at(where, key), "required key is missing")
    return value


def one_of(f: Findings, where: str, value: Any, choices: tuple) -> bool:
    if value not in choices:
        f.add(where, f"{value!r} is not one of {', '.join(choices)}")
        return False
    return True


# ---------------------------------------------------------------- sections

def parse_limits(f: Findings, raw: Any) -> tuple[HttpLimits, DocumentLimits, RuntimeLimits]:
    if raw is None or keys_of(f, "limits", raw, HTTP_LIMIT_KEYS + DOC_LIMIT_KEYS + RUNTIME_LIMIT_KEYS) is None:
        return HttpLimits(), DocumentLimits(), RuntimeLimits()
    http, doc, runtime = HttpLimits(), {}, {}
    for key, value in raw.items():
        kind = "number" if key == "http_timeout_s" else RUNTIME_LIMIT_TYPES.get(key, "integer")
        if key in HTTP_LIMIT_KEYS and expect(f, at("limits", key), value, kind, positive=True):
            setattr(http, key, value)
        elif key in DOC_LIMIT_KEYS and expect(f, at("limits", key), value, "integer", positive=True):
            doc[key] = value
        elif key in RUNTIME_LIMIT_KEYS and expect(f, at("limits", key), value, kind, positive=True):
            runtime[key] = value
    return http, DocumentLimits(**doc), RuntimeLimits(**runtime)


def parse_allow(f: Findings, raw: Any) -> LinkPolicy:
    """``allow: {url_schemes: [...], field_kinds: [...]}``: what documents may point to beyond the defaults."""
    if raw is None or keys_of(f, "allow", raw, ALLOW_KEYS) is None:
        return DEFAULT_LINK_POLICY
    named = {}
    for key, known, norm in (("url_schemes", KNOWN_SCHEMES, str.lower), ("field_kinds", FETCHING_FIELDS, str.upper)):
        values = raw.get(key, [])
        if not expect(f, at("allow", key), values, "array"):
            continue
        good = [norm(v) for v in values if isinstance(v, str) and norm(v) in known]
        for v in values:
            if not isinstance(v, str) or norm(v) not in known:
                f.add(at("allow", key), f"{v!r} is not one of {', '.join(sorted(known))}")
        named[key] = frozenset(good)
    return LinkPolicy(schemes=DEFAULT_LINK_POLICY.schemes | named.get("url_schemes", frozenset()),
                      fields=named.get("field_kinds", frozenset()))


def parse_tenants(f: Findings, raw: Any, env: dict) -> dict[str, str | None]:
    """Tenant -> token (None when its variable is unset, which is a finding)."""
    if raw is None or not expect(f, "tenants", raw, "object"):
        return {}
    tenants: dict[str, str | None] = {}
    owner_of_token: dict[str, str] = {}
    for name, spec in raw.items():
        where = at("tenants", name)
        if not isinstance(name, str) or not NAME_RE.match(name):
            f.add(where, f"{name!r} is not a valid tenant name: use 1-64 characters from A-Z a-z 0-9 _ . -")
        tenants[str(name)] = token = tenant_token(f, where, spec, env)
        if token is not None:
            if token in owner_of_token:
                f.add(at(where, "token_env"), f"same token as tenant '{owner_of_token[token]}'")
            owner_of_token.setdefault(token, str(name))
    return tenants


def tenant_token(f: Findings, where: str, spec: Any, env: dict) -> str | None:
    if keys_of(f, where, spec, ("token_env",), ("token_env",)) is None or "token_env" not in spec:
        return None
    var = spec["token_env"]
    if not expect(f, at(where, "token_env"), var, "string"):
        return None
    if not ENV_NAME_RE.match(var):
        f.add(at(where, "token_env"), f"{var!r} is not an environment variable name")
        return None
    if not env.get(var):
        f.add(at(where, "token_env"), f"environment variable {var} is not set (or is empty)")
        return None
    return env[var]


def parse_proxy(f: Findings, raw: Any) -> ProxySpec | None:
    """``proxy: {forwarded_header: X-Forwarded-For, trusted_proxies: [10.0.0.0/8, 127.0.0.1]}``."""
    import ipaddress
    if raw is None or keys_of(f, "proxy", raw, PROXY_KEYS, PROXY_KEYS) is None:
        return None
    name, trusted, nets = raw.get("forwarded_header"), raw.get("trusted_proxies"), []
    if "forwarded_header" in raw and expect(f, "proxy.forwarded_header", name, "string") and not TCHAR_RE.match(name):
        f.add("proxy.forwarded_header", f"{name!r} is not a header name")
    if "trusted_proxies" in raw and expect(f, "proxy.trusted_proxies", trusted, "array"):
        if not trusted:
            f.add("proxy.trusted_proxies", "expected at least one address or network (e.g. 10.0.0.0/8)")
        for i, item in enumerate(trusted):
            try:
                nets.append(ipaddress.ip_network(str(item), strict=False))
            except ValueError:
                f.add(f"proxy.trusted_proxies[{i}]", f"{item!r} is not an IP address or network")
    if not isinstance(name, str) or not nets:
        return None
    return ProxySpec(name.lower(), tuple(nets))


def parse_toolsets(f: Findings, raw: Any, known: set[str]) -> list[str] | None:
    if raw is None or not expect(f, "toolsets", raw, "array"):
        return None
    if not raw:
        f.add("toolsets", "an empty list would hide every tool; omit the key to list every group")
    for i, name in enumerate(raw):
        if expect(f, f"toolsets[{i}]", name, "string") and name not in known:
            f.add(f"toolsets[{i}]", f"unknown toolset {name!r} (known: {', '.join(sorted(known))})")
    return [t for t in raw if isinstance(t, str)] or None


def parse_answers(f: Findings, raw: Any) -> str | None:
    """``answers: {view: full|compact|none}``."""
    from render.views import VIEWS
    answers = keys_of(f, "answers", raw, ("view", "structured")) if raw is not None else None
    structured = (answers or {}).get("structured")
    if structured is not None and not isinstance(structured, bool):
        f.add("answers.structured", f"must be true or false, not {structured!r}")
    view = (answers or {}).get("view")
    if view is not None and view not in VIEWS:
        f.add("answers.view", f"unknown view {view!r} (known: {', '.join(VIEWS)})")
        return None
    return view


def parse_audit(f: Findings, raw: Any, base_dir: Path) -> AuditSpec | None:
    """``audit_log: PATH`` or ``audit_log: {path, max_bytes, backups, fsync}``."""
    if raw is None:
        return None
    if isinstance(raw, str):
        raw, where = {"path": raw}, "audit_log"
    elif keys_of(f, "audit_log", raw, AUDIT_KEYS, ("path",)) is None or "path" not in raw:
        return None
    else:
        where = "audit_log.path"
    if not expect(f, where, raw["path"], "string"):
        return None
    if not raw["path"].strip():
        f.add(where, "the path is empty")
        return None
    path = Path(os.path.expanduser(raw["path"]))
    path = path if path.is_absolute() else base_dir / path  # relative to the config file
    if not path.parent.is_dir():
        f.add(where, f"folder '{path.parent}' does not exist")
    defaults = AuditSpec(path)
    spec = AuditSpec(path, max_bytes=option(f, "audit_log", raw, "max_bytes", "integer", defaults.max_bytes,
                                            positive=True),
                     backups=option(f, "audit_log", raw, "backups", "integer", defaults.backups),
                     fsync=option(f, "audit_log", raw, "fsync", "boolean", False))
    if spec.backups < 0:
        f.add("audit_log.backups", f"expected 0 or more, got {spec.backups}")
    return spec


def parse_folder(f: Findings, where: str, raw: Any, base_dir: Path) -> Path | None:
    """A folder path (relative to the config file), resolved now; it is created when first needed."""
    if raw is None or not expect(f, where, raw, "string"):
        return None
    if not raw.strip():
        f.add(where, "the path is empty")
        return None
    path = Path(os.path.expanduser(raw))
    return Path(os.path.realpath(path if path.is_absolute() else base_dir / path))


# ---------------------------------------------------------------- http tools

def parse_http_tools(f: Findings, raw: Any, tenants: dict, limits: HttpLimits, env: dict) -> list[HttpToolSpec]:
    if raw is None or not expect(f, "http_tools", raw, "array"):
        return []
    specs, first_at = [], {}
    for i, item in enumerate(raw):
        spec = parse_tool(f, f"http_tools[{i}]", item, tenants, limits, env, first_at)
        if spec is not None:
            specs.append(spec)
    return specs


def check_tool_name(f: Findings, where: str, name: str, first_at: dict) -> None:
    if not NAME_RE.match(name):
        f.add(where, f"{name!r} is not a valid tool name: use 1-64 characters from A-Z a-z 0-9 _ . -")
    elif name in BUILTIN:
        f.add(where, f"{name!r} clashes with the built-in tool of that name")
    elif name.startswith(RESERVED_PREFIX):
        f.add(where, f"{name!r}: names starting with '{RESERVED_PREFIX}' are reserved for built-in tools")
    if name in first_at:
        f.add(where, f"duplicate tool name {name!r} (also {first_at[name]})")


def parse_tool(f: Findings, where: str, raw: Any, tenants: dict, limits: HttpLimits, env: dict,
               first_at: dict) -> HttpToolSpec | None:
    t = keys_of(f, where, raw, TOOL_KEYS, ("name", "endpoint"))
    if t is None:
        return None
    before = len(f)
    name = option(f, where, t, "name", "string", "")
    if name:
        check_tool_name(f, at(where, "name"), name, first_at)
        first_at.setdefault(name, where)
    request = parse_request(f, where, t, env)
    template = option(f, where, t, "response_template", "string", "")
    strict = option(f, where, t, "strict_template", "boolean", False)
    check_template(f, at(where, "response_template"), template, strict)
    spec = HttpToolSpec(name=name, response_template=template, strict_template=strict, **request,
                        **tool_options(f, where, t, limits, tenants, request))
    return spec if len(f) == before else None


def parse_request(f: Findings, where: str, t: dict, env: dict) -> dict:
    """What shapes the request: method, endpoint with its placeholders, params, static headers."""
    method = option(f, where, t, "method", "string", "GET").upper()
    one_of(f, at(where, "method"), method, METHODS)
    endpoint = option(f, where, t, "endpoint", "string", "")
    params = parse_params(f, where, t.get("params"))
    has_endpoint = isinstance(t.get("endpoint"), str)
    placeholders = check_endpoint(f, at(where, "endpoint"), endpoint) if has_endpoint else set()
    check_path_params(f, where, params, placeholders)
    headers, secrets = parse_static_headers(f, at(where, "headers"), t.get("headers"), params, env)
    return {"method": method, "endpoint": endpoint, "params": params, "headers": headers, "secrets": secrets}


def tool_options(f: Findings, where: str, t: dict, limits: HttpLimits, tenants: dict, request: dict) -> dict:
    return {
        "description": option(f, where, t, "description", "string", "") or f"{request['method']} {request['endpoint']}",
        "title": option(f, where, t, "title", "string", None),
        "timeout_s": option(f, where, t, "timeout_s", "number", limits.http_timeout_s, positive=True),
        "max_response_bytes": option(f, where, t, "max_response_bytes", "integer", limits.http_max_response_bytes,
                                     positive=True),
        "max_answer_chars": limits.http_max_answer_chars,
        "follow_redirects": option(f, where, t, "follow_redirects", "boolean", True),
        "tenants": parse_tool_tenants(f, at(where, "tenants"), t.get("tenants", ...), tenants),
        "read_only": option(f, where, t, "read_only", "boolean", None),
        "destructive": option(f, where, t, "destructive", "boolean", None),
        "idempotent": option(f, where, t, "idempotent", "boolean", None),
    }


def parse_tool_tenants(f: Findings, where: str, raw: Any, tenants: dict) -> frozenset[str] | None:
    if raw is ...:
        return None
    if not expect(f, where, raw, "array"):
        return None
    if not raw:
        f.add(where, "an empty list hides the tool from every tenant; omit the key for every tenant")
    for i, name in enumerate(raw):
        if expect(f, f"{where}[{i}]", name, "string") and name not in tenants:
            known = ", ".join(tenants) or "none"
            f.add(f"{where}[{i}]", f"unknown tenant {name!r} (configured: {known})")
    return frozenset(n for n in raw if isinstance(n, str))


def parse_params(f: Findings, where: str, raw: Any) -> list[ParamSpec]:
    if raw is None or not expect(f, at(where, "params"), raw, "array"):
        return []
    params, seen = [], {}
    for j, item in enumerate(raw):
        pwhere = f"{where}.params[{j}]"
        p = parse_param(f, pwhere, item)
        if p is None:
            continue
        key = p.name.lower() if p.position == "header" else p.name
        if key in seen:
            f.add(at(pwhere, "name"), f"duplicate parameter name {p.name!r} (also params[{seen[key]}])")
            continue
        seen[key] = j
        params.append(p)
    return params


def parse_param(f: Findings, where: str, raw: Any) -> ParamSpec | None:
    p = keys_of(f, where, raw, PARAM_KEYS, ("name", "position"))
    if p is None or not isinstance(p.get("name"), str):
        if p is not None and "name" in p:
            expect(f, at(where, "name"), p["name"], "string")
        return None
    position = p.get("position")
    if "position" in p and expect(f, at(where, "position"), position, "string"):
        one_of(f, at(where, "position"), position, POSITIONS)
    ptype = option(f, where, p, "type", "string", "string")
    if not one_of(f, at(where, "type"), ptype, PARAM_TYPES):
        ptype = None
    check_param_name(f, at(where, "name"), p["name"], position)
    if ptype == "object" and position in ("header", "path", "query"):
        f.add(at(where, "type"), f"an object cannot be sent in the {position}; use position body")
    spec = ParamSpec(name=p["name"], position=position if position in POSITIONS else "body",
                     type=ptype or "string", required=option(f, where, p, "required", "boolean", False),
                     description=option(f, where, p, "description", "string", None))
    check_enum_default(f, where, p, spec, ptype)
    spec.items = check_items(f, at(where, "items"), p.get("items"), ptype)
    return spec


def check_param_name(f: Findings, where: str, name: str, position: Any) -> None:
    if position == "header":
        if not TCHAR_RE.match(name) or len(name) > 64:
            f.add(where, f"{name!r} is not a valid HTTP header name (RFC 9110 token, at most 64 characters)")
        elif name.lower() in CLIENT_HEADERS:
            f.add(where, f"header {name!r} is set by the HTTP client and cannot be a parameter")
    elif not PARAM_NAME_RE.match(name):
        f.add(where, f"{name!r} is not a valid parameter name: use 1-64 characters from A-Z a-z 0-9 _ . -")


def check_enum_default(f: Findings, where: str, p: dict, spec: ParamSpec, ptype: str | None) -> None:
    if "enum" in p and expect(f, at(where, "enum"), p["enum"], "array"):
        if not p["enum"]:
            f.add(at(where, "enum"), "an empty enum allows no value")
        for k, value in enumerate(p["enum"]):
            if ptype and not KINDS[ptype](value):
                f.add(f"{where}.enum[{k}]", f"{value!r} is not {KIND_WORDS[ptype]}")
        spec.enum = list(p["enum"])
    if "default" in p:
        value = p["default"]
        if ptype and not KINDS[ptype](value):
            f.add(at(where, "default"), f"{value!r} is not {KIND_WORDS[ptype]}")
        elif spec.enum is not None and value not in spec.enum:
            f.add(at(where, "default"), f"{value!r} is not one of the enum values")
        spec.default, spec.has_default = value, True


def check_items(f: Findings, where: str, raw: Any, ptype: str | None) -> dict | None:
    if raw is None:
        return None
    if ptype != "array":
        f.add(where, "items applies only to parameters of type array")
        return None
    if not expect(f, where, raw, "object"):
        return None
    import jsonschema
    try:
        jsonschema.Draft202012Validator.check_schema(raw)
    except jsonschema.SchemaError as e:
        f.add(where, f"not a valid JSON Schema: {e.message}")
        return None
    return raw


def check_endpoint(f: Findings, where: str, endpoint: str) -> set[str]:
    """The placeholder names of ``endpoint``, with findings for anything a request could not use."""
    from urllib.parse import urlsplit
    placeholders = set(PLACEHOLDER_RE.findall(endpoint))
    bare = ENV_REF_RE.sub("", PLACEHOLDER_RE.sub("x", endpoint))  # ${...} gets its own finding
    if "{" in bare or "}" in bare:
        f.add(where, "unbalanced '{' or '}' (placeholders are written {name})")
    for name in placeholders:
        if not PARAM_NAME_RE.match(name):
            f.add(where, f"placeholder {{{name}}} is not a valid parameter name")
    try:
        parts = urlsplit(PLACEHOLDER_RE.sub(lambda m: f"\x00{m.group(1)}\x00", endpoint))
    except ValueError as e:
        f.add(where, f"not a valid URL: {e}")
        return placeholders
    if parts.scheme not in ("http", "https") or not parts.netloc:
        f.add(where, f"{endpoint!r} is not an absolute http or https URL")
    if "@" in parts.netloc:
        f.add(where, "credentials in the URL would show in answers and logs; send them in headers with ${ENV_VAR}")
    if ENV_REF_RE.search(endpoint):
        f.add(where, "${...} is substituted only in headers; put secrets in headers")
    for part in (parts.netloc, parts.query, parts.fragment):
        for name in re.findall(r"\x00([^\x00]*)\x00", part):
            f.add(where, f"placeholder {{{name}}} is outside the URL path (only the path may have placeholders)")
            placeholders.discard(name)  # reported once, not again as "no path parameter"
    if any(c.isspace() for c in endpoint):
        f.add(where, "the URL contains whitespace")
    return placeholders


def check_path_params(f: Findings, where: str, params: list[ParamSpec], placeholders: set[str]) -> None:
    by_name = {p.name: p for p in params}
    for name in sorted(placeholders):
        p = by_name.get(name)
        if p is None:
            f.add(at(where, "endpoint"), f"placeholder {{{name}}} has no path parameter")
        elif p.position != "path":
            f.add(at(where, "endpoint"), f"placeholder {{{name}}} has no path parameter "
                                         f"(parameter '{name}' has position {p.position})")
    for j, p in enumerate(params):
        if p.position == "path" and p.name not in placeholders:
            f.add(f"{where}.params[{j}]", f"path parameter '{p.name}' has no placeholder {{{p.name}}} in the endpoint")


def parse_static_headers(f: Findings, where: str, raw: Any, params: list[ParamSpec],
                         env: dict) -> tuple[dict[str, str], frozenset[str]]:
    if raw is None or not expect(f, where, raw, "object"):
        return {}, frozenset()
    headers, secrets = {}, set()
    param_headers = {p.name.lower() for p in params if p.position == "header"}
    for name, value in raw.items():
        hwhere = at(where, name)
        if not isinstance(name, str) or not TCHAR_RE.match(name):
            f.add(hwhere, f"{name!r} is not a valid HTTP header name (RFC 9110 token)")
            continue
        if name.lower() in CLIENT_HEADERS:
            f.add(hwhere, f"header {name!r} is set by the HTTP client")
        if name.lower() in param_headers:
            f.add(hwhere, f"header {name!r} is also a header parameter")
        if not expect(f, hwhere, value, "string"):
            continue
        resolved = substitute_env(f, hwhere, value, env, secrets)
        if resolved is not None and CONTROL_RE.search(resolved):
            f.add(hwhere, "the value contains a control character (CR, LF, NUL ...)")
        headers[name] = resolved or ""
    return headers, frozenset(secrets)


def substitute_env(f: Findings, where: str, value: str, env: dict, secrets: set[str]) -> str | None:
    """``value`` with ``${VAR}`` replaced; the values used are secrets, to be kept out of logs."""
    missing = []

    def one(m: re.Match) -> str:
        var = m.group(1)
        if not ENV_NAME_RE.match(var) or not env.get(var):
            missing.append(var)
            return ""
        secrets.add(env[var])
        return env[var]

    resolved = ENV_REF_RE.sub(one, value)
    for var in missing:
        f.add(where, f"environment variable {var} is not set (or is empty)" if ENV_NAME_RE.match(var)
              else f"${{{var}}} is not an environment variable reference")
    return None if missing else resolved


def check_template(f: Findings, where: str, source: str, strict: bool) -> None:
    if not source.strip():
        return
    from render import gotemplate
    try:
        gotemplate.get_template(source, strict=strict)
    except gotemplate.TemplateSyntaxError as e:
        line, column = getattr(e, "line", None), getattr(e, "column", None)
        place = f"line {line}, column {column}: " if line is not None else ""
        f.add(where, place + template_message(e))


def template_message(e: Exception) -> str:
    # ``reason`` is the message without the "line L, column C:" the finding already has.
    return str(getattr(e, "reason", None) or e)


# ---------------------------------------------------------------- load, install, reload

def read_file(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError([f"{path}: cannot read the config: {e}"]) from None
    f = Findings()
    try:
        data = json.loads(text, object_pairs_hook=lambda pairs: no_duplicates(f, pairs)) \
            if path.suffix.lower() == ".json" else yaml.load(text, Loader=loader_for(f))
    except json.JSONDecodeError as e:
        raise ConfigError([f"{path}: line {e.lineno}, column {e.colno}: invalid JSON: {e.msg}"]) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        place = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise ConfigError([f"{path}: {place}invalid YAML: {getattr(e, 'problem', None) or e}"]) from None
    if f:
        raise ConfigError(f)
    return {} if data is None else data


def no_duplicates(f: Findings, pairs: list, mark: Any = None) -> dict:
    seen = {}
    for key, value in pairs:
        if key in seen:
            f.add(f"line {mark.line + 1}" if mark else "config", f"duplicate key {key!r}")
        seen[key] = value
    return seen


def loader_for(f: Findings) -> type:
    """A safe YAML loader that reports duplicate keys (PyYAML silently keeps the last one)."""

    class Loader(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            pairs = []
            for key_node, value_node in node.value:
                key = self.construct_object(key_node, deep=deep)
                pairs.append((key, self.construct_object(value_node, deep=deep)))
                if key in (k for k, _ in pairs[:-1]):
                    f.add(f"line {key_node.start_mark.line + 1}", f"duplicate key {key!r}")
            return dict(pairs)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, Loader.construct_mapping)
    return Loader


def parse_config(raw: Any, *, base_dir: Path, env: dict | None = None, source: Path | None = None,
                 stdio_tenant: str | None = None) -> Config:
    """Validate a decoded config as a whole: a Config, or ConfigError with every finding."""
    import tools.catalog  # noqa: F401  (the built-in tools, whose names HTTP tools may not take)
    env = dict(os.environ) if env is None else env
    f = Findings()
    top = keys_of(f, "", raw, TOP_KEYS)
    if top is None:
        raise ConfigError(f)
    limits, doc_limits, runtime_limits = parse_limits(f, top.get("limits"))
    tenants = parse_tenants(f, top.get("tenants"), env)
    known_toolsets = {t.toolset for t in BUILTIN.values()} | SPEC_TOOLSETS
    config = Config(source=source, toolsets=parse_toolsets(f, top.get("toolsets"), known_toolsets),
                    audit=parse_audit(f, top.get("audit_log"), base_dir), limits=limits,
                    document_limits=doc_limits, runtime_limits=runtime_limits,
                    http_tools=parse_http_tools(f, top.get("http_tools"), tenants, limits, env),
                    link_policy=parse_allow(f, top.get("allow")))
    config.answers_view = parse_answers(f, top.get("answers"))
    config.proxy = parse_proxy(f, top.get("proxy"))
    config.answers_structured = (top.get("answers") or {}).get("structured") is True \
        if isinstance(top.get("answers"), dict) else False
    author = top.get("author")
    if author is not None and (not isinstance(author, str) or not author.strip()):
        f.add("author", "expected a non-empty string (the default author of tracked changes and comments)")
    else:
        config.author = author
    config.recovery_folder = parse_folder(f, "recovery_folder", top.get("recovery_folder"), base_dir)
    if stdio_tenant is not None and stdio_tenant not in tenants:
        f.add("--tenant", f"{stdio_tenant!r} is not a configured tenant (configured: {', '.join(tenants) or 'none'})")
    if f:
        raise ConfigError(f)
    config.tenant_tokens = {name: token for name, token in tenants.items() if token}
    config.secrets = frozenset(config.tenant_tokens.values()).union(*(s.secrets for s in config.http_tools))
    config.tools = build_tools(config.http_tools)
    return config


def load_config(path: str | os.PathLike, *, env: dict | None = None, stdio_tenant: str | None = None) -> Config:
    path = Path(path).expanduser().resolve()
    return parse_config(read_file(path), base_dir=path.parent, env=env, source=path, stdio_tenant=stdio_tenant)


def install(services: Any, config: Config) -> None:
    """Make ``config`` the live one: tools, tenants, audit log; drop templates that changed."""
    old = services.config
    if old is not None:
        forget_changed_templates(old, config)
    services.config = config
    install_audit(services, config)


def install_audit(services: Any, config: Config) -> None:
    from tools.runtime.audit import AuditLog
    current = services.audit
    spec = config.audit
    if current is not None and (spec is None or current.spec != spec):
        current.close()
        current = None
    if spec is not None and current is None:
        current = AuditLog(spec.path, max_bytes=spec.max_bytes, backups=spec.backups, fsync=spec.fsync)
        current.spec = spec
    if current is not None:
        current.secrets = config.secrets
    services.audit = current


def forget_changed_templates(old: Config, new: Config) -> None:
    from render import gotemplate
    kept = {(s.name, s.response_template, s.strict_template): s for s in new.http_tools}
    for spec in old.http_tools:
        if spec.response_template and kept.get((spec.name, spec.response_template, spec.strict_template)) != spec:
            gotemplate.forget(spec.response_template)


def apply_config_file(services: Any, path: str | os.PathLike) -> Config:
    """Load, validate and install the config at ``path``; ConfigError lists every problem."""
    config = load_config(path, stdio_tenant=services.stdio_tenant)
    install(services, config)
    return config


def reload_config(services: Any, path: str | os.PathLike) -> bool:
    """Reload ``path``: True when installed; an invalid config keeps the last good one."""
    try:
        apply_config_file(services, path)
    except ConfigError as e:
        print(f"ooxml-mcp: config {path} not reloaded, keeping the last good one:", file=sys.stderr)
        for finding in e.findings:
            print(f"  {finding}", file=sys.stderr)
        return False
    log.warning("config %s reloaded: %d HTTP tool(s)", path, len(services.config.http_tools))
    return True
