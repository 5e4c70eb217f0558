"""The journal: every successful call that changed a session (a mutating tool, or any tool that minted
IDs or moved the cursor) is appended, fenced by the lease, BEFORE its answer is sent: tool,
arguments, the random values it minted (ooxml/xml/minting.py) and its time (ooxml/xml/clock.py).
A call whose entry cannot be written answers an error and the worker drops its copy.

Recovery = the snapshot, then each journal entry run again through the same tool code with its
minted values and time pinned. ``Journal`` is a part of ``Durable`` (tools/runtime/state/durable.py).
"""
from __future__ import annotations

import json
import logging
import time
from contextvars import ContextVar
from datetime import datetime, timezone

from ooxml.xml import clock
from ooxml.xml import minting
from ooxml.xml.errors import OoxmlError
from render.answer import Answer
from tools.runtime.call import history
from tools.runtime.call.registry import CallContext
from tools.runtime.sessions.sessions import Caller, Session, _not_found
from tools.runtime.state import snapshots
from tools.runtime.state.lease import Held, epoch_of, moved
from tools.runtime.state.statestore import Fenced

log = logging.getLogger("ooxml_mcp")
_replaying: ContextVar[bool] = ContextVar("ooxml_replaying", default=False)


def replaying() -> bool:
    """Whether the running call is a journal entry run again in recovery: a tool that writes a file
    besides the document (docx_export_markdown) must not write it again."""
    return _replaying.get()


def signature(session: Session) -> tuple:
    """What a read-only call may change besides the XML: then it is journaled too (docx_inspect's
    find= records the leak warning docx_save repeats)."""
    c = session.cursor
    return (c.element_id, c.place, session.last_insert, session.last_update, tuple(session.leaks.items()))


class Journal:
    """The tool-call path: run, journal, recover by replay (a part of ``Durable``)."""

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
