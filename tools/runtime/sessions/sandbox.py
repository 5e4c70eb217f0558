"""The file sandbox: tools may read and write only inside the configured roots."""
from __future__ import annotations

import os
from pathlib import Path

from ooxml.xml.errors import OoxmlError
from ooxml.opc.savefile import MAX_NAME_BYTES
from tools.storage.roots import ObjectLocation, is_object_url, locate


class PermissionDenied(OoxmlError):
    error_type = "PermissionDenied"


class FileNotFound(OoxmlError):
    error_type = "FileNotFound"


def resolve_in_roots(path: str, roots: list[Path], *, must_exist: bool) -> Path:
    """An absolute, symlink-free path inside one of ``roots``, or PermissionDenied.

    Relative paths are taken from the first root. Symlinks are resolved before the check, so
    a link inside a root that points outside is refused like a ``..`` path.
    """
    if not path or "\x00" in path:
        raise OoxmlError("File path is empty or contains a NUL character.", error_type="ValidationError",
                         hint="Pass the path of a file inside the allowed roots.")
    candidate = Path(os.path.expanduser(path))
    if not candidate.is_absolute():
        candidate = roots[0] / candidate
    too_long = [p for p in candidate.parts if len(os.fsencode(p)) > MAX_NAME_BYTES]
    if too_long:
        raise OoxmlError(f"A name in the path is {len(os.fsencode(too_long[0]))} bytes long; file systems allow "
                         f"at most {MAX_NAME_BYTES}.", hint="Choose a shorter name.", error_type="ValidationError")
    real = Path(os.path.realpath(candidate))
    real_roots = require_inside_roots(real, roots, shown=path)
    if must_exist and not real.is_file():
        raise FileNotFound(f"File '{path}' does not exist.",
                           hint="Check the path; relative paths start at " + str(real_roots[0]) + ".")
    if not must_exist and not real.parent.is_dir():
        raise FileNotFound(f"Folder '{real.parent}' does not exist.", hint="Create the folder first or pick another path.")
    return real


def require_inside_roots(real: Path, roots: list[Path], shown: str | Path | None = None) -> list[Path]:
    """PermissionDenied unless the resolved path ``real`` is a root or inside one; the real roots."""
    real_roots = [Path(os.path.realpath(r)) for r in roots]
    if not any(real == r or r in real.parents for r in real_roots):
        raise PermissionDenied(
            f"Path '{shown if shown is not None else real}' is outside the allowed folders.",
            hint="Allowed roots: " + ", ".join(map(str, [*real_roots, *getattr(roots, "objects", ())])) +
                 " (start the server with --root DIR to allow another folder).")
    return real_roots


def resolve_save_target(path: str, roots: list[Path]) -> Path:
    """Where a save may write: a file path inside the roots (checked again on every save, since
    a folder on the way may have been swapped for a symlink since the document was opened)."""
    real = resolve_in_roots(path, roots, must_exist=False)
    if real.is_dir():
        raise OoxmlError(f"'{path}' is a folder, not a file.", error_type="ValidationError",
                         hint=f"Give a file name inside it, e.g. '{Path(path) / 'report.docx'}'.")
    return real


def folder_check(roots: list[Path]):
    """For ``Document.save(check_dir=...)``: the folder really written in must be inside the roots."""
    return lambda real_dir: require_inside_roots(Path(real_dir), roots)


def object_target(path: str | None, roots) -> ObjectLocation | None:
    """The object ``path`` names when it is in an object store (``s3://…``, or relative while the
    first root is an object root); None for a file path. Keys are judged like paths."""
    if not path:
        return None
    objects = getattr(roots, "objects", ())
    relative_to_object = objects and roots.objects_first and not os.path.isabs(os.path.expanduser(path))
    if is_object_url(path) or relative_to_object:
        return locate(path, list(objects))
    return None
