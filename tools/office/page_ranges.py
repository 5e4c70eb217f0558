"""Page ranges as agents write them ("1-3,5"), checked, and given to LibreOffice's PageRange."""
from __future__ import annotations

import re

from ooxml.xml.errors import OoxmlError

_RANGE = re.compile(r"^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$")
MAX_PARTS = 100


def _bad(pages: str, why: str) -> OoxmlError:
    return OoxmlError(f"pages '{pages[:40]}' {why}.", error_type="ValidationError",
                      hint="Write pages as numbers and ranges from 1, e.g. '1-3,5'.")


def parse(pages: str) -> list[tuple[int, int]]:
    """[(first, last)] from "1-3,5": every page from 1, every range ascending."""
    parts = pages.split(",")
    if len(parts) > MAX_PARTS:
        raise _bad(pages, f"has more than {MAX_PARTS} ranges")
    out = []
    for part in parts:
        m = _RANGE.match(part)
        if not m:
            raise _bad(pages, f"has '{part.strip()[:20]}', which is not a page or a range")
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if first < 1 or last < first:
            raise _bad(pages, f"has '{part.strip()}': pages start at 1 and a range goes up")
        out.append((first, last))
    return out


def check_within(ranges: list[tuple[int, int]], total: int) -> None:
    """A named error for a range past the document's last page."""
    last = max(b for _, b in ranges)
    if last > total:
        raise OoxmlError(f"Page {last} does not exist: the document has {total} page(s).",
                         error_type="ValidationError", hint=f"Pass pages from 1 to {total}.")


def page_range(ranges: list[tuple[int, int]]) -> str:
    """LibreOffice's PageRange value."""
    return ";".join(f"{a}-{b}" if a != b else str(a) for a, b in ranges)


def page_total(ranges: list[tuple[int, int]]) -> int:
    return len({p for a, b in ranges for p in range(a, b + 1)})
