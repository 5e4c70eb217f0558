"""One warm LibreOffice per server, for turning documents into PDF.

The UNO side runs in a child process (worker.py) under a Python that has LibreOffice's
``uno`` module (Debian: python3-uno for /usr/bin/python3), so the server's own Python needs no
LibreOffice bindings. The worker keeps one soffice alive between calls; conversions queue on a
lock; a conversion that hangs is killed with its whole process group and the next call starts a
fresh worker. Without a ``uno`` Python the service falls back to one ``soffice --convert-to``
process per call (correct, but cold every time).
"""
from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from ooxml.xml import budget
from ooxml.xml.errors import OoxmlError
from tools.office import profile as office_profile
from tools.office.find import INSTALL_HINT, find_soffice, find_uno_python

WORKER = Path(__file__).with_name("worker.py")


def render_timeout() -> float:
    """Seconds a conversion may take before LibreOffice is killed ($OOXML_MCP_RENDER_TIMEOUT)."""
    try:
        return float(os.environ.get("OOXML_MCP_RENDER_TIMEOUT", "120"))
    except ValueError:
        return 120.0
START_TIMEOUT = 90.0


def _left(end: float) -> float:
    return max(0.0, end - time.monotonic())


class RenderFailed(OoxmlError):
    error_type = "RenderFailed"
    hung = False  # True when LibreOffice was killed after the timeout


