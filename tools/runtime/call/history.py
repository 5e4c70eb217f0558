"""Tool calls as undo steps: start recording when a call first uses a session, end it with the call.

The records themselves live in ooxml/model/history.py; this module adds what only the server knows:
the tool and its arguments (for docx_get_history) and the session's cursor and special IDs.
"""
from __future__ import annotations

import json
import logging
from dataclasses import replace

from tools.runtime.sessions.limits import undo_limits

log = logging.getLogger("ooxml_mcp")

NOT_RECORDED = {"docx_undo", "docx_redo"}  # they move through the history, they are no steps
SHORT = 40  # characters of one argument shown in the history


def begin(ctx, session) -> None:
    """Called when a call first uses ``session`` (tools/docx/common.session_of does the check)."""
    session.doc.history.begin(undo_limits())
    states = getattr(ctx, "recorded_states", None)
    if states is None:
        states = ctx.recorded_states = {}
    states[id(session)] = state_of(session)


def commit(ctx, tool_name: str, arguments: dict) -> None:
    """A call succeeded: what it changed in each session becomes one step there."""
    from tools.runtime.sessions.overrun import may_commit
    may_commit(ctx)  # not once dispatch answered LimitExceeded for it: then it is put back instead
    ctx.put_backs = []
    if not ctx.touched:
        return
    states = getattr(ctx, "recorded_states", {})
    for session in ctx.touched if len(ctx.touched) == 1 else _unique(ctx.touched):
        history = session.doc.history
        if tool_name in NOT_RECORDED:
            history.abandon()
            continue
        before = states.get(id(session))
        if history.changed_blocks():  # only changed or removed blocks can leave links or fallbacks behind
            _drop_unused_links(session)
            _drop_lost_notes(session)
            _drop_stale_fallbacks(session)
        dropped = history.dropped
        try:
            history.commit(tool_name, label(tool_name, arguments), before, state_of(session))
            if history.dropped > dropped and not dropped:  # once a session: past the limit every call drops one
                log.warning("undo: the oldest %d step(s) of %s were dropped to stay within the undo limits; "
                            "they can no longer be undone", history.dropped - dropped, session.id)
        except Exception:  # a bug here must not turn a done edit into an error: forget the history
            log.exception("undo history of %s lost after %s", session.id, tool_name)
            history.clear()
            if history.check:  # OOXML_MCP_CHECK_UNDO=1 (tests): such a bug fails the call
                raise


def _drop_unused_links(session) -> None:
    """Hyperlink relationships the call left unreferenced go, inside the call's step (undo puts them back)."""
    from ooxml.refs.link_rels import drop_unused
    try:
        drop_unused(session.doc)
    except Exception:  # tidying must not turn a done edit into an error
        log.exception("unused hyperlink relationships of %s not removed after the call", session.id)


def _drop_lost_notes(session) -> None:
    """Notes whose reference the call removed go with it, inside the call's step (ooxml/text/lost_notes.py)."""
    from ooxml.text.lost_notes import drop_lost
    try:
        drop_lost(session.doc)
    except Exception:  # tidying must not turn a done edit into an error
        log.exception("notes left without a reference in %s not removed after the call", session.id)


def _drop_stale_fallbacks(session) -> None:
    """Text box fallbacks an edit left out of step go, inside the call's step (ooxml/text/alt_content.py)."""
    from ooxml.text.alt_content import drop_stale_fallbacks
    try:
        drop_stale_fallbacks(session.doc)
    except Exception:  # tidying must not turn a done edit into an error
        log.exception("stale text box fallbacks of %s not removed after the call", session.id)


def on_abandon(ctx, put_back) -> None:
    """``put_back()`` if the call fails after all: for what it changed outside the recorder (undo and
    redo move whole steps; a commit refused past the time limit must move them back)."""
    ctx.put_backs = getattr(ctx, "put_backs", []) + [put_back]


def abandon(ctx) -> None:
    """A call failed: whatever it changed is put back (the cursor too: a commit refused after the
    tool ran, tools/runtime/sessions/overrun.py, comes after the tool moved it), nothing is recorded."""
    put_backs, ctx.put_backs = getattr(ctx, "put_backs", []), []
    for put_back in reversed(put_backs):
        try:
            put_back()
        except Exception:
            log.exception("could not put back what a failed undo or redo moved")
    for session in _unique(ctx.touched):
        try:
            session.doc.history.abandon()
            restore_state(session, getattr(ctx, "recorded_states", {}).get(id(session)))
        except Exception:  # the call's own error is what the agent must see
            log.exception("could not put back what a failed call changed in %s", session.id)
            session.doc.history.clear()


def restore_state(session, state) -> None:
    if state is not None:
        cursor, session.last_insert, session.last_update, tracking = state
        session.cursor = replace(cursor)
        _set_tracking(session.doc, tracking)


def state_of(session):
    # Tracking is part of the state: undoing docx_set_track_changes turns it back, with settings.xml.
    tracker = getattr(session.doc, "tracker", None)
    cursor = session.cursor
    return (type(cursor)(cursor.element_id, cursor.place), session.last_insert, session.last_update,
            getattr(tracker, "author", None))


def _set_tracking(doc, author: str | None) -> None:
    from ooxml.review.revisions import Tracker
    current = getattr(doc.tracker, "author", None)
    if author != current:
        doc.tracker = Tracker(author) if author is not None else None


def label(tool_name: str, arguments: dict) -> str:
    parts = []
    for key, value in arguments.items():
        if key == "session_id" or value is None:
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        text = " ".join(str(text).split())
        if len(text) > SHORT:
            text = text[:SHORT - 1] + "…"
        parts.append(f"{key}={text!r}" if isinstance(value, str) else f"{key}={text}")
    return ", ".join(parts)


def _unique(sessions) -> list:
    seen, out = set(), []
    for s in sessions:
        if id(s) not in seen:
            seen.add(id(s))
            out.append(s)
    return out
