"""Taking a session over: a call on a session this worker does not hold takes the lease when it is
free (recovering the session from the store when the local copy, if any, is behind) or answers
``SessionMoved``; a new MCP session of the same tenant adopts a session whose MCP session ended,
so which MCP sessions live is shared in the store (with the worker's heartbeat).

``TakeOver`` is a part of ``Durable`` (tools/runtime/state/durable.py).
"""
from __future__ import annotations

import logging
import time

from tools.runtime.sessions.sessions import Caller, Session, SessionStore, _not_found
from tools.runtime.state.journal import session_head, signature
from tools.runtime.state.lease import Held, epoch_of, moved
from tools.runtime.state.quota import quota_key

log = logging.getLogger("ooxml_mcp")

MCP_KEY_TTL_S = 300  # oxm:mcp:<id> (refreshed every MCP_REFRESH_S while the MCP session lives)
MCP_REFRESH_S = 60.0
# A worker's MCP sessions count as ended this many leases after its last heartbeat (sent with every
# round of renewals, three a lease): they go with its leases, so a new MCP session adopts a dead
# worker's sessions as soon as another worker could take them (issue 29: a 10 s TTL made failover
# 10 s). Half a lease more than the leases: a renewer late by a beat loses neither.
HEARTBEAT_LEASES = 1.5


class TakeOver:
    """Taking a session and adopting it; live MCP sessions shared (a part of ``Durable``)."""

    def take(self, store: SessionStore, caller: Caller, sid: str) -> Session:
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
