"""IDs as an agent passes them: noise after the ID trimmed, special IDs (last_insert, last_update,
cursor) read from the session. Shared by the tools (tools/docx/common.py) and MCP resources."""
from __future__ import annotations

from lxml import etree

from ooxml.xml.errors import OoxmlError
from tools.runtime.sessions.sessions import Session

SPECIAL = ("last_insert", "last_update", "cursor", "current")


class SpecialIDNotAvailable(OoxmlError):
    error_type = "SpecialIDNotAvailable"


def clean_id(raw: str) -> str:
    """``'para_3f9a2c (Heading 1)'`` -> ``'para_3f9a2c'``: agents add noise after IDs."""
    token = (raw or "").strip().split()
    return token[0].strip(",;.") if token else ""


def resolve_special(session: Session, name: str) -> str:
    if name == "last_insert":
        if not session.last_insert:
            raise SpecialIDNotAvailable("Special ID 'last_insert' not available: no insert operation in this session",
                                        hint="Insert something first, or use an explicit element ID.")
        return session.last_insert
    if name == "last_update":
        if not session.last_update:
            raise SpecialIDNotAvailable("Special ID 'last_update' not available: no update operation in this session",
                                        hint="Update something first, or use an explicit element ID.")
        return session.last_update
    if session.cursor.element_id is None:
        raise SpecialIDNotAvailable(f"Special ID '{name}' not available: cursor not initialized",
                                    hint="Move the cursor with docx_cursor_move or insert an element first.")
    return session.cursor.element_id


def resolve(session: Session, raw: str, arg: str = "element_id", clean: bool = True) -> etree._Element:
    """An element from an ID, a special ID or an ID with trailing noise (``clean``: not trimmed yet)."""
    token = clean_id(raw) if clean else raw
    if not token:
        raise OoxmlError(f"{arg} is empty.", hint="Pass an element ID such as para_3f9a2c.",
                         error_type="ValidationError")
    if token.lower() in SPECIAL:
        token = resolve_special(session, token.lower())
    return session.doc.find(token)
