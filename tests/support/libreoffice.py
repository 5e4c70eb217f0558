"""Batch conversion of .docx files to PDF with headless LibreOffice, with an on-disk cache.

One ``soffice --headless --convert-to pdf --outdir OUT f1 f2 ...`` process converts a whole
chunk of files (a process per file costs seconds each). Chunks run on ``workers`` concurrent
processes, each with its own profile (``-env:UserInstallation``): profiles live in
``$OOXML_MCP_CACHE/lo-profiles/slotN`` and are locked with ``flock`` so concurrent test
sessions never share one (LibreOffice would hand the job to the other instance).

Originals are cached by the sha256 of their bytes under ``$OOXML_MCP_CACHE``
(default ``/tmp/ooxml-mcp-cache``): :func:`convert_cached` converts each distinct file once,
across test modules and sessions.

Environment:
- ``OOXML_MCP_SOFFICE``: the soffice binary (default: ``soffice`` or ``libreoffice`` on PATH);
- ``OOXML_MCP_REQUIRE_SOFFICE=1``: a missing soffice/pdftotext fails instead of skipping (CI);
- ``OOXML_MCP_CACHE``: cache folder;
- ``OOXML_MCP_LO_WORKERS``: concurrent soffice processes (default 2).
"""
from __future__ import annotations

import fcntl
import hashlib
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterable

from tests.support import report

CHUNK_SIZE = 40
STARTUP_SECONDS = 90.0   # a cold profile takes a few seconds; be generous on slow CI machines
PER_FILE_SECONDS = 30.0  # typical 0.9 s; the largest corpus file takes a few seconds
MAX_SLOTS = 16
SLOT_WAIT_SECONDS = 1800.0  # other test sessions' chunks hold the slots meanwhile


def soffice_path() -> str | None:
    """The server's own finder (tools/office/find.py): the tests run the soffice the server would."""
    from tools.office.find import LibreOfficeMissing, find_soffice
    try:
        return find_soffice()
    except LibreOfficeMissing:
        return None


def write_blank_pdf(out: Path) -> None:
    """A one-page PDF, for stand-ins of LibreOffice in tests about what follows a layout."""
    import pypdfium2 as pdfium
    pdf = pdfium.PdfDocument.new()
    pdf.new_page(612, 792)
    pdf.save(str(out))
    pdf.close()


def pdftotext_path() -> str | None:
    return shutil.which("pdftotext")


def soffice_required() -> bool:
    return os.environ.get("OOXML_MCP_REQUIRE_SOFFICE", "") not in ("", "0", "false", "no")


def require_soffice(need_pdftotext: bool = False) -> str:
    """The soffice binary, or skip the test with the reason (fail if OOXML_MCP_REQUIRE_SOFFICE=1)."""
    import pytest

    missing = []
    if soffice_path() is None:
        missing.append("LibreOffice 'soffice' not found (install libreoffice-writer-nogui, "
                       "or set OOXML_MCP_SOFFICE)")
    if need_pdftotext and pdftotext_path() is None:
        missing.append("'pdftotext' not found (install poppler-utils)")
    if missing:
        reason = "; ".join(missing)
        if soffice_required():
            pytest.fail(f"{reason}, and OOXML_MCP_REQUIRE_SOFFICE=1 requires it", pytrace=False)
        pytest.skip(reason)
    return soffice_path()


def cache_dir() -> Path:
    path = Path(os.environ.get("OOXML_MCP_CACHE") or "/tmp/ooxml-mcp-cache")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _log(line: str) -> None:
    report(line)
    print(line, file=sys.stderr if os.environ.get("OOXML_MCP_VERBOSE") else sys.stdout)


# ---- profiles ------------------------------------------------------------------------------------

