"""Session tools: open, create, save, close, list (SPEC §2)."""
from __future__ import annotations

import logging
import os
from collections import Counter
from typing import Literal

from ooxml.model.document import Document
from ooxml.xml.errors import OoxmlError
from ooxml.text import body as B
from ooxml.opc.filekinds import check_save_name
from ooxml.model.integrity import check_package, summarize, unreadable_parts
from ooxml.opc.package import DEFAULT_LIMITS
from render.answer import success_answer
from tools.docx.common import answer, session_of
from ooxml.model.insertion import last_block
from tools.docx.common import drop_session, start_session, tracking_from_settings
from tools.office.open_formats import converted_document, converted_object, converts
from tools.runtime.call.registry import CallContext, tool
from tools.runtime.sessions import memory
from tools.runtime.sessions.recovery import recovery_note
from tools.runtime.sessions.sandbox import folder_check, object_target, resolve_in_roots, resolve_save_target
from tools.storage.objects import check_name, check_tenant, open_object, open_url, save_object, storage_section
from tools.runtime.sessions.sessions import Cursor

log = logging.getLogger("ooxml_mcp")  # warnings reach the client as notifications/message (runtime/protocol/notices.py)


@tool(read_only=False, idempotent=False, title="Open a Word document", long_running=True, kind="session")
def docx_open(ctx: CallContext, file_path: str | None = None, view: Literal["full", "compact", "none"] | None = None,
              url: str | None = None) -> str:
    """Open a .docx (or .doc, .dot, .rtf, .odt, .wpd, converted) in a new editing session.

    Args:
        url: https:// URL instead of file_path (hosts the operator allows).
    """
    if (file_path is None) == (url is None):
        raise OoxmlError("Pass exactly one of file_path and url.", error_type="ValidationError",
                         hint="file_path for a file in the roots, url for an https:// document.")
    if url is not None:
        return _opened(ctx, start_session(ctx, open_url(ctx, url), None, view), url, None)
    location = object_target(file_path, ctx.services.roots)
    if location is not None:
        check_tenant(ctx, location)
        if converts(location):  # saved beside the original as .docx, never over it
            limits = getattr(ctx.services.config, "document_limits", None) or DEFAULT_LIMITS
            doc, beside, converted = converted_object(ctx, location, limits, storage_section(ctx))
            return _opened(ctx, start_session(ctx, doc, beside, view), location, None, converted)
        return _opened(ctx, start_session(ctx, open_object(ctx, location), location, view), location, recovery_note)
    path = resolve_in_roots(file_path, ctx.services.roots, must_exist=True)
    check_tenant(ctx, path)
    limits = getattr(ctx.services.config, "document_limits", None) or DEFAULT_LIMITS
    if converts(path):  # saved beside the original as .docx, never over it
        doc, converted = converted_document(ctx, path, limits)
        return _opened(ctx, start_session(ctx, doc, path.with_suffix(".docx"), view), path, None, converted)
    session = start_session(ctx, Document.open(path, limits), path, view)
    return _opened(ctx, session, path, recovery_note)


def _opened(ctx, session, path, note_of, converted: str | None = None) -> str:
    try:
        session.opened_from = None if isinstance(path, str) else path  # a URL: nothing to read again
        doc = session.doc
        session.read_sha256 = _read_sha(doc, path)
        last = last_block(doc.body)
        if last is not None:
            session.cursor = Cursor(doc.id_of(last), "after")
        blocks = doc.block_count(doc.body)
        fields = {"Session ID": session.id, "File": str(path), "Converted": converted, "Blocks": blocks,
                  "Recovered": note_of and note_of(ctx.services, path, _read_sha(doc, path)),
                  "Ended": session.made_room}
        if fields["Recovered"]:
            log.warning("%s: %s", path, fields["Recovered"])
        damaged = unreadable_parts(doc)
        if damaged:
            fields["Warning"] = damaged_note(damaged, "a save copies them unchanged")
            log.warning("%s: %s", path, fields["Warning"])
        author = tracking_from_settings(ctx, doc)
        if author is not None:
            fields["Tracking"] = f"on (the file's Track Changes setting), author '{author}'"
        # The first page, where a reader starts; the cursor stays after the last block (SPEC §5).
        first = next(B.iter_blocks(doc.body), None)
        return answer(session, "Open Document", first, fields=fields, head_id=False)
    except BaseException:
        drop_session(ctx, session)  # a failed open leaves no session behind (nor the file held)
        raise


def _read_sha(doc, path) -> str | None:
    if isinstance(path, str):
        return None  # a URL
    stamp = doc.package.stamps.get(os.path.realpath(path) if isinstance(path, os.PathLike) else path.url)
    return stamp.sha256 if stamp else None


@tool(title="Create a new Word document", kind="session")
def docx_create(ctx: CallContext, file_path: str | None = None,
                view: Literal["full", "compact", "none"] | None = None) -> str:
    """Start a session on a new empty document.

    Args:
        file_path: Default path for docx_save.
    """
    location = object_target(file_path, ctx.services.roots)
    path = location or (resolve_save_target(file_path, ctx.services.roots) if file_path else None)
    doc = Document.create()
    if location is not None:
        check_name(location, doc)
    elif path is not None:  # refused now rather than at the first save
        check_save_name(path, doc.package.content_type_of(doc.main_name))
    session = start_session(ctx, doc, path, view)
    fields = {"Session ID": session.id, "File": str(path) if path else "(not saved yet)", "Ended": session.made_room}
    return answer(session, "Create Document", None, fields=fields)


