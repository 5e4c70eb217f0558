"""docx_check's findings as text: per rule set, grouped by kind (the fix said once), errors first."""
from __future__ import annotations

from collections import defaultdict

MAX_PER_KIND = 8  # places listed per kind; the rest counted
MAX_LINES = 60


def summary(findings) -> str:
    errors = sum(1 for f in findings if f.severity == "error")
    return f"{errors} errors, {len(findings) - errors} warnings"


def lines(findings, rules: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for rule in rules:
        mine = [f for f in findings if f.rule == rule]
        out.append(f"{rule}: " + (summary(mine) if mine else "nothing found"))
        out += _kinds(mine)
    if len(out) > MAX_LINES:
        out = out[:MAX_LINES] + [f"... ({len(out) - MAX_LINES} more lines: check one rule set at a time)"]
    return out


def _kinds(findings) -> list[str]:
    groups: dict[tuple, list] = defaultdict(list)
    for f in findings:
        groups[(f.severity != "error", f.code, f.fix)].append(f)
    out = []
    for (_, code, fix), group in sorted(groups.items(), key=lambda kv: kv[0][:2]):
        out.append(f"- {group[0].severity} {code} ({len(group)}): fix: {fix}")
        out += [f"  - {f.where}: {f.what}" for f in group[:MAX_PER_KIND]]
        if len(group) > MAX_PER_KIND:
            out.append(f"  - ... {len(group) - MAX_PER_KIND} more")
    return out


def repaired(repairs) -> list[str]:
    out = [f"Repaired ({len(repairs.fixed)}):"] + _places(repairs.fixed)
    out += [f"Not repaired ({len(repairs.left)}):"] + _places(repairs.left)
    return out


def _places(findings) -> list[str]:
    counts: dict[tuple, list] = defaultdict(list)
    for f in findings:
        counts[(f.severity, f.code)].append(f)
    out = []
    for (severity, code), group in counts.items():
        shown = ", ".join(f.where for f in group[:MAX_PER_KIND])
        more = f" ... {len(group) - MAX_PER_KIND} more" if len(group) > MAX_PER_KIND else ""
        out.append(f"- {severity} {code} ({len(group)}): {shown}{more}")
    return out or ["- nothing"]