class _ProfileSlot:
    """An exclusive LibreOffice user profile directory (flock on a lock file)."""

    def __init__(self):
        self.dir: Path | None = None
        self._fd: int | None = None

    def __enter__(self) -> Path:
        base = cache_dir() / "lo-profiles"
        base.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + SLOT_WAIT_SECONDS
        while time.monotonic() < deadline:
            for i in range(MAX_SLOTS):
                fd = os.open(base / f"slot{i}.lock", os.O_CREAT | os.O_RDWR, 0o644)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    os.close(fd)
                    continue
                self._fd, self.dir = fd, base / f"slot{i}"
                return self.dir
            time.sleep(0.05)  # polled: another test session's soffice lets a slot go
        raise TimeoutError(f"no LibreOffice profile slot of {base} came free within {SLOT_WAIT_SECONDS:g} s")

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)


# ---- conversion ----------------------------------------------------------------------------------

def _chunks(files: list[Path], chunk_size: int, workers: int) -> list[list[Path]]:
    """Balanced chunks (by bytes, largest first), a multiple of ``workers`` of them, names unique per chunk."""
    if not files:
        return []
    n = max(workers, math.ceil(len(files) / chunk_size))
    n = math.ceil(n / workers) * workers
    n = min(n, len(files))
    sizes = {f: f.stat().st_size for f in files}
    chunks: list[list[Path]] = [[] for _ in range(n)]
    load = [0] * n
    stems: list[set[str]] = [set() for _ in range(n)]
    for f in sorted(files, key=lambda p: -sizes[p]):
        order = sorted(range(n), key=lambda i: (len(chunks[i]) >= chunk_size, load[i]))
        i = next((i for i in order if f.stem not in stems[i]), None)
        if i is None:  # every chunk already has this stem: a new chunk
            chunks.append([]), load.append(0), stems.append(set())
            i = len(chunks) - 1
        chunks[i].append(f)
        load[i] += sizes[f] + 200_000  # a fixed cost per file, too
        stems[i].add(f.stem)
    # keep each chunk in a stable order (LibreOffice converts in argument order)
    return [sorted(c, key=lambda p: p.name) for c in chunks if c]


def _run_soffice(files: list[Path], outdir: Path, timeout: float | None, target: str = "pdf") -> tuple[str, str]:
    """Run one soffice process on ``files``; returns (status, output) with status ok/timeout/crash."""
    soffice = soffice_path()
    outdir.mkdir(parents=True, exist_ok=True)
    with _ProfileSlot() as profile:
        cmd = [soffice, f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless", "--norestore",
               "--nolockcheck", "--nodefault", "--nologo", "--convert-to", target, "--outdir", str(outdir),
               *[str(f) for f in files]]
        env = dict(os.environ)
        env.pop("DISPLAY", None)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, start_new_session=True)
        if timeout is None:
            timeout = STARTUP_SECONDS + PER_FILE_SECONDS * len(files)
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # our own process group only (start_new_session)
            out, _ = proc.communicate()
            return "timeout", out.decode(errors="replace")
        status = "ok" if proc.returncode == 0 else f"crash (exit {proc.returncode})"
        return status, out.decode(errors="replace")


def _ext(target: str) -> str:
    """'txt:Text' -> 'txt': the extension of what a --convert-to target writes."""
    return target.split(":", 1)[0]


def _collect(files: list[Path], outdir: Path, results: dict, target: str = "pdf") -> list[Path]:
    missing = []
    for f in files:
        pdf = outdir / (f.stem + "." + _ext(target))
        if pdf.is_file() and pdf.stat().st_size > 0:
            results[f] = pdf
        else:
            results[f] = None
            missing.append(f)
    return missing


