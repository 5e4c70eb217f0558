"""Leases: a worker applies calls to a session only while it holds the session's lease in the state
backend (TTL ``lease_ms``; renewed in the background, every lease of the worker in one round trip),
and lets sessions go (dropped, parked, drained) without losing what the store holds.

``Leases`` is a part of ``Durable`` (tools/runtime/state/durable.py), whose ``__init__`` sets the
state it uses: ``backend``, ``worker_id``, ``lease_ms``, ``held``, ``services``, the renewer and its
stop event, the per-session locks.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ooxml.xml.errors import OoxmlError
from tools.runtime.sessions.sessions import Session, SessionStore
from tools.runtime.state.statestore import Fenced

log = logging.getLogger("ooxml_mcp")


class SessionMoved(OoxmlError):
    error_type = "SessionMoved"


class StateUnavailable(OoxmlError):
    error_type = "StateUnavailable"


def unavailable(why: str = "") -> StateUnavailable:
    return StateUnavailable("The session store cannot be reached, so sessions cannot be read or changed now.",
                            hint="Retry in a moment: the server goes on by itself once the store is back; "
                                 "nothing acknowledged was lost.")


def moved(sid: str, why: str) -> SessionMoved:
    return SessionMoved(f"Session '{sid}' is held by another worker right now ({why}).",
                        hint="Retry the same call in a moment: the retry reaches the worker that holds it, "
                             "or this one takes it over once that worker's lease has expired.")


@dataclass
class Held:
    """What this worker knows of a session it holds (or held): lease token and journal position."""

    token: str | None
    deadline: float  # monotonic time the lease expires, as far as this worker knows
    head: str = "0-0"
    since_snapshot: int = 0
    snapshot_at: float = field(default_factory=time.monotonic)
    sig: tuple = ()
    stamps: dict = field(default_factory=dict)  # the files the document was read from or saved to
    epoch: int = 0  # of the last lease this worker took: nobody else took it while it stays next
    used: float = 0.0  # the session's last use the store's quota was told of (monotonic)
    base: str | None = None  # hash of the snapshot base the store holds, as far as this worker knows
    due: bool = False  # a snapshot is waiting for the session's lock (Durable.snapshot_behind)


def epoch_of(token: str) -> int:
    return int(token.rpartition("|")[2])


class Leases:
    """Holding, renewing and letting go of leases (a part of ``Durable``)."""

    def holds(self, sid: str) -> bool:
        held = self.held.get(sid)
        return held is not None and held.token is not None and time.monotonic() < held.deadline - self.lease_ms / 4000

    # ---- letting go --------------------------------------------------------------------------------
    def drop(self, session: Session, why: str) -> None:
        """Forget the local copy (it may be ahead of the store, or behind the new owner)."""
        log.warning("session %s dropped on worker %s: %s", session.id, self.worker_id, why)
        self.held.pop(session.id, None)
        SessionStore.discard(self.services.sessions, session)
        session.doc.close()

    def park(self, session: Session, reason: str) -> None:
        """Snapshot, release the lease, forget locally: the session waits in the store to be adopted."""
        held = self.held.get(session.id)
        try:
            if held is not None and self.holds(session.id):
                self.snapshot(session)
                self.backend.release(session.id, held.token)
        except Exception as e:
            log.warning("parking session %s: %s", session.id, e)
        log.info("session %s parked (%s)", session.id, reason)
        self.held.pop(session.id, None)
        SessionStore.discard(self.services.sessions, session)
        session.doc.close()

    def drain(self) -> None:
        """SIGTERM: no new sessions; every session this worker holds is snapshotted and released."""
        self.draining = True
        for session in self.services.sessions.all():
            with session.lock:
                self.park(session, "the worker drains")
                self.parked += 1
        self.stop()

    # ---- lease renewal -----------------------------------------------------------------------------
    def start(self) -> Leases:
        self._renewer = threading.Thread(target=self._renew_loop, name="ooxml-mcp-leases", daemon=True)
        self._renewer.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._behind is not None:
            self._behind.shutdown(wait=False, cancel_futures=True)  # parked sessions were snapshotted
        if self._renewer is not None and self._renewer is not threading.current_thread():
            self._renewer.join(5)
        self._quietly(self.backend.worker_gone, self.worker_id)  # its MCP sessions end with it

    def forget(self, sid: str, held: Held) -> bool:
        """Delete a session from the store while this worker is its last holder: with its lease, or,
        when that lease was let go or lapsed (no renewer, a long ending), by taking it back if nobody
        took it since. False when another worker took it: it lives on there and this copy is stale."""
        if held.token is not None:
            try:
                self.backend.delete(sid, held.token)
                return True
            except Fenced:
                pass  # lapsed: taken back below unless another worker has had it since
        token = self.backend.reclaim(sid, self.worker_id, self.lease_ms, held.epoch)
        if token is None:
            return self.backend.head(sid) is None  # gone already, or another worker has it
        self.backend.delete(sid, token)
        return True

    def health(self) -> str | None:
        """Why this worker should get no traffic now, or None."""
        if self.draining:
            return "draining"
        problem = self.backend.problem()
        return None if problem is None else f"state store unreachable ({problem})"

    def _renew_loop(self) -> None:
        self._keep_alive()
        while not self._stop.wait(self.lease_ms / 3000):
            self._keep_alive()
            self._renew_all()

    def _renew_all(self) -> None:
        """Every lease this worker holds, renewed in one batch (one round trip to the store)."""
        held = [(sid, h, h.token) for sid, h in list(self.held.items()) if h.token is not None]
        if not held:
            return
        sent = time.monotonic()
        try:
            results = self.backend.renew_many([(sid, token) for sid, _, token in held], self.lease_ms)
        except Exception:
            return  # the store is away: the deadlines run out and calls stop
        for (sid, h, token), ok in zip(held, results):
            if ok is None:
                continue  # that renewal failed: its deadline runs out
            if ok == 2:
                self._let_go(sid, h, token)
            elif not ok:
                if h.token == token:
                    h.token = None  # lost it: the next call takes it again or answers SessionMoved
                log.warning("worker %s lost the lease of session %s", self.worker_id, sid)
            elif h.token == token:
                h.deadline = sent + self.lease_ms / 1000

    def _let_go(self, sid: str, held: Held, token: str) -> None:
        """Another worker wants the session: release it between calls (the journal holds everything)."""
        session = self.services.sessions.local(sid)
        if session is None or not session.lock.acquire(blocking=False):
            return
        try:
            if held.token == token:
                self.backend.release(sid, token)
                held.token = None
        except Exception as e:
            log.warning("releasing session %s: %s", sid, e)
        finally:
            session.lock.release()

    # ---- helpers -----------------------------------------------------------------------------------
    @contextmanager
    def _sid_lock(self, sid: str) -> Iterator[None]:
        with self._guard:
            lock = self._sid_locks.setdefault(sid, threading.Lock())
        with lock:
            yield

    @staticmethod
    def _quietly(fn, *args):
        try:
            return fn(*args)
        except Exception as e:
            log.warning("state store: %s", e)
            return None
