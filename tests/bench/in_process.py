"""Benchmarks that call tools in this process (no transport) and clock the warm LibreOffice worker
with them: the caller, and wall + CPU time of our process and the worker's process group together."""
from __future__ import annotations

import os
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def services_for(folder: Path):
    import tools.catalog  # noqa: F401
    from tools.services import Services

    return Services(roots=[folder])


def caller(services):
    """``await call(name, **args)`` -> the answer's text; an error answer raises."""
    from tools.runtime.call.dispatch import run_tool
    from tools.runtime.call.registry import CallContext

    visible = {t.name: t for t in services.tools_for(None)}

    async def call(name, **args):
        o = await run_tool(visible.get(name), name, args, CallContext(None, services), list(visible))
        if o.is_error:
            raise RuntimeError(o.text)
        return o.text
    return call


def group_cpu(pgid: int) -> float:
    """CPU seconds of every live process in the process group ``pgid`` (the warm worker's)."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime + stime
    return total / TICK


class Clock:
    """(wall s, CPU s of this process and the office worker) of what runs between start and stop."""

    def __init__(self, services):
        self.services = services

    def start(self) -> None:
        self.pgid = self.services.office._worker.proc.pid
        self.cpu0, self.own0, self.t0 = group_cpu(self.pgid), time.process_time(), time.perf_counter()

    def stop(self) -> tuple[float, float]:
        return (time.perf_counter() - self.t0,
                group_cpu(self.pgid) - self.cpu0 + time.process_time() - self.own0)
