"""Document sessions as MCP resources: list, templates, read, subscribe, completions.

``docx://sessions/{session_id}`` is the document as Markdown; templates add a page image, the
outline and one element. Ownership is the tools' (``SessionStore.get`` with the caller): a stranger
gets "not found", never someone else's document. Reads touch a session only inside
``lifetime.holding()`` in a worker thread; the outline and page images run the tools that make them
(docx_get_structure, docx_render_page), so they are what an agent would see, journaled alike.
"""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from ooxml.xml.errors import OoxmlError
from tools.runtime.sessions.lifetime import holding
from tools.runtime.sessions.sessions import session_key

RESOURCE_NOT_FOUND = -32002  # MCP's code for a resource that does not exist (or is not yours)
PREFIX = "docx://sessions/"
URI = re.compile(r"^docx://sessions/(?P<sid>[A-Za-z0-9_]+)"
                 r"(?:/outline|/pages/(?P<page>[0-9]{1,6})\.png|/elements/(?P<element>[A-Za-z0-9_]+))?$")
TEMPLATES = [
    types.ResourceTemplate(name="document", uri_template=PREFIX + "{session_id}", mime_type="text/markdown",
                           description="An open document as Markdown."),
    types.ResourceTemplate(name="page", uri_template=PREFIX + "{session_id}/pages/{n}.png", mime_type="image/png",
                           description="Page n (from 1) as LibreOffice lays it out, unsaved edits included."),
    types.ResourceTemplate(name="outline", uri_template=PREFIX + "{session_id}/outline", mime_type="text/markdown",
                           description="Headings, tables and other blocks with their IDs."),
    types.ResourceTemplate(name="element", uri_template=PREFIX + "{session_id}/elements/{element_id}",
                           mime_type="text/markdown", description="The block holding one element, as Markdown."),
]
MAX_COMPLETIONS = 100


@dataclass(frozen=True)
class Target:
    uri: str
    session_id: str
    kind: str  # document, outline, page, element
    page: int | None = None
    element_id: str | None = None


def parse(uri: str) -> Target:
    m = URI.match(str(uri))
    if m is None:
        raise MCPError(RESOURCE_NOT_FOUND, f"Resource not found: {str(uri)[:200]}",
                       {"hint": "URIs look like docx://sessions/{session_id}[/outline|/pages/{n}.png|"
                                "/elements/{element_id}]; resources/list lists yours."})
    kind = "page" if m["page"] else "element" if m["element"] else \
        "outline" if str(uri).endswith("/outline") else "document"
    return Target(str(uri), m["sid"], kind, int(m["page"]) if m["page"] else None, m["element"])


def not_found(target: Target, e: OoxmlError) -> MCPError:
    code = RESOURCE_NOT_FOUND if e.error_type in ("SessionNotFound", "ElementNotFound") else types.INVALID_PARAMS
    return MCPError(code, f"{e.message} ({target.uri})", {"hint": e.hint} if e.hint else None)


def listed(services, caller) -> list[types.Resource]:
    return [types.Resource(uri=PREFIX + s.id, name=s.id, title=s.label, mime_type="text/markdown",
                           description=f"{s.label} as Markdown")
            for s in services.sessions.list(caller)]


def owned(services, caller, target: Target) -> None:
    """Raise not-found unless the caller may use the session (the tools' rule, SessionStore.get)."""
    try:
        services.sessions.get(caller, target.session_id)
    except OoxmlError as e:
        raise not_found(target, e) from None


async def read(ctx, target: Target) -> types.ReadResourceResult:
    """``ctx``: the caller's CallContext, as a tool call would get it."""
    if target.kind in ("outline", "page"):
        return await _by_tool(ctx, target)
    seconds = ctx.services.limits.call_timeout_s
    try:
        text = await anyio.to_thread.run_sync(_markdown, ctx, target, seconds)
    except OoxmlError as e:
        raise not_found(target, e) from None
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=target.uri, mime_type="text/markdown",
                                                                         text=text)])


def _markdown(ctx, target: Target, seconds: float) -> str:
    from render.markdown import Exporter
    from ooxml.model.places import block_of as focus_block
    from tools.runtime.sessions.element_ids import resolve
    # Without IDs: a read gives none (IDs given outside a journaled call would break --state replay).
    with holding(ctx, target.session_id, seconds) as session:
        doc = session.doc
        if target.kind == "document":
            from ooxml.text import body as B
            return Exporter(doc).blocks(list(B.iter_blocks(doc.body)))
        return Exporter(doc).blocks([focus_block(resolve(session, target.element_id))])


async def _by_tool(ctx, target: Target) -> types.ReadResourceResult:
    from tools.runtime.call.dispatch import run_tool
    # The outline is read whole, as far as one page of the tool goes (400 entries).
    name, arguments = ("docx_get_structure", {"session_id": target.session_id, "max_entries": 400}) \
        if target.kind == "outline" else \
        ("docx_render_page", {"session_id": target.session_id, "page": target.page})
    tool = ctx.services.tool_named(name)
    outcome = await run_tool(tool, name, arguments, ctx)
    if outcome.is_error:
        head = outcome.answer.head()
        raise not_found(target, OoxmlError(head.get("Message", "failed"), hint=head.get("Hint"),
                                           error_type=outcome.error_type or "ValidationError"))
    if target.kind == "outline":
        content = types.TextResourceContents(uri=target.uri, mime_type="text/markdown", text=outcome.text)
    else:
        _remember_pages(target.session_id, outcome.answer.fields.get("Page"))
        content = types.BlobResourceContents(uri=target.uri, mime_type="image/png",
                                             blob=base64.b64encode(outcome.images[0].data).decode("ascii"))
    return types.ReadResourceResult(contents=[content])


# ---- completions --------------------------------------------------------------------------------

_pages: dict[str, int] = {}  # session ID -> pages the last render found (completions offer 1..n)


def _remember_pages(session_id: str, page) -> None:
    """``page``: the render's Page field (render.answer.OneOf)."""
    if page is not None:
        if len(_pages) > 10_000:  # ended sessions' counts: forget them all now and then
            _pages.clear()
        _pages[session_id] = page.total


def _session_key(raw) -> str | None:
    try:
        return session_key(raw)
    except OoxmlError:
        return None


def complete(services, caller, params: types.CompleteRequestParams) -> types.CompleteResult:
    ref, arg = params.ref, params.argument
    values: list[str] = []
    if isinstance(ref, types.ResourceTemplateReference) and str(ref.uri).startswith(PREFIX):
        if arg.name == "session_id":
            values = [s.id for s in services.sessions.list(caller) if s.id.startswith(arg.value)]
        elif arg.name == "n":
            sid = _session_key((params.context.arguments or {}).get("session_id") if params.context else None)
            mine = {s.id for s in services.sessions.list(caller)}
            count = _pages.get(sid, 1) if sid in mine else 1
            values = [str(n) for n in range(1, count + 1) if str(n).startswith(arg.value)]
    return types.CompleteResult(completion=types.Completion(values=values[:MAX_COMPLETIONS], total=len(values),
                                                            has_more=len(values) > MAX_COMPLETIONS))
