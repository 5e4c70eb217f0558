"""An OPC package (.docx): parts, content types, relationships; lossless save.

Parts nobody touched are written back as their original compressed bytes (no recompression);
touched parts are re-serialised. Saving is atomic: temporary file, fsync, rename.
"""
from __future__ import annotations

import copy
import os
import posixpath
import struct
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ooxml.errors import InvalidDocument, LimitExceeded
from ooxml.namespaces import CT, PR, RT_OFFICE_DOCUMENT
from ooxml.safexml import parse_part, serialize
from ooxml.strict import is_strict_package, strict_bytes, to_transitional


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 512 * 1024 * 1024
    max_total_uncompressed: int = 2 * 1024 * 1024 * 1024
    max_part_uncompressed: int = 512 * 1024 * 1024
    max_ratio: int = 200  # uncompressed/compressed, for parts over ratio_floor bytes
    ratio_floor: int = 10 * 1024 * 1024
    max_parts: int = 10_000


DEFAULT_LIMITS = Limits()
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")


class Part:
    """One zip member; its bytes and XML tree are loaded on first use."""

    def __init__(self, package: "Package", info: zipfile.ZipInfo | None, data: bytes | None = None):
        self.package = package
        self.info = info
        self.name = info.filename if info else ""
        self._data = data
        self._tree: etree._ElementTree | None = None
        self.dirty = data is not None  # new parts must be written
        self.prepared = None  # what load_tree's prepare step noted
        self.touches = 0  # how often touch() was called (undo knows whether a part was touched since)

    @property
    def data(self) -> bytes:
        if self._tree is not None and self.dirty:
            return serialize(self._tree)
        if self._data is None:
            self._data = self.package._read_member(self.info)
        return self._data

    @property
    def tree(self) -> etree._ElementTree:
        hook = self.package.prepare_hook
        return self.load_tree(hook(self.name) if hook else None)

    def load_tree(self, prepare=None) -> etree._ElementTree:
        """The parsed part; ``prepare(bytes) -> (bytes, note)`` may adjust the bytes first
        (its note is kept as ``self.prepared``)."""
        if self._tree is None:
            data = self.data
            if self.package.strict:  # Strict URIs read as Transitional ones (ooxml/strict.py)
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

    def touch(self) -> None:
        """Mark the parsed tree as changed, so it is re-serialised on save."""
        self.tree
        self.dirty = True
        self.touches += 1
        if self.package.touch_log is not None:  # the undo history notes which parts a call touched
            self.package.touch_log.add(self.name)

    def original_data(self) -> bytes:
        """The bytes the part was opened (or created) with."""
        return self._data if self._data is not None else self.package._read_member(self.info)

    def unload(self) -> None:
        """Back to the state of an untouched part: read (and parsed) again from the file on use."""
        self._tree = None
        self._data = None
        self.dirty = False

    def parse(self, data: bytes) -> etree._ElementTree:
        """Parse bytes of this part the way load_tree does (Strict URIs mapped), without keeping them."""
        return parse_part(to_transitional(data) if self.package.strict else data, self.name)

    def restore(self, tree: etree._ElementTree) -> None:
        """Replace the parsed tree (undo and redo of parts without stories)."""
        self._tree = tree
        self.dirty = True


