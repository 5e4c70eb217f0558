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

The parts, one module each: ``lease``, ``journal``, ``snapshotting`` (when; ``snapshots`` the bytes),
``takeover``, ``quota`` (shared by every worker); ``durable_store`` the worker's session store.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from tools.runtime.sessions.sessions import MAX_SESSIONS_PER_OWNER, MAX_SESSIONS_TOTAL
from tools.runtime.state.durable_store import DurableStore
from tools.runtime.state.journal import Journal
from tools.runtime.state.lease import Held, Leases
from tools.runtime.state.quota import SharedQuota
from tools.runtime.state.snapshotting import Snapshotting
from tools.runtime.state.statestore import StateBackend
from tools.runtime.state.takeover import HEARTBEAT_LEASES, TakeOver


class Durable(Journal, Snapshotting, TakeOver, SharedQuota, Leases):
    """A worker's durable sessions: its parts share the state set here."""

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
