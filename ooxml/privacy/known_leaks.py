"""Leaks a check found, kept per secret until the secret is gone (issue 29).

``known`` maps what was looked for (a matcher's spec, as JSON) to the last verdict of its check (None:
it passed). A check records its own secret only: one that passes for another text leaves the others'
warnings. An entry stays once made: a save checks every known secret again on the document as it is,
so an undo, a rolled-back batch or a scrub that brings the text back or takes it away is judged by
what the file will hold. Plain data (str -> str | None): it travels in session snapshots.
"""
from __future__ import annotations

import json

from ooxml.privacy import leak_check as LC
from ooxml.privacy import matcher as MT

FAILED = "FAILED: "


def record(known: dict, matcher: MT.Matcher, report: LC.Report) -> None:
    """The outcome of one check: a failure is kept, a pass clears only this secret's warning."""
    key = json.dumps(matcher.spec, ensure_ascii=False)
    if not report.clean:
        known[key] = report.verdict()
    elif key in known:
        known[key] = None  # kept: an undo may bring the text back, and the save looks again


def recheck(known: dict, package) -> str | None:
    """Every known secret checked again now; the warning a save gives (None: none is left)."""
    failed = []
    for key in known:
        matcher = MT.from_spec(json.loads(key))
        report = LC.check_package(package, matcher)
        known[key] = None if report.clean else report.verdict()
        if known[key]:
            failed.append((matcher.label, known[key]))
    if len(failed) <= 1:
        return failed[0][1] if failed else None
    return f"FAILED for {len(failed)} texts: " + "; ".join(
        f"{label[:40]}: {verdict.removeprefix(FAILED)}" for label, verdict in failed)
