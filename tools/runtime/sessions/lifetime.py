"""How document sessions live and end: one call at a time, idle timeout, recovery files.

- ``claim``: a call takes its session's lock (waiting at most its time budget), so two calls
  on one session never interleave, while calls on different sessions run concurrently.
- A session ends when its client closes it, when its MCP session ends (2025-11-25 clients:
  DELETE or the SDK's own idle timeout), or when nobody used it for
  ``limits.session_idle_timeout_s`` (Streamable HTTP, both protocol generations; stdio has one
  client and keeps its sessions).
- Unsaved changes of a session that ends without docx_close go to a recovery file
  (``tools.runtime.sessions.recovery``: beside the document, else in the recovery folder; never over the
  original); the audit log and the next docx_open of the file say so.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ooxml.xml import budget
from ooxml.xml.errors import LimitExceeded, ValidationError
from tools.runtime.sessions.overrun import refuse_if_overrun
from tools.runtime.sessions.recovery import write_recovery
from tools.runtime.sessions.sessions import Session, SessionNotFound, session_key

log = logging.getLogger("ooxml_mcp")
MAX_CALLS_PER_SESSION = 4  # one running, three waiting
LOCK_POLL_S = 0.1  # a waiting call looks this often whether the holder ran past its deadline


# ---- one call at a time per session ---------------------------------------------------------------

def claim(ctx, session: Session) -> None:
    """Hold ``session``'s lock for the rest of the call (dispatch releases it)."""
    budget.check()  # a call past its deadline (maybe answered already: overrun.py) takes no lock
    if not session.lock.acquire(blocking=False) and not _acquire(session, budget.remaining()):
        raise budget.exceeded(budget.current_limit() or 0, "waited for another call on this session")
    ctx.claimed.append(session)
    if session.ended:
        raise SessionNotFound(f"Session '{session.id}' has ended.",
                              hint="It was closed or timed out while this call waited; docx_open the file again.")


def _acquire(session: Session, wait: float | None) -> bool:
    """The lock within ``wait`` seconds; SessionBusy once a call past its deadline holds it."""
    end = None if wait is None else time.monotonic() + wait
    while True:
        left = None if end is None else end - time.monotonic()
        if session.lock.acquire(timeout=LOCK_POLL_S if left is None else max(0.0, min(LOCK_POLL_S, left))):
            return True
        refuse_if_overrun(session)  # no point waiting (tools/runtime/sessions/overrun.py)
        if left is not None and left <= 0:
            return False


@contextmanager
def holding(ctx, session_id: str | None, seconds: float | None) -> Iterator[Session]:
    """The caller's session with its lock held for the block, waiting at most ``seconds``.

    For async tools (docx_render_page): they call it from a worker thread, one short step at a
    time, so the event loop never waits for a lock and other calls on the session can run while
    the tool awaits its slow part. The lock is an RLock, so the block ends in the thread that took it.
    """
    with budget.time_limit(seconds):
        session = ctx.services.sessions.get(ctx.caller, session_id)
        start = len(ctx.claimed)
        try:
            claim(ctx, session)
            yield session
        finally:
            if len(ctx.claimed) > start:  # claim may fail after taking the lock (the session ended)
                session.last_used = time.monotonic()
                ctx.claimed.pop(start).lock.release()


def release_all(ctx) -> None:
    now = time.monotonic()
    for session in reversed(ctx.claimed):
        session.last_used = now
        session.lock.release()
    ctx.claimed.clear()


class InFlight:
    """Calls under way per (owner, session_id argument): a client that fires many calls at one
    session gets LimitExceeded instead of parking every worker thread on that session's lock."""

    def __init__(self, limit: int = MAX_CALLS_PER_SESSION):
        self.limit = limit
        self._count: dict = {}
        self._guard = threading.Lock()

    def enter(self, ctx, tool, arguments: dict) -> "_Entered":
        """``with in_flight.enter(ctx, tool, arguments):`` around a call (LimitExceeded past the limit)."""
        try:
            sid = session_key(arguments.get("session_id"))  # the store's reading: "doc_1 (x)" is doc_1
        except ValidationError:
            sid = None  # refused by the call itself
        if "session_id" not in tool.input_schema.get("properties", {}) or (not sid and ctx.caller.anonymous):
            return _Entered(self, None)  # no session to wait for (or one that is refused at once)
        return _Entered(self, (ctx.caller.owner, sid))

    def _add(self, key) -> None:
        with self._guard:
            if self._count.get(key, 0) >= self.limit:
                raise LimitExceeded(f"{self.limit} calls on this session are already under way.",
                                    hint="Wait for their answers before sending more: calls on one session "
                                         "run one after another.")
            self._count[key] = self._count.get(key, 0) + 1

    def _remove(self, key) -> None:
        with self._guard:
            self._count[key] -= 1
            if not self._count[key]:
                del self._count[key]


