"""Finding LibreOffice: the one finder of soffice (page renders, TOC page numbers, conversions) and
of a Python that can drive it over UNO."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from ooxml.xml.errors import OoxmlError

INSTALL_HINT = ("Install LibreOffice headless and its Python bridge, e.g. on Debian/Ubuntu: "
                "apt-get install libreoffice-writer-nogui python3-uno (or set OOXML_MCP_SOFFICE to soffice's path).")


class LibreOfficeMissing(OoxmlError):
    error_type = "LibreOfficeNotFound"


def find_soffice() -> str:
    """soffice's path: $OOXML_MCP_SOFFICE if set and not empty (an executable file, or a name on the
    PATH), else the PATH's ``soffice`` or ``libreoffice``."""
    configured = os.environ.get("OOXML_MCP_SOFFICE") or None
    if configured is not None:
        found = configured if os.path.isfile(configured) and os.access(configured, os.X_OK) \
            else shutil.which(configured) if os.sep not in configured else None
    else:
        found = shutil.which("soffice") or shutil.which("libreoffice")
    if not found:
        where = f"OOXML_MCP_SOFFICE={configured!r} is not an executable file" if configured is not None \
            else "no 'soffice' or 'libreoffice' on the PATH"
        raise LibreOfficeMissing(f"LibreOffice is needed to lay out pages, and it was not found ({where}).",
                                 hint=INSTALL_HINT)
    return found


def missing() -> str | None:
    """None when pages can be laid out and read, else what is missing (said, not raised: a TOC
    leaves its page numbers to Word)."""
    try:
        find_soffice()
    except LibreOfficeMissing as e:
        return e.message[e.message.index("(") + 1:-2]
    try:
        import pypdfium2  # noqa: F401
    except ImportError:
        return "the pypdfium2 package is not installed"
    return None


def find_uno_python(soffice: str) -> str | None:
    """A Python that can ``import uno``: the configured one, the system's (which Debian's python3-uno
    is built for), LibreOffice's bundled one, or ours."""
    candidates = [os.environ.get("OOXML_MCP_UNO_PYTHON"), "/usr/bin/python3",
                  str(Path(os.path.realpath(soffice)).with_name("python")), sys.executable]
    for exe in candidates:
        if not exe or not os.path.isfile(exe):
            continue
        probe = "import sys; sys.path.append('/usr/lib/python3/dist-packages'); import uno"
        try:
            if subprocess.run([exe, "-c", probe], capture_output=True, timeout=30).returncode == 0:
                return exe
        except (OSError, subprocess.TimeoutExpired):
            continue
    return None
