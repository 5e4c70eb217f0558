"""MCP tasks (protocol 2025-11-25) for long tool calls: ``tools/call`` with a ``task`` answers at
once with a task; ``tasks/get``, ``tasks/result``, ``tasks/list`` and ``tasks/cancel`` follow it.

mcp 2.3.0 has the task types but no server side (docs/protocol.md, "Tasks"): its ``tools/call``
result check accepts only ``CallToolResult``, and ``tasks/*`` are in none of its method tables.
So a server middleware (which runs before that check, and whose own answer is sent as it is)
takes the task-augmented ``tools/call``, and ``tasks/*`` are plain added request handlers.
The call itself runs later exactly as without a task (``call_next``): its answer, or its JSON-RPC
error, is what ``tasks/result`` gives; each status change goes to the owner's connection as
``notifications/tasks/status``. 2025-06-18 and 2026-07-28 clients (tasks left the core protocol
there) get neither the capability nor the methods; a ``task`` they send is ignored, as MCP asks of
a server without the capability.

A task belongs to its caller's owner (``Caller.owner``: tenant and MCP session); other callers
cannot see it. Task IDs carry 128 random bits. Tasks end with their MCP session (stdio: the process).
"""
from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

import anyio
import mcp_types as types
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError

VERSIONS = frozenset({"2025-11-25"})
RELATED = "io.modelcontextprotocol/related-task"
IMMEDIATE = "io.modelcontextprotocol/model-immediate-response"
# The long calls: LibreOffice layouts, whole-document passes, many edits at once.
TASK_TOOLS = frozenset({"docx_render_page", "docx_export", "docx_compare", "docx_insert_toc", "docx_update_toc",
                        "docx_export_markdown", "docx_batch", "docx_fill_template", "docx_open"})
EXECUTION = types.ToolExecution(task_support="optional")
CAPABILITY = types.ServerTasksCapability(
    list=types.TasksListCapability(), cancel=types.TasksCancelCapability(),
    requests=types.ServerTasksRequestsCapability(tools=types.TasksToolsCapability(call=types.TasksCallCapability())))
DEFAULT_TTL_MS = 15 * 60_000  # a finished task is kept until this long after its creation
MAX_TTL_MS = 60 * 60_000
POLL_MS = 500
MAX_PER_OWNER = 32  # tasks kept per owner; a new one past it drops the oldest finished one
PAGE = 16  # tasks per tasks/list page
TERMINAL = frozenset({"completed", "failed", "cancelled"})


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Task:
    id: str
    owner: tuple
    tool: str
    ttl_ms: int
    created: str = field(default_factory=now_iso)
    updated: str = ""
    born: float = field(default_factory=time.monotonic)
    status: str = "working"
    message: str | None = None
    result: dict | None = None  # the tools/call result, as the wire carries it
    error: MCPError | None = None  # or the JSON-RPC error the call gave
    done: anyio.Event = field(default_factory=anyio.Event)
    runner: asyncio.Task | None = None
    connection: object = None  # its owner's connection, told of each status change

    def wire(self) -> dict:
        out = {"taskId": self.id, "status": self.status, "createdAt": self.created,
               "lastUpdatedAt": self.updated or self.created, "ttl": self.ttl_ms, "pollInterval": POLL_MS}
        if self.message:
            out["statusMessage"] = self.message
        return out

    def finish(self, status: str, message: str | None = None) -> bool:
        """working -> a terminal status, once: a cancelled task stays cancelled whatever its call does."""
        if self.status in TERMINAL:
            return False
        self.status, self.message, self.updated = status, message, now_iso()
        self.done.set()
        return True

    def expired(self) -> bool:
        return time.monotonic() - self.born > self.ttl_ms / 1000


class Tasks:
    """The server's tasks, by ID; touched only on the event loop."""

    def __init__(self):
        self.by_id: dict[str, Task] = {}

    def create(self, owner: tuple, tool: str, ttl_ms: int | None) -> Task:
        self.purge()
        ttl = DEFAULT_TTL_MS if ttl_ms is None else max(1000, min(int(ttl_ms), MAX_TTL_MS))
        mine = [t for t in self.by_id.values() if t.owner == owner]
        if len(mine) >= MAX_PER_OWNER:
            finished = [t for t in mine if t.status in TERMINAL]
            if not finished:
                raise MCPError(types.INVALID_REQUEST, f"{MAX_PER_OWNER} tasks of this client are still working: "
                                                      "wait for one (tasks/result) or cancel one (tasks/cancel).")
            del self.by_id[finished[0].id]
        task = Task(secrets.token_urlsafe(16), owner, tool, ttl)
        self.by_id[task.id] = task
        return task

    def find(self, owner: tuple, task_id: str) -> Task:
        self.purge()
        task = self.by_id.get(task_id)
        if task is None or task.owner != owner:  # another client's task is as unknown as none
            raise MCPError(types.INVALID_PARAMS, f"No task {task_id!r}: it never existed, belongs to another "
                                                 "client or has expired (tasks/list shows yours).")
        return task

    def purge(self) -> None:
        """Finished tasks past their ttl go; a working one stays (its call has its own time limit)."""
        for task in [t for t in self.by_id.values() if t.status in TERMINAL and t.expired()]:
            del self.by_id[task.id]

    def owned(self, owner: tuple) -> list[Task]:
        self.purge()
        return [t for t in self.by_id.values() if t.owner == owner]

    def end_owner(self, owner: tuple) -> None:
        """Its MCP session ended: its tasks stop and go."""
        for task in self.owned(owner):
            if task.finish("cancelled", "The client's session ended.") and task.runner is not None:
                task.runner.cancel()
            del self.by_id[task.id]


