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


def assert_same_package(a, b) -> None:
    """Two saved files hold the same parts, in the same order, byte for byte (an undo, a refused call)."""
    import zipfile
    with zipfile.ZipFile(a) as za, zipfile.ZipFile(b) as zb:
        assert za.namelist() == zb.namelist()
        for name in za.namelist():
            assert za.read(name) == zb.read(name), name
