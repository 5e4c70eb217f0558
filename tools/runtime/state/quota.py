"""Session quotas shared by every worker (tools/runtime/sessions/quotas.py): a caller's sessions are
counted in the store, with their last use, so "longest idle" is judged across workers.

``SharedQuota`` is a part of ``Durable`` (tools/runtime/state/durable.py).
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterator

from ooxml.xml import budget
from tools.runtime.sessions.sessions import Caller, Session, SessionNotFound, quota_reached
from tools.runtime.state.lease import SessionMoved, StateUnavailable, unavailable
from tools.runtime.state.statestore import StoreDown


def quota_key(quota) -> str:
    """A caller's quota (``Caller.quota``, a list once through a snapshot) as the store names it."""
    return json.dumps(list(quota), separators=(",", ":"))


class SharedQuota:
    """Callers' quotas counted in the store (a part of ``Durable``)."""

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
