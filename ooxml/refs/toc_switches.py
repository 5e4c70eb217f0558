"""What a TOC field's instruction asks for: which paragraphs are entries, links, page numbers.

Word's switches that matter when entries are written in: ``\\o "1-3"`` (heading styles of those
levels), ``\\u`` (paragraphs' own outline levels), ``\\t "Style,1,Other,2"`` (named styles at the
given levels), ``\\h`` (entries are hyperlinks), ``\\n "1-1"`` (no page numbers at those levels; no
range: none at all). ``\\c``/``\\a`` (captions) make a table of figures and ``\\f`` alone builds from
TC fields: those are not tables of contents of headings and are left alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_SWITCH = re.compile(r'\\([A-Za-z])(?:\s+"([^"]*)"?|\s+([^\s\\"]+))?')
_RANGE = re.compile(r"^\s*([1-9])\s*-\s*([1-9])\s*$")
_TOC = re.compile(r"^\s*TOC(\s|$)", re.IGNORECASE)
ALL_LEVELS = (1, 9)


@dataclass(frozen=True)
class TocSpec:
    outline: tuple[int, int] | None  # heading levels taken by outline level
    styles: dict[str, int] = field(default_factory=dict)  # style ID -> level, from \t
    hyperlinks: bool = True
    no_pages: tuple[int, int] | None = None  # levels written without a page number

    def page_at(self, level: int) -> bool:
        return self.no_pages is None or not self.no_pages[0] <= level <= self.no_pages[1]

    def describe(self, doc=None) -> str:
        """'1-3', plus 'Style name=level' for each \\t style."""
        parts = [f"{self.outline[0]}-{self.outline[1]}"] if self.outline else []
        parts += [f"{doc.styles.name(sid) if doc else sid}={lvl}" for sid, lvl in self.styles.items()]
        return ", ".join(parts) or "none"


def switches(instruction: str) -> dict[str, str | None]:
    """Switch letter (lower case) -> its argument (None when it has none); the first one wins."""
    out: dict[str, str | None] = {}
    for m in _SWITCH.finditer(instruction):
        out.setdefault(m.group(1).lower(), m.group(2) if m.group(2) is not None else m.group(3))
    return out


def is_toc(instruction: str) -> bool:
    return bool(_TOC.match(instruction or ""))


def is_heading_toc(instruction: str) -> bool:
    """A TOC of headings (not a table of figures, not one of TC fields only)."""
    if not is_toc(instruction):
        return False
    sw = switches(instruction)
    if "c" in sw or "a" in sw:
        return False
    return "f" not in sw or any(k in sw for k in "otu")


def _range(arg: str | None) -> tuple[int, int] | None:
    m = _RANGE.match(arg or "")
    if not m or int(m.group(1)) > int(m.group(2)):
        return None
    return int(m.group(1)), int(m.group(2))


def _styles(doc, arg: str | None) -> dict[str, int]:
    """``\\t "Heading 3,1,Title,2"`` (Word separates with the list separator: ',' or ';')."""
    items = [x.strip() for x in re.split(r"[,;]", arg or "")]
    out: dict[str, int] = {}
    for name, level in zip(items[0::2], items[1::2]):
        sid = doc.styles.find_id(name) if name else None
        if sid and level.isdigit() and 1 <= int(level) <= 9:
            out[sid] = int(level)
    return out


def parse(doc, instruction: str) -> TocSpec:
    sw = switches(instruction)
    if "o" in sw:
        outline = _range(sw["o"]) or ALL_LEVELS
    elif "u" in sw or "t" not in sw:
        outline = ALL_LEVELS  # a bare TOC (or \u alone) takes every outline level
    else:
        outline = None
    no_pages = (_range(sw["n"]) or ALL_LEVELS) if "n" in sw else None
    return TocSpec(outline, _styles(doc, sw.get("t")), "h" in sw, no_pages)
