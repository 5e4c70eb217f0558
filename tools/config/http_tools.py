"""The config's ``http_tools`` section: each declared HTTP tool checked as a whole (name, request,
parameters, headers with ``${ENV}`` secrets, response template) into an HttpToolSpec."""
from __future__ import annotations

import re
from typing import Any

from tools.config.checks import KIND_WORDS, KINDS, Findings, at, expect, keys_of, one_of, option
from tools.config.model import HttpLimits
from tools.config.sections import ENV_NAME_RE, TCHAR_RE
from tools.http.spec import CONTROL_RE, PLACEHOLDER_RE, HttpToolSpec, ParamSpec
from tools.runtime.call.registry import NAME_RE, builtin_names

TOOL_KEYS = ("name", "description", "title", "tenants", "method", "endpoint", "timeout_s", "max_response_bytes",
             "headers", "params", "response_template", "strict_template", "follow_redirects",
             "read_only", "destructive", "idempotent")
PARAM_KEYS = ("name", "type", "position", "required", "description", "enum", "default", "items")
POSITIONS = ("body", "header", "path", "query")
PARAM_TYPES = ("array", "boolean", "integer", "number", "object", "string")
METHODS = ("DELETE", "GET", "PATCH", "POST", "PUT")
RESERVED_PREFIX = "docx_"
PARAM_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
ENV_REF_RE = re.compile(r"\$\{([^}]*)\}")
# Framing and hop-by-hop headers belong to the HTTP client; letting config set them invites
# request smuggling.
CLIENT_HEADERS = {"host", "content-length", "transfer-encoding", "connection", "te", "upgrade",
                  "trailer", "keep-alive", "proxy-connection"}


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
    elif name in builtin_names():
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
