"""Open documents, who owns them, their cursor and the special IDs (SPEC §2, §5).

A session belongs to the caller that opened it (``Caller.owner``): on stdio the one client
(its tenant), over Streamable HTTP the tenant plus the MCP session (``Mcp-Session-Id``) of a
2025-11-25 client, or the tenant alone for a 2026-07-28 client, which has no MCP session.
Nobody else can list, use or reach it by leaving out ``session_id``. Session IDs carry 96
random bits, so an ID is the proof of access for HTTP clients without any identity.

The store is shared by worker threads (tool handlers run off the event loop): its dicts are
guarded by one lock; a session's document by the session's own lock (see ``claim``).
"""
from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ooxml.xml.errors import LimitExceeded, OoxmlError, ValidationError
from tools.runtime.sessions.limits import DEFAULT_RUNTIME_LIMITS

if TYPE_CHECKING:  # the document model (lxml) loads at the first document, not before initialize
    from ooxml.model.document import Document

CURSOR_PLACES = ("before", "after", "inside_start", "inside_end")
MAX_SESSIONS_PER_OWNER = DEFAULT_RUNTIME_LIMITS.max_sessions
MAX_SESSIONS_TOTAL = DEFAULT_RUNTIME_LIMITS.max_sessions_total  # limits.max_sessions_total


class SessionNotFound(OoxmlError):
    error_type = "SessionNotFound"


class QuotaReached(LimitExceeded):
    """The caller has as many sessions as it may (tools/runtime/sessions/quotas.py may make room)."""


@dataclass(frozen=True)
class Caller:
    """Who makes a call. ``http`` without tenant and MCP session means: nobody we can name."""

    tenant: str | None = None
    mcp_session: str | None = None
    http: bool = False
    address: str | None = None  # HTTP: where it calls from (tools/transport/client_address.py)

    @property
    def owner(self) -> tuple[str | None, str | None]:
        return self.tenant, self.mcp_session

    @property
    def quota(self) -> tuple:
        """Whose session quota a new session counts against: the owner, or for anonymous clients
        (nothing else to tell them apart) their source address."""
        return ("address", self.address) if self.anonymous else self.owner

    @property
    def untrusted(self) -> bool:
        """No tenant over HTTP: the smaller quota (limits.max_sessions_anonymous)."""
        return self.http and self.tenant is None

    @property
    def anonymous(self) -> bool:
        return self.http and self.tenant is None and self.mcp_session is None


def caller_of(who: Caller | str | None) -> Caller:
    """Older call sites (and tests) pass a tenant: that is a stdio caller."""
    return who if isinstance(who, Caller) else Caller(tenant=who)


@dataclass
class Cursor:
    element_id: str | None = None  # None: at the start of an empty body
    place: str = "after"


@dataclass
class Session:
    id: str
    doc: Document
    path: Path | None
    tenant: str | None
    cursor: Cursor = field(default_factory=Cursor)
    last_insert: str | None = None
    last_update: str | None = None
    opened_at: float = field(default_factory=time.time)
    opened_from: Path | None = None  # the file docx_open read (baseline for integrity checks)
    baseline_problems: list[str] | None = None  # integrity problems the original already had
    read_sha256: str | None = None  # SHA-256 of the file docx_open read (docx_save reports it)
    owner: tuple[str | None, str | None] = (None, None)
    quota: tuple = ()  # Caller.quota of the caller that opened it
    made_room: str | None = None  # the answer's note when opening it ended an idle session of the caller
    view: str | None = None  # answer view of editing calls (docx_open/docx_create view=; render/views.py)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    last_used: float = field(default_factory=time.monotonic)
    ended: bool = False  # removed from the store: a call that waited for the lock must not go on
    unreplayed: list | None = None  # --state: acknowledged calls a take-over could not replay (told once)
    overrun: bool = False  # a call past its deadline still holds the lock (tools/runtime/sessions/overrun.py)
    # secret (a matcher's spec as JSON) -> its last failed leak check, None once one passed: docx_save
    # checks them all again and repeats what fails (ooxml/privacy/known_leaks.py)
    leaks: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.path.name if self.path else "(new document)"


def new_session_id() -> str:
    return "doc_" + secrets.token_hex(12)  # 96 random bits: unguessable, so naming one proves access


