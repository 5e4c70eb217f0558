"""Our namespace in a part's bytes: declared before the parse (``predeclare``), so IDs set later
need no late declaration; IDs of a file we saved put on lines of their own (``mark_ids``), so the ID
index finds them by line without a walk; and both undone in bytes written out (``undeclare``).

Why bytes: declaring a namespace on a parsed root makes lxml rewrite prefixes below it
(``ids._declare_late``), and finding every ID by XPath costs a walk of the whole part."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from ooxml.xml.namespaces import MC, OX, OX_PREFIX

OUR_ID = re.compile(r"[a-z]{1,16}_[0-9a-f]{6,32}")  # what IdIndex.id_of writes (prefix_token)

# A start tag: name, then anything but '>' outside quoted attribute values.
_START_TAG = re.compile(rb"""<[^\s/>]+(?:[^>"']|"[^"]*"|'[^']*')*>""")
_OX_DECL = f' xmlns:{OX_PREFIX}="{OX}"'.encode()
_MC_URI = f'="{MC}"'.encode()


@dataclass(frozen=True)
class Predeclared:
    """What ``predeclare`` did to a part's bytes, so a stripped save can undo it exactly."""

    had_ids: bool  # the file already declared our namespace (it was saved by us)
    added: tuple[bytes, ...] = ()  # declarations we inserted into the root start tag
    marks: dict[str, int] | None = field(default=None, compare=False)  # see mark_ids


def _root_start_tag(data: bytes) -> tuple[int, int] | None:
    """Byte offsets of the root element's start tag (after the prolog), or None."""
    i = 0
    while True:
        i = data.find(b"<", i)
        if i < 0 or i + 1 >= len(data):
            return None
        if data.startswith(b"<?", i):
            closer = b"?>"
        elif data.startswith(b"<!--", i):
            closer = b"-->"
        elif data.startswith(b"<!", i):
            closer = b">"
        else:
            break
        found = data.find(closer, i + 2)
        if found < 0:
            return None
        i = found + len(closer)
    m = _START_TAG.match(data, i)
    return (i, m.end() - 1) if m else None


def predeclare(data: bytes) -> tuple[bytes, Predeclared]:
    """Declare our namespace (and mc's, if missing) on the root before parsing.

    Declaring it afterwards needs lxml's cleanup_namespaces, which rewrites prefixes and drops
    declarations below the root; inserting text into the root start tag changes nothing else.
    """
    span = None if data[:2] in (b"\xff\xfe", b"\xfe\xff") else _root_start_tag(data)
    if span is None:
        return data, Predeclared(had_ids=True)  # unusual encoding: declare later, the slow way
    start, end = span
    tag = data[start:end]
    if b"xmlns:" + OX_PREFIX.encode() + b"=" in tag:
        return mark_ids(data, end) if _OX_DECL[1:] in tag else (data, Predeclared(had_ids=True))
    added = [_OX_DECL]
    if _MC_URI not in tag:
        prefix = b"mc" if b"xmlns:mc=" not in tag else b"mcx"
        added.append(b" xmlns:" + prefix + _MC_URI)
    name_end = start + 1
    while name_end < end and data[name_end:name_end + 1] not in b" \t\r\n/>":
        name_end += 1
    # One copy of the part's bytes (slicing the rest, then concatenating, made two: 22 MB each
    # for 50,000 paragraphs).
    return b"".join((data[:name_end], *added, memoryview(data)[name_end:])), Predeclared(False, tuple(added))


def predeclared(data: bytes, root: etree._Element) -> Predeclared | None:
    """What ``predeclare(data)`` notes, when ``root`` is what parsing its result gives at the root
    (every declaration it adds is there); None otherwise, or when it would mark IDs."""
    span = None if data[:2] in (b"\xff\xfe", b"\xfe\xff") else _root_start_tag(data)
    if span is None:
        return None
    pre = predeclare(data[:span[1] + 1])[1]  # the root's start tag is all it reads, unless it marks IDs
    if pre.had_ids:
        return None
    for decl in pre.added:  # b' xmlns:prefix="uri"'
        prefix, uri = decl.decode()[7:-1].split('="')
        if root.nsmap.get(prefix) != uri:
            return None
    return pre


_ATTR = f"{OX_PREFIX}:id=".encode()
_ROOT_ID = re.compile(rb'\s%s="([^"]*)"' % _ATTR[:-1])
_MAX_LINE = 65_000  # libxml2 keeps line numbers up to 65,535 (lxml does not ask for more)


def mark_ids(data: bytes, root_end: int) -> tuple[bytes, Predeclared]:
    """Put each of our ID attributes on a line of its own, noting ID -> line, so the ID index can
    find an ID's element by its line number (``IdIndex``) instead of walking the whole tree.

    The space before each ``oxm:id="..."`` becomes a line feed: whitespace between attributes, so
    the tree is the same; libxml2 numbers each element by the line its start tag ends on. Left
    unmarked (the index walks the tree, as for any file) when the bytes are not as this server
    writes them: a value we never write, a duplicate, our namespace bound anywhere else, an
    unquoted spelling, or more lines than libxml2 numbers. The root's own ID gets line 0.
    """
    fail = data, Predeclared(had_ids=True)
    own = _ROOT_ID.search(data, data.rfind(b"<", 0, root_end), root_end)
    root_key = own.group(1).decode("ascii", "replace") if own else None
    if root_key is not None and not OUR_ID.fullmatch(root_key):
        return fail
    spots, keys, i = [], [], root_end
    while (i := data.find(_ATTR, i)) >= 0:
        if data.rfind(b">", 0, i) > data.rfind(b"<", 0, i):
            i += len(_ATTR)  # text that reads like our attribute, not an attribute
            continue
        j = data.find(b'"', i + len(_ATTR) + 1)
        if data[i - 1:i] != b" " or data[i + len(_ATTR):i + len(_ATTR) + 1] != b'"' or j < 0:
            return fail
        spots.append(i - 1)
        keys.append(data[i + len(_ATTR) + 1:j].decode("ascii", "replace"))
        i = j
    if spots and data.find(OX.encode(), root_end) >= 0:
        return fail
    line = data.count(b"\n", 0, root_end) + 1  # the root's (libxml2 counts LFs: CRLF is one line)
    marks = {} if root_key is None else {root_key: 0}
    broken = spots and data.find(b"\n", root_end) >= 0  # written with line breaks: count them
    at = root_end
    for key, spot in zip(keys, spots):
        if broken:
            tag_end = data.find(b">", spot)
            line += data.count(b"\n", at, tag_end)
            at = tag_end
        line += 1
        if key in marks or not OUR_ID.fullmatch(key):
            return fail
        marks[key] = line
    if line >= _MAX_LINE:
        return fail
    pieces, start = [], 0
    view = memoryview(data)
    for spot in spots:
        pieces += (view[start:spot], b"\n")
        start = spot + 1
    pieces.append(view[start:])
    return b"".join(pieces), Predeclared(had_ids=True, marks=marks)


def undeclare(data: bytes, pre: Predeclared) -> bytes:
    """Remove the declarations ``predeclare`` added from serialised bytes (root tag only)."""
    span = _root_start_tag(data)
    if span is None:
        return data
    start, end = span
    tag = data[start:end]
    for decl in pre.added:
        tag = tag.replace(decl, b"", 1)
    return data[:start] + tag + data[end:]


def undeclare_ours(data: bytes, pre: Predeclared | None) -> bytes:
    """Our namespace declarations out of a stripped part's bytes: those ``predeclare`` added, or,
    in a part saved with IDs before, our own declaration on the root."""
    if pre is None:
        return data
    return undeclare(data, Predeclared(True, (_OX_DECL,)) if pre.had_ids else pre)