@tool(idempotent=True, context=False, title="Save the document", kind="session")
def docx_save(ctx: CallContext, session_id: str | None, file_path: str | None = None, strip_ids: bool = False,
              overwrite: bool = False) -> str:
    """Save atomically (temp file, rename); answers the SHA-256 of the file read and of the one written.

    Args:
        file_path: Default: where it was opened or created.
        strip_ids: Write without this server's element IDs.
        overwrite: Write even over another writer's changes (lost).
    """
    session = session_of(ctx, session_id)
    if not file_path and session.path is None:
        from ooxml.xml.errors import OoxmlError
        raise OoxmlError("This document has no file path yet.", hint="Pass file_path, e.g. 'report.docx'.",
                         error_type="ValidationError")
    # Resolved again on every save: a folder on the way may have become a symlink since open.
    location = object_target(file_path or str(session.path), ctx.services.roots)
    path = location or resolve_save_target(file_path or str(session.path), ctx.services.roots)
    check_tenant(ctx, path)
    doc = session.doc
    if location is None:
        check_save_name(path, doc.package.content_type_of(doc.main_name))
    new_problems = integrity_news(session)
    if new_problems:
        log.warning("%s saved with %d integrity problem(s) the original did not have: %s", path.name,
                    len(new_problems), "; ".join(summarize(new_problems)[:3]))
    leak = None
    if session.leaks:  # checked again before writing (a check may run out of time: then nothing is written)
        from ooxml.privacy.known_leaks import recheck
        leak = recheck(session.leaks, doc.package)
    if location is not None:
        size = save_object(ctx, doc, location, strip=strip_ids, overwrite=overwrite)
        written = doc.package.stamps[location.url].sha256
    else:
        written = doc.save(path, strip=strip_ids, overwrite=overwrite, check_dir=folder_check(ctx.services.roots)).sha256
        size = path.stat().st_size
    if session.path is None or file_path:
        session.path = path
    fields = {"Session ID": session.id, "File": str(path), "Size": f"{size} bytes",
              "Read SHA": session.read_sha256 or "none (not opened from a file)", "Written SHA": written,
              "IDs": "stripped" if strip_ids else "kept",
              "Integrity": "ok" if not new_problems else
              f"{len(new_problems)} problem(s) the original did not have: " + "; ".join(summarize(new_problems)[:3])}
    damaged = unreadable_parts(doc)
    if damaged:
        fields["Integrity"] = damaged_note(damaged, "copied unchanged") + \
            ("" if not new_problems else "; and " + fields["Integrity"])
    if leak:  # a secret a leak check found is still there (privacy.py)
        fields["Leak Check"] = leak
    return success_answer("Save Document", fields=fields)


def damaged_note(damaged: list[str], what_happens: str) -> str:
    return (f"warning: {len(damaged)} part(s) of the original are damaged ({'; '.join(damaged[:3])}"
            f"{' …' if len(damaged) > 3 else ''}), {what_happens}: Word may refuse or repair the file")


def integrity_news(session) -> list[str]:
    """Integrity problems (ooxml/model/integrity.py) that the document did not have when opened.

    The original's problems are computed only when there are problems now, from the copy of the
    file the session took at open (the file on disk may have changed since), so a clean document
    pays for one check per save.
    """
    problems = check_package(session.doc)
    if not problems:
        return []
    if session.baseline_problems is None:
        session.baseline_problems = []
        source = session.doc.package.source
        if source is not None:
            original = Document.from_bytes(source)
            try:
                session.baseline_problems = check_package(original)
            finally:
                original.close()
    return list((Counter(problems) - Counter(session.baseline_problems)).elements())


@tool(destructive=True, idempotent=False, context=False, title="Close a session", kind="session")
def docx_close(ctx: CallContext, session_id: str | None) -> str:
    """Close a session; unsaved changes are lost (the answer says so)."""
    session = session_of(ctx, session_id)
    ctx.services.sessions.discard(session)
    unsaved = session.doc.modified
    session.doc.close()
    session.doc.free_trees()  # the tree's memory is this call's to free, not the next open's
    memory.consolidate()
    fields = {"Session ID": session.id, "File": str(session.path) if session.path else "(never saved)",
              "Unsaved Changes": "yes, discarded" if unsaved else "none"}
    return success_answer("Close Document", fields=fields)


@tool(read_only=True, idempotent=True, title="List open sessions")
def docx_list_sessions(ctx: CallContext) -> str:
    """List open sessions: files and unsaved state."""
    sessions = ctx.services.sessions.list(ctx.caller)
    lines = ["| Session ID | File | Unsaved changes |", "|---|---|---|"]
    for s in sessions:
        lines.append(f"| {s.id} | {s.path or '(new document)'} | {'yes' if s.doc.modified else 'no'} |")
    content = "\n".join(lines) if sessions else "No session is open. Use docx_open or docx_create."
    if ctx.caller.anonymous:
        content = ("Sessions are not listed over HTTP without a tenant: nobody can tell whose they are. "
                   "Use the Session ID from the answer of docx_open or docx_create.")
    return success_answer("List Sessions", fields={"Sessions": len(sessions)}, content=content)
