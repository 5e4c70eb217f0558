"""Each caller its own quota of open document sessions, so no client can lock out the others.

A caller's quota (``Caller.quota``) is per tenant (sessionless clients of a tenant), per MCP
session (2025-11-25 clients), or per source address for anonymous sessionless clients
(tools/transport/client_address.py: behind trusted proxies, the forwarded one). Clients without a
tenant over HTTP get ``limits.max_sessions_anonymous``, the others ``limits.max_sessions``.
A caller at its quota that opens another session ends its own session idle the longest (with a
recovery file of its unsaved changes, as the idle reaper does); only when every one of them is
busy is the new one refused. ``limits.max_sessions_total`` still bounds everyone together.
With ``--state`` the quota is shared by every worker (counted in the store, tools/runtime/state/durable.py
``join_quota``): the session idle the longest may be on another worker, which lets it go when idle.
"""
from __future__ import annotations

from tools.runtime.sessions.lifetime import end_session
from tools.runtime.sessions.sessions import Caller, QuotaReached, Session


def limit_of(caller: Caller, limits) -> tuple[int, str]:
    """The caller's quota and the config key that sets it."""
    if caller.untrusted:
        return limits.max_sessions_anonymous, "limits.max_sessions_anonymous"
    return limits.max_sessions, "limits.max_sessions"


def add_session(ctx, doc, path) -> Session:
    """A new session of the caller, after ending its longest-idle one if it is at its quota."""
    services, caller = ctx.services, ctx.caller
    limits = services.limits
    quota, key = limit_of(caller, limits)

    def add() -> Session:
        return services.sessions.add(caller, doc, path, per_owner=quota, total=limits.max_sessions_total, key=key)
    try:
        return add()
    except QuotaReached:
        ended = end_longest_idle(services, caller, ctx.claimed, f"its client opened more than {quota} sessions "
                                 f"({key}) and this one was idle the longest")
        if ended is None:
            raise
    session = add()
    session.made_room = ended
    return session


def end_longest_idle(services, caller: Caller, busy: list, reason: str) -> str | None:
    """End the caller's session unused the longest that no call holds; what the answer says of it."""
    for session in _longest_idle_first(services, caller, busy):
        if not session.lock.acquire(blocking=False):
            continue  # a call is under way on it
        try:
            if session.ended:
                continue
            recovery = end_session(services, session, reason)
        finally:
            session.lock.release()
        kept = f"; its unsaved changes are in {recovery}" if recovery else ""
        return f"{session.id} ({session.label}), idle the longest, ended to stay within your session limit{kept}"
    return None


def _longest_idle_first(services, caller: Caller, busy: list):
    durable = getattr(services, "state", None)
    if durable is not None:  # --state: its sessions on every worker, each taken here when reached
        return durable.quota_sessions(caller, busy)
    return sorted((s for s in services.sessions.all() if s.quota == caller.quota and s not in busy),
                  key=lambda s: s.last_used)
