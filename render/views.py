"""Answer views (SPEC §11): how much of an answer a call gets.

``full`` is the page of context of SPEC §6; ``compact`` the head, the boxes of what the call made or
changed and the Changes block, each bounded; ``none`` the head alone. The choice is made per call
(the ``view`` argument), per session (``docx_open``/``docx_create``) and per server (config
``answers.view``), in that order; the tool's answer reads it from here, so no tool handles it.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

VIEWS = ("full", "compact", "none")
CHANGES_ONLY = "changes"  # internal (docx_batch's inner calls): the head and the whole Changes block
COMPACT_LINES = 24  # lines of one compact section
COMPACT_WIDTH = 120  # columns of one element's line in a compact answer


@dataclass
class Choice:
    asked: str | None = None  # the call's view argument
    session: str | None = None  # the session's default (docx_open/docx_create view=)
    server: str | None = None  # the config's answers.view
    applies: bool = False  # the tool answers with context; read tools always answer in full

    @property
    def view(self) -> str:
        if not self.applies:
            return "full"
        return self.asked or self.session or self.server or "full"


_choice: ContextVar[Choice | None] = ContextVar("ooxml_answer_view", default=None)


def current() -> str:
    choice = _choice.get()
    return "full" if choice is None else choice.view


@contextmanager
def choosing(choice: Choice):
    token = _choice.set(choice)
    try:
        yield choice
    finally:
        _choice.reset(token)


def note_session(view: str | None) -> None:
    """The session the call works on has this default view (set when a tool finds its session)."""
    choice = _choice.get()
    if choice is not None:  # outside a tool call (tests, benchmarks) there is nothing to choose
        choice.session = view


def bounded(text: str | None, limit: int = COMPACT_LINES) -> str | None:
    """``text`` cut to ``limit`` lines, saying how many were left out."""
    if not text:
        return text
    lines = text.rstrip("\n").split("\n")
    if len(lines) <= limit:
        return text
    return "\n".join(lines[:limit] + [f"... ({len(lines) - limit} more lines)"])


def squeeze(lines: list[str]) -> list[str]:
    """Boxes as one line each (``[Paragraph (para_x) ⭐ NEW] text | more text``), cut to COMPACT_WIDTH
    with ``...``: a box's frame costs more bytes than its text. Other lines stay."""
    from render.width import cut
    out: list[str] = []
    start = None  # where the box being read began
    for i, line in enumerate(lines):
        mark = line.strip()[:1]
        if mark == "┌":
            start = i
        elif start is not None and mark == "└":
            # The same boxes come back call after call (kept by render/blocks.py): their lines are
            # the same strings, whose hashes Python keeps, so the box is looked up, not re-read.
            key = tuple(lines[start:i + 1])
            done = _SQUEEZED.get(key)
            if done is None:
                title, *text = [x.strip()[1:-1].strip() for x in key if x.strip()[:1] == "│"] or [""]
                if len(_SQUEEZED) >= MAX_SQUEEZED:
                    _SQUEEZED.clear()
                done = _SQUEEZED[key] = squeezed(title, text)
            out.append(done)
            start = None
        elif start is None:
            out.append(cut(line, COMPACT_WIDTH))
    return out


_SQUEEZED: dict = {}
MAX_SQUEEZED = 512


def squeezed(title: str, text: list[str]) -> str:
    """One box as one line: ``  [title] line | line``, cut to COMPACT_WIDTH."""
    from render.width import cut
    return cut(f"  [{title}] " + " | ".join(text), COMPACT_WIDTH)
