"""Document sessions that outlive their worker (``--state``): lease, journal, snapshots, replay.

- **Lease.** A worker applies calls to a session only while it holds the session's lease in the
  state backend (TTL ``lease_ms``; renewed in the background, every lease of the worker in one
  round trip). A call on a session this worker does not hold takes the lease when it is free
  (recovering the session from the store when the local copy, if any, is behind) or answers
  ``SessionMoved``.
- **Journal.** Every successful call that changed a session (a mutating tool, or any tool that
  minted IDs or moved the cursor) is appended, fenced by the lease, BEFORE its answer is sent:
  tool, arguments, the random values it minted (ooxml/xml/minting.py) and its time (ooxml/xml/clock.py).
  A call whose entry cannot be written answers an error and the worker drops its copy.
- **Snapshots** (tools/runtime/state/snapshots.py) on open/create, after a save, every
  ``snapshot_every`` entries or ``snapshot_seconds``, and when a session is parked (the worker
  drains; a session whose MCP session ended is ended, tools/runtime/sessions/lifetime.py). The journal is trimmed up to the snapshot. The package
  (original part bytes) is sent only when it changed: the store keeps it apart as the snapshot's
  base, named by hash. A snapshot due by count or time is made after the call, in a thread of
  its own holding the session's lock (lxml's serialiser and zlib release the GIL): the call that
  makes it due answers without waiting for it, and the journal holds every entry meanwhile.
  A snapshot carries the undo history (ooxml/model/history_codec.py), so
  undo and redo after a take-over reach exactly as far back as on the worker that made the steps.
- **Recovery** = the snapshot, then each journal entry run again through the same tool code
  with its minted values and time pinned: byte-identical to the state the client was shown.
  An entry that fails to replay ends the replay there: the session keeps what replayed, the
  entries not replayed go to the ``failed`` key (for debugging) and the audit log, a snapshot
  of the recovered state replaces the journal, and the session's next answer names the calls lost.
"""
from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timezone

from ooxml.xml import budget, clock
from ooxml.xml import minting
from ooxml.xml.errors import OoxmlError
from tools.runtime.call import history
from tools.runtime.state import snapshots
from render.answer import Answer
from tools.runtime.call.registry import CallContext
from tools.runtime.sessions.sessions import (MAX_SESSIONS_PER_OWNER, MAX_SESSIONS_TOTAL, Caller, Session, SessionNotFound,
                                    SessionStore, _not_found, caller_of, quota_reached, session_key)
from tools.runtime.state.statestore import Fenced, StateBackend, StoreDown

log = logging.getLogger("ooxml_mcp")
_replaying: ContextVar[bool] = ContextVar("ooxml_replaying", default=False)


def replaying() -> bool:
    """Whether the running call is a journal entry run again in recovery: a tool that writes a file
    besides the document (docx_export_markdown) must not write it again."""
    return _replaying.get()


class SessionMoved(OoxmlError):
    error_type = "SessionMoved"


class StateUnavailable(OoxmlError):
    error_type = "StateUnavailable"


def unavailable(why: str = "") -> StateUnavailable:
    return StateUnavailable("The session store cannot be reached, so sessions cannot be read or changed now.",
                            hint="Retry in a moment: the server goes on by itself once the store is back; "
                                 "nothing acknowledged was lost.")


MCP_KEY_TTL_S = 300  # oxm:mcp:<id> (refreshed every MCP_REFRESH_S while the MCP session lives)
MCP_REFRESH_S = 60.0
# A worker's MCP sessions count as ended this many leases after its last heartbeat (sent with every
# round of renewals, three a lease): they go with its leases, so a new MCP session adopts a dead
# worker's sessions as soon as another worker could take them (issue 29: a 10 s TTL made failover
# 10 s). Half a lease more than the leases: a renewer late by a beat loses neither.
HEARTBEAT_LEASES = 1.5


