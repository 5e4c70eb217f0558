"""ooxml-mcp: the MCP server (stdio and Streamable HTTP) over the tool registry."""
from __future__ import annotations

import base64
import binascii
import gc
import logging
import math
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

gc.disable()  # start-up: no collections while the SDK's 120,000 objects are made (70 ms of CPU)
import anyio  # noqa: E402
import mcp_types as types  # noqa: E402
from mcp.server import Server  # noqa: E402
from mcp.server.lowlevel.server import NotificationOptions  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

from ooxml.opc.tempfiles import clean_stale_temp_files_in_background  # noqa: E402
from tools.runtime.call.dispatch import Outcome, run_tool  # noqa: E402
from tools.runtime.sessions.lifetime import Reaper, end_mcp_session  # noqa: E402
from tools.runtime.state.stopping import PARENT_POLL_S, Stopping  # noqa: E402
from tools.runtime.call.progress import reporter_for  # noqa: E402
from tools import builtin  # noqa: E402
from tools.runtime.call.registry import CallContext, Tool  # noqa: E402
from tools.services import Services  # noqa: E402
from tools.runtime.sessions.sessions import Caller  # noqa: E402
from tools.command_line import make_services, parse_args  # noqa: E402
from tools.runtime.protocol import instructions, notices, protocol, tasks  # noqa: E402
from tools.runtime.sessions import memory  # noqa: E402
from tools.runtime.call import toolsets  # noqa: E402
gc.freeze()  # nor later: they live as long as the process, so no collection walks them again
gc.enable()

PAGE_SIZE = 100
log = logging.getLogger("ooxml_mcp")


def to_mcp(tool: Tool) -> types.Tool:
    a = tool.annotations()
    # Agents pay per byte of tools/list (tools/runtime/call/listed_schema.py). Hints equal to MCP's defaults
    # (readOnly, idempotent false; destructive true) are left out, so is destructiveHint/idempotentHint on
    # read-only tools (meaningless there), the title (for people's UIs; name and description say it to
    # an agent) and openWorldHint: its default (true) is the cautious reading for a client, and listing
    # false on every tool cost 2 KB; what the tools may touch is said in the instructions.
    hints = types.ToolAnnotations(read_only_hint=a["readOnlyHint"] or None,
                                  destructive_hint=None if a["destructiveHint"] or a["readOnlyHint"] else False,
                                  idempotent_hint=(a["idempotentHint"] and not a["readOnlyHint"]) or None)
    return types.Tool(name=tool.name, description=tool.description, input_schema=tool.listed_schema,
                      annotations=hints if hints.model_dump(exclude_none=True) else None)  # all defaults: no {}


class DocxServer(Server):
    """The SDK server, telling clients that its tool list changes (docx_toolsets)."""

    def create_initialization_options(self, notification_options=None, *args, **kwargs):
        options = notification_options or NotificationOptions(tools_changed=True)
        init = super().create_initialization_options(options, *args, **kwargs)
        tasks.advertise(init)  # tools/runtime/protocol/tasks.py: the SDK derives no tasks capability
        return init


def tenant_of(services: Services, ctx) -> str | None:
    request = getattr(ctx, "request", None)
    if request is None:
        return services.stdio_tenant
    return getattr(getattr(request, "state", None), "tenant", None)


def caller_of(services: Services, ctx) -> Caller:
    """Who calls: on stdio the one client; over HTTP the tenant plus, for a 2025-11-25 client,
    its MCP session (the connection's, never a header the client could forge), and where it calls
    from (anonymous clients' session quota; behind trusted proxies their forwarded address)."""
    request = getattr(ctx, "request", None)
    if request is None:
        return Caller(tenant=services.stdio_tenant)
    from tools.transport.client_address import request_address
    return Caller(tenant=tenant_of(services, ctx), mcp_session=connection_of(ctx, "session_id"), http=True,
                  address=request_address(request, getattr(services.config, "proxy", None)))


def connection_state(services: Services, ctx) -> dict | None:
    """What is kept for this client connection (listed toolsets): one per MCP session over HTTP,
    one for the process over stdio; None for HTTP requests without an MCP session (2026-07-28)."""
    if getattr(ctx, "request", None) is None:
        return services.stdio_connection
    connection = connection_of(ctx)
    return connection.state if connection is not None and connection.session_id is not None else None


def connection_of(ctx, attribute: str | None = None):
    # The SDK keeps the per-client Connection on the request's ServerSession (mcp 2.x).
    connection = getattr(getattr(ctx, "session", None), "_connection", None)
    return getattr(connection, attribute, None) if attribute else connection


def end_with_mcp_session(services: Services, ctx, caller: Caller) -> None:
    """When a 2025-11-25 client's MCP session ends (DELETE, idle, crash), its documents end too."""
    connection = connection_of(ctx)
    if caller.mcp_session is None or connection is None or connection.state.get("ooxml_mcp_cleanup"):
        return
    connection.state["ooxml_mcp_cleanup"] = True

    async def cleanup() -> None:
        # Abandoned on cancel (the SDK bounds cleanup to 5 s): the recovery save still finishes in its thread.
        await anyio.to_thread.run_sync(end_mcp_session, services, caller.mcp_session, abandon_on_cancel=True)
    connection.exit_stack.push_async_callback(cleanup)


