"""Which fonts LibreOffice will substitute on this machine: fontconfig's best match for each name."""
from __future__ import annotations

import shutil
import subprocess
import threading

_LOCK = threading.Lock()
_MATCHED: dict[str, str] = {}  # font name -> the family fontconfig gives (installed fonts change rarely)


def substitutes(names: list[str]) -> dict[str, str] | None:
    """{font named: the family drawn instead} for every name the machine lacks; None without fc-match."""
    if shutil.which("fc-match") is None:
        return None
    return {n: got for n in names if (got := _match(n)) and got.casefold() != n.casefold()}


def _match(name: str) -> str:
    with _LOCK:
        if name in _MATCHED:
            return _MATCHED[name]
    try:
        out = subprocess.run(["fc-match", "--format=%{family[0]}", name], capture_output=True, text=True,
                             timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        out = ""
    with _LOCK:
        _MATCHED[name] = out
    return out
