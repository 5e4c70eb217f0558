"""Checks an answer's format (seed 003): a strict head first, known sections after, limits kept.
Every answer a test receives passes it (tests/support/client.py).

ERROR: a line-based parser could be misled (missing or misordered head, unknown section,
context on an error). WARNING: readable but outside the guidelines (long lines, long answer).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from render.answer import CHANGES_HEADING, CONTENT_HEADING, CONTEXT_HEADING, ERROR, SUCCESS
from render.width import width

_HEAD = re.compile(r"^\*\*([A-Za-z][A-Za-z ]*)\*\*: (.*)$")

SECTIONS = [CONTENT_HEADING, CONTEXT_HEADING, CHANGES_HEADING]
MAX_CONTEXT_ELEMENTS = 15
MAX_LINE_WIDTH = 160
MAX_ANSWER_CHARS = 60_000
MAX_HEAD_VALUE = 2_000


def parse_head(text: str) -> dict[str, str]:
    """The ``**Key**: value`` lines of an answer's head, in order, read as a client reads them (the
    server itself reads its Answer values, never their text)."""
    head: dict[str, str] = {}
    for line in text.splitlines()[2:]:
        m = _HEAD.match(line)
        if not m:
            break
        head.setdefault(m.group(1), m.group(2))
    return head


@dataclass(frozen=True)
class Finding:
    level: str  # ERROR or WARNING
    message: str

    def __str__(self) -> str:
        return f"{self.level}: {self.message}"


def validate_answer(text: str) -> list[Finding]:
    findings: list[Finding] = []
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# 操作结果: ") or len(lines[0]) <= len("# 操作结果: "):
        return [Finding("ERROR", "first line must be '# 操作结果: <Operation>'")]
    if len(lines) < 2 or lines[1] != "":
        findings.append(Finding("WARNING", "a blank line should follow the title"))
    head = parse_head(text)
    keys = list(head)
    findings += _check_head(keys, head)
    body_start = 2 + len(keys)
    rest = outside_fences(lines[body_start:])
    if head.get("Status") == ERROR:
        if any(line.startswith("## ") or line.startswith("Cursor: ") for line in rest):
            findings.append(Finding("ERROR", "an error answer must not carry context, changes or a cursor"))
    else:
        findings += _check_sections(rest)
    findings += _check_limits(lines, text)
    return findings


def outside_fences(lines: list[str]) -> list[str]:
    """The lines with those inside fenced code blocks blanked (positions kept): a Markdown
    export shows '## Heading' or '---' lines that are content, not sections of the answer."""
    out, fence = [], None
    for line in lines:
        stripped = line.lstrip(" ")
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:len(stripped) - len(stripped.lstrip(stripped[0]))]
            out.append(line)
        elif fence is not None:
            if stripped.startswith(fence) and not stripped.strip(fence[0]).strip():
                fence = None
            out.append(line if fence is None else "")
        else:
            out.append(line)
    return out


def _check_head(keys: list[str], head: dict[str, str]) -> list[Finding]:
    out = []
    if not keys or keys[0] != "Status":
        return [Finding("ERROR", "the head must start with **Status**")]
    status = head["Status"]
    if status not in (SUCCESS, ERROR):
        out.append(Finding("ERROR", f"unknown Status '{status}'"))
    if status == ERROR:
        if keys[1:3] != ["Error Type", "Message"]:
            out.append(Finding("ERROR", "an error head is Status, Error Type, Message (then Hint)"))
    else:
        if "Operation" not in head:
            out.append(Finding("ERROR", "the head has no **Operation**"))
        expected = ["Status", "Element ID", "Operation"] if "Element ID" in head else ["Status", "Operation"]
        if keys[:len(expected)] != expected:
            out.append(Finding("ERROR", f"head order must be {', '.join(expected)}; got {', '.join(keys[:3])}"))
    for key, value in head.items():
        if len(value) > MAX_HEAD_VALUE:
            out.append(Finding("WARNING", f"**{key}** is {len(value)} characters long"))
    return out


def _check_sections(rest: list[str]) -> list[Finding]:
    out = []
    seen = [line for line in rest if line.startswith("## ")]
    for heading in seen:
        if heading not in SECTIONS:
            out.append(Finding("ERROR", f"unknown section '{heading}'"))
    known = [h for h in seen if h in SECTIONS]
    if len(set(known)) != len(known):
        out.append(Finding("ERROR", "a section appears twice"))
    if known != sorted(known, key=SECTIONS.index):
        out.append(Finding("WARNING", "sections out of order (Content, Document Context, Changes)"))
    if CONTEXT_HEADING in known:
        out += _check_context(rest)
    cursor = [i for i, line in enumerate(rest) if line.startswith("Cursor: ")]
    non_empty = [i for i, line in enumerate(rest) if line.strip()]
    if cursor and cursor[-1] != non_empty[-1]:
        out.append(Finding("WARNING", "the cursor line should be the last line"))
    if len(cursor) > 1:
        out.append(Finding("ERROR", "more than one cursor line"))
    return out


def _check_context(rest: list[str]) -> list[Finding]:
    start = rest.index(CONTEXT_HEADING)
    end = next((i for i in range(start + 1, len(rest)) if rest[i].startswith("## ") or rest[i] == "---"), len(rest))
    section = rest[start + 1:end]
    boxes = sum(1 for line in section if line.startswith("  ┌"))
    out = []
    if boxes > MAX_CONTEXT_ELEMENTS:
        out.append(Finding("ERROR", f"the context shows {boxes} elements, more than {MAX_CONTEXT_ELEMENTS}"))
    more = any("more elements above" in line or "more elements below" in line for line in section)
    if more and boxes < 10:
        out.append(Finding("WARNING", f"the context shows only {boxes} elements although more exist"))
    if sum(1 for line in section if line == ">>> [CURSOR] <<<") > 1:
        out.append(Finding("ERROR", "more than one cursor mark in the context"))
    return out


def _check_limits(lines: list[str], text: str) -> list[Finding]:
    out = []
    wide = [i + 1 for i, line in enumerate(lines) if width(line) > MAX_LINE_WIDTH]
    if wide:
        out.append(Finding("WARNING", f"{len(wide)} lines wider than {MAX_LINE_WIDTH} columns (first: line {wide[0]})"))
    if len(text) > MAX_ANSWER_CHARS:
        out.append(Finding("WARNING", f"the answer is {len(text)} characters, over {MAX_ANSWER_CHARS}"))
    return out


def errors(text: str) -> list[str]:
    return [f.message for f in validate_answer(text) if f.level == "ERROR"]
