"""Microsoft's Open XML SDK validator (npm ``@ooxml-tools/validate``, .NET compiled to WebAssembly).

One warm node process, kept for the run, validates every file (a start costs ~10 s); a big batch for
several processes gets processes of its own. Results are cached by the sha256
of each file under ``$OOXML_MCP_CACHE/sdk-validate``. Compare *kinds* of error, not counts: a kind
is (part, error id, description without element positions), so an error the input already had
is not charged to our edits.

Environment: ``OOXML_MCP_REQUIRE_SDK_VALIDATOR=1`` (set by CI through ``OOXML_MCP_REQUIRE_SOFFICE``)
turns "node or the package missing" into a failure instead of a skip.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Iterable

import pytest

PACKAGE = "@ooxml-tools/validate@0.4.6"
SCRIPT = Path(__file__).with_name("sdk_validate.mjs")
STALL_SECONDS = 180  # a file the validator chews on longer than this is a hang


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


def _store(digest: str, item: dict) -> list[dict]:
    errors = item.get("errors")
    if errors is None:
        errors = [{"id": "ValidatorFailure", "description": item.get("failure", ""), "part": "", "xpath": ""}]
    cached = _cached(digest)
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(errors))
    tmp.replace(cached)  # atomic: a killed run never leaves half a result in the cache
    return errors


def _start_node(stderr=subprocess.PIPE) -> subprocess.Popen:
    env = {**os.environ, "NODE_PATH": str(node_dir() / "node_modules")}
    # The script imports the package by name: run it from a copy inside the install folder.
    script = node_dir() / SCRIPT.name
    if not script.exists() or script.read_bytes() != SCRIPT.read_bytes():
        script.write_bytes(SCRIPT.read_bytes())
    return subprocess.Popen(["node", str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=stderr, text=True, env=env, cwd=node_dir())


def _run_batch(paths: list[Path], digests: dict[Path, str]) -> dict[Path, list[dict]]:
    """One node process over ``paths``; each result is cached the moment it arrives, so a run that is
    stopped (timeout, kill) keeps what it validated and the next run only does the rest."""
    proc = _start_node()
    # Bounded by progress, not by batch size: killed when no result came for STALL_SECONDS (a start,
    # then one file, never take that long; a whole batch of hundreds may).
    timer = threading.Timer(STALL_SECONDS, proc.kill)
    timer.start()
    results: dict[Path, list[dict]] = {}
    try:
        proc.stdin.write("\n".join(str(p) for p in paths) + "\n")
        proc.stdin.close()
        for line in proc.stdout:
            if line.startswith("{"):
                item = json.loads(line)
                path = Path(item["path"])
                if path in digests:
                    results[path] = _store(digests[path], item)
                timer.cancel()
                timer = threading.Timer(STALL_SECONDS, proc.kill)
                timer.start()
        stderr = proc.stderr.read()
        proc.wait()
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    missing = [p for p in paths if p not in results]
    if missing:
        raise RuntimeError(f"validator gave no result for {len(missing)} of {len(paths)} file(s) (rc "
                           f"{proc.returncode}; killed after {STALL_SECONDS}s without one; the {len(results)} "
                           f"done are cached): {stderr.strip()[-800:]}")
    return results


def validate_files(paths: Iterable[str | os.PathLike], processes: int = 1) -> dict[Path, list[dict]]:
    """Every file's validation errors (``id``, ``description``, ``part``, ``xpath``), cached by content.

    A file the validator could not read at all gets one error of id ``ValidatorFailure``. The files
    not in the cache go to ``processes`` node processes at once (one batch each; a core each); each
    result is cached as it comes, so an interrupted run is resumed, not redone.
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
        elif p not in todo:
            todo.append(p)
    if todo:
        out.update(_validate(todo, digests, processes))
    return out


def _validate(paths: list[Path], digests: dict[Path, str], processes: int) -> dict[Path, list[dict]]:
    """Many files for several processes: batches in processes of their own; else the warm process."""
    if processes > 1 and len(paths) >= 8 * processes:
        return _run_batches(paths, digests, processes)
    return _WARM.validate(paths, digests)


class _Warm:
    """One node process kept for the whole test run: a start costs ~10 s of wall time (3 s CPU), a small
    file then milliseconds, and most tests validate a few files each. Files go one at a time, each
    answer read before the next path is written; a stall kills it (the next call starts another)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.lock = threading.Lock()
        atexit.register(self.close)

    def _start(self) -> subprocess.Popen:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = _start_node(stderr=subprocess.DEVNULL)  # a pipe nobody reads could fill
        return self.proc

    def validate(self, paths: list[Path], digests: dict[Path, str]) -> dict[Path, list[dict]]:
        with self.lock:
            return {path: _store(digests[path], self._one(path)) for path in paths}

    def _one(self, path: Path) -> dict:
        proc = self._start()
        timer = threading.Timer(STALL_SECONDS, proc.kill)
        timer.start()
        try:
            proc.stdin.write(f"{path}\n")
            proc.stdin.flush()
            for line in proc.stdout:
                if line.startswith("{"):
                    item = json.loads(line)
                    if Path(item["path"]) == path:
                        return item
        except (BrokenPipeError, OSError):
            pass
        finally:
            timer.cancel()
        self.close()
        raise RuntimeError(f"validator gave no result for {path} (it ended or stalled {STALL_SECONDS}s)")

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


_WARM = _Warm()


def _run_batches(paths: list[Path], digests: dict[Path, str], processes: int) -> dict[Path, list[dict]]:
    n = max(1, min(processes, len(paths) // 8 or 1))  # a start costs seconds: no process for a few files
    if n == 1:
        return _run_batch(paths, digests)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(n) as pool:
        batches = list(pool.map(lambda batch: _run_batch(batch, digests), [paths[i::n] for i in range(n)]))
    return {p: errors for batch in batches for p, errors in batch.items()}


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
