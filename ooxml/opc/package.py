"""An OPC package (.docx): parts, content types, relationships; lossless save.

The file is read into memory once, at open: later changes to it on disk cannot reach a save.
Every member's CRC-32 is checked (at open, see ``verify``) so a damaged part is refused rather
than copied. Parts nobody touched are written back as their original compressed bytes (no
recompression); touched parts are re-serialised, keeping their XML declaration. Saving goes
through ``ooxml.opc.savefile`` (atomic, no lost updates, permissions kept).
"""
from __future__ import annotations

import functools
import io
import os
import posixpath
import re
import struct
import zipfile
from pathlib import Path

from lxml import etree

from ooxml.xml.errors import InvalidDocument, LimitExceeded
from ooxml.opc.types import CT as TYPES, RT
from ooxml.xml.namespaces import CT, PR
from ooxml.opc.limits import DEFAULT_LIMITS, Limits  # noqa: F401 (imported from here too)
from ooxml.opc.outfile import DOCUMENT, write_file
from ooxml.opc.sniff import mislabelled
from ooxml.opc.savefile import FileStamp, read_stamped
from ooxml.opc.members import Members, new_info
from ooxml.opc.part import Part, PartTable
from ooxml.opc.strict import is_strict_package, strict_bytes

RELS_CT = TYPES.RELATIONSHIPS


KEEP = object()  # from a save transform: write the part's original bytes


_RELATIONSHIP = f"{{{PR}}}Relationship"


@functools.lru_cache(maxsize=4096)  # pure functions of part names, asked on every edit
def _rels_name(part_name: str) -> str:
    folder, base = posixpath.split(part_name.lstrip("/"))
    return posixpath.join(folder, "_rels", base + ".rels")


@functools.lru_cache(maxsize=4096)
def _resolve_target(part_name: str, target: str) -> str:
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(part_name.lstrip("/")), target))


