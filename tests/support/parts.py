"""The bytes of every part of a session's document, as the server holds it (not as saved)."""
from __future__ import annotations


def part_bytes(services, session_id: str) -> dict[str, bytes]:
    """Each part's bytes: its tree serialised when parsed (a change not yet saved shows), else as read."""
    from ooxml.xml.safexml import serialize
    session = next(s for s in services.sessions.all() if s.id == session_id)
    with session.lock:  # never read while a call (a late one too) is changing it
        parts = session.doc.package.parts
        return {name: serialize(part.tree, part.head) if part.loaded else part.data
                for name, part in parts.items()}
