"""When a durable session is snapshotted (tools/runtime/state/snapshots.py makes the bytes): on
open/create, after a save, every ``snapshot_every`` entries or ``snapshot_seconds``, and when a
session is parked. The journal is trimmed up to the snapshot. The package (original part bytes) is
sent only when it changed: the store keeps it apart as the snapshot's base, named by hash. A
snapshot due by count or time is made after the call, in a thread of its own holding the session's
lock (lxml's serialiser and zlib release the GIL): the call that makes it due answers without
waiting for it, and the journal holds every entry meanwhile.

``Snapshotting`` is a part of ``Durable`` (tools/runtime/state/durable.py).
"""
from __future__ import annotations

import logging
import time

from tools.runtime.sessions.sessions import Session
from tools.runtime.state import snapshots
from tools.runtime.state.journal import signature
from tools.runtime.state.lease import Held

log = logging.getLogger("ooxml_mcp")


class Snapshotting:
    """Snapshots made when due (a part of ``Durable``)."""

    @staticmethod
    def _save_happened(session: Session, held: Held) -> bool:
        return dict(session.doc.package.stamps) != held.stamps

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