def quota_key(quota) -> str:
    """A caller's quota (``Caller.quota``, a list once through a snapshot) as the store names it."""
    return json.dumps(list(quota), separators=(",", ":"))


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


def signature(session: Session) -> tuple:
    """What a read-only call may change besides the XML: then it is journaled too (docx_inspect's
    find= records the leak warning docx_save repeats)."""
    c = session.cursor
    return (c.element_id, c.place, session.last_insert, session.last_update, tuple(session.leaks.items()))


class Durable:
    def __init__(self, backend: StateBackend, worker_id: str, lease_ms: int = 1000,
                 snapshot_every: int = 200, snapshot_seconds: float = 30.0, key_ttl_s: int = 86400,
                 snapshot_behind: bool = True):
        self.backend, self.worker_id, self.lease_ms = backend, worker_id, lease_ms
        self.snapshot_every, self.snapshot_seconds, self.key_ttl_s = snapshot_every, snapshot_seconds, key_ttl_s
        self.services = None
        self.heartbeat_ms = max(1, round(HEARTBEAT_LEASES * lease_ms))
        self.held: dict[str, Held] = {}
        self.live_mcp: set[str] = set()  # MCP sessions open on this worker (shared in the store: adoption checks)
        self._mcp_told: set[str] = set()  # those the store knows of
        self._mcp_refreshed = 0.0
        self.draining = False
        self.parked = 0  # sessions drain() handed to the store (the stop's log line counts them)
        self._guard = threading.Lock()
        self._sid_locks: dict[str, threading.Lock] = {}
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None
        self._behind = ThreadPoolExecutor(1, "ooxml-mcp-snapshots") if snapshot_behind else None

    def store(self) -> DurableStore:
        """The worker's session store: build its Services with ``sessions=durable.store(), state=durable``."""
        return DurableStore(self, MAX_SESSIONS_PER_OWNER, MAX_SESSIONS_TOTAL)

    def attach(self, services) -> None:
        """The Services built around this worker (its ``state``, its store as ``sessions``)."""
        assert services.state is self and isinstance(services.sessions, DurableStore), "build Services with store()"
        self.services = services

    # ---- the generic tool-call path (dispatch.run_sync) -------------------------------------------
    def run(self, tool, name: str, arguments: dict, ctx: CallContext):
        """The call's result (an Answer, or a ToolResult holding one), journaled."""
        self.announce(ctx.caller.mcp_session)
        tape, when = minting.Tape(), datetime.now(timezone.utc)
        with minting.using(tape), clock.pinned(when):
            result = tool.handler(ctx, **arguments)
            history.commit(ctx, tool.name, arguments)
        claimed = list({id(s): s for s in ctx.claimed}.values())  # a batch claims its session per call
        for session in claimed:
            self._after(session, tool, name, arguments, tape, when)
        for session in claimed:
            result = self._tell_unreplayed(session, result)
        return result

    def _tell_unreplayed(self, session: Session, result):
        """The first answer after a take-over that lost calls says which (once), in its head."""
        answer = getattr(result, "answer", result)
        if not session.unreplayed or session.ended or not isinstance(answer, Answer) or answer.error:
            return result
        told = answer.with_field("Not Replayed", unreplayed_note(session))
        session.unreplayed = None
        if self.holds(session.id):  # told: a later recovery must not tell it again
            self._quietly(self.snapshot, session)
        if answer is result:
            return told
        result.answer = told
        return result

    def _after(self, session: Session, tool, name, arguments, tape, when) -> None:
        held = self.held.get(session.id)
        if session.ended:
            if held is not None and held.token:
                self._quietly(self.backend.delete, session.id, held.token)
            self.held.pop(session.id, None)
            return
        try:
            if held is None:
                self._create(session)
            elif self._save_happened(session, held):
                self.snapshot(session)
            elif not tool.read_only or tape.values or signature(session) != held.sig:
                self._append(session, held, name, arguments, tape, when)
        except Exception as e:  # not durable: the client must not be told it succeeded
            self.drop(session, f"{type(e).__name__}: {e}")
            if isinstance(e, Fenced):
                raise moved(session.id, "this worker lost its lease during the call; the call was not applied")
            raise OoxmlError("The change could not be written to the session store; it was not kept.",
                             hint="Retry the call: the session is recovered from its last durable state.",
                             error_type="StateUnavailable") from None

    def _create(self, session: Session) -> None:
        blob, base, name = snapshots.split(session, "0-0")  # before the lease: a big document takes longer than one
        token = self.backend.acquire(session.id, self.worker_id, self.lease_ms, new=True)
        held = Held(token, time.monotonic() + self.lease_ms / 1000, sig=signature(session), epoch=epoch_of(token))
        held.stamps = dict(session.doc.package.stamps)
        self.backend.create(session.id, token, session.owner[0], session.owner[1], blob, self.key_ttl_s, (name, base))
        held.base = name
        self.held[session.id] = held
        # Released at once: its own worker takes it back on its first call (deploy/haproxy.cfg routes by
        # the worker named in the ID), or, when that one is down, the worker its ID hashes to.
        self.backend.release(session.id, token)
        held.token = None

    @staticmethod
    def _save_happened(session: Session, held: Held) -> bool:
        return dict(session.doc.package.stamps) != held.stamps

    def _append(self, session: Session, held: Held, name, arguments, tape, when) -> None:
        args = dict(arguments)
        if "session_id" in args:
            args["session_id"] = session.id  # replay names it exactly
        entry = json.dumps({"t": name, "a": args, "m": tape.values, "w": when.isoformat(),
                            "o": list(session.owner)}, separators=(",", ":")).encode()
        sent = time.monotonic()
        held.head = self.backend.append(session.id, held.token, entry, self.lease_ms)
        held.deadline = sent + self.lease_ms / 1000
        held.since_snapshot += 1
        held.sig = signature(session)
        if held.since_snapshot >= self.snapshot_every or time.monotonic() - held.snapshot_at >= self.snapshot_seconds:
            self._snapshot_due(session, held)

    def _snapshot_due(self, session: Session, held: Held) -> None:
        if self._behind is None:
            self.snapshot(session)
        elif not held.due:
            held.due = True
            self._behind.submit(self._snapshot_behind, session, held)

    def _snapshot_behind(self, session: Session, held: Held) -> None:
        """Once the call is over: the lock keeps the session still while it is read. A session
        ended, dropped, parked or taken over since is left alone; a failure waits for the next
        period (the journal holds every entry: nothing is lost, recovery replays more)."""
        with session.lock:
            held.due = False
            if session.ended or self.held.get(session.id) is not held or held.token is None \
                    or not held.since_snapshot:
                return
            try:
                self.snapshot(session)
            except Exception as e:
                held.since_snapshot, held.snapshot_at = 0, time.monotonic()
                log.warning("snapshot of session %s on worker %s: %s", session.id, self.worker_id, e)

    def settle(self) -> None:
        """Wait for the snapshots due so far."""
        if self._behind is not None:
            self._behind.submit(lambda: None).result()

    def snapshot(self, session: Session) -> None:
        held = self.held[session.id]
        blob, base, name = snapshots.split(session, held.head)
        ttl = self.key_ttl_s
        if held.base != name or not self.backend.snapshot(session.id, held.token, blob, held.head, ttl, (name, None)):
            self.backend.snapshot(session.id, held.token, blob, held.head, ttl, (name, base))
        held.base = name
        held.since_snapshot, held.snapshot_at = 0, time.monotonic()
        held.stamps, held.sig = dict(session.doc.package.stamps), signature(session)

    # ---- taking a session (DurableStore.get) ----------------------------------------------------
    def holds(self, sid: str) -> bool:
        held = self.held.get(sid)
        return held is not None and held.token is not None and time.monotonic() < held.deadline - self.lease_ms / 4000

    def take(self, store: DurableStore, caller: Caller, sid: str) -> Session:
        with self._sid_lock(sid):
            local = store.local(sid)
            if local is not None and self.holds(sid):
                return self._owned_by(caller, local, self.held[sid].token)
            held = self.held.get(sid)
            if local is not None and held is not None and held.token is not None:
                sent = time.monotonic()  # still ours but near its end (a slow renewer): renew it now
                if self.backend.renew(sid, held.token, self.lease_ms):
                    held.deadline = sent + self.lease_ms / 1000
                    return self._owned_by(caller, local, held.token)
                held.token = None
            if self.draining:
                raise moved(sid, "this worker is shutting down")
            token = self.backend.acquire(sid, self.worker_id, self.lease_ms)
            if token is None:
                head = self.backend.head(sid)
                if head is None or not self._may_use(caller, head[1], head[2]):
                    raise _not_found(sid)  # a stranger learns nothing, wherever the call lands
                self._quietly(self.backend.want, sid, self.worker_id, self.lease_ms)  # the owner lets go when idle
                raise moved(sid, "its lease is held")
            deadline = time.monotonic() + self.lease_ms / 1000
            try:
                return self._took(store, caller, sid, token, deadline, local)
            except BaseException:
                self._quietly(self.backend.release, sid, token)
                raise

    def _took(self, store, caller, sid, token, deadline, local) -> Session:
        head = self.backend.head(sid)
        if head is None:
            raise _not_found(sid)
        if not self._may_use(caller, head[1], head[2]):
            raise _not_found(sid)
        held = self.held.get(sid)
        if local is not None and held is not None and held.head == head[0] and not local.ended:
            session = local  # nobody changed it since this worker had it
        else:
            session = self.recover(sid)
            held = self.held[sid] = Held(None, 0, head=session_head(session), base=getattr(session, "_base", None))
            held.stamps, held.sig = dict(session.doc.package.stamps), signature(session)
            store.put(session, replacing=local)
        held.token, held.deadline, held.epoch = token, deadline, epoch_of(token)
        if getattr(session, "_failed", None):
            self._set_aside(session, session._failed)
        session.owner = (head[1], head[2])
        session.quota = session.quota or session.owner  # counted against its owner's quota here too
        return self._owned_by(caller, session, token)

    def _owned_by(self, caller: Caller, session: Session, token: str) -> Session:
        if session.owner == caller.owner:
            return session
        if not self._may_use(caller, *session.owner):
            raise _not_found(session.id)
        # Adopted by a new MCP session of the same tenant (its old MCP session ended).
        self.backend.set_owner(session.id, token, caller.tenant, caller.mcp_session)
        old, session.owner, session.tenant, session.quota = session.quota, caller.owner, caller.tenant, caller.quota
        if quota_key(old) != quota_key(session.quota):
            self._quietly(self._move_quota, session.id, old, session.quota)
        return session

    def _may_use(self, caller: Caller, tenant: str | None, mcp: str | None) -> bool:
        """Same tenant, and the owning MCP session is the caller's, none, or ended (on any worker)."""
        if caller.tenant != tenant:
            return False
        if mcp == caller.mcp_session or mcp is None:
            return True
        return mcp not in self.live_mcp and not self.backend.mcp_live(mcp)

    # ---- live MCP sessions, shared ---------------------------------------------------------------------
    def announce(self, mcp_session: str | None) -> None:
        """A call of this MCP session landed here: other workers must not let anyone adopt its sessions."""
        if mcp_session is None or mcp_session in self._mcp_told:
            return
        self.live_mcp.add(mcp_session)
        try:
            self.backend.mcp_alive([mcp_session], self.worker_id, MCP_KEY_TTL_S)
            self._mcp_told.add(mcp_session)
        except Exception as e:  # the renewer tells the store when it is back
            log.warning("state store: %s", e)

    def mcp_ended(self, mcp_session: str) -> None:
        self.live_mcp.discard(mcp_session)
        self._mcp_told.discard(mcp_session)
        self._quietly(self.backend.mcp_gone, mcp_session)

    def _keep_alive(self) -> None:
        """The worker's heartbeat every round; its MCP sessions' keys now and then (or when untold)."""
        try:
            self.backend.heartbeat(self.worker_id, self.heartbeat_ms)
            untold = self.live_mcp - self._mcp_told
            if untold or time.monotonic() - self._mcp_refreshed >= MCP_REFRESH_S:
                live = list(self.live_mcp)
                self.backend.mcp_alive(live, self.worker_id, MCP_KEY_TTL_S)
                self._mcp_told.update(live)
                self._mcp_refreshed = time.monotonic()
                for mcp in [m for m in live if m not in self.live_mcp]:  # ended while we wrote it
                    self.mcp_ended(mcp)
            self._tell_uses()
        except Exception:
            pass  # the store is away: heartbeats resume when it is back

    # ---- session quotas, shared (tools/runtime/sessions/quotas.py) -------------------------------------------
    def join_quota(self, session: Session, limit: int, key: str) -> None:
        """Count the new session against its caller's quota on every worker; QuotaReached at it."""
        qkey = quota_key(session.quota)
        try:
            full = self.backend.quota_take(qkey, session.id, limit, time.time(), self.key_ttl_s)
            if full is not None and self._prune(qkey):
                full = self.backend.quota_take(qkey, session.id, limit, time.time(), self.key_ttl_s)
        except StoreDown as e:
            raise unavailable(str(e)) from None
        if full is not None:
            raise quota_reached(len(full), key)

    def _prune(self, qkey: str) -> bool:
        """Drop sessions that left the store without leaving the quota (their worker died, their keys
        expired); an open under way (joined, not stored yet) is given its call's time."""
        grace = self.services.limits.call_timeout_s + 5
        gone = [sid for sid, used in self.backend.quota_members(qkey)
                if time.time() - used > grace and self.backend.head(sid) is None]
        for sid in gone:
            self.backend.quota_drop(qkey, sid)
        return bool(gone)

    def leave_quota(self, session: Session) -> None:
        self._quietly(self.backend.quota_drop, quota_key(session.quota), session.id)

    def _move_quota(self, sid: str, old, new) -> None:
        self.backend.quota_take(quota_key(new), sid, 2 ** 31, time.time(), self.key_ttl_s)
        self.backend.quota_drop(quota_key(old), sid)

    def _tell_uses(self) -> None:
        """The last use of the sessions this worker had calls on, for "longest idle" on every worker."""
        used, now, wall = [], time.monotonic(), time.time()
        for sid, held in list(self.held.items()):
            session = self.services.sessions.local(sid)
            if session is not None and not session.ended and session.last_used != held.used:
                when = wall - (now - session.last_used)
                used.append((held, session.last_used, (quota_key(session.quota), sid, when)))
        if used:
            self.backend.quota_touch([u[2] for u in used])
            for held, last, _ in used:
                held.used = last

    def quota_sessions(self, caller: Caller, busy: list) -> Iterator[Session]:
        """The caller's sessions on every worker, longest idle first, each taken here (its lease held)
        as it is reached; sessions busy on their worker are passed over."""
        busy_ids = {s.id for s in busy}
        try:
            members = self.backend.quota_members(quota_key(caller.quota))
        except StoreDown as e:
            raise unavailable(str(e)) from None
        for sid, _ in members:
            if sid not in busy_ids:
                session = self._take_idle(caller, sid)
                if session is not None:
                    yield session

    def _take_idle(self, caller: Caller, sid: str) -> Session | None:
        """``sid`` held here, or None when another worker keeps it (a call under way there) for
        longer than it takes that worker to let an idle session go (tools/runtime/state/statestore.py ``want``)."""
        end = time.monotonic() + 2 * self.lease_ms / 1000
        while True:
            try:
                return self.services.sessions.get(caller, sid)
            except SessionMoved:
                budget.check()  # the opening call's own limit bounds the waits too
                if time.monotonic() >= end:
                    return None
                time.sleep(min(0.05, self.lease_ms / 10_000))
            except (SessionNotFound, StateUnavailable):
                return None

    def recover(self, sid: str) -> Session:
        """The latest snapshot, then the journal replayed through the same tool code."""
        loaded = self.backend.load(sid)
        if loaded is None:
            raise _not_found(sid)
        limits = getattr(self.services.config, "document_limits", None) or snapshots.DEFAULT_LIMITS
        session = snapshots.decode(loaded.snapshot, limits, loaded.base)
        failed = replay(self.services, session, loaded.entries)
        session._head, session._base = loaded.head, snapshots.base_of(loaded.snapshot)
        if failed:
            session._failed = failed
            lost = [{k: f[k] for k in ("entry", "tool", "why")} for f in failed]
            session.unreplayed = (session.unreplayed or []) + [{**f, "worker": self.worker_id} for f in lost]
            log.error("session %s: %d journal entries could not be replayed on worker %s (first: %s)",
                      sid, len(failed), self.worker_id, failed[0]["why"])
        return session

    def _set_aside(self, session: Session, failed: list[dict]) -> None:
        """Entries that did not replay: kept in the store for debugging, written to the audit log,
        and replaced by a snapshot of what did replay (the next recovery must not stop there again)."""
        held = self.held[session.id]
        self.backend.keep_failed(session.id, held.token, [f["raw"] for f in failed], self.key_ttl_s)
        audit = getattr(self.services, "audit", None)
        if audit is not None:
            audit.event("journal_not_replayed", tenant=session.tenant, session_id=session.id,
                        entries=[{k: f[k] for k in ("entry", "tool", "why")} for f in failed])
        self.snapshot(session)
        session._failed = None

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
    def start(self) -> Durable:
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