def encode_cursor(offset: int) -> str:
    """An opaque tools/list cursor: clients must pass it back, not compute it."""
    return base64.urlsafe_b64encode(f"tools:{offset}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> int:
    """The offset in a cursor; a cursor we did not make is a -32602 error (as MCP asks).

    A valid cursor past the end (the list shrank on a config reload) gives an empty last page.
    """
    if not cursor:
        return 0
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        prefix, _, offset = text.partition(":")
        if prefix == "tools" and offset.isdigit() and offset.isascii():
            return int(offset)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    raise MCPError(types.INVALID_PARAMS, "Invalid cursor: pass back a nextCursor from tools/list unchanged, "
                                         "or none for the first page.")


def content_of(outcome: Outcome) -> list:
    """The answer's text first (the part clients and validators read), then any images."""
    content: list = [types.TextContent(type="text", text=outcome.text)]
    for image in outcome.images:
        content.append(types.ImageContent(type="image", data=base64.b64encode(image.data).decode("ascii"),
                                          mime_type=image.mime_type))
    return content


def build_server(services: Services) -> Server:
    async def on_list_tools(ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        await tools_loaded()
        listed = toolsets.listed(services, connection_state(services, ctx))
        visible = services.tools_for(tenant_of(services, ctx), listed)
        start = decode_cursor(params.cursor if params is not None else None)
        page = visible[start:start + PAGE_SIZE]
        nxt = encode_cursor(start + PAGE_SIZE) if start + PAGE_SIZE < len(visible) else None
        tools = [tasks.listed(protocol.listed(services, to_mcp(t))) for t in page]
        return types.ListToolsResult(tools=tools, next_cursor=nxt)

    async def on_call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        await tools_loaded()
        caller = caller_of(services, ctx)
        tenant = caller.tenant
        if services.state is not None and caller.mcp_session:
            services.state.live_mcp.add(caller.mcp_session)  # not adoptable while it lives here
        end_with_mcp_session(services, ctx, caller)
        tool = services.tool_for(tenant, params.name)
        known = None if tool is not None else [t.name for t in services.tools_for(tenant)]  # for the hint
        started = time.perf_counter()
        connection = connection_state(services, ctx)
        call = CallContext(tenant, services, caller=caller, progress=reporter_for(ctx), connection=connection)
        await protocol.before_call(services, ctx, connection)
        with notices.collecting() as notes:
            outcome = await run_tool(tool, params.name, params.arguments, call, known)
        await protocol.after_call(services, tool, call, outcome, ctx, notes)
        if services.audit is not None:
            services.audit.record(tenant=tenant, tool=params.name, arguments=params.arguments or {},
                                  outcome=outcome, started=started)
        if connection is not None and connection.pop(toolsets.CHANGED, False):
            await ctx.session.send_tool_list_changed()
            await protocol.tools_changed(services)  # 2026-07-28 clients hear it on subscriptions/listen
        return protocol.result(services, params.name, outcome, content_of(outcome), call)

    def input_schema_of(name: str) -> dict | None:
        # Without this the SDK runs tools/list (every tool, as models) before each 2026-07-28
        # tools/call with arguments, only to check Mcp-Param-* headers against one schema.
        from tools.transport.param_headers import schema_to_check
        tool = services.tool_named(name)
        return schema_to_check(tool.input_schema) if tool is not None else None

    async def on_initialized(ctx, params) -> None:
        builtin.warm_up()  # the tool modules load while the client reads the initialize answer

    server = DocxServer("ooxml-mcp", version="0.1.0", on_list_tools=on_list_tools, on_call_tool=on_call_tool,
                        get_tool_input_schema=input_schema_of, **protocol.handlers(services, caller_of, connection_of),
                        instructions=instructions.text())
    protocol.attach(server, services, connection_state)
    server.add_notification_handler("notifications/initialized", types.NotificationParams, on_initialized)
    tasks.attach(server, services, caller_of, connection_of)
    return server


async def tools_loaded() -> None:
    """The built-in tools, imported off the event loop if the warm-up has not finished yet."""
    if not builtin.loaded():
        await anyio.to_thread.run_sync(builtin.builtin)


def reload_on_sighup(services: Services, config_path: str | None) -> None:
    """SIGHUP reloads the config; an invalid one is reported and the last good one kept."""
    if config_path and hasattr(signal, "SIGHUP"):
        from tools.config.reload import reload_config
        signal.signal(signal.SIGHUP, lambda *_: (builtin.builtin(), reload_config(services, config_path)))


async def serve_stdio(server: Server, stopping) -> None:
    """Serve until stdin ends (the caller then ends the sessions), or until a stop signal or the
    launching process's death: then the sessions end here and the process exits (the SDK's thread
    reading stdin cannot be cancelled)."""
    from mcp.server.stdio import stdio_server
    from tools.transport.stdio_lines import AnsweringReader
    async with stdio_server() as (read, write), anyio.create_task_group() as tg:
        tg.start_soon(stop_when_asked, stopping)
        await server.run(AnsweringReader(read, write), write, server.create_initialization_options())
        tg.cancel_scope.cancel()


async def stop_when_asked(stopping) -> None:
    import asyncio
    asked, loop = anyio.Event(), asyncio.get_running_loop()
    stopping.on_request = lambda sig: loop.call_soon_threadsafe(asked.set)  # from a signal handler
    try:
        while not asked.is_set() and stopping.why is None:  # asked before we listened, too
            with anyio.move_on_after(PARENT_POLL_S):
                await asked.wait()
            if stopping.parent_gone():
                stopping.request("the process that launched the server is gone")
                break
    finally:
        stopping.on_request = None  # stdin ended: the loop closes, the caller ends the sessions
    await anyio.to_thread.run_sync(stopping.finish, "stopped")
    stopping.exit_now()


def http_app(server: Server, services: Services, host: str):
    """The Streamable HTTP ASGI app at /mcp and /files (tools/transport/files.py), behind the bearer-token -> tenant wrapper.

    MCP sessions (2025-11-25 clients) end after the same idle timeout as document sessions.
    """
    from tools.transport.files import with_files
    from tools.transport.tenancy import with_tenants
    idle = services.limits.session_idle_timeout_s
    idle = idle if math.isfinite(idle) else None
    mcp = server.streamable_http_app(host=host, session_idle_timeout=idle)
    return with_health(with_tenants(with_files(mcp, services), services), services)


def with_health(app, services: Services):
    """GET /healthz for the load balancer: 200, or 503 and why (draining, state store unreachable)."""
    async def health_app(scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("path") != "/healthz":
            return await app(scope, receive, send)
        state = services.state
        problem = None if state is None else await anyio.to_thread.run_sync(state.health)
        ok = problem is None
        body = b"ok\n" if ok else f"unavailable: {problem}\n".encode()
        await send({"type": "http.response.start", "status": 200 if ok else 503,
                    "headers": [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
    return health_app


def _draining_server_class():
    import uvicorn

    class DrainingServer(uvicorn.Server):
        """On SIGTERM/SIGINT (SIGHUP without a config): /healthz turns 503 and no new document session
        starts (--state); the sessions end at once (tools/runtime/state/stopping.py)."""

        def __init__(self, config, services: Services, stopping):
            super().__init__(config)
            self.services, self.stopping = services, stopping
            # Signals uvicorn does not catch (SIGHUP without a config; any before it starts) stop it too.
            stopping.on_request = lambda sig: None if self.should_exit else self.handle_exit(sig, None)
            self.should_exit = stopping.why is not None  # asked to stop before it started
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets=sockets)
            for listening in self.servers:
                for sock in listening.sockets:
                    print(f"ooxml-mcp: listening on {url_of(sock.getsockname())}", file=sys.stderr, flush=True)
            builtin.warm_up()  # listening first; the tool modules load before the first call needs them

        def handle_exit(self, sig, frame) -> None:
            if self.services.state is not None:
                self.services.state.draining = True
            super().handle_exit(sig, frame)
            # The sessions end now (unsaved work kept) while uvicorn lets the calls under way finish.
            self.stopping.request(signal.Signals(sig).name if sig else "stop requested")
    return DrainingServer


def url_of(address: tuple) -> str:
    host, port = address[0], address[1]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/mcp"


def serve_http(server: Server, services: Services, host: str, port: int, stopping) -> None:
    import uvicorn
    DrainingServer = _draining_server_class()
    reaper = Reaper(services).start()  # idle document sessions end, in both protocol generations
    try:
        # SIGTERM: uvicorn stops accepting and finishes the calls under way while the sessions end
        # (tools/runtime/state/stopping.py; with --state: snapshotted, leases released for the other workers).
        # proxy_headers off: only the config's trusted proxies may say who the client is (client_address.py).
        config = uvicorn.Config(http_app(server, services, host), host=host, port=port, log_level="warning",
                                timeout_graceful_shutdown=10, proxy_headers=False)
        DrainingServer(config, services, stopping).run()
    finally:
        reaper.stop()
        stopping.finish("stopped")  # unsaved changes go to recovery files (tools/runtime/state/stopping.py)


def main(argv: list[str] | None = None) -> None:
    memory.one_arena()  # before any thread: documents freed in one worker thread are reused by the next
    memory.keep_freed()  # ... without their pages going back to the system and faulting in again
    builtin.after_warm_up(memory.settle)  # the tool modules, once loaded, out of full GC collections too
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    args = parse_args(argv)
    services = make_services(args)
    clean_stale_temp_files_in_background(services.roots)  # what a killed save left (ooxml/opc/tempfiles.py)
    stopping = Stopping(services)
    stopping.install(hup_reloads=bool(args.config))  # SIGTERM, SIGINT (and SIGHUP) keep unsaved work
    reload_on_sighup(services, args.config)
    server = build_server(services)
    if args.transport == "stdio":
        anyio.run(serve_stdio, server, stopping)
        stopping.finish("the client closed stdin")
    else:
        serve_http(server, services, args.host, args.port, stopping)


if __name__ == "__main__":
    main()
