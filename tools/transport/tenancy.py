"""Tenants on Streamable HTTP (SPEC §9): bearer token -> tenant, as an ASGI wrapper.

The tenant is put in ``scope["state"]``, which Starlette exposes as ``request.state``; the
MCP SDK hands that request to the handlers as ``ctx.request``, so ``server.tenant_of`` reads
``ctx.request.state.tenant``. The config is read on every request, so a reload (new tokens,
tenants removed) applies at once.

An MCP session (``mcp-session-id``) is bound to the tenant that created it: another tenant
presenting that id is refused, so it can neither post into nor listen on the session.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any, Awaitable, Callable

Scope = dict
ASGIApp = Callable[[Scope, Callable, Callable], Awaitable[None]]
SESSION_HEADER = b"mcp-session-id"
MAX_BOUND_SESSIONS = 10_000


def bearer_token(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                return None
            return token.strip()
    return None


def header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope.get("headers", []):
        if name == wanted:
            return value.decode("latin-1")
    return None


async def refuse(send: Callable, status: int, message: str, *, challenge: bool = False) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if challenge:
        headers.append((b"www-authenticate", b'Bearer realm="ooxml-mcp"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class SessionOwners:
    """mcp-session-id -> tenant, bounded (oldest forgotten first; the SDK caps sessions too)."""

    def __init__(self, limit: int = MAX_BOUND_SESSIONS):
        self._owners: OrderedDict[str, str | None] = OrderedDict()
        self._limit = limit

    def bind(self, session_id: str, tenant: str | None) -> None:
        self._owners[session_id] = tenant
        self._owners.move_to_end(session_id)
        while len(self._owners) > self._limit:
            self._owners.popitem(last=False)

    def allows(self, session_id: str | None, tenant: str | None) -> bool:
        return session_id is None or session_id not in self._owners or self._owners[session_id] == tenant


def with_tenants(app: ASGIApp, services: Any) -> ASGIApp:
    owners = SessionOwners()

    async def tenant_app(scope: Scope, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        config = services.config
        tenant = None
        if config is not None and config.tenant_tokens:
            tenant = config.tenant_for_token(bearer_token(scope))
            if tenant is None:
                return await refuse(send, 401, "Unauthorized: send 'Authorization: Bearer <token>' with a "
                                               "token of a configured tenant.", challenge=True)
        session_id = header(scope, SESSION_HEADER)
        if not owners.allows(session_id, tenant):
            return await refuse(send, 404, "Session not found.")
        # A new dict: uvicorn's per-request state copy may be shared with lifespan state.
        scope = {**scope, "state": {**scope.get("state", {}), "tenant": tenant}}
        await app(scope, receive, bind_new_sessions(send, owners, tenant))

    return tenant_app


def bind_new_sessions(send: Callable, owners: SessionOwners, tenant: str | None) -> Callable:
    async def send_and_bind(message: dict) -> None:
        if message["type"] == "http.response.start":
            for name, value in message.get("headers", []):
                if name.lower() == SESSION_HEADER:
                    owners.bind(value.decode("latin-1"), tenant)
        await send(message)

    return send_and_bind