class _Worker:
    """One worker.py child (and its soffice), in a process group of its own."""

    def __init__(self, python: str, soffice: str, profile: Path, timeout: float = START_TIMEOUT):
        pipe = f"ooxmlmcp{os.getpid()}_{time.monotonic_ns()}"
        self.proc = subprocess.Popen([python, str(WORKER), soffice, str(profile), pipe],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, start_new_session=True)
        first = self._read(timeout)
        if not first.get("ok"):
            self.kill()
            raise RenderFailed(f"LibreOffice did not start: {first.get('error')}.", hint=INSTALL_HINT)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def convert(self, src: Path, out: Path, timeout: float, job: "Job") -> dict:
        self.proc.stdin.write(json.dumps({"in": str(src), "out": str(out), **job.request()}) + "\n")
        self.proc.stdin.flush()
        answer = self._read(timeout)
        if not answer.get("ok"):
            raise RenderFailed(f"LibreOffice could not convert the document: {answer.get('error')}.",
                               hint="Check the document with docx_get_structure; LibreOffice may not support "
                                    "something in it.")
        return answer

    def _read(self, timeout: float) -> dict:
        box: list[str] = []
        reader = threading.Thread(target=lambda: box.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if reader.is_alive():
            self.kill()
            error = RenderFailed(f"LibreOffice did not answer within {timeout:g} s and was stopped.",
                                 hint="The document may be too large or make LibreOffice hang; the next render "
                                      "starts a fresh LibreOffice.")
            error.hung = True
            raise error
        if not box or not box[0]:
            self.kill()
            raise RenderFailed("LibreOffice exited unexpectedly.", hint="Retry: the next render restarts it.")
        return json.loads(box[0])

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()

    def close(self) -> None:
        if self.alive():
            try:
                self.proc.stdin.close()
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()


@dataclass(frozen=True)
class Job:
    """What LibreOffice is asked for: a filter, its FilterData, and whether to count the pages."""
    ext: str = "pdf"  # the output's extension, for a one-off soffice --convert-to
    filter: str = "writer_pdf_Export"
    data: dict = field(default_factory=lambda: dict(PDF_DATA))
    options: str | None = None  # FilterOptions (a text export's encoding)
    title: str | None = None  # given to a document that has none (PDF/UA asks for one)
    count: bool = False  # answer the document's page count (the warm worker only)
    neutralise: bool = True  # a .docx copy rewritten first (office_copy); False for other formats in

    def request(self) -> dict:
        return {"filter": self.filter, "data": self.data, "options": self.options, "title": self.title,
                "count": self.count}

    def convert_to(self) -> str:
        """The ``--convert-to`` argument: FilterData as soffice's JSON (7.4+)."""
        types = {bool: "boolean", int: "long", str: "string"}
        data = {k: {"type": types[type(v)], "value": str(v).lower() if isinstance(v, bool) else str(v)}
                for k, v in self.data.items()}
        options = f":{self.options}" if self.options else ""
        return f"{self.ext}:{self.filter}{options}" + (f":{json.dumps(data)}" if data and not options else "")


PDF_DATA = {"ExportBookmarksToPDFDestination": True}
PDF = Job()


@dataclass
class Converted:
    note: str | None  # set when the warm LibreOffice failed and a one-off conversion made the file
    pages: int | None  # the document's page count (Job.count, warm worker only)


_STARTED: weakref.WeakSet = weakref.WeakSet()  # every Office of this process that made a profile


def close_all() -> None:
    """Close every Office of this process (a test session's, between modules): each starts again
    on its next conversion."""
    for office in list(_STARTED):
        office.close()


class Office:
    """The server's LibreOffice: ``to_pdf`` is thread-safe; calls queue one after another."""

    def __init__(self):
        self._lock = threading.Lock()
        self._worker: _Worker | None = None
        self._python: str | None | bool = False  # False: not probed yet
        self._soffice: str | None = None
        self._profile: Path | None = None  # made on first use: most servers never lay out a page
        self.starts = 0  # how many LibreOffice processes this service started (for tests, benches)

    def to_pdf(self, src: Path, out: Path, timeout: float | None = None) -> str | None:
        """Lay out ``src`` (a throwaway copy: rewritten in place as LibreOffice may see it, see
        ooxml/opc/office_copy.py) as the PDF ``out``. None, or a note when the warm LibreOffice failed
        and a one-off ``soffice --convert-to`` made the PDF."""
        return self.convert(src, out, PDF, timeout).note

    def convert(self, src: Path, out: Path, job: Job, timeout: float | None = None) -> Converted:
        """``src`` (a throwaway copy) converted as ``job`` says into ``out``. ``timeout`` (at most the
        render timeout) bounds everything: the wait behind other layouts, a start, the conversion."""
        end = time.monotonic() + min(render_timeout(), render_timeout() if timeout is None else timeout)
        soffice = find_soffice()  # checked on every call: a path that disappears gives the named error
        if job.neutralise:
            from ooxml.opc import office_copy  # lxml: loaded at the first document, not before initialize
            office_copy.prepare(src)
        if not self._lock.acquire(timeout=_left(end)):
            error = RenderFailed("LibreOffice was busy with other layouts until the time allowed ran out.",
                                 hint="Retry when the other renders have finished.")
            error.hung = True  # no one-off conversion either: the time is up
            raise error
        try:
            if self._profile is None:
                self._profile = office_profile.seed(Path(tempfile.mkdtemp(prefix="ooxml-mcp-lo-")))
                atexit.register(self.close)
                _STARTED.add(self)
            if soffice != self._soffice:
                self._stop()
                self._soffice, self._python = soffice, False
            if self._python is False:
                self._python = find_uno_python(soffice)
            if self._python is None:
                self._convert_once(soffice, src, out, _left(end), self._profile, job)
                return Converted(None, None)
            try:
                answer = self._warm_convert(soffice, src, out, end, job)
                return Converted(None, answer.get("pages"))
            except RenderFailed as e:
                if e.hung:
                    raise
                failure = e.message
        finally:
            self._lock.release()
        with tempfile.TemporaryDirectory(prefix="ooxml-mcp-lo-once-") as profile:
            self._convert_once(soffice, src, out, _left(end), office_profile.seed(Path(profile)), job)
        return Converted(f"one-off conversion: the warm LibreOffice failed ({failure[:160]})", None)

    def _warm_convert(self, soffice: str, src: Path, out: Path, end: float, job: Job) -> dict:
        try:
            return self._warm(soffice, end).convert(src, out, _left(end), job)
        except RenderFailed as e:
            if e.hung:
                self._worker = None
                raise
            # A dead soffice behind a live worker fails every call: retry once on a fresh one.
            self._stop()
            return self._warm(soffice, end).convert(src, out, _left(end), job)

    def _warm(self, soffice: str, end: float) -> _Worker:
        if self._worker is None or not self._worker.alive():
            self._worker = _Worker(self._python, soffice, self._profile, min(START_TIMEOUT, _left(end)))
            self.starts += 1
        return self._worker

    def _convert_once(self, soffice: str, src: Path, out: Path, timeout: float, profile: Path, job: Job) -> None:
        args = [soffice, "--headless", "--norestore", f"-env:UserInstallation={profile.as_uri()}",
                "--convert-to", job.convert_to(), "--outdir", str(out.parent), str(src)]
        self.starts += 1
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # soffice starts soffice.bin: stop the whole group
            proc.wait()
            error = RenderFailed(f"LibreOffice did not answer within {timeout:g} s and was stopped.",
                                 hint="The document may be too large or make LibreOffice hang; retry once, then "
                                      "check it with docx_get_structure.")
            error.hung = True
            raise error from None
        made = out.parent / f"{src.stem}.{job.ext}"
        if not made.is_file():
            raise RenderFailed("LibreOffice could not convert the document.",
                               hint="Check the document with docx_get_structure; LibreOffice may not support "
                                    "something in it.")
        if made != out:
            made.replace(out)

    def kill_for_test(self) -> None:
        """Kill the warm LibreOffice as a crash would (tests check the restart)."""
        if self._worker is not None:
            self._worker.kill()

    def _stop(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def close(self) -> None:
        with self._lock:
            self._stop()
            profile, self._profile = self._profile, None
        if profile is not None:
            shutil.rmtree(profile, ignore_errors=True)


def to_pdf_in_budget(office, src: Path, out: Path) -> str | None:
    """``office.to_pdf`` within the running call's time budget (ooxml/xml/budget.py): LibreOffice is
    stopped at the call's deadline, which is then ``LimitExceeded`` (the call changed nothing)."""
    return _in_budget(lambda: office.to_pdf(src, out, budget.remaining()))


def convert_in_budget(office, src: Path, out: Path, job: Job) -> Converted:
    """``office.convert`` within the running call's time budget (see to_pdf_in_budget)."""
    return _in_budget(lambda: office.convert(src, out, job, budget.remaining()))


def _in_budget(run):
    try:
        return run()
    except RenderFailed as e:
        if e.hung and budget.remaining() == 0:
            raise budget.exceeded(budget.current_limit() or 0, "waited for LibreOffice's layout") from None
        raise
