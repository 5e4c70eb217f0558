"""Recovery files: the unsaved work of a session that ends without docx_close is always written somewhere.

- Beside the document, ``~$report.recovered.docx`` (numbered if the name is taken, by anything,
  a dangling symlink included), never over the original;
- else (the folder is read-only, renamed, gone, or outside the roots now) in the recovery folder
  (config ``recovery_folder``; default ``<first root>/.ooxml-mcp-recovered``), under
  ``~$report.<path key>.<content key>.recovered.docx``: the path key is a hash of the document's
  path, the content key one of the file as this session last read or saved it, so the next
  docx_open of that file finds it even after its folder was renamed.
- Long document names are shortened (with a hash of the whole name), never refused: every
  recovery name fits in 255 bytes.
Both go through the one file writer (``ooxml.opc.outfile``), the folder judged at write time.
"""
from __future__ import annotations

import hashlib
import itertools
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path

from ooxml.xml.errors import OoxmlError
from ooxml.opc.filekinds import extension_for
from ooxml.opc.savefile import MAX_NAME_BYTES, FileChanged
from tools.runtime.sessions.sandbox import folder_check, resolve_in_roots
from tools.storage.roots import ObjectLocation

log = logging.getLogger("ooxml_mcp")
RECOVERED = ".recovered"
FOLDER = ".ooxml-mcp-recovered"
RECOVERY_WAIT_S = 10  # docx_open waits this long at most for a recovery file being written
MAX_NUMBER = 9999  # numbered names ".2" .. ".9999" before a place is given up
_NUMBER_ROOM = len(".9999")
_IN_FOLDER = re.compile(r"^~\$.*\.([0-9a-f]{8})\.([0-9a-f]{8})\.recovered(?:\.\d+)?\.(?:docx|docm|dotx|dotm)$")
MAX_LISTED = 10_000  # entries of the recovery folder docx_open looks at
MAX_OBJECT_TRIES = 50  # recovery names tried beside an object (each a conditional put)


def recovery_folder(services) -> Path:
    configured = getattr(services.config, "recovery_folder", None)
    if configured or len(services.roots):
        return Path(configured) if configured else services.roots[0] / FOLDER
    raise OoxmlError("No recovery folder: every root is an object root and the config sets no recovery_folder.",
                     error_type="SaveFailed", hint="Set recovery_folder in the config.")


def write_recovery(services, session) -> Path | ObjectLocation:
    """Save the session's document as a recovery file; returns where. Beside it first (in its object
    store for an object), else in the recovery folder; raises only when both fail."""
    problem = None
    if isinstance(session.path, ObjectLocation):
        try:
            return _save_beside_object(services, session)
        except OoxmlError as e:
            problem = e
            log.warning("session %s: no recovery object beside %s (%s)", session.id, session.path, e)
    for folder, names in _places(services, session):
        try:
            return _save_first_free(session, folder, names, services)
        except (OoxmlError, OSError) as e:
            problem = e
            log.warning("session %s: no recovery file in %s (%s)", session.id, folder, e)
    raise problem


def recovery_note(services, path: Path | ObjectLocation, content_sha: str | None) -> str | None:
    """What docx_open says about recovery files of ``path`` (beside it or in the recovery folder)."""
    writing = services.recovering.get(path)
    if writing is not None:  # an ending session is writing one now
        writing.wait(RECOVERY_WAIT_S)
    if isinstance(path, ObjectLocation):
        return _object_note(services, path)
    found = _beside(path) + _in_recovery_folder(services, path, content_sha)
    if not found:
        return None
    known = services.recovered.get(path)
    why = f" when its session ended ({known[1]})" if known and known[0] in found else ""
    shown = [f.name if f.parent == path.parent else str(f) for f in found[:3]]
    where = " beside this file" if all(f.parent == path.parent for f in found) else ""  # else full paths
    return (f"unsaved changes of an earlier session were saved{why} to {', '.join(shown)}"
            f"{' …' if len(found) > 3 else ''}{where}: open it to get them back")


# ---- where ----------------------------------------------------------------------------------------

def _save_beside_object(services, session) -> ObjectLocation:
    """The first free recovery name beside the object (one listing, then create-only puts)."""
    where, section = session.path, getattr(services.config, "storage", None)
    suffix = extension_for(session.doc.package.content_type_of(session.doc.main_name)) or ".docx"
    taken = set(_objects_beside(where, section))
    for name in itertools.islice(_beside_names(where.name, suffix), MAX_OBJECT_TRIES):
        if name in taken:
            continue
        try:
            from tools.storage.documents import save_document  # object roots only: not at start-up (lxml)
            save_document(session.doc, where.sibling(name), section, remember=False)
            return where.sibling(name)
        except FileChanged:
            continue  # created meanwhile by someone else
    raise OoxmlError(f"No free recovery name beside {where}.", error_type="SaveFailed",
                     hint="Remove old recovery objects.")


def _objects_beside(where: ObjectLocation, section) -> list[str]:
    from tools.storage.documents import store_of  # object roots only: not at start-up (lxml)
    folder = where.key.rpartition("/")[0]
    names = (k.rpartition("/")[2] for k in store_of(where, section).list(folder, limit=MAX_LISTED))
    return [n for n in names if n.startswith("~$")]