def served(ctx) -> bool:
    return getattr(ctx, "protocol_version", None) in VERSIONS


def listed(tool: types.Tool) -> types.Tool:
    """tools/list: the tools a client may call as tasks say so (execution.taskSupport)."""
    if tool.name in TASK_TOOLS:
        tool.execution = EXECUTION
    return tool


def advertise(options) -> None:
    """The initialize answer's capabilities: tasks/list, tasks/cancel, task-augmented tools/call
    (``unadvertised`` takes them out again for clients of a version without tasks)."""
    options.capabilities.tasks = CAPABILITY


def unadvertised(result: dict) -> dict:
    """An initialize answer for a version without tasks (2025-06-18 and before) drops the capability."""
    if result.get("protocolVersion") not in VERSIONS and "tasks" in (result.get("capabilities") or {}):
        result = {**result, "capabilities": {k: v for k, v in result["capabilities"].items() if k != "tasks"}}
    return result


async def announce(task: Task) -> None:
    """notifications/tasks/status (optional in MCP, which clients must not rely on) to the task's owner:
    only 2025-11-25 clients have tasks, so only they hear it. Best effort: a closed stream drops it."""
    if task.connection is not None:
        await task.connection.notify("notifications/tasks/status", task.wire())


@dataclass
class Outbound:
    """The channel of a task's call once tools/call has answered (the SDK closes the request's own then):
    notifications go on the connection's stream, tagged with the task (progress keeps the call's token)."""

    request: ServerSession
    task_id: str
    meta: types.RequestParamsMeta | None

    def __post_init__(self):
        self.inner = self.request._request_outbound
        self.connection = self.request._connection

    transport = property(lambda self: self.inner.transport)
    request_id = property(lambda self: self.inner.request_id)
    message_metadata = property(lambda self: self.inner.message_metadata)
    cancel_requested = property(lambda self: self.inner.cancel_requested)
    can_send_request = property(lambda self: self.connection.has_standalone_channel)

    async def send_raw_request(self, method: str, params, opts=None) -> dict:
        return await self.connection.send_raw_request(method, self.tagged(params), opts)

    async def notify(self, method: str, params, opts=None) -> None:
        await self.connection.notify(method, self.tagged(params), opts)

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        meta = self.meta if isinstance(self.meta, dict) else {}
        token = meta.get("progress_token", meta.get("progressToken"))
        if token is None:
            return
        params = {"progressToken": token, "progress": progress}
        params.update({k: v for k, v in (("total", total), ("message", message)) if v is not None})
        await self.notify("notifications/progress", params)

    def tagged(self, params) -> dict:
        params = dict(params or {})
        params["_meta"] = {**(params.get("_meta") or {}), RELATED: {"taskId": self.task_id}}
        return params


class Middleware:
    """Takes a task-augmented tools/call off the SDK's path: the SDK would reject its answer."""

    def __init__(self, tasks: Tasks, owner_of, connection_of, on_connection_end):
        self.tasks, self.owner_of, self.connection_of = tasks, owner_of, connection_of
        self.on_connection_end = on_connection_end

    async def __call__(self, ctx, call_next):
        if ctx.method == "initialize":
            return unadvertised(await call_next(ctx))
        params = ctx.params if isinstance(ctx.params, dict) else None
        if ctx.method != "tools/call" or params is None or "task" not in params or not served(ctx):
            return await call_next(ctx)
        connection = self.connection_of(ctx)
        if not getattr(connection, "initialize_accepted", False):
            return await call_next(ctx)  # the SDK refuses it, as any call before initialize
        typed = types.CallToolRequestParams.model_validate(params, by_name=False)  # -32602 if malformed
        if typed.name not in TASK_TOOLS:
            raise MCPError(types.METHOD_NOT_FOUND,
                           f"{typed.name} does not run as a task (its execution.taskSupport is forbidden): "
                           "call it without 'task'.")
        owner = self.owner_of(ctx)
        task = self.tasks.create(owner, typed.name, typed.task.ttl if typed.task else None)
        task.connection = connection
        self.on_connection_end(ctx, owner)
        call = replace(ctx, params={k: v for k, v in params.items() if k != "task"},
                       session=ServerSession(Outbound(ctx.session, task.id, ctx.meta), connection,
                                             request_meta=ctx.meta))
        task.runner = asyncio.get_running_loop().create_task(self.run(task, call_next, call))
        return {"task": task.wire(),
                "_meta": {IMMEDIATE: f"{typed.name} runs as task {task.id}: tasks/result gives its answer."}}

    async def run(self, task: Task, call_next, ctx) -> None:
        if await self.ran(task, call_next, ctx):
            await announce(task)

    @staticmethod
    async def ran(task: Task, call_next, ctx) -> bool:
        """Runs the call; True if its end changed the task's status (not when tasks/cancel came first)."""
        try:
            result = await call_next(ctx)
        except MCPError as e:
            task.error = e
            return task.finish("failed", e.error.message)
        except asyncio.CancelledError:
            task.finish("cancelled", "The task was cancelled.")
            raise
        except Exception as e:  # noqa: BLE001  the server keeps serving whatever a call does
            task.error = MCPError(types.INTERNAL_ERROR, f"{type(e).__name__}: {e}")
            return task.finish("failed", task.error.error.message)
        task.result = result
        failed = bool(result.get("isError"))
        return task.finish("failed" if failed else "completed", "The tool answered with an error." if failed else None)