def session_key(raw) -> str | None:
    """THE reading of a ``session_id`` argument, wherever one is read (the store, the in-flight count,
    a batch's calls): None when left out, else the ID without what agents add after it
    (``"doc_1 (report)"`` -> ``"doc_1"``). Blank or not a string: ValidationError."""
    if raw is None or raw == "":
        return None
    token = raw.split()[0].strip(",;.") if isinstance(raw, str) and raw.split() else ""
    if not token:
        raise ValidationError("session_id is blank." if isinstance(raw, str) else "session_id is not a string.",
                              hint="Pass the Session ID from the answer of docx_open or docx_create, "
                                   "e.g. doc_3f9a…, or leave session_id out.")
    return token


def quota_reached(open_now: int, key: str) -> QuotaReached:
    return QuotaReached(f"{open_now} sessions are open, the limit per client ({key}).",
                        hint="Close sessions you no longer need with docx_close (idle sessions "
                             "end by themselves after the idle timeout).")


def _not_found(sid: str) -> SessionNotFound:
    # The same answer whether the session does not exist or belongs to someone else: no oracle.
    return SessionNotFound(f"Session '{sid[:80]}' not found",
                           hint="It may have been closed or have ended (idle too long, or its MCP session "
                                "ended); docx_open the file again.")


class SessionStore:
    def __init__(self, per_owner: int = MAX_SESSIONS_PER_OWNER, total: int = MAX_SESSIONS_TOTAL):
        self._sessions: dict[str, Session] = {}
        self._guard = threading.Lock()
        self.per_owner = per_owner
        self.total = total

    def add(self, who: Caller | str | None, doc: Document, path: Path | None, per_owner: int | None = None,
            total: int | None = None, key: str = "limits.max_sessions") -> Session:
        caller = caller_of(who)
        total = total or self.total
        per_owner = per_owner or self.per_owner
        with self._guard:
            mine = sum(1 for s in self._sessions.values() if s.quota == caller.quota)
            if len(self._sessions) >= total:
                raise LimitExceeded(f"{len(self._sessions)} sessions are open on this server, the limit in all "
                                    "(limits.max_sessions_total).",
                                    hint="Close sessions you no longer need with docx_close (idle sessions end by "
                                         "themselves after the idle timeout); the operator sets "
                                         "limits.max_sessions_total in the config.")
            if mine >= per_owner:
                raise quota_reached(mine, key)
            session = Session(self.new_id(), doc, path, caller.tenant, owner=caller.owner, quota=caller.quota)
            self._sessions[session.id] = session
        return session

    def new_id(self) -> str:
        return new_session_id()

    def get(self, who: Caller | str | None, session_id: str | None) -> Session:
        caller = who if type(who) is Caller else caller_of(who)
        sid = session_key(session_id)
        if sid is None:
            return self._the_only_one(caller)
        with self._guard:
            session = self._sessions.get(sid)
        if session is None or session.owner != caller.owner:
            raise _not_found(sid)
        return session

    def _the_only_one(self, caller: Caller) -> Session:
        if caller.anonymous:
            raise ValidationError("session_id is required over HTTP without a tenant: sessions are not shared "
                                  "by leaving it out.",
                                  hint="Pass the Session ID from the answer of docx_open or docx_create.")
        mine = self.list(caller)
        if len(mine) == 1:
            return mine[0]
        raise SessionNotFound(
            "session_id is required when " + ("no session is open." if not mine else f"{len(mine)} sessions are open."),
            hint="Open a document with docx_open or docx_create; docx_list_sessions lists open sessions.")

    def remove(self, who: Caller | str | None, session_id: str) -> Session:
        session = self.get(who, session_id)
        self.discard(session)
        return session

    def discard(self, session: Session) -> bool:
        """Forget a session (whoever owns it); False when it was already gone."""
        with self._guard:
            gone = self._sessions.pop(session.id, None) is not None
        session.ended = True
        return gone

    def list(self, who: Caller | str | None) -> list[Session]:
        caller = caller_of(who)
        if caller.anonymous:
            return []  # no identity, nothing of "yours" to list
        with self._guard:
            return [s for s in self._sessions.values() if s.owner == caller.owner]

    def all(self) -> list[Session]:
        with self._guard:
            return list(self._sessions.values())

    def of_mcp_session(self, mcp_session: str) -> list[Session]:
        with self._guard:
            return [s for s in self._sessions.values() if s.owner[1] == mcp_session]
