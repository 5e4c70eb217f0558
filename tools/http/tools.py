"""Operator-declared HTTP tools (SPEC §9): one registry Tool per ``http_tools`` entry.

A call turns the arguments into one request (path, query, header and body parameters),
sends it with a shared ``httpx.AsyncClient`` under a total deadline and a response size
limit, and answers with the response rendered by the tool's Go template (or the raw JSON).
Secrets (static header values from ``${ENV}``) never reach an answer: they are scrubbed
from every text an upstream could echo them in.
"""
from __future__ import annotations

import asyncio
import json
import re
import weakref
from dataclasses import dataclass
from urllib.parse import quote

import anyio
import httpx

from render.answer import operation_title, success_answer
from tools.http.spec import CONTROL_RE, PLACEHOLDER_RE, HttpToolSpec, ParamSpec
from tools.runtime.call.registry import Tool, ToolError

MAX_REDIRECTS = 5
EXCERPT_CHARS = 300
RAW_IN_ERROR_CHARS = 1500
REDACTED = "[REDACTED]"


def build_tools(specs: list[HttpToolSpec]) -> list[Tool]:
    return [build_tool(spec) for spec in specs]


def build_tool(spec: HttpToolSpec) -> Tool:
    safe = spec.method == "GET"
    return Tool(
        name=spec.name, description=spec.description, input_schema=input_schema(spec),
        handler=make_handler(spec), toolset="http", open_world=True, tenants=spec.tenants, title=spec.title,
        read_only=safe if spec.read_only is None else spec.read_only,
        # Unknown side effects: MCP's conservative default is "may destroy" unless read-only.
        destructive=(not safe) if spec.destructive is None else spec.destructive,
        idempotent=spec.method in ("GET", "PUT", "DELETE") if spec.idempotent is None else spec.idempotent,
        meta={"http": {"method": spec.method, "endpoint": spec.endpoint}},
    )


def input_schema(spec: HttpToolSpec) -> dict:
    properties = {p.name: param_schema(p) for p in spec.params}
    # A path value fills part of the URL: it cannot be left out.
    required = [p.name for p in spec.params if (p.required or p.position == "path") and not p.has_default]
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def param_schema(p: ParamSpec) -> dict:
    prop: dict = {"type": p.type}
    where = {"body": "JSON body", "header": "header", "path": "URL path", "query": "query string"}[p.position]
    prop["description"] = f"{p.description} (sent in the {where})" if p.description else f"Sent in the {where}."
    if p.enum is not None:
        prop["enum"] = p.enum
    if p.has_default:
        prop["default"] = p.default
    if p.items is not None:
        prop["items"] = p.items
    if p.position == "path" and p.type == "string":
        prop["minLength"] = 1  # an empty segment would change the path
    if p.position == "path" and p.type == "array":
        prop["minItems"] = 1
    return prop


def make_handler(spec: HttpToolSpec):
    async def handler(ctx, **arguments) -> str:
        return await call_http_tool(spec, arguments)

    handler.__name__ = f"http_{spec.name}"
    return handler


# ---------------------------------------------------------------- building the request

@dataclass
class Outgoing:
    url: httpx.URL
    headers: dict[str, bytes]
    json_body: dict | None


def with_defaults(spec: HttpToolSpec, arguments: dict) -> dict:
    values = {p.name: p.default for p in spec.params if p.has_default}
    values.update(arguments)
    return values


