"""Microsoft's Open XML SDK validator (npm ``@ooxml-tools/validate``, .NET compiled to WebAssembly).

One node process validates a whole batch (a start costs seconds); results are cached by the sha256
of each file under ``$OOXML_MCP_CACHE/sdk-validate``. Compare *kinds* of error, not counts: a kind
is (part, error id, description without element positions), so an error the input already had
is not charged to our edits.

Environment: ``OOXML_MCP_REQUIRE_SDK_VALIDATOR=1`` (set by CI through ``OOXML_MCP_REQUIRE_SOFFICE``)
turns "node or the package missing" into a failure instead of a skip.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Iterable

import pytest

PACKAGE = "@ooxml-tools/validate@0.4.6"
SCRIPT = Path(__file__).with_name("sdk_validate.mjs")
BATCH_SECONDS_PER_FILE = 20


def cache_dir() -> Path:
    return Path(os.environ.get("OOXML_MCP_CACHE", "/tmp/ooxml-mcp-cache"))


def node_dir() -> Path:
    return cache_dir() / "node"


def required() -> bool:
    flags = (os.environ.get("OOXML_MCP_REQUIRE_SDK_VALIDATOR", ""), os.environ.get("OOXML_MCP_REQUIRE_SOFFICE", ""))
    return any(f not in ("", "0", "false", "no") for f in flags)


def install() -> str | None:
    """Install the npm package into the cache (once); None when it is there, else why not."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "node/npm not installed (apt-get install nodejs npm)"
    target = node_dir()
    if (target / "node_modules" / "@ooxml-tools" / "validate" / "package.json").exists():
        return None
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(target), PACKAGE],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        return f"npm install {PACKAGE} failed: {done.stderr.strip()[-500:]}"
    return None


def require() -> None:
    problem = install()
    if problem:
        if required():
            pytest.fail(f"Open XML SDK validator unavailable: {problem}")
        pytest.skip(f"Open XML SDK validator unavailable: {problem}")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cached(digest: str) -> Path:
    return cache_dir() / "sdk-validate" / f"{digest}.json"


def _run_batch(paths: list[Path]) -> dict[Path, dict]:
    env = {**os.environ, "NODE_PATH": str(node_dir() / "node_modules")}
    # The script imports the package by name: run it from a copy inside the install folder.
    script = node_dir() / SCRIPT.name
    if not script.exists() or script.read_bytes() != SCRIPT.read_bytes():
        script.write_bytes(SCRIPT.read_bytes())
    done = subprocess.run(["node", str(script)], input="\n".join(str(p) for p in paths) + "\n",
                          capture_output=True, text=True, env=env, cwd=node_dir(),
                          timeout=60 + BATCH_SECONDS_PER_FILE * len(paths))
    results = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            item = json.loads(line)
            results[Path(item["path"])] = item
    missing = [p for p in paths if p not in results]
    if missing:
        raise RuntimeError(f"validator gave no result for {len(missing)} file(s) (rc {done.returncode}): "
                           f"{done.stderr.strip()[-800:]}")
    return results


def validate_files(paths: Iterable[str | os.PathLike], processes: int = 1) -> dict[Path, list[dict]]:
    """Every file's validation errors (``id``, ``description``, ``part``, ``xpath``), cached by content.

    A file the validator could not read at all gets one error of id ``ValidatorFailure``. The files
    not in the cache go to ``processes`` node processes at once (one batch each; a core each).
    """
    require()
    paths = [Path(p).resolve() for p in paths]
    digests = {p: _digest(p) for p in paths}
    out: dict[Path, list[dict]] = {}
    todo = []
    for p in paths:
        cached = _cached(digests[p])
        if cached.exists():
            out[p] = json.loads(cached.read_text())
        else:
            todo.append(p)
    if todo:
        for p, item in _run_batches(todo, processes).items():
            errors = item.get("errors")
            if errors is None:
                errors = [{"id": "ValidatorFailure", "description": item.get("failure", ""), "part": "", "xpath": ""}]
            cached = _cached(digests[p])
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps(errors))
            out[p] = errors
    return out


def _run_batches(paths: list[Path], processes: int) -> dict[Path, dict]:
    n = max(1, min(processes, len(paths) // 8 or 1))  # a start costs seconds: no process for a few files
    if n == 1:
        return _run_batch(paths)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(n) as pool:
        batches = list(pool.map(_run_batch, [paths[i::n] for i in range(n)]))
    return {p: item for batch in batches for p, item in batch.items()}


_POSITIONS = re.compile(r"\[\d+\]|(?<![/\w])\d+")


def error_kind(error: dict) -> str:
    """Part, id and description with numbers (positions, values) blanked out."""
    return f"{error['part']} {error['id']} {_POSITIONS.sub('#', error['description'])}"


def kinds(errors: list[dict]) -> set[str]:
    return {error_kind(e) for e in errors}


def new_error_kinds(original: str | os.PathLike | None, result: str | os.PathLike) -> list[str]:
    """Kinds of error ``result`` has that ``original`` lacks (all of them when there is no original)."""
    files = [result] if original is None else [original, result]
    found = validate_files(files)
    before = kinds(found[Path(original).resolve()]) if original is not None else set()
    return sorted(kinds(found[Path(result).resolve()]) - before)