_ROUTABLE = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def routed_id(sid: str, worker_id: str) -> str:
    """The session ID with its home worker appended, when the worker ID is a plain name."""
    return f"{sid}.{worker_id}" if _ROUTABLE.fullmatch(worker_id) else sid


def session_head(session: Session) -> str:
    return getattr(session, "_head", "0-0")


def replay(services, session: Session, entries: list[tuple[str, bytes]]) -> list[dict]:
    """Run journal entries ``(id, bytes)`` again on ``session`` through the tools, as their first
    run did. An entry that fails (damaged, or its call fails now) is put back like any failed call
    and ends the replay: returned are it (with why) and every entry after it, never tried, since
    they were made on a document that had it."""
    tools = services.all_tools()
    store = services.sessions
    store.put(session, replacing=None, replay=True)
    token = _replaying.set(True)
    try:
        for n, (entry_id, raw) in enumerate(entries):
            why = _replay_one(services, tools, raw)
            if why is not None:
                after = "not tried: it came after a call that could not be replayed"
                return [_failure(entry_id, raw, why)] + [_failure(i, r, after) for i, r in entries[n + 1:]]
        return []
    finally:
        _replaying.reset(token)
        store.unput(session)


def _replay_one(services, tools: dict, raw: bytes) -> str | None:
    """None when the entry replayed; else why it did not (what it changed is put back)."""
    from tools.runtime.sessions.lifetime import release_all
    ctx = None
    try:
        entry = json.loads(raw)
        tool = tools[entry["t"]]
        owner = entry["o"]
        ctx = CallContext(owner[0], services, caller=Caller(tenant=owner[0], mcp_session=owner[1]))
        with minting.using(minting.Tape(entry["m"])), clock.pinned(datetime.fromisoformat(entry["w"])):
            tool.handler(ctx, **entry["a"])
            history.commit(ctx, tool.name, entry["a"])
        return None
    except Exception as e:
        if ctx is not None:
            history.abandon(ctx)
        message = e.message if isinstance(e, OoxmlError) else str(e)
        kind = e.error_type if isinstance(e, OoxmlError) else type(e).__name__
        return f"{kind}: {message}"[:300]
    finally:
        if ctx is not None:
            release_all(ctx)


