"""A cheap load generator for the scale benchmarks: MCP 2026-07-28 tool calls over raw HTTP/1.1.

The SDK client (tests/support/http_server.http_client) spends about as much CPU a call as the
worker it calls (pydantic models, httpx, the answer validator), so on a 2-core machine it is the
ceiling of a throughput figure. Here each client is one keep-alive connection on asyncio streams
sending pre-serialised JSON-RPC bodies with the headers the SDK sends (Mcp-Protocol-Version,
Mcp-Method, Mcp-Name); an answer is read just far enough to check it is a success
(HTTP 200, ``"isError":false``, or the JSON-RPC error) and, for docx_create, to read its Session ID.
A JSON or an SSE (``text/event-stream``, chunked or not) answer is understood.
"""
from __future__ import annotations

import asyncio
import json
import re
import time
from urllib.parse import urlsplit

VERSION = "2026-07-28"
_META = {"io.modelcontextprotocol/protocolVersion": VERSION,
         "io.modelcontextprotocol/clientInfo": {"name": "rawload", "version": "0.1.0"},
         "io.modelcontextprotocol/clientCapabilities": {}}
_SID = re.compile(rb"\*\*Session ID\*\*: (doc_[A-Za-z0-9_.:-]+)")


class CallFailed(AssertionError):
    pass


def call_body(request_id: int, name: str, arguments: dict) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments, "_meta": _META}},
                      separators=(",", ":")).encode()


def insert_template(sid: str) -> bytes:
    """The insert body with ``%d`` for the request ID and the text's number (bytes formatting is cheap)."""
    body = call_body(0, "docx_insert_paragraph",
                     {"session_id": sid, "text": "p@N@", "position": "end:document_body"})
    return body.replace(b"%", b"%%").replace(b'"id":0', b'"id":%d', 1).replace(b"@N@", b"%d")


class Connection:
    """One keep-alive HTTP/1.1 connection to ``url`` (the worker's or HAProxy's /mcp)."""

    def __init__(self, url: str, home: str | None = None):
        self.extra = f"X-Home: {home}\r\n" if home else ""  # the worker a benchmark's HAProxy sends it to
        parts = urlsplit(url)
        self.host, self.port, self.path = parts.hostname, parts.port or 80, parts.path or "/"
        self.reader = self.writer = None

    async def __aenter__(self) -> Connection:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def __aexit__(self, *exc) -> None:
        self.writer.close()

    def _head(self, name: str, length: int) -> bytes:
        return (f"POST {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                f"Mcp-Protocol-Version: {VERSION}\r\nMcp-Method: tools/call\r\nMcp-Name: {name}\r\n{self.extra}"
                f"Content-Length: {length}\r\n\r\n").encode()

    async def post(self, name: str, body: bytes) -> bytes:
        """The JSON-RPC answer of one tools/call (the JSON text, also out of an SSE stream)."""
        self.writer.write(self._head(name, len(body)) + body)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        lower = head.lower()
        if b"transfer-encoding: chunked" in lower:
            payload = await self._chunked()
        else:
            at = lower.index(b"content-length:") + 15
            payload = await self.reader.readexactly(int(lower[at:lower.index(b"\r\n", at)]))
        if status != 200:
            raise CallFailed(f"{name}: HTTP {status}: {payload[:300]!r}")
        if b"text/event-stream" in lower:  # the last data: line is the answer
            payload = [line[5:].strip() for line in payload.splitlines() if line.startswith(b"data:")][-1]
        return payload

    async def _chunked(self) -> bytes:
        parts = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            data = await self.reader.readexactly(size + 2)
            if size == 0:
                return b"".join(parts)
            parts.append(data[:-2])


def failure(payload: bytes) -> str | None:
    """None for a successful tool call; else what the answer says (error type first)."""
    if b'"isError":false' in payload:
        return None
    if b'"error":' in payload[:60]:
        return payload[:300].decode(errors="replace")
    text = json.loads(payload)["result"]["content"][0]["text"]
    kind = re.search(r"\*\*Error Type\*\*: (\w+)", text)
    return f"{kind.group(1) if kind else 'error'}: {text[:300]}"


async def editing_client(url: str, home: str | None, ready, start: asyncio.Event, window: list[float],
                         counts: list[int], moved: list[int], cap: int = 5000) -> None:
    """docx_create, then inserts with full answers until the window ends (each checked a success),
    then docx_close (after the window: the next phase on the same workers starts under the quota)."""
    async with Connection(url, home) as conn:
        created = await conn.post("docx_create", call_body(1, "docx_create", {}))
        why = failure(created)
        if why:
            raise CallFailed(f"docx_create: {why}")
        sid = _SID.search(created.replace(b"\\n", b"\n")).group(1).decode()
        template, done, retried = insert_template(sid), 0, 0
        ready()
        await start.wait()
        while time.monotonic() < window[1] and done < cap:
            answer = await conn.post("docx_insert_paragraph", template % (done + 2, done))
            why = failure(answer)
            if why is None:
                if b"**Element ID**" not in answer or b"Document Context" not in answer:
                    raise CallFailed(f"docx_insert_paragraph: not a full answer: {answer[:300]!r}")
                done += 1
            elif why.startswith("SessionMoved"):  # the routing sent it elsewhere: retried, counted
                retried += 1
                await asyncio.sleep(0.02)
            else:
                raise CallFailed(f"docx_insert_paragraph: {why}")
        window[2] = max(window[2], time.monotonic())
        counts.append(done)
        moved.append(retried)
        why = failure(await conn.post("docx_close", call_body(done + 2, "docx_close", {"session_id": sid})))
        if why:
            raise CallFailed(f"docx_close: {why}")


async def load(urls: list[str], clients: int, seconds: float, homes: list[str] | None = None) -> tuple[float, int]:
    """Calls a second of ``clients`` editing clients (spread over ``urls``, and over ``homes`` in an
    X-Home header) in a common window of ``seconds`` that starts once every client has created its
    document; and the SessionMoved retries."""
    counts, moved, window = [], [], [0.0, 0.0, 0.0]
    start, waiting = asyncio.Event(), [clients]

    def ready() -> None:
        waiting[0] -= 1
        if not waiting[0]:
            window[0] = time.monotonic()
            window[1] = window[0] + seconds
            start.set()

    tasks = [asyncio.ensure_future(editing_client(urls[i % len(urls)], homes[i % len(homes)] if homes else None,
                                                  ready, start, window, counts, moved)) for i in range(clients)]
    await asyncio.gather(*tasks)
    return sum(counts) / (window[2] - window[0]), sum(moved)  # to the last answer in the window