def as_text(value) -> str:
    """A parameter value as it goes into a path, header or query: JSON spelling for scalars."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join(as_text(v) for v in value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode_segment(value) -> str:
    # quote(safe="") leaves only unreserved characters, so '/', '?', '#', '%' cannot act.
    return quote(as_text(value), safe="")


def fill_path(endpoint: str, values: dict) -> str:
    filled = PLACEHOLDER_RE.sub(lambda m: encode_segment(values[m.group(1)]), endpoint)
    head, sep, rest = filled.partition("://")
    authority, slash, path = rest.partition("/")
    # A segment that is exactly "." or ".." would be removed by URL normalisation (here or
    # upstream) and climb the path; %2E keeps it one literal segment.
    segments = [s.replace(".", "%2E") if s in (".", "..") else s for s in path.split("/")]
    return head + sep + authority + slash + "/".join(segments)


def build_outgoing(spec: HttpToolSpec, arguments: dict) -> Outgoing:
    values = with_defaults(spec, arguments)
    given = [p for p in spec.params if p.name in values]
    url = httpx.URL(fill_path(spec.endpoint, values))
    query = [(p.name, as_text(v)) for p in given if p.position == "query"
             for v in (values[p.name] if isinstance(values[p.name], list) else [values[p.name]])]
    if query:
        url = url.copy_merge_params(query)
    headers = {name: value.encode() for name, value in spec.headers.items()}
    for p in given:
        if p.position == "header":
            headers[p.name] = header_value(p.name, values[p.name])
    body = {p.name: values[p.name] for p in given if p.position == "body"}
    has_body_params = any(p.position == "body" for p in spec.params)
    send_body = body or (has_body_params and spec.method in ("POST", "PUT", "PATCH"))
    return Outgoing(url, headers, body if send_body else None)


def header_value(name: str, value) -> bytes:
    text = as_text(value)
    if CONTROL_RE.search(text):
        raise ToolError(f"Header parameter '{name}' contains a control character (CR, LF, NUL or another); "
                        "a header value must be a single line of text.",
                        hint=f"Pass '{name}' without line breaks or control characters.",
                        error_type="ValidationError")
    return text.encode("utf-8")


# ---------------------------------------------------------------- sending it

_clients: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient]" = weakref.WeakKeyDictionary()


def shared_client() -> httpx.AsyncClient:
    """One pooled client per event loop (an httpx client cannot move between loops)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None or client.is_closed:
        # Redirects are followed by hand, so that none leaves the endpoint's host.
        client = _clients[loop] = httpx.AsyncClient(follow_redirects=False,
                                                    limits=httpx.Limits(max_connections=100))
    return client


async def close_clients() -> None:
    loop = asyncio.get_running_loop()
    client = _clients.pop(loop, None)
    if client is not None:
        await client.aclose()


@dataclass
class Received:
    status: int
    reason: str
    body: bytes
    url: httpx.URL


async def fetch(spec: HttpToolSpec, out: Outgoing) -> Received:
    try:
        # httpx's timeout bounds each read; the deadline bounds the whole exchange, so a
        # server dripping one byte a second cannot hold the call.
        with anyio.fail_after(spec.timeout_s):
            return await exchange(spec, out)
    except (TimeoutError, httpx.TimeoutException):
        raise ToolError(f"No complete answer from {out.url.host} within {spec.timeout_s:g} s.",
                        hint=f"The service is slow or down: try again later, or raise timeout_s of "
                             f"'{spec.name}' in the config.", error_type="Timeout") from None
    except httpx.HTTPError as e:
        raise ToolError(f"Could not reach {out.url.host}: {type(e).__name__}: {scrub(spec, str(e))}",
                        hint="Check that the service is up and the endpoint in the config is right.",
                        error_type="UpstreamError") from None


async def exchange(spec: HttpToolSpec, out: Outgoing) -> Received:
    client = shared_client()
    request = client.build_request(spec.method, out.url, headers=out.headers, json=out.json_body,
                                   timeout=spec.timeout_s)
    for _ in range(MAX_REDIRECTS + 1):
        response = await client.send(request, stream=True)
        try:
            if response.next_request is None:
                body = await read_limited(spec, response)
                return Received(response.status_code, response.reason_phrase, body, request.url)
            request = allowed_redirect(spec, request, response.next_request)
        finally:
            await response.aclose()
    raise ToolError(f"More than {MAX_REDIRECTS} redirects from {out.url.host}.",
                    hint="Point the endpoint at the final URL.", error_type="UpstreamError")


