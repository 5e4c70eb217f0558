"""How the server process stops without losing unsaved work, whatever stops it.

Stop requests: SIGTERM (Docker, systemd, Kubernetes), SIGINT, SIGHUP (only without a config: with
one it reloads the config, tools/config/reload.py), over stdio also the client closing stdin and
the process that launched the server going away (its parent ID changes: the server was reparented).
Every request ends every document session the same way: unsaved changes to recovery files
(tools/runtime/sessions/recovery.py) or, with ``--state``, parked in the store for the other workers; the log
names each file and then sums up. The ending starts at once, in a thread of its own (a call under way
finishes first: it holds its session's lock), so an HTTP server whose clients keep streams open
through its graceful shutdown has kept everything long before a supervisor's kill timeout.
"""
from __future__ import annotations

import atexit
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable

from tools.runtime.sessions.lifetime import end_all

log = logging.getLogger("ooxml_mcp")
PARENT_POLL_S = 0.5


class Stopping:
    """One stop of the process: requested once (first reason wins), sessions ended, summed up."""

    def __init__(self, services):
        self.services = services
        self.why: str | None = None
        self.on_request: Callable[[int | None], None] | None = None  # the transport stops serving
        self.kept: list = []
        self._thread: threading.Thread | None = None
        self._parent = os.getppid()

    # ---- requests ---------------------------------------------------------------------------------
    def install(self, hup_reloads: bool) -> None:
        """Signal handlers in the main thread; SIGHUP stops only when it does not reload a config."""
        for name in ("SIGTERM", "SIGINT") + (() if hup_reloads else ("SIGHUP",)):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), self._on_signal)

    def _on_signal(self, sig, frame) -> None:
        self.request(signal.Signals(sig).name, sig)

    def request(self, why: str, sig: int | None = None) -> None:
        """Stop: never blocks (called from signal handlers); the sessions end in a thread."""
        if self.why is None:
            self.why = why
            log.warning("ooxml-mcp: %s: stopping; unsaved changes go to recovery files", why)
            self._thread = threading.Thread(target=self._end, name="ooxml-mcp-stop", daemon=True)
            self._thread.start()
        if self.on_request is not None:
            self.on_request(sig)

    def parent_gone(self) -> bool:
        """The process that launched us died (we were reparented): nobody will read our answers."""
        return self._parent > 1 and os.getppid() != self._parent

    # ---- the ending -------------------------------------------------------------------------------
    def _end(self) -> None:
        try:
            self.kept += end_all(self.services, f"the server stopped ({self.why})")
        except Exception:  # the final pass in finish() tries again
            log.exception("ending sessions on stop")

    def finish(self, why: str) -> None:
        """The process is about to exit: every session ended (also those opened since the request)."""
        self.request(why)
        self._thread.join()
        self.kept += end_all(self.services, f"the server stopped ({self.why})")
        parked = getattr(self.services.state, "parked", 0) if self.services.state is not None else 0
        files = ", ".join(str(p) for p in self.kept)
        log.warning("ooxml-mcp stopped (%s): %s", self.why,
                    f"unsaved changes written to {files}" if self.kept else
                    f"{parked} session(s) parked in the state store for the other workers" if parked else
                    "no unsaved changes")

    def exit_now(self, code: int = 0) -> None:
        """Leave at once after ``finish`` (a thread blocked reading stdin would keep the process)."""
        atexit._run_exitfuncs()  # the LibreOffice worker is stopped, as on a normal exit
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
