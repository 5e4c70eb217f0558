"""stdio: a line the SDK cannot parse gets a JSON-RPC error, not silence.

The SDK's stdio transport hands such a line to the server as an exception, which the server only
logs, so the client waits for an answer forever (a request nested 199 levels deep is one: the
JSON parser's recursion limit). Over HTTP the same request gets -32700 at once. ``answering``
wraps the server's read stream and answers each such line with -32700, under the request's id
when Python's own JSON reader can find it (else id null, as JSON-RPC says for parse errors).
"""
from __future__ import annotations

import json
import logging

import mcp_types as types
from mcp.shared.message import SessionMessage

log = logging.getLogger("ooxml_mcp")


class AnsweringReader:
    """The read stream, minus the exceptions: each is answered on ``write`` instead."""

    def __init__(self, read, write):
        self._read, self._write = read, write

    @property
    def last_context(self):  # the SDK's context streams carry the sender's contextvars
        return getattr(self._read, "last_context", None)

    async def receive(self):
        while True:
            item = await self._read.receive()
            if not isinstance(item, Exception):
                return item
            log.warning("stdio: unreadable message answered with a parse error: %s", str(item)[:200])
            await self._write.send(SessionMessage(parse_error(item)))

    def __aiter__(self):
        return self

    async def __anext__(self):
        import anyio
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    def close(self) -> None:
        self._read.close()

    async def aclose(self) -> None:
        await self._read.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()


def parse_error(exc: Exception) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=_request_id(exc), error=types.ErrorData(
        code=types.PARSE_ERROR, message="Parse error: the message is not valid JSON-RPC, or it is nested "
                                        "too deeply to read (at most about 190 levels)."))


def _request_id(exc: Exception) -> int | str | None:
    """The id of the request whose line failed, if the line is a JSON object Python can read."""
    errors = getattr(exc, "errors", None)
    try:
        line = errors()[0].get("input") if callable(errors) else None
        message = json.loads(line) if isinstance(line, (str, bytes)) else None
    except (ValueError, RecursionError, IndexError, TypeError, AttributeError):
        return None
    rid = message.get("id") if isinstance(message, dict) else None
    return rid if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)) else None
