"""The file sandbox: tools may read and write only inside the configured roots."""
from __future__ import annotations

import os
from pathlib import Path

from ooxml.errors import OoxmlError


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
    real = Path(os.path.realpath(candidate))
    real_roots = [Path(os.path.realpath(r)) for r in roots]
    if not any(real == r or r in real.parents for r in real_roots):
        raise PermissionDenied(
            f"Path '{path}' is outside the allowed folders.",
            hint="Allowed roots: " + ", ".join(str(r) for r in real_roots) +
                 " (start the server with --root DIR to allow another folder).")
    if must_exist and not real.is_file():
        raise FileNotFound(f"File '{path}' does not exist.",
                           hint="Check the path; relative paths start at " + str(real_roots[0]) + ".")
    if not must_exist and not real.parent.is_dir():
        raise FileNotFound(f"Folder '{real.parent}' does not exist.", hint="Create the folder first or pick another path.")
    return real