def _convert_chunk(files: list[Path], outdir: Path, timeout: float | None, results: dict, notes: dict,
                   attempts: int = 4, target: str = "pdf") -> None:
    """Convert a chunk; after a crash or timeout, go on past the file that caused it and give
    that file one more chance alone (LibreOffice occasionally aborts on a fresh profile)."""
    suspects: list[tuple[Path, str]] = []
    for f in files:  # never mistake an old PDF for a result
        (outdir / (f.stem + "." + _ext(target))).unlink(missing_ok=True)
    while files:
        status, output = _run_soffice(files, outdir, timeout, target)
        missing = _collect(files, outdir, results, target)
        if status == "ok" or not missing:
            for f in missing:
                notes[f] = "LibreOffice could not convert it"
            break
        # LibreOffice converts in argument order and goes on after a file it cannot load:
        # the culprit is the file after the last PDF; files before it without a PDF were
        # refused; the last PDF may be incomplete if the crash came while writing it.
        last_ok = max((i for i, f in enumerate(files) if results.get(f) is not None), default=-1)
        idx = last_ok + 1
        for f in files[:idx]:
            if results.get(f) is None:
                notes[f] = "LibreOffice could not convert it"
        if idx >= len(files):  # it died after the last file (e.g. while exiting)
            break
        culprit = files[idx]
        suspects.append((culprit, status))
        attempts -= 1
        if attempts <= 0:
            for f in files[idx + 1:]:
                notes[f] = f"not converted: soffice {status} earlier in its batch"
            break
        retry = files[idx + 1:]
        if idx > 0:
            prev = files[idx - 1]
            (outdir / (prev.stem + "." + _ext(target))).unlink(missing_ok=True)
            retry = [prev, *retry]
        files = retry
    for culprit, status in suspects:
        again, _ = _run_soffice([culprit], outdir, timeout, target)
        if _collect([culprit], outdir, results, target):
            notes[culprit] = (f"soffice {status} while converting it, and {again} when retried alone"
                              if again != "ok" else "LibreOffice could not convert it")
        else:
            _log(f"LibreOffice: {culprit.name}: soffice {status} in a batch; converted when retried alone")


def convert_to_pdf(files: Iterable[Path | str], outdir: Path | str, *, chunk_size: int = CHUNK_SIZE,
                   workers: int | None = None, timeout: float | None = None,
                   notes: dict | None = None, target: str = "pdf") -> dict[Path, Path | None]:
    """Convert ``files`` to PDF in batches; returns file -> PDF path, or None if it did not convert.

    ``target`` is another --convert-to filter for other outputs ('txt:Text' writes list labels).

    ``timeout`` is per soffice process (default: a startup allowance plus a per-file one).
    ``notes`` (optional dict) receives file -> why it did not convert.
    """
    files = list(dict.fromkeys(Path(f).resolve() for f in files))
    outdir = Path(outdir)
    workers = workers or int(os.environ.get("OOXML_MCP_LO_WORKERS", "2"))
    results: dict[Path, Path | None] = {}
    notes = {} if notes is None else notes
    chunks = _chunks(files, chunk_size, workers)
    lock = threading.Lock()

    def job(i_chunk):
        i, chunk = i_chunk
        local: dict = {}
        local_notes: dict = {}
        _convert_chunk(chunk, outdir / f"batch{i}", timeout, local, local_notes, target=target)
        with lock:
            results.update(local)
            notes.update(local_notes)

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        list(pool.map(job, enumerate(chunks)))
    return {f: results.get(f) for f in files}


# ---- cache -----------------------------------------------------------------------------------------

_memo: dict[str, Path | None] = {}
_memo_lock = threading.Lock()


def _version_tag() -> str:
    soffice = soffice_path() or "none"
    real = Path(soffice).resolve()
    try:
        st = real.stat()
        key = f"{real}:{st.st_mtime_ns}:{st.st_size}"
    except OSError:
        key = str(real)
    # LibreOffice computes DATE/TIME fields as it converts: a conversion cached on another day would
    # differ from one made today (a scrubbed copy against its original), so the day is in the key.
    key += ":" + time.strftime("%Y-%m-%d", time.gmtime())
    return hashlib.sha256(key.encode()).hexdigest()[:12]