def _object_note(services, where: ObjectLocation) -> str | None:
    try:
        present = set(_objects_beside(where, getattr(services.config, "storage", None)))
    except OoxmlError:
        return None
    names = list(itertools.takewhile(present.__contains__, _beside_names(where.name, where.suffix.lower() or ".docx")))
    if not names:
        return None
    return (f"unsaved changes of an earlier session were saved to {', '.join(names[:3])}"
            f"{' …' if len(names) > 3 else ''} beside this object: open it to get them back")


def _places(services, session) -> Iterator[tuple[Path, Iterator[str]]]:
    suffix = extension_for(session.doc.package.content_type_of(session.doc.main_name)) or ".docx"
    if session.path is None:
        yield services.roots[0], _beside_names(f"new-document-{session.id[4:12]}", suffix)
    elif not isinstance(session.path, ObjectLocation):  # an object's: written beside it first (above)
        beside = _still_inside(session.path.parent, services.roots)
        if beside is not None:
            yield beside, _beside_names(session.path.name, suffix)
    folder = recovery_folder(services)
    yield folder, _folder_names(session, suffix)


def _still_inside(folder: Path, roots: list[Path]) -> Path | None:
    """The document's folder if it is still a folder inside the roots (it may have been renamed
    or swapped since the open)."""
    try:
        return resolve_in_roots(str(folder / "x.docx"), roots, must_exist=False).parent
    except OoxmlError:
        return None


def _save_first_free(session, folder: Path, names: Iterator[str], services) -> Path:
    if folder == recovery_folder(services):
        folder.mkdir(parents=True, exist_ok=True)
    configured = getattr(services.config, "recovery_folder", None)  # the operator's: allowed outside the roots
    inside = folder_check([*services.roots, configured] if configured else services.roots)
    for name in names:
        target = folder / name
        if _lexists(target):
            continue  # taken, by anything (a dangling symlink too): never written over
        try:
            session.doc.save(target, check_dir=inside)
            return target
        except FileChanged:
            continue  # created meanwhile by someone else
    raise OoxmlError(f"Every recovery name in {folder} is taken.", error_type="SaveFailed",
                     hint="Remove old recovery files.")


def _lexists(path: Path) -> bool:
    return os.path.lexists(path)


# ---- names ----------------------------------------------------------------------------------------

def _fit(stem: str, room: int) -> str:
    """``stem`` in at most ``room`` bytes: cut, with a hash of the whole so cut names stay apart."""
    raw = os.fsencode(stem)
    if len(raw) <= room:
        return stem
    tag = "~" + hashlib.sha256(raw).hexdigest()[:6]
    return raw[:room - len(tag)].decode("utf-8", "ignore") + tag


def _stem_of(name: str) -> str:
    stem, dot, _ = name.rpartition(".")
    return stem if dot and stem else name


def _beside_name(doc_name: str, suffix: str, n: int = 1) -> str:
    room = MAX_NAME_BYTES - len("~$") - len(RECOVERED) - _NUMBER_ROOM - len(suffix)
    number = f".{n}" if n > 1 else ""
    return f"~${_fit(_stem_of(doc_name), room)}{RECOVERED}{number}{suffix}"


def _beside_names(doc_name: str, suffix: str) -> Iterator[str]:
    """The first name, then numbered ones; docx_open lists them while they exist (names only)."""
    for n in range(1, MAX_NUMBER + 1):
        yield _beside_name(doc_name, suffix, n)


def _beside(path: Path) -> list[Path]:
    """The recovery files beside ``path``: numbered in order, so no folder scan is needed."""
    found = []
    for name in _beside_names(path.name, path.suffix.lower()):
        candidate = path.parent / name
        if not _lexists(candidate) or len(found) >= 50:
            break
        if candidate.is_file() and not candidate.is_symlink():
            found.append(candidate)
    return found


def _keys(path: Path, content_sha: str | None) -> tuple[str, str]:
    return (hashlib.sha256(os.fsencode(str(path))).hexdigest()[:8], (content_sha or "0" * 8)[:8])


def _folder_names(session, suffix: str) -> Iterator[str]:
    if session.path is None:
        yield from _beside_names(f"new-document-{session.id[4:12]}", suffix)
        return
    stamp = session.doc.package.stamps.get(os.path.realpath(session.path)) \
        if isinstance(session.path, Path) else None
    path_key, content_key = _keys(session.path, stamp.sha256 if stamp else None)
    room = MAX_NAME_BYTES - len("~$") - 18 - len(RECOVERED) - _NUMBER_ROOM - len(suffix)
    stem = _fit(_stem_of(session.path.name), room)
    for n in range(1, MAX_NUMBER + 1):
        yield f"~${stem}.{path_key}.{content_key}{RECOVERED}{f'.{n}' if n > 1 else ''}{suffix}"


def _in_recovery_folder(services, path: Path, content_sha: str | None) -> list[Path]:
    folder = recovery_folder(services)
    path_key, content_key = _keys(path, content_sha)
    found = []
    try:
        with os.scandir(folder) as entries:
            for i, entry in enumerate(entries):
                if i >= MAX_LISTED:
                    break
                m = _IN_FOLDER.match(entry.name)
                if m and (m.group(1) == path_key or (content_sha and m.group(2) == content_key)) \
                        and entry.is_file(follow_symlinks=False):
                    found.append(Path(entry.path))
    except OSError:
        return []
    return sorted(found)
