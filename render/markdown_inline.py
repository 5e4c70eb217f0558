"""Inline Markdown: a paragraph's segments (text, images, notes, breaks with their marks, link and
revision) written with marks, links and revisions nested as a stack, text escaped."""
from __future__ import annotations

from dataclasses import dataclass

DELIM = {"b": "**", "i": "*", "s": "~~"}
ESCAPE = str.maketrans({c: "\\" + c for c in "\\`*_[]<~"})
ESCAPE_CELL = str.maketrans({**{c: "\\" + c for c in "\\`*_[]<~"}, "|": "\\|"})


@dataclass
class Segment:
    kind: str  # text, image, note, break
    text: str
    marks: frozenset = frozenset()
    link: str | None = None
    rev: str | None = None  # ins, del


def longest_run(text: str, ch: str) -> int:
    best = cur = 0
    for c in text:
        cur = cur + 1 if c == ch else 0
        best = max(best, cur)
    return best


def md_url(target: str) -> str:
    return "<" + target + ">" if any(c in target for c in " ()") else target


def _merged(segments: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for seg in segments:
        last = out[-1] if out else None
        if last is not None and seg.kind == last.kind == "text" and \
                (seg.marks, seg.link, seg.rev) == (last.marks, last.link, last.rev):
            out[-1] = Segment("text", last.text + seg.text, seg.marks, seg.link, seg.rev)
        else:
            out.append(seg)
    return out


def _items(seg: Segment) -> set:
    """What a segment sits inside: marks, its link, its revision (code is drawn per segment)."""
    items = {m for m in seg.marks if m != "code"}
    if seg.link is not None:
        items.add(("link", seg.link))
    if seg.rev is not None:
        items.add(("rev", seg.rev))
    return items


def _open(item) -> str:
    if isinstance(item, tuple):
        return "[" if item[0] == "link" else "{++" if item[1] == "ins" else "{--"
    return DELIM[item]


def _close(item) -> str:
    if isinstance(item, tuple):
        return f"]({md_url(item[1])})" if item[0] == "link" else "++}" if item[1] == "ins" else "--}"
    return DELIM[item]


def render_segments(segments: list[Segment], cell: bool = False) -> str:
    """Segments as Markdown: marks, links and revisions nest as a stack; what lasts longer opens
    first, so '**bold [link](u) bold**' stays one strong span around the link."""
    segments = [s for s in _merged(segments) if s.kind == "break" or s.text]
    wanted = [_items(s) if s.kind != "break" else None for s in segments]
    out: list[str] = []
    stack: list = []
    pending = ""
    table = ESCAPE_CELL if cell else ESCAPE
    for i, seg in enumerate(segments):
        if seg.kind == "break":
            pending += "<br>" if cell else "\\\n"
            continue
        if seg.kind in ("image", "note"):
            lead, core, trail = "", seg.text, ""
        else:
            core = seg.text.strip()
            if not core:
                pending += seg.text
                continue
            lead = seg.text[:len(seg.text) - len(seg.text.lstrip())]
            trail = seg.text[len(seg.text.rstrip()):]
        want = wanted[i]
        while stack and not set(stack) <= want:
            out.append(_close(stack.pop()))
        out.append(pending + lead)
        pending = ""
        for item in sorted(want - set(stack), key=lambda it: (-_lasting(wanted, i, it), str(it))):
            out.append(_open(item))
            stack.append(item)
        if seg.kind == "text" and "code" in seg.marks:
            ticks = "`" * (longest_run(core, "`") + 1)
            pad = " " if core.startswith("`") or core.endswith("`") else ""
            out.append(f"{ticks}{pad}{core}{pad}{ticks}")
        elif seg.kind == "text":
            out.append(core.translate(table))
        else:
            out.append(seg.text)
        pending = trail
    while stack:
        out.append(_close(stack.pop()))
    out.append(pending[:-2] if pending.endswith("\\\n") else pending)
    return "".join(out)


def _lasting(wanted: list, i: int, item) -> int:
    n = 0
    for want in wanted[i:]:
        if want is None:
            continue
        if item not in want:
            break
        n += 1
    return n
