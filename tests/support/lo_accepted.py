"""What LibreOffice shows with every tracked change accepted (or hidden text deleted), as plain text: one soffice for a whole
batch (tests/support/lo_accepted_worker.py under the Python that has ``uno``), each result cached
by the file's sha256 beside tests/support/libreoffice.py's cache. LibreOffice is given the copy the
server gives it (ooxml/opc/office_copy.py: comment anchors dropped, as a build without UI files aborts
on a comment loaded over UNO; a text export shows no comment anyway)."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ooxml.opc import office_copy
from tests.support.libreoffice import _sha, _version_tag, cache_dir, require_soffice

WORKER = Path(__file__).with_name("lo_accepted_worker.py")


def accepted_texts(files: list[Path], timeout: float = 300, mode: str = "accept") -> dict[Path, Path | None]:
    """Each file's text file as LibreOffice writes it after accepting every tracked change, or with mode
    "hidden" after deleting every hidden character (None: it failed)."""
    from tools.office.find import find_uno_python
    soffice = require_soffice()
    folder = cache_dir() / f"{mode}-{_version_tag()}"
    folder.mkdir(parents=True, exist_ok=True)
    cached = {Path(f).resolve(): folder / f"{_sha(Path(f))}.txt" for f in files}
    todo = [(src, out) for src, out in cached.items() if not out.exists()]
    if todo:
        with tempfile.TemporaryDirectory(prefix="lo-accept-") as tmp:
            args = []
            for k, (src, out) in enumerate(todo):
                copy = Path(shutil.copy(src, Path(tmp) / f"{k}.docx"))
                office_copy.prepare(copy)
                args += [str(copy), str(out)]
            command = [find_uno_python(soffice), str(WORKER), mode, soffice, str(Path(tmp) / "profile"),
                       f"ooxmlaccept{os.getpid()}", *args]
            subprocess.run(command, timeout=timeout, capture_output=True, text=True)
    return {src: out if out.exists() else None for src, out in cached.items()}