class _Entered:
    """One call counted in InFlight while its block runs (a class: no generator on every call)."""

    __slots__ = ("flight", "key")

    def __init__(self, flight: InFlight, key):
        self.flight, self.key = flight, key

    def __enter__(self) -> None:
        if self.key is not None:
            self.flight._add(self.key)

    def __exit__(self, *exc) -> bool:
        if self.key is not None:
            self.flight._remove(self.key)
        return False


# ---- ending sessions ------------------------------------------------------------------------------

def end_session(services, session: Session, reason: str) -> Path | None:
    """End a session its client did not close; the caller holds its lock. Returns the recovery file."""
    # Marked before it leaves the registry: whoever sees it gone and reopens the file at once is
    # told of the recovery file (docx_open waits for it).
    writing = services.recovering[session.path] = threading.Event() if session.path and session.doc.modified else None
    try:
        ended = _discard_and_recover(services, session, reason)
    finally:
        if writing is not None:
            writing.set()
            if services.recovering.get(session.path) is writing:
                del services.recovering[session.path]
    if ended is None:
        return None
    recovery, problem = ended
    log.warning("session %s (%s) ended: %s%s", session.id, session.path or "new document", reason,
                f"; unsaved changes saved to {recovery}" if recovery else "")
    if services.audit is not None:
        services.audit.event("session_ended", tenant=session.tenant, session_id=session.id, reason=reason,
                             file=str(session.path) if session.path else None,
                             recovery=str(recovery) if recovery else None, error=problem)
    return recovery


def _discard_and_recover(services, session: Session, reason: str) -> tuple[Path | None, str | None] | None:
    """(recovery file, what went wrong writing it); None when the session was gone already."""
    if not services.sessions.discard(session):
        return None
    recovery, problem = None, None
    try:
        if session.doc.modified:
            recovery = write_recovery(services, session)
    except Exception as e:  # the session ends anyway; the audit log says what was lost
        problem, recovery = f"{type(e).__name__}: {e}", None
        log.exception("session %s: could not write the recovery file", session.id)
    finally:
        session.doc.close()
    if recovery is not None and session.path is not None:
        services.recovered[session.path] = (recovery, reason)
    return recovery, problem


def end_mcp_session(services, mcp_session: str) -> None:
    """Its MCP session ended (DELETE, idle, crash): so do the document sessions it opened, with
    ``--state`` too (recovery file, gone from the store). Only a draining worker parks them instead:
    its clients come back on another worker and adopt them there."""
    durable = getattr(services, "state", None)
    for session in services.sessions.of_mcp_session(mcp_session):
        # A running call finishes first (its own budget bounds it); a stuck one is left to the reaper.
        if session.lock.acquire(timeout=services.limits.call_timeout_s + 5):
            try:
                if durable is not None and durable.draining:
                    durable.park(session, "the worker drains")
                else:
                    end_session(services, session, "its MCP session ended")
            finally:
                session.lock.release()
    if durable is not None:
        durable.mcp_ended(mcp_session)  # on every worker: what is left of it may be adopted now


def reap_idle(services, now: float | None = None) -> int:
    """End every session unused for longer than the idle timeout; busy sessions are skipped."""
    timeout = services.limits.session_idle_timeout_s
    now = time.monotonic() if now is None else now
    ended = 0
    for session in services.sessions.all():
        if now - session.last_used < timeout or not session.lock.acquire(blocking=False):
            continue
        try:
            if now - session.last_used >= timeout:
                end_session(services, session, f"idle for more than {timeout:g} s")
                ended += 1
        finally:
            session.lock.release()
    return ended


def end_all(services, reason: str) -> list[Path]:
    """Every session ends (the server stops); returns the recovery files written."""
    if getattr(services, "state", None) is not None:
        services.state.drain()  # parked in the store, not ended: other workers go on with them
        return []
    kept = []
    for session in services.sessions.all():
        with session.lock:  # a call under way finishes first: its change is kept too
            recovery = end_session(services, session, reason)
        if recovery is not None:
            kept.append(recovery)
    return kept


class Reaper:
    """A daemon thread that ends idle sessions (started for Streamable HTTP only)."""

    def __init__(self, services):
        self.services = services
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ooxml-mcp-reaper", daemon=True)

    def start(self) -> Reaper:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.wait(min(30.0, max(0.05, self.services.limits.session_idle_timeout_s / 4))):
            try:
                reap_idle(self.services)
            except Exception:  # the reaper must outlive any one bad session
                log.exception("idle session reaper")
