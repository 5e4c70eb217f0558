"""docx_compare: two versions of a document into a tracked-changes redline (SPEC §11)."""
from __future__ import annotations

from ooxml.review import review_ops as RO
from ooxml.compare import run, sides, views
from ooxml.compare.paragraphs import Options
from ooxml.xml.errors import InvalidDocument, ValidationError
from ooxml.opc.package import DEFAULT_LIMITS, Package
from tools.docx.common import answer, session_of
from tools.docx.common import default_author, drop_session, start_session
from tools.runtime.call.registry import CallContext, tool
from tools.storage.objects import check_tenant, storage_section
from tools.runtime.sessions.sandbox import object_target, resolve_in_roots
from tools.storage.documents import open_document
from tools.runtime.sessions.sessions import Cursor

_KINDS = ("insertions", "deletions", "moves", "formatting changes", "table changes")


@tool(toolset="review", read_only=True, idempotent=False, title="Compare two documents into a redline",
      long_running=True, context=True)  # read-only: it changes no document or file (the redline is a new
# session); context: it answers with the redline's first change, so it takes a view (compact: the counts)
def docx_compare(ctx: CallContext, original_path: str | None = None, revised_path: str | None = None,
                 session_id: str | None = None, author: str | None = None, granularity: str = "word",
                 detect_moves: bool = False, ignore_formatting: bool = False,
                 existing_revisions: str = "accept") -> str:
    """New session with a redline of the revised version: both paths; or session_id (revised) with original_path,
    or alone (vs. as opened).

    Args:
        granularity: word or character.
        ignore_formatting: Text changes only.
        existing_revisions: accept: as if accepted; refuse: error.
    """
    _check(original_path, revised_path, session_id, granularity, existing_revisions)
    opts = Options(granularity, formatting=not ignore_formatting, moves=detect_moves)
    result, made = _redline(ctx, original_path, revised_path, session_id, existing_revisions, opts, author)
    session = start_session(ctx, made, None)
    try:
        return _answer(session, result)
    except BaseException:
        drop_session(ctx, session)
        raise


def _redline(ctx, original_path, revised_path, session_id, existing_revisions, opts, author):
    pkg_a, pkg_b = _inputs(ctx, original_path, revised_path, session_id)
    return run.compare(pkg_a, pkg_b, default_author(ctx, author), opts,
                       lambda doc: _revisions_policy(doc, existing_revisions))


def _check(original_path, revised_path, session_id, granularity, existing_revisions) -> None:
    if granularity not in ("word", "character"):
        raise ValidationError(f"granularity '{granularity}' is not 'word' or 'character'.",
                              hint='Pass granularity="word" (default) or "character".')
    if existing_revisions not in ("accept", "refuse"):
        raise ValidationError(f"existing_revisions '{existing_revisions}' is not 'accept' or 'refuse'.",
                              hint='Pass existing_revisions="accept" (default) or "refuse".')
    if session_id is None and not (original_path and revised_path):
        raise ValidationError("Nothing to compare: give original_path and revised_path, or a session_id.",
                              hint="docx_compare(original_path='v1.docx', revised_path='v2.docx'), or "
                                   "docx_compare(session_id=...) for the session's own edits.")
    if session_id is not None and revised_path:
        raise ValidationError("revised_path and session_id both name the revised version.",
                              hint="With session_id, the session's current state is the revised version: "
                                   "leave revised_path out.")


def _inputs(ctx, original_path, revised_path, session_id) -> tuple[Package, Package]:
    """The original and the revised document's packages, of their own (never a session's); their
    main parts are parsed only if the comparison needs it (ooxml/compare/run.py)."""
    limits = getattr(ctx.services.config, "document_limits", None) or DEFAULT_LIMITS
    if session_id is None:
        pkg_a = _read(ctx, original_path, limits, sides.ORIGINAL)
        try:
            return pkg_a, _read(ctx, revised_path, limits, sides.REVISED)
        except BaseException:
            pkg_a.close()
            raise
    session = session_of(ctx, session_id)
    if original_path:
        pkg_a = _read(ctx, original_path, limits, sides.ORIGINAL)
    else:
        pkg_a = _as_opened(session.doc)
    return pkg_a, Package.from_parts(views.part_bytes(session.doc, keep=True))


def _read(ctx, path: str, limits, side: str) -> Package:
    """A document of the roots: a file, or an object (read under the same limits)."""
    location = object_target(path, ctx.services.roots)
    if location is None:
        target = resolve_in_roots(path, ctx.services.roots, must_exist=True)
        check_tenant(ctx, target)
        with sides.about(side, target.name):
            return _checked(Package.open(target, limits))
    check_tenant(ctx, location)
    with sides.about(side, None):
        return open_document(location, limits, storage_section(ctx)).package


def _checked(pkg: Package) -> Package:
    """Every member's CRC-32 checked (as ``Document.open`` does), the main part not parsed yet."""
    try:
        pkg.main_part_name()
        pkg.verify()
    except BaseException:
        pkg.close()
        raise
    return pkg


def _as_opened(doc) -> Package:
    source = doc.package.source
    if source is not None:
        return _checked(Package.from_bytes(source))
    return Package.from_parts({name: part.original_data() for name, part in doc.package.parts.items()})


def _revisions_policy(doc, policy: str) -> None:
    if policy == "refuse":
        n = views.revision_count(doc)
        if n:
            raise InvalidDocument(f"A document to compare carries {n} tracked change(s).",
                                  hint='Accept or reject them first, or pass existing_revisions="accept" '
                                       "to compare the documents as if they were accepted.")
    else:
        views.accept_all(doc)


def _answer(session, result) -> str:
    doc = session.doc
    counts = result.counts
    total = sum(counts.values())
    fields = {"Session ID": session.id, "Changes": total, "Ended": getattr(session, "made_room", None)}
    fields.update({k.title(): counts[k] for k in _KINDS if counts[k]})
    if total and not result.matched:
        fields["Unrelated"] = "no paragraph in common: the redline deletes everything and inserts everything"
    first = _first_change(doc)
    if first is not None:
        session.cursor = Cursor(doc.id_of(first), "after")
    if total == 0:
        fields["Result"] = "no difference"
    return answer(session, "Compare Documents", first, fields=fields, head_id=False)


def _first_change(doc):
    for rev in RO.iter_revisions(doc.body):  # the first is usually early: no walk of the whole body
        block = doc.top_block(rev)
        if block is not None and block.getparent() is doc.body:
            return block
    return None
