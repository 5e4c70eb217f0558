"""MCP progress notifications for long calls (render, large opens, whole-document exports).

server.py hands each call the request's reporter; tools call ``await progress(ctx, done, total,
message)``, which reaches the client only when it gave a progress token. Sending awaits the
transport, so an async tool should report only between steps that leave the document consistent.
"""
from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from typing import Any, Awaitable, Callable, Iterator

Reporter = Callable[[float, float | None, str | None], Awaitable[None]]
log = logging.getLogger("ooxml_mcp")


def reporter_for(request_ctx: Any) -> Reporter | None:
    """The request's progress sender (MCP SDK 2.x: ``ctx.session.report_progress``).

    The SDK sends nothing when the request carried no progress token (over JSON-RPC) or no
    progress callback (in-process), so the reporter is handed over whatever the request said.
    """
    session = getattr(request_ctx, "session", None)
    return getattr(session, "report_progress", None)


async def progress(ctx, done: float, total: float | None = None, message: str | None = None) -> None:
    report = getattr(ctx, "progress", None)
    if report is None:
        return
    try:
        await report(done, total, message)
    except Exception:  # a lost notification must not fail the call
        log.debug("progress notification failed", exc_info=True)


def report(ctx, done: float, total: float | None = None, message: str | None = None) -> None:
    """progress() for a sync tool, from its worker thread: the notification is sent on the event
    loop, and the tool goes on once it is handed to the transport (so notifications keep their order)."""
    if getattr(ctx, "progress", None) is None:
        return
    import anyio.from_thread

    try:
        anyio.from_thread.run(progress, ctx, done, total, message)
    except RuntimeError:  # not in a worker thread of the server's loop (a direct call): nobody to tell
        log.debug("progress notification not sent: no event loop", exc_info=True)


@contextmanager
def heartbeats(ctx, done: float, total: float | None, message: str) -> Iterator[None]:
    """report() at once and every HEARTBEAT_S seconds until the block ends: for one long blocking
    step of a sync tool (LibreOffice laying a document out). The figure creeps towards done + 1 and
    never reaches it, so notifications keep increasing, as MCP asks."""
    import anyio.from_thread
    import anyio.lowlevel

    if getattr(ctx, "progress", None) is None:
        yield
        return
    try:
        token = anyio.from_thread.run_sync(anyio.lowlevel.current_token)
    except RuntimeError:  # a direct call, outside the server's worker threads
        yield
        return
    stop = threading.Event()

    def beat() -> None:
        ticks = 0
        while not stop.wait(HEARTBEAT_S):
            ticks += 1
            try:
                anyio.from_thread.run(progress, ctx, done + 1 - 1 / (ticks + 1), total,
                                      f"{message} ({ticks * HEARTBEAT_S:.1f} s)", token=token)
            except Exception:  # the loop is gone: the call is ending anyway
                return

    report(ctx, done, total, message)
    thread = threading.Thread(target=beat, name="progress-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


HEARTBEAT_S = 0.5


async def ticking(ctx, done: float, total: float | None, message: str, work: Callable, *args):
    """``work(*args)`` in a worker thread, with heartbeats() from the event loop meanwhile: for one
    long await of an async tool (LibreOffice converting a long document). Its error is raised as is."""
    import anyio

    await progress(ctx, done, total, message)
    if getattr(ctx, "progress", None) is None:
        return await anyio.to_thread.run_sync(work, *args)
    box: dict = {}

    async def beat() -> None:
        ticks = 0
        while True:
            await anyio.sleep(HEARTBEAT_S)
            ticks += 1
            await progress(ctx, done + 1 - 1 / (ticks + 1), total, f"{message} ({ticks * HEARTBEAT_S:.1f} s)")

    async def run(group) -> None:
        try:
            box["value"] = await anyio.to_thread.run_sync(work, *args)
        except Exception as e:  # kept out of the task group: it would wrap it in an ExceptionGroup
            box["error"] = e
        finally:
            group.cancel_scope.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(beat)
        group.start_soon(run, group)
    if "error" in box:
        raise box["error"]
    return box["value"]


LARGE_FILE_BYTES = 1_000_000  # smaller files open faster than a thread hop plus a heartbeat costs


def worth_a_thread(ctx, arguments: dict) -> bool:
    """Whether a long_running call's input file is large enough for heartbeats to matter."""
    import os
    from pathlib import Path

    raw = arguments.get("file_path")
    if not raw or not isinstance(raw, str):
        return False
    path = Path(os.path.expanduser(raw))
    if not path.is_absolute() and ctx.services.roots:
        path = ctx.services.roots[0] / path
    try:
        return path.stat().st_size >= LARGE_FILE_BYTES
    except (OSError, ValueError):
        return False  # the tool itself reports a missing or refused path


async def in_thread(ctx, fn, message: str):
    """Run a blocking step in a worker thread, reporting progress every HEARTBEAT_S seconds until it ends.

    Only for work on objects no other call can reach yet (docx_open builds a new document):
    other calls keep running on the event loop meanwhile.
    """
    import anyio

    outcome: dict = {}

    async def work():
        try:
            outcome["value"] = await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)  # see overrun.py
        except Exception as e:  # raised again below, outside the task group (not as a group)
            outcome["error"] = e
        finally:
            tg.cancel_scope.cancel()

    async with anyio.create_task_group() as tg:
        tg.start_soon(work)
        await progress(ctx, 0, None, message)
        ticks = 0
        while True:
            await anyio.sleep(HEARTBEAT_S)
            ticks += 1
            await progress(ctx, ticks, None, f"{message} ({ticks * HEARTBEAT_S:.1f} s)")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
