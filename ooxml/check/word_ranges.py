"""Word rule: ranges paired: every bookmark, comment range, move range and permission that starts ends,
and every end has its start."""
from __future__ import annotations

from lxml import etree

from ooxml.check.findings import WARNING, Finding
from ooxml.xml.namespaces import MC, W

_PAIRS = {"bookmarkStart": "bookmarkEnd", "commentRangeStart": "commentRangeEnd", "moveFromRangeStart":
          "moveFromRangeEnd", "moveToRangeStart": "moveToRangeEnd", "permStart": "permEnd"}
_TAGS = [f"{{{W}}}{n}" for pair in _PAIRS.items() for n in pair]
_FALLBACK = f"{{{MC}}}Fallback"


TAGS = tuple(_TAGS)


def findings(name: str, scan) -> list[Finding]:
    starts: dict[tuple, etree._Element] = {}
    ends: dict[tuple, etree._Element] = {}
    for el in scan.get(*_TAGS):
        if next(el.iterancestors(_FALLBACK), None) is not None:
            continue
        local = el.tag.rpartition("}")[2]
        if local in _PAIRS:
            starts.setdefault((local, el.get(f"{{{W}}}id")), el)
        else:
            ends.setdefault((local, el.get(f"{{{W}}}id")), el)
    ended = {(start, i) for start, end in _PAIRS.items() for (e, i) in ends if e == end}
    out = [_unpaired(name, el, local, i, "has no end") for (local, i), el in starts.items() if (local, i) not in ended]
    started = {(_PAIRS[s], i) for (s, i) in starts}
    out += [_unpaired(name, el, local, i, "has no start") for (local, i), el in ends.items()
            if (local, i) not in started]
    return out


def _unpaired(name: str, el, local: str, value, what: str) -> Finding:
    kind = local.replace("RangeStart", " range").replace("RangeEnd", " range").replace("Start", "").replace("End", "")
    return Finding("word", "unpaired", WARNING, name, f"{kind} w:id {value} {what}",
                   "Delete the lone marker (docx_delete on a bookmark) or add its partner.", el)