def handlers(tasks: Tasks, owner_of) -> dict:
    """tasks/get, tasks/result, tasks/list and tasks/cancel, for ``Server.add_request_handler``."""

    def mine(ctx, task_id: str) -> Task:
        if not served(ctx):
            raise MCPError(types.METHOD_NOT_FOUND, "Tasks are served to 2025-11-25 clients only.")
        return tasks.find(owner_of(ctx), task_id)

    async def on_get(ctx, params: types.GetTaskRequestParams) -> dict:
        return mine(ctx, params.task_id).wire()

    async def on_result(ctx, params: types.GetTaskPayloadRequestParams) -> dict:
        task = mine(ctx, params.task_id)
        await task.done.wait()  # blocks until a terminal status, as MCP asks
        if task.error is not None:
            raise task.error
        if task.result is None:  # cancelled before the call answered
            raise MCPError(types.INVALID_REQUEST, f"Task {task.id} was cancelled: it has no result.")
        meta = {**(task.result.get("_meta") or {}), RELATED: {"taskId": task.id}}
        return {**task.result, "_meta": meta}

    async def on_list(ctx, params: types.PaginatedRequestParams) -> dict:
        if not served(ctx):
            raise MCPError(types.METHOD_NOT_FOUND, "Tasks are served to 2025-11-25 clients only.")
        owned = tasks.owned(owner_of(ctx))
        start = page_start(params.cursor, owned)
        out: dict = {"tasks": [t.wire() for t in owned[start:start + PAGE]]}
        if start + PAGE < len(owned):
            out["nextCursor"] = owned[start + PAGE].id
        return out

    async def on_cancel(ctx, params: types.CancelTaskRequestParams) -> dict:
        task = mine(ctx, params.task_id)
        if task.status in TERMINAL:
            raise MCPError(types.INVALID_PARAMS, f"Task {task.id} is already {task.status}: it cannot be cancelled.")
        task.finish("cancelled", "Cancelled by request: what its call had changed is undone.")
        if task.runner is not None:
            task.runner.cancel()
        await announce(task)
        return task.wire()

    return {"tasks/get": (types.GetTaskRequestParams, on_get),
            "tasks/result": (types.GetTaskPayloadRequestParams, on_result),
            "tasks/list": (types.PaginatedRequestParams, on_list),
            "tasks/cancel": (types.CancelTaskRequestParams, on_cancel)}


def page_start(cursor: str | None, owned: list[Task]) -> int:
    """A cursor is the ID of the first task of its page (opaque to clients); one we did not give is -32602."""
    if not cursor:
        return 0
    for i, task in enumerate(owned):
        if task.id == cursor:
            return i
    raise MCPError(types.INVALID_PARAMS, "Invalid cursor: pass back a nextCursor from tasks/list unchanged.")


def attach(server, services, caller_of, connection_of) -> Tasks:
    """Wires tasks into the SDK server: the middleware and the four tasks/* handlers."""
    tasks = services.tasks

    def owner_of(ctx) -> tuple:
        return caller_of(services, ctx).owner

    def on_connection_end(ctx, owner: tuple) -> None:
        connection = connection_of(ctx)
        if connection is None or connection.state.get("ooxml_mcp_tasks"):
            return
        connection.state["ooxml_mcp_tasks"] = True

        async def end() -> None:
            tasks.end_owner(owner)
        connection.exit_stack.push_async_callback(end)

    server.middleware.append(Middleware(tasks, owner_of, connection_of, on_connection_end))
    for method, (params_type, handler) in handlers(tasks, owner_of).items():
        server.add_request_handler(method, params_type, handler)
    return tasks