class Package:
    def __init__(self, path: Path | None, limits: Limits = DEFAULT_LIMITS):
        self.path = path
        self.limits = limits
        self.parts: PartTable = PartTable()
        self.prepare_hook = None  # part name -> a bytes adjustment to make before parsing, or None
        self.strict = False  # ISO/IEC 29500 Strict: parts are mapped to Transitional URIs and back
        self.touch_log: dict[str, bool] | None = None  # part touched -> dirty before, while a call records
        self._members: Members | None = None  # the file as opened, in memory
        self.stamps: dict[str, FileStamp] = {}  # real path -> what we read or wrote there last
        self._rels_seen: dict[str, tuple] = {}  # rels part name -> what rels() read (see there)

    # ---- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike, limits: Limits = DEFAULT_LIMITS) -> "Package":
        path = Path(path)
        size = path.stat().st_size
        if size > limits.max_file_bytes:
            raise LimitExceeded(f"File is {size} bytes, over the file size limit ({limits.max_file_bytes}).",
                                hint="Open a smaller file; the operator sets limits.max_file_bytes.")
        data, stamp = read_stamped(path, limits.max_file_bytes)
        if len(data) > limits.max_file_bytes:
            raise LimitExceeded(f"File grew over the file size limit ({limits.max_file_bytes}) while it was read.",
                                hint="Open it again once nothing else is writing it.")
        pkg = cls.from_bytes(data, path, limits)
        pkg.stamps[os.path.realpath(path)] = stamp
        return pkg

    @classmethod
    def from_bytes(cls, data: bytes, path: Path | None = None, limits: Limits = DEFAULT_LIMITS) -> "Package":
        """A package read from a file's bytes (``path`` only names it in messages and saves)."""
        pkg = cls(path, limits)
        label = path.name if path else "document"
        try:
            pkg._members = Members(data)
        except (zipfile.BadZipFile, UnicodeDecodeError, ValueError, struct.error, OSError, EOFError,
                OverflowError) as e:  # a damaged directory fails in any of these ways
            pkg.close()
            raise (mislabelled(label, data, {"ooxml"}) or
                   InvalidDocument(f"'{label}' is not a .docx (zip) file or is truncated: {e}.",
                                   hint="Check that the path names a Word document (.docx).")) from None
        if "[Content_Types].xml" not in pkg._members.zip.NameToInfo and (wrong := mislabelled(label, data, {"ooxml"})):
            pkg.close()
            raise wrong  # a zip, but another format's (an .odt renamed .docx)
        try:
            pkg._members.check(limits)
        except Exception:
            pkg.close()
            raise
        for info in pkg._members.infos():
            if not info.is_dir():
                pkg.parts[info.filename] = Part(pkg, info)
        root_rels = pkg.parts.get("_rels/.rels")
        try:
            pkg.strict = root_rels is not None and is_strict_package(pkg.read_member(root_rels.info))
        except Exception:
            pkg.close()
            raise
        return pkg

    @property
    def source(self) -> bytes | None:
        """The file's bytes as opened (None for a new package)."""
        return self._members.fp.getvalue() if self._members is not None else None

    @classmethod
    def from_parts(cls, parts: dict[str, bytes]) -> "Package":
        pkg = cls(None)
        for name, data in parts.items():
            pkg.add_part(name, data)
        return pkg

    def read_member(self, info: zipfile.ZipInfo) -> bytes:
        """A member's bytes as the file holds them (bounded and CRC-checked: ``members``)."""
        return self._members.read(info)

    def holds_original(self, info: zipfile.ZipInfo | None) -> bool:
        """Whether ``info`` is a member of the file as opened."""
        return self._members is not None and self._members.holds(info)

    def copy_raw(self, zout: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        """The member written into ``zout`` (under ``info``'s name) as stored."""
        self._members.copy_raw(zout, info)

    def verify(self) -> None:
        """Check the CRC-32 of every member not yet read, without keeping its data.

        A raw copy writes a member's stored bytes as they are: a damaged one must be refused
        here, not copied into a file reported as sound.
        """
        for part in self.parts.values():
            if part.info is not None and not part.dirty:
                self._members.verify(part.info)

    def close(self) -> None:
        if self._members is not None:
            self._members.close()
        self._members = None
        self._rels_seen.clear()  # it holds parts, which point back here

    # ---- parts, content types, relationships --------------------------------------------------
    def part(self, name: str) -> Part:
        name = name.lstrip("/")
        if name not in self.parts:
            raise InvalidDocument(f"The package has no part '{name}'.",
                                  hint="The package is incomplete: open the original file, or repair it in Word.")
        return self.parts[name]

    def has_part(self, name: str) -> bool:
        return name.lstrip("/") in self.parts

    # ---- writing the package: THE one way to add parts, relationships and content types. Each
    # write touches the part it changed ([Content_Types].xml, a .rels part), so undo restores it.

    def add_part(self, name: str, data: bytes, content_type: str | None = None) -> Part:
        """A new part; with ``content_type``, its Override too."""
        info = zipfile.ZipInfo(name.lstrip("/"), date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16  # 0 made Word for Mac warn
        part = Part(self, info, data)
        self.parts[info.filename] = part
        if content_type is not None:
            self.set_override(info.filename, content_type)
        return part

    def free_name(self, first: str, numbered: str) -> str:
        """``first`` ('word/numbering.xml') if free, else ``numbered`` ('word/numbering{}.xml') with the
        first free number from 2."""
        taken = {name.lower() for name in self.parts}
        name, n = first, 2
        while name.lower() in taken:
            name, n = numbered.format(n), n + 1
        return name

    def set_override(self, name: str, content_type: str) -> None:
        """The part's content-type Override (kept when one names the part already)."""
        root = self.content_types
        wanted = "/" + name.lstrip("/").lower()
        if any(o.get("PartName", "").lower() == wanted for o in root.iter(f"{{{CT}}}Override")):
            return
        etree.SubElement(root, f"{{{CT}}}Override", PartName="/" + name.lstrip("/"), ContentType=content_type)
        self.part("[Content_Types].xml").touch()

    def drop_override(self, name: str) -> None:
        root = self.content_types
        gone = [o for o in root.iter(f"{{{CT}}}Override") if o.get("PartName", "").lstrip("/") == name.lstrip("/")]
        for o in gone:
            root.remove(o)
        if gone:
            self.part("[Content_Types].xml").touch()

    def set_default(self, ext: str, content_type: str) -> bool:
        """A content-type Default for ``ext`` unless one exists; True when added."""
        root = self.content_types
        if any(d.get("Extension", "").lower() == ext.lower() for d in root.iter(f"{{{CT}}}Default")):
            return False
        default = etree.Element(f"{{{CT}}}Default", Extension=ext, ContentType=content_type)
        first_override = root.find(f"{{{CT}}}Override")  # any order is valid; Word writes Defaults first
        if first_override is not None:
            first_override.addprevious(default)
        else:
            root.append(default)
        self.part("[Content_Types].xml").touch()
        return True

    def rels_root(self, part_name: str) -> etree._Element:
        """The Relationships root of a part's rels, created when the part had none."""
        name = self.rels_name(part_name)
        if not self.has_part(name):
            self.add_part(name, b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                                b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>')
            self.set_default("rels", RELS_CT)
        return self.part(name).tree.getroot()

    def relate(self, source: str, rel_type: str, target: str, external: bool = False) -> str:
        """A relationship from ``source`` (an identical one reused); its Id."""
        root = self.rels_root(source)
        used = set()
        for rel in root.iter(f"{{{PR}}}Relationship"):
            used.add(rel.get("Id"))
            if rel.get("Type") == rel_type and rel.get("Target") == target and \
                    (rel.get("TargetMode") == "External") == external:
                return rel.get("Id")
        numbers = [int(m.group(1)) for rid in used if rid and (m := re.fullmatch(r"rId(\d+)", rid))]
        n = max(numbers, default=0) + 1
        while f"rId{n}" in used:
            n += 1
        attrs = {"Id": f"rId{n}", "Type": rel_type, "Target": target}
        if external:
            attrs["TargetMode"] = "External"
        etree.SubElement(root, f"{{{PR}}}Relationship", attrs)
        self.part(self.rels_name(source)).touch()
        return attrs["Id"]

    def relate_part(self, source: str, rel_type: str, part_name: str) -> str:
        """A relationship from ``source`` to the part ``part_name`` (a relative target)."""
        target = posixpath.relpath(part_name.lstrip("/"), posixpath.dirname(source.lstrip("/")) or ".")
        return self.relate(source, rel_type, target)

    def remove_parts(self, names: list[str]) -> None:
        """Parts out of the package with every relationship to them and their content types. The rels
        of a part that goes are never edited (undo restores a dropped part as it was)."""
        going = set(names) | {self.rels_name(n) for n in names}
        for rels_name in [n for n in self.parts if n.endswith(".rels") and n not in going]:
            source = self.source_of(rels_name)
            root = self.part(rels_name).tree.getroot()
            gone = [r for r in root.iter(f"{{{PR}}}Relationship") if r.get("TargetMode") != "External"
                    and self.resolve_target(source, r.get("Target", "")) in going]
            for r in gone:
                root.remove(r)
            if gone:
                self.part(rels_name).touch()
        for name in going:
            self.parts.pop(name, None)
            self.drop_override(name)

    def unrelate(self, source: str, ids: set[str]) -> None:
        """Drop the relationships ``ids`` of ``source``."""
        rels_part = self.part(self.rels_name(source))
        for rel in list(rels_part.tree.getroot().iter(f"{{{PR}}}Relationship")):
            if rel.get("Id") in ids:
                rel.getparent().remove(rel)
        rels_part.touch()

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
        return _rels_name(part_name)

    @staticmethod
    def source_of(rels_name: str) -> str:
        """``word/_rels/document.xml.rels`` -> ``word/document.xml``."""
        folder, base = posixpath.split(rels_name)
        return posixpath.join(posixpath.dirname(folder), base[: -len(".rels")])

    def rels(self, part_name: str) -> list[etree._Element]:
        name = _rels_name(part_name)
        part = self.parts.get(name)
        if part is None:
            return []
        tree = part._tree if part._tree is not None else part.tree  # loaded: without the prepare hook's calls
        root = tree.getroot()
        # Read on every edit (list labels, link tidying): kept while the part, its tree, its touches
        # and its number of relationships stay the same (relate/unrelate touch the part).
        seen = self._rels_seen.get(name)
        if seen is not None and seen[0] is part and seen[1] is root and seen[2] == part.touches \
                and seen[3] == len(root):
            return list(seen[4])
        rels = list(root.iter(_RELATIONSHIP))
        self._rels_seen[name] = (part, root, part.touches, len(root), rels)
        return list(rels)

    @staticmethod
    def resolve_target(part_name: str, target: str) -> str:
        return _resolve_target(part_name, target)

    def main_part_name(self) -> str:
        if not self.has_part("[Content_Types].xml"):
            raise InvalidDocument("The package has no [Content_Types].xml: not an OOXML document.",
                                  hint="Open a .docx saved by Word, LibreOffice or another OOXML editor.")
        for rel in self.rels(""):
            if rel.get("Type") == RT.OFFICE_DOCUMENT:
                name = self.resolve_target("", rel.get("Target", ""))
                if self.has_part(name):
                    return name
                raise InvalidDocument(f"_rels/.rels names main part '{name}', which is missing.",
                                      hint="The package is incomplete: open the original file, or repair it in Word.")
        raise InvalidDocument("The package has no main document part (no officeDocument relationship in _rels/.rels).",
                              hint="The file is not a Word document or is damaged.")

    # ---- saving ----------------------------------------------------------------------------
    def save(self, path: str | os.PathLike, transform=None, *, overwrite: bool = False,
             check_dir=None, remember: bool = True) -> FileStamp:
        """Write through the one file writer (``ooxml.opc.outfile``); returns the new file's stamp.

        ``remember=False``: a throwaway copy (e.g. for a layout), not a save of the document: its
        stamp is not kept, so nothing (durable sessions, FileChanged checks) takes it for one.

        ``transform(part) -> bytes | KEEP | None`` may replace any part's bytes (KEEP: its
        original bytes; None: the usual, re-serialised if dirty, else copied raw). A file at ``path`` that is not what this package read or wrote there
        last is refused with FileChanged unless ``overwrite``. ``check_dir(real_folder)`` may
        refuse the folder the file is written in.
        """
        path = Path(path)
        self.verify()
        stamp = write_file(path, lambda out: self.write_zip(out, transform), kind=DOCUMENT, inside=check_dir,
                           expected=self.stamps.get(os.path.realpath(path)), overwrite=overwrite)
        if remember:
            self.stamps[os.path.realpath(path)] = stamp
        return stamp

    def to_bytes(self, transform=None) -> bytes:
        """The file ``save`` would write, as bytes (for stores that are not folders)."""
        self.verify()
        out = io.BytesIO()
        self.write_zip(out, transform)
        return out.getvalue()

    def write_zip(self, out, transform) -> None:
        """The package as a zip into ``out`` (``transform``: see ``save``)."""
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as zout:
            for part in self.parts.values():
                data = transform(part) if transform else None  # may be asked of untouched parts too
                if data is None and (part.dirty or self._members is None):
                    data = part.data
                if data is not None and data is not KEEP and self.strict and part.name.endswith((".xml", ".rels")):
                    data = strict_bytes(data, part.name)
                if data is None or data is KEEP:
                    self.copy_raw(zout, part.info)
                else:
                    zout.writestr(new_info(part.info), data)
