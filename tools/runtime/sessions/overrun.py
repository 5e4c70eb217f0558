"""The call time limit as a hard limit: a worker thread that runs past it is answered for.

Long loops check the budget (ooxml/xml/budget.py) and end a late call themselves. When a worker
thread does not (a slow step with no check in it), dispatch does not wait for it:

- ``GRACE_S`` after the deadline the call is answered ``LimitExceeded`` and its ``Gate`` is
  closed, unless the call is already committing (then its own answer is awaited: a commit is short).
- The thread runs on, holding its sessions' locks, which are marked ``overrun``: other calls on
  them get ``SessionBusy`` at once instead of waiting for the lock.
- When the thread ends, its commit is refused (``may_commit``), so the undo recorder puts back
  whatever it changed, a session it opened is dropped, the marks go and the locks are released.
"""
from __future__ import annotations

import threading
import time

import anyio

from ooxml.xml import budget
from ooxml.xml.errors import OoxmlError

GRACE_S = 0.5  # after the deadline: a call that checks its budget ends by itself within it


class SessionBusy(OoxmlError):
    error_type = "SessionBusy"


class Gate:
    """Whether a call's worker thread may still commit, decided once, by it or by dispatch."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.started = time.time()
        self.state = "running"  # -> "committing"/"done" (the thread won) or "abandoned" (dispatch did)
        self.outcome = None
        self.ended = threading.Event()
        self._lock = threading.Lock()

    def commit(self) -> bool:
        with self._lock:
            if self.state == "abandoned":
                return False
            self.state = "committing"
            return True

    def close(self) -> bool:
        """The thread ends: True if dispatch gave up on it first."""
        with self._lock:
            if self.state != "abandoned":
                self.state = "done"
            return self.state == "abandoned"

    def abandon(self, claimed: list) -> bool:
        with self._lock:
            if self.state != "running":
                return False
            self.state = "abandoned"
            for session in list(claimed):
                session.overrun = True
            return True


async def bounded(ctx, runner, call, seconds: float):
    """``await runner(call)`` (a thread hop that can be abandoned), answered by the deadline."""
    gate = ctx.gate = Gate(seconds)

    def work():
        try:
            gate.outcome = call()
            return gate.outcome
        finally:
            gate.ended.set()
    try:
        with anyio.move_on_after(seconds + GRACE_S):
            return await runner(work)
    except anyio.get_cancelled_exc_class():
        gate.abandon(ctx.claimed)  # cancelled (tasks/cancel, notifications/cancelled): nothing it changed stays
        raise
    if gate.abandon(ctx.claimed):
        return None  # dispatch answers LimitExceeded; the thread cleans up when it ends (finish)
    await anyio.to_thread.run_sync(gate.ended.wait)  # committing: its answer is near
    return gate.outcome


def may_commit(ctx) -> None:
    """Before a call's changes become an undo step: refused once dispatch has answered for it."""
    gate = getattr(ctx, "gate", None)
    if gate is not None and not gate.commit():
        raise budget.exceeded(gate.seconds)


def finish(ctx) -> None:
    """At the end of a worker thread, before its locks are released: an abandoned call (its changes
    already put back) drops the sessions it opened and takes its marks off."""
    gate = getattr(ctx, "gate", None)
    if gate is None or not gate.close():
        return
    for session in ctx.claimed:
        if session.opened_at >= gate.started and not session.ended:
            ctx.services.sessions.discard(session)  # its ID was never told to anyone
            session.doc.close()
        session.overrun = False


def refuse_if_overrun(session) -> None:
    if session.overrun:
        raise SessionBusy("A call on this session ran past its time limit and is still being stopped; "
                          "whatever it changed is undone when it stops.",
                          hint="Retry in a few seconds. Ask for less at once to stay within limits.call_timeout_s.")


def late_message(seconds: float) -> tuple[str, str]:
    hint = budget.exceeded(seconds).hint
    return (f"The call ran past its time limit of {seconds:g} s: it is being stopped, and anything it "
            "changed is undone when it stops.", hint)