def _sha(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def convert_cached(files: Iterable[Path | str], *, label: str = "files", target: str = "pdf",
                   notes: dict | None = None, **kw) -> dict[Path, Path | None]:
    """Like :func:`convert_to_pdf`, but each distinct file (by sha256) is converted once:
    results are kept in this process and on disk under ``$OOXML_MCP_CACHE/lo-<version, day>/``.

    A file LibreOffice refused is cached as refused; timeouts and crashes are not cached. ``notes``
    receives why a file converted now did not convert.
    """
    files = list(dict.fromkeys(Path(f).resolve() for f in files))
    store = cache_dir() / f"lo-{_version_tag()}"
    store.mkdir(parents=True, exist_ok=True)
    suffix = "" if target == "pdf" else "." + _ext(target)  # one memo for every kind of output
    shas = {f: _sha(f) + suffix for f in files}
    out: dict[Path, Path | None] = {}
    todo: list[Path] = []
    for f in files:
        sha = shas[f]
        with _memo_lock:
            if sha in _memo:
                out[f] = _memo[sha]
                continue
        pdf, failed = store / f"{sha}.{_ext(target)}", store / f"{sha}.failed"
        if pdf.is_file():
            out[f] = pdf
        elif failed.is_file():
            out[f] = None
        else:
            todo.append(f)
    t0 = time.monotonic()
    if todo:
        notes = {} if notes is None else notes
        with tempfile.TemporaryDirectory(prefix="lo-convert-", dir=store) as tmp:
            converted = convert_to_pdf(todo, Path(tmp), notes=notes, target=target, **kw)
            for f, pdf in converted.items():
                sha = shas[f]
                if pdf is not None:
                    dest = store / f"{sha}.{_ext(target)}"
                    part = store / f".{sha}.{os.getpid()}.tmp"
                    shutil.copyfile(pdf, part)
                    os.replace(part, dest)
                    out[f] = dest
                else:
                    out[f] = None
                    if notes.get(f) == "LibreOffice could not convert it":
                        (store / f"{sha}.failed").write_text(f"{f.name}\n")
    for f in files:
        with _memo_lock:
            _memo[shas[f]] = out[f]
    _log(f"LibreOffice: {label}: {len(files)} files, {len(todo)} converted now "
         f"({len(files) - len(todo)} from cache) in {time.monotonic() - t0:.1f}s; "
         f"{sum(v is None for v in out.values())} did not convert")
    return {f: out[f] for f in files}


# ---- PDF text ---------------------------------------------------------------------------------------

def pdf_text(pdf: Path | str, layout: bool = False) -> str:
    """The text of a PDF (``pdftotext``); pages are separated by form feeds.

    For PDFs in the cache (originals), the text is cached next to them."""
    pdf = Path(pdf)
    side = None
    try:
        if cache_dir().resolve() in pdf.resolve().parents:
            side = pdf.with_suffix(".layout.txt" if layout else ".txt")
            if side.is_file() and side.stat().st_mtime >= pdf.stat().st_mtime:
                return side.read_text(encoding="utf-8")
    except OSError:
        side = None
    exe = pdftotext_path()
    if exe is None:
        raise FileNotFoundError("pdftotext not found (install poppler-utils)")
    cmd = [exe, "-enc", "UTF-8", *(["-layout"] if layout else []), str(pdf), "-"]
    res = subprocess.run(cmd, capture_output=True, timeout=120, check=True)
    text = res.stdout.decode("utf-8", errors="replace")
    if side is not None:
        tmp = side.with_name(f".{side.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, side)
    return text


def pdf_texts(pdfs: Iterable[Path | None], workers: int = 2) -> dict[Path, str]:
    """:func:`pdf_text` of many PDFs, ``workers`` at a time (None entries are skipped)."""
    todo = [Path(p) for p in dict.fromkeys(pdfs) if p is not None]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return dict(zip(todo, pool.map(pdf_text, todo)))


_DIGITS = re.compile(r"\d+")


def normalised_text(text: str) -> str:
    """PDF text for comparisons: digits masked (dates, times, page numbers in fields update
    on every conversion) and whitespace collapsed (line breaks move with the layout)."""
    return " ".join(_DIGITS.sub("#", text).split())


def pdf_pages(pdf: Path | str) -> int:
    """Number of pages, counted from pdftotext's form feeds."""
    text = pdf_text(pdf)
    return text.count("\f") or (1 if text.strip() else 0)
