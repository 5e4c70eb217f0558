"""Word rule: property children in schema order (ooxml/xml/order.py is the table), each at most once."""
from __future__ import annotations

from lxml import etree

from ooxml.check.findings import ERROR, Finding
from ooxml.xml.namespaces import W
from ooxml.xml.order import LEADING, ORDER

_PREFIX = f"{{{W}}}"
# w:trPr is a choice in wml.xsd (any order): not judged.
CONTAINERS = {f"{_PREFIX}{name}": name for name in (*ORDER, *LEADING) if name != "trPr"}
# Leading children the schema requires.
REQUIRED = {"tbl": ("tblPr", "tblGrid")}
# Children the schema lets repeat.
REPEATS = {f"{_PREFIX}{n}" for n in "headerReference footerReference activeWritingStyle smartTagType attachedSchema "
                                   "tblStylePr".split()}
FIX = "Run docx_check with repair=True: it puts the children in schema order (adds what is required)."


def findings(name: str, root: etree._Element) -> list[Finding]:
    out = []
    memo: dict = {}  # most containers repeat a few shapes: judge each shape once
    for el in root.iter(*CONTAINERS):
        key = (el.tag, tuple(c.tag for c in el))
        if key not in memo:
            memo[key] = misplaced(CONTAINERS[el.tag], key[1])
        if memo[key]:
            out.append(Finding("word", "order", ERROR, name, f"{memo[key]} in w:{CONTAINERS[el.tag]}", FIX, el,
                               repairable=True))
    return out


# A choice in the schema: either may come first (EG_HdrFtrReferences).
_SAME = {"footerReference": "headerReference"}


def rank(parent: str, tag) -> int | None:
    """The child's place in ``parent``'s sequence; None for what the table does not order."""
    if not isinstance(tag, str) or not tag.startswith(_PREFIX):
        return None
    local = tag[len(_PREFIX):]
    local = _SAME.get(local, local)
    return (ORDER.get(parent) or LEADING[parent]).get(local)


def misplaced(parent: str, tags: tuple) -> str:
    """What is out of order among ``tags`` (a container's children), or ''."""
    leading = parent not in ORDER
    top, top_tag, content = -1, None, False
    for tag in tags:
        r = rank(parent, tag)
        if r is None:
            content = content or (leading and isinstance(tag, str))
            continue
        if leading and content:
            return f"w:{_local(tag)} after the content"
        if r < top:
            return f"w:{_local(tag)} after w:{_local(top_tag)}"
        if r == top and tag not in REPEATS:
            return f"w:{_local(tag)} twice"
        top, top_tag = r, tag
    present = {_local(t) for t in tags if isinstance(t, str)}
    missing = [f"w:{n}" for n in REQUIRED.get(parent, ()) if n not in present]
    return f"no {' or '.join(missing)}" if missing else ""


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]
