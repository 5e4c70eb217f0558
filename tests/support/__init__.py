"""Test support: corpus location, LibreOffice conversion, schema validation.

Later tests import from here: ``from tests.support import corpus, libreoffice, schema``.
Timing lines recorded with :func:`report` are printed in pytest's terminal summary
(see ``tests/conftest.py``).
"""
from __future__ import annotations

_REPORT: list[str] = []


def report(line: str) -> None:
    """Record a line (timings, counts) for the end-of-session summary."""
    _REPORT.append(line)


def report_lines() -> list[str]:
    return list(_REPORT)