def allowed_redirect(spec: HttpToolSpec, current: httpx.Request, nxt: httpx.Request) -> httpx.Request:
    same_host = nxt.url.host == current.url.host
    same_origin = same_host and nxt.url.scheme == current.url.scheme and nxt.url.port == current.url.port
    upgrade = same_host and current.url.scheme == "http" and nxt.url.scheme == "https"
    if spec.follow_redirects and (same_origin or upgrade):
        return nxt
    why = "redirects are off for this tool" if not spec.follow_redirects else "it leaves the endpoint's host"
    raise ToolError(f"The service redirected to {nxt.url.scheme}://{nxt.url.host}{nxt.url.path}, "
                    f"which is not followed: {why}.",
                    hint="Point the endpoint at the final URL.", error_type="UpstreamError")


async def read_limited(spec: HttpToolSpec, response: httpx.Response) -> bytes:
    limit = spec.max_response_bytes
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and (len(declared) > 18 or int(declared) > limit):
        raise too_large(spec, response, f"it declares {int(declared)} bytes")
    chunks, size = [], 0
    async for chunk in response.aiter_bytes():  # decoded: the limit holds for gzip too
        size += len(chunk)
        if size > limit:
            raise too_large(spec, response, f"reading stopped after {size} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def too_large(spec: HttpToolSpec, response: httpx.Response, detail: str) -> ToolError:
    return ToolError(f"The response from {response.url.host} is over the size limit of "
                     f"{spec.max_response_bytes} bytes ({detail}).",
                     hint=f"Ask for less data (filters, paging), or raise max_response_bytes of '{spec.name}' "
                          "in the config.", error_type="LimitExceeded")


# ---------------------------------------------------------------- answering

async def call_http_tool(spec: HttpToolSpec, arguments: dict) -> str:
    out = build_outgoing(spec, arguments)
    got = await fetch(spec, out)
    if not 200 <= got.status < 300:
        raise upstream_status_error(spec, got)
    data = decode(got)
    content = render(spec, data, got) if spec.response_template.strip() else raw_content(data)
    content = bounded(scrub(spec, content), spec.max_answer_chars)
    return success_answer(operation_title(spec.name), content=content or "(empty response)", fields={
        "HTTP Status": f"{got.status} {got.reason}".strip(),
        "Request": f"{spec.method} {got.url.scheme}://{got.url.netloc.decode()}{got.url.path}",
        "Response Size": f"{len(got.body)} bytes",
    })


def upstream_status_error(spec: HttpToolSpec, got: Received) -> ToolError:
    excerpt = scrub(spec, one_line(got.body.decode("utf-8", "replace"), EXCERPT_CHARS))
    hint = ("Check the arguments against the tool's description." if 400 <= got.status < 500
            else "The service failed: try again later.")
    return ToolError(f"The service answered HTTP {got.status} {got.reason}".rstrip() +
                     (f": {excerpt}" if excerpt else " with an empty body."), hint=hint, error_type="UpstreamError")


def decode(got: Received):
    """The JSON value of the body; a non-JSON body stays text (templates see a string)."""
    text = got.body.decode("utf-8", "replace")
    if not text.strip():
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def render(spec: HttpToolSpec, data, got: Received) -> str:
    from render import gotemplate
    try:
        return gotemplate.get_template(spec.response_template, strict=spec.strict_template).render(data)
    except gotemplate.TemplateRenderError as e:
        raw = one_line(got.body.decode("utf-8", "replace"), RAW_IN_ERROR_CHARS)
        raise ToolError(f"The response template of '{spec.name}' failed: {scrub(spec, str(e))}. "
                        f"Raw response: {scrub(spec, raw)}",
                        hint="Fix response_template in the config; the raw response shows the data it gets.",
                        error_type="TemplateError") from None


def raw_content(data) -> str:
    if data is None:
        return ""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=2)
    fence = "`" * max(3, longest_backtick_run(text) + 1)
    return f"{fence}{'json' if not isinstance(data, str) else 'text'}\n{text}\n{fence}"


def longest_backtick_run(text: str) -> int:
    return max((len(m) for m in re.findall(r"`+", text)), default=0)


def bounded(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit} more characters cut: ask for less data)"


def one_line(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} chars)"


def scrub(spec: HttpToolSpec, text: str) -> str:
    # An upstream may echo request headers back (debug endpoints, error pages).
    for secret in spec.secrets:
        if len(secret) >= 4:
            text = text.replace(secret, REDACTED)
    return text