def _failure(entry_id: str, raw: bytes, why: str) -> dict:
    try:
        name = str(json.loads(raw)["t"])
    except Exception:
        name = "(unreadable entry)"
    return {"entry": entry_id, "tool": name, "why": why, "raw": raw}


def unreplayed_note(session: Session) -> str:
    lost = session.unreplayed or []
    listed = "; ".join(f"{f['tool']} (journal entry {f['entry']}): {f['why']}" for f in lost[:3])
    more = f"; and {len(lost) - 3} more" if len(lost) > 3 else ""
    return (f"{len(lost)} acknowledged call(s) could not be replayed when worker {lost[0]['worker']} took "
            f"this session over, so the document does not have them; make those changes again (the journal "
            f"entries are kept in oxm:{{{session.id}}}:failed): {listed}{more}.")


class DurableStore(SessionStore):
    """The session store of a durable worker: a named session is taken through its lease."""

    def __init__(self, durable: Durable, per_owner: int, total: int):
        super().__init__(per_owner, total)
        self.durable = durable
        self._replay: dict[str, Session] = {}

    def local(self, sid: str) -> Session | None:
        with self._guard:
            return self._sessions.get(sid)

    def new_id(self) -> str:
        """``doc_<24 hex>.<worker ID>``: HAProxy sends its calls back to the worker that made it
        (deploy/haproxy.cfg), so sessions spread over the workers as evenly as the creating calls."""
        return routed_id(super().new_id(), self.durable.worker_id)

    def put(self, session: Session, replacing: Session | None, replay: bool = False) -> None:
        with self._guard:
            if replay:
                self._replay[session.id] = session
            else:
                self._sessions[session.id] = session
        if replacing is not None and replacing is not session:
            replacing.ended = True
            replacing.doc.close()

    def unput(self, session: Session) -> None:
        with self._guard:
            self._replay.pop(session.id, None)

    def add(self, who, doc, path, per_owner=None, total=None, key="limits.max_sessions") -> Session:
        if self.durable.draining:
            raise moved("(new)", "this worker is shutting down")
        # The caller's quota counts its sessions on every worker (in the store), not only here.
        session = super().add(who, doc, path, 2 ** 31, total, key)
        try:
            self.durable.join_quota(session, per_owner or self.per_owner, key)
        except BaseException:
            SessionStore.discard(self, session)
            raise
        return session

    def get(self, who, session_id):
        if _replaying.get():
            sid = session_key(session_id)
            with self._guard:
                session = self._replay.get(sid) if sid else next(iter(self._replay.values()), None)
            if session is None:
                raise _not_found(sid or "")
            return session
        caller = caller_of(who)
        sid = session_key(session_id)
        if sid is None:
            sid = super().get(who, None).id  # the caller's only session on this worker
        local = self.local(sid)
        if local is not None and self.durable.holds(sid) and local.owner == caller.owner:
            return local
        try:
            return self.durable.take(self, caller, sid)
        except StoreDown as e:
            raise unavailable(str(e)) from None

    def discard(self, session: Session) -> bool:
        """The session ended (closed, idle, ended to make room): gone from the store too, even when
        this worker let its lease go, so no other worker can take it back. False, as for a session
        already gone, when this was a stale copy of one another worker took: the ending writes nothing."""
        gone = super().discard(session)
        held = self.durable.held.pop(session.id, None)
        if not gone:
            return False
        forgot = True if held is None else self.durable._quietly(self.durable.forget, session.id, held)
        if forgot:
            self.durable.leave_quota(session)  # never stored, or gone from the store now
        elif forgot is False:  # another worker has its current state: this copy is dropped, no recovery file
            log.info("session %s: stale copy dropped on worker %s", session.id, self.durable.worker_id)
            session.doc.close()
            return False
        return True  # the store unreachable (None): its ending keeps the unsaved work here
