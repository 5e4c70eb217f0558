"""A package's parts: one zip member each, its bytes and XML tree loaded on first use and written
again only when touched (the XML declaration kept); the table of parts an undo step watches."""
from __future__ import annotations

import hashlib
import re
import zipfile

from lxml import etree

from ooxml.opc.strict import to_transitional
from ooxml.xml.safexml import parse_part, serialize

# The XML declaration and the blank after it, kept byte for byte when a part is re-serialised.
_DECL = re.compile(rb"(?:\xef\xbb\xbf)?<\?xml\s[^?>]*\?>[ \t\r\n]*")


class PartTable(dict):
    """The package's parts by name. While watched (an undo step records), its first change keeps a
    copy of the table as it was, and the parts' dirty flags then: undo compares nothing and copies
    nothing on the calls that add or remove no part (most), whatever the number of parts."""

    __slots__ = ("before", "dirty_then", "_log")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.before: dict | None = None  # the table before its first change since watch()
        self.dirty_then: dict | None = None  # name -> dirty, then, of parts not touched before
        self._log: dict | None = None  # the recorder's touch log, while watched

    def watch(self, touch_log: dict) -> None:
        self.before = self.dirty_then = None
        self._log = touch_log

    def unwatch(self) -> None:
        self.before = self.dirty_then = self._log = None

    def _changing(self) -> None:
        log = self._log
        if log is not None and self.before is None:
            self.before = dict(self)
            self.dirty_then = {name: part.dirty for name, part in self.items() if name not in log}

    def __setitem__(self, key, value):
        self._changing()
        super().__setitem__(key, value)

    def __delitem__(self, key):
        self._changing()
        super().__delitem__(key)

    def pop(self, *args):
        self._changing()
        return super().pop(*args)

    def popitem(self):
        self._changing()
        return super().popitem()

    def clear(self):
        self._changing()
        super().clear()

    def update(self, *args, **kwargs):
        self._changing()
        super().update(*args, **kwargs)

    def setdefault(self, key, default=None):
        if key not in self:
            self._changing()
        return super().setdefault(key, default)

    def __ior__(self, other):
        self._changing()
        return super().__ior__(other)


class Part:
    """One zip member; its bytes and XML tree are loaded on first use."""

    def __init__(self, package, info: zipfile.ZipInfo | None, data: bytes | None = None):
        self.package = package
        self.info = info
        self.name = info.filename if info else ""
        self._data = data
        self._tree: etree._ElementTree | None = None
        self.dirty = data is not None  # new parts must be written
        self.content_changed = self.dirty  # dirty for more than our IDs (see touch)
        self.prepared = None  # what load_tree's prepare step noted
        self.touches = 0  # how often touch() was called (undo knows whether a part was touched since)
        self.head: bytes | None = None  # a UTF-8 part's bytes before its root (declaration), kept
        self._roundtrip: bytes | None = None  # digest of the original as lxml writes it

    @property
    def data(self) -> bytes:
        if self._tree is not None and self.dirty:
            return serialize(self._tree, self.head)
        if self._data is None:
            self._data = self.package.read_member(self.info)
        return self._data

    def original(self) -> bytes | None:
        """The part's bytes as opened (None for a new part)."""
        if not self.package.holds_original(self.info):
            return None
        return self.package.read_member(self.info)

    @property
    def tree(self) -> etree._ElementTree:
        hook = self.package.prepare_hook
        return self.load_tree(hook(self.name) if hook else None)

    def load_tree(self, prepare=None) -> etree._ElementTree:
        """The parsed part; ``prepare(bytes) -> (bytes, note)`` may adjust the bytes first
        (its note is kept as ``self.prepared``)."""
        if self._tree is None:
            data = self.data
            self.head = utf8_declaration(data)
            if self.package.strict:  # Strict URIs read as Transitional ones (ooxml/opc/strict.py)
                data = to_transitional(data)
            if prepare is not None:
                data, self.prepared = prepare(data)
            self._tree = parse_part(data, self.name)
            if not self.dirty:
                self._data = None  # the tree is the truth now; the zip still has the bytes
        return self._tree

    @property
    def loaded(self) -> bool:
        return self._tree is not None

    def adopt(self, tree: etree._ElementTree, prepared) -> None:
        """``tree`` as this new part's parse: the caller vouches it is what parsing the part's bytes,
        adjusted as ``prepared`` notes, gives (a tree built in memory, saved its parse)."""
        self.head = utf8_declaration(self._data)
        self.prepared = prepared
        self._tree = tree

    def touch(self, ids_only: bool = False) -> None:
        """Mark the parsed tree as changed, so it is re-serialised on save.

        ``ids_only``: the only change is our ID attributes (a save with strip_ids may then write
        the original bytes).
        """
        if self._tree is None:
            self.tree
        log = self.package.touch_log
        if log is not None and self.name not in log:  # the undo history notes which parts a call
            log[self.name] = self.dirty               # touched, and whether they were dirty before
        self.dirty = True
        if not ids_only:
            self.content_changed = True
        self.touches += 1

    def original_data(self) -> bytes:
        """The bytes the part was opened (or created) with."""
        return self._data if self._data is not None else self.package.read_member(self.info)

    def unload(self) -> None:
        """Back to the state of an untouched part: read (and parsed) again from the file on use."""
        self._tree = None
        self._data = None
        self.dirty = self.content_changed = False

    def parse(self, data: bytes) -> etree._ElementTree:
        """Parse bytes of this part the way load_tree does (Strict URIs mapped), without keeping them."""
        return parse_part(to_transitional(data) if self.package.strict else data, self.name)

    def restore(self, tree: etree._ElementTree) -> None:
        """Replace the parsed tree (undo and redo of parts without stories)."""
        self._tree = tree
        self.dirty = self.content_changed = True

    def same_as_original(self, data: bytes) -> bool:
        """Whether ``data`` is what the original bytes become when lxml parses and writes them."""
        if self._roundtrip is None:
            original = self.original()
            if original is None:
                return False
            self._roundtrip = hashlib.sha256(serialize(self.parse(original),
                                                       utf8_declaration(original))).digest()
        return hashlib.sha256(data).digest() == self._roundtrip


def utf8_declaration(data: bytes) -> bytes | None:
    """The bytes before the root (BOM, declaration, blank) of a UTF-8 part; None otherwise."""
    m = _DECL.match(data)
    if m is None:  # no declaration: UTF-8 unless a UTF-16 byte order mark says otherwise
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return None
        return b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    decl = m.group(0).lower()
    return m.group(0) if b"encoding" not in decl or re.search(rb"encoding\s*=\s*[\"']utf-8[\"']", decl) else None
