"""Open documents, their cursor and the special IDs (SPEC §2, §5)."""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from ooxml.document import Document
from ooxml.errors import OoxmlError

CURSOR_PLACES = ("before", "after", "inside_start", "inside_end")
MAX_SESSIONS_PER_TENANT = 64


class SessionNotFound(OoxmlError):
    error_type = "SessionNotFound"


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

    @property
    def label(self) -> str:
        return self.path.name if self.path else "(new document)"


class SessionStore:
    """Sessions by tenant: a tenant never sees another tenant's sessions."""

    def __init__(self):
        self._by_tenant: dict[str | None, dict[str, Session]] = {}

    def add(self, tenant: str | None, doc: Document, path: Path | None) -> Session:
        mine = self._by_tenant.setdefault(tenant, {})
        if len(mine) >= MAX_SESSIONS_PER_TENANT:
            raise OoxmlError(f"{len(mine)} sessions are open, the limit per tenant.",
                             hint="Close sessions you no longer need with docx_close.",
                             error_type="LimitExceeded")
        sid = "doc_" + secrets.token_hex(4)
        session = mine[sid] = Session(sid, doc, path, tenant)
        return session

    def get(self, tenant: str | None, session_id: str | None) -> Session:
        mine = self._by_tenant.get(tenant, {})
        if not session_id:
            if len(mine) == 1:
                return next(iter(mine.values()))
            raise SessionNotFound(
                "session_id is required when " + ("no session is open." if not mine else f"{len(mine)} sessions are open."),
                hint="Open a document with docx_open or docx_create; docx_list_sessions lists open sessions.")
        sid = session_id.split()[0]
        if sid not in mine:
            raise SessionNotFound(f"Session '{sid}' not found",
                                  hint="It may have been closed; docx_list_sessions lists open sessions.")
        return mine[sid]

    def remove(self, tenant: str | None, session_id: str) -> Session:
        session = self.get(tenant, session_id)
        del self._by_tenant[tenant][session.id]
        return session

    def list(self, tenant: str | None) -> list[Session]:
        return list(self._by_tenant.get(tenant, {}).values())
