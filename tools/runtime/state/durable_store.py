"""The session store of a durable worker (``--state``): a named session is taken through its lease
(tools/runtime/state/takeover.py); sessions being replayed are found apart."""
from __future__ import annotations

import logging
import re

from tools.runtime.sessions.sessions import Session, SessionStore, _not_found, caller_of, session_key
from tools.runtime.state.journal import _replaying
from tools.runtime.state.lease import moved, unavailable
from tools.runtime.state.statestore import StoreDown

log = logging.getLogger("ooxml_mcp")
_ROUTABLE = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def routed_id(sid: str, worker_id: str) -> str:
    """The session ID with its home worker appended, when the worker ID is a plain name."""
    return f"{sid}.{worker_id}" if _ROUTABLE.fullmatch(worker_id) else sid



class DurableStore(SessionStore):
    """The session store of a durable worker: a named session is taken through its lease."""

    def __init__(self, durable, per_owner: int, total: int):  # durable: the worker's Durable (state/durable.py)
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