class Package:
    def __init__(self, path: Path | None, limits: Limits = DEFAULT_LIMITS):
        self.path = path
        self.limits = limits
        self.parts: dict[str, Part] = {}
        self.prepare_hook = None  # part name -> a bytes adjustment to make before parsing, or None
        self.strict = False  # ISO/IEC 29500 Strict: parts are mapped to Transitional URIs and back
        self.touch_log: set[str] | None = None  # names of parts touched, while a call is recorded
        self._zip: zipfile.ZipFile | None = None
        self._fp = None

    # ---- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike, limits: Limits = DEFAULT_LIMITS) -> "Package":
        pkg = cls(Path(path), limits)
        size = pkg.path.stat().st_size
        if size > limits.max_file_bytes:
            raise LimitExceeded(f"File is {size} bytes, over the file size limit ({limits.max_file_bytes}).")
        try:
            pkg._fp = open(pkg.path, "rb")
            pkg._zip = zipfile.ZipFile(pkg._fp)
        except zipfile.BadZipFile as e:
            pkg.close()
            raise InvalidDocument(f"'{pkg.path.name}' is not a .docx (zip) file or is truncated: {e}.",
                                  hint="Check that the path names a Word document (.docx).") from None
        try:
            pkg._check_members()
        except Exception:
            pkg.close()
            raise
        for info in pkg._zip.infolist():
            if not info.is_dir():
                pkg.parts[info.filename] = Part(pkg, info)
        root_rels = pkg.parts.get("_rels/.rels")
        try:
            pkg.strict = root_rels is not None and is_strict_package(pkg._read_member(root_rels.info))
        except Exception:
            pkg.close()
            raise
        return pkg

    @classmethod
    def from_parts(cls, parts: dict[str, bytes]) -> "Package":
        pkg = cls(None)
        for name, data in parts.items():
            pkg.add_part(name, data)
        return pkg

    def _check_members(self) -> None:
        infos = self._zip.infolist()
        lim = self.limits
        if len(infos) > lim.max_parts:
            raise LimitExceeded(f"The package has {len(infos)} parts, over the part count limit ({lim.max_parts}).")
        total = 0
        for info in infos:
            total += info.file_size
            if info.file_size > lim.max_part_uncompressed:
                raise LimitExceeded(f"Part '{info.filename}' unpacks to {info.file_size} bytes, over the "
                                    f"uncompressed part size limit ({lim.max_part_uncompressed}).")
            if info.file_size > lim.ratio_floor and info.file_size > lim.max_ratio * max(info.compress_size, 1):
                raise LimitExceeded(f"Part '{info.filename}' expands {info.file_size // max(info.compress_size, 1)}x "
                                    f"(compression ratio limit {lim.max_ratio}x): a zip bomb?")
            if info.filename.startswith("/") or ".." in info.filename.split("/"):
                raise InvalidDocument(f"Part name '{info.filename}' escapes the package.")
        if total > lim.max_total_uncompressed:
            raise LimitExceeded(f"The package unpacks to {total} bytes, over the total uncompressed size "
                                f"limit ({lim.max_total_uncompressed}).")

    def _read_member(self, info: zipfile.ZipInfo) -> bytes:
        # Read no more than the declared size + 1: a lying header cannot make us inflate a bomb.
        try:
            with self._zip.open(info) as f:
                data = f.read(info.file_size + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as e:
            raise InvalidDocument(f"Part '{info.filename}' cannot be read (damaged or truncated file): {e}.") from None
        if len(data) > info.file_size:
            raise LimitExceeded(f"Part '{info.filename}' inflates beyond its declared size.")
        return data

    def _raw_member(self, info: zipfile.ZipInfo) -> bytes:
        """The member's compressed bytes exactly as stored."""
        self._fp.seek(info.header_offset)
        fields = _LOCAL_HEADER.unpack(self._fp.read(_LOCAL_HEADER.size))
        if fields[0] != b"PK\x03\x04":
            raise InvalidDocument(f"Bad local header for part '{info.filename}'.")
        name_len, extra_len = fields[-2], fields[-1]
        self._fp.seek(info.header_offset + _LOCAL_HEADER.size + name_len + extra_len)
        return self._fp.read(info.compress_size)

    def close(self) -> None:
        for obj in (self._zip, self._fp):
            if obj is not None:
                obj.close()
        self._zip = self._fp = None

    # ---- parts, content types, relationships --------------------------------------------------
    def part(self, name: str) -> Part:
        name = name.lstrip("/")
        if name not in self.parts:
            raise InvalidDocument(f"The package has no part '{name}'.")
        return self.parts[name]

    def has_part(self, name: str) -> bool:
        return name.lstrip("/") in self.parts

    def add_part(self, name: str, data: bytes) -> Part:
        info = zipfile.ZipInfo(name.lstrip("/"), date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16  # 0 made Word for Mac warn
        part = Part(self, info, data)
        self.parts[info.filename] = part
        return part

    @property
    def content_types(self) -> etree._Element:
        return self.part("[Content_Types].xml").tree.getroot()

    def content_type_of(self, name: str) -> str | None:
        root = self.content_types
        name = "/" + name.lstrip("/")
        for o in root.iter(f"{{{CT}}}Override"):
            if o.get("PartName", "").lower() == name.lower():
                return o.get("ContentType")
        ext = posixpath.splitext(name)[1].lstrip(".").lower()
        for d in root.iter(f"{{{CT}}}Default"):
            if d.get("Extension", "").lower() == ext:
                return d.get("ContentType")
        return None

    @staticmethod
    def rels_name(part_name: str) -> str:
        folder, base = posixpath.split(part_name.lstrip("/"))
        return posixpath.join(folder, "_rels", base + ".rels")

    def rels(self, part_name: str) -> list[etree._Element]:
        name = self.rels_name(part_name)
        if name not in self.parts:
            return []
        return list(self.parts[name].tree.getroot().iter(f"{{{PR}}}Relationship"))

    def resolve_target(self, part_name: str, target: str) -> str:
        if target.startswith("/"):
            return target.lstrip("/")
        return posixpath.normpath(posixpath.join(posixpath.dirname(part_name.lstrip("/")), target))

    def main_part_name(self) -> str:
        if not self.has_part("[Content_Types].xml"):
            raise InvalidDocument("The package has no [Content_Types].xml: not an OOXML document.")
        for rel in self.rels(""):
            if rel.get("Type") == RT_OFFICE_DOCUMENT:
                name = self.resolve_target("", rel.get("Target", ""))
                if self.has_part(name):
                    return name
                raise InvalidDocument(f"_rels/.rels names main part '{name}', which is missing.")
        raise InvalidDocument("The package has no main document part (no officeDocument relationship in _rels/.rels).",
                              hint="The file is not a Word document or is damaged.")

    # ---- saving ----------------------------------------------------------------------------
    def save(self, path: str | os.PathLike, transform=None) -> None:
        """Write atomically. ``transform(part) -> bytes | None`` may replace a dirty part's bytes."""
        path = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                self._write_zip(out, transform)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        try:
            dfd = os.open(path.parent, os.O_RDONLY)
            os.fsync(dfd)
            os.close(dfd)
        except OSError:
            pass

    def _write_zip(self, out, transform) -> None:
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as zout:
            for part in self.parts.values():
                if part.dirty or self._fp is None:
                    data = (transform(part) if transform else None) or part.data
                    if self.strict and part.name.endswith((".xml", ".rels")):
                        data = strict_bytes(data, part.name)
                    zout.writestr(self._new_info(part.info), data)
                else:
                    self._copy_raw(zout, part.info)

    @staticmethod
    def _new_info(info: zipfile.ZipInfo) -> zipfile.ZipInfo:
        new = zipfile.ZipInfo(info.filename, date_time=info.date_time)
        new.compress_type = zipfile.ZIP_DEFLATED
        new.external_attr = info.external_attr or (0o644 << 16)
        new.create_system = info.create_system
        return new

    def _copy_raw(self, zout: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        # zipfile has no public raw-copy API (CPython gh-113924): write the local header and
        # the stored bytes ourselves and register the member for the central directory.
        raw = self._raw_member(info)
        new = copy.copy(info)
        new.flag_bits &= ~0x08  # sizes and CRC go in the local header, no data descriptor
        new.extra = b""
        new.header_offset = zout.fp.tell()
        zout.fp.write(new.FileHeader())
        zout.fp.write(raw)
        zout.filelist.append(new)
        zout.NameToInfo[new.filename] = new
        zout.start_dir = zout.fp.tell()
        zout._didModify = True
