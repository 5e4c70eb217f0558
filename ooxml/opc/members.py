"""A package file's zip members, read safely: limits checked at open, reads bounded by the declared
sizes, every member's CRC-32 checked before its bytes are trusted or copied raw.

Why one place: a lying header must not make us inflate a bomb, and a damaged member must be refused
by name rather than copied into a file reported as sound (``Package.verify``)."""
from __future__ import annotations

import copy
import io
import struct
import zipfile
import zlib

from ooxml.opc.inflate import ERRORS as INFLATE_ERRORS, Damaged, at_most, header_name, inflated
from ooxml.opc.limits import Limits
from ooxml.xml.errors import InvalidDocument, LimitExceeded

_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)  # the only ones OPC packages use


class Members:
    """The members of the zip in ``data`` (the file's bytes, kept in memory)."""

    def __init__(self, data: bytes):
        self.fp = io.BytesIO(data)
        self.zip = zipfile.ZipFile(self.fp)
        self.verified: set[str] = set()  # members whose CRC-32 matched their data

    def infos(self) -> list[zipfile.ZipInfo]:
        return self.zip.infolist()

    def holds(self, info: zipfile.ZipInfo | None) -> bool:
        """Whether ``info`` is this file's own member (not a part added or renamed since)."""
        return info is not None and self.zip.NameToInfo.get(info.filename) is info

    def check(self, limits: Limits) -> None:
        """Refuse, by name, what is over ``limits`` or unsafe, before anything is inflated."""
        infos = self.infos()
        if len(infos) > limits.max_parts:
            raise LimitExceeded(f"The package has {len(infos)} parts, over the part count limit ({limits.max_parts}).",
                                hint="The operator sets limits.max_parts; a real document has far fewer parts.")
        total = 0
        for info in infos:
            total += info.file_size
            _check_size(info, limits)
            if info.filename.startswith("/") or ".." in info.filename.split("/"):
                raise InvalidDocument(f"Part name '{info.filename}' escapes the package.",
                                      hint="The zip is unsafe or damaged: use the original file.")
            _check_method(info)
        if total > limits.max_total_uncompressed:
            raise LimitExceeded(f"The package unpacks to {total} bytes, over the total uncompressed size "
                                f"limit ({limits.max_total_uncompressed}).",
                                hint="The operator sets limits.max_total_uncompressed; a real document is far smaller.")

    def read(self, info: zipfile.ZipInfo) -> bytes:
        # Read no more than the declared size + 1: a lying header cannot make us inflate a bomb.
        # Reading to the end makes zipfile check the CRC-32 (inflated: checked as zipfile checks it).
        if info.filename in self.verified and info.compress_type == zipfile.ZIP_DEFLATED:
            return self._read_again(info)
        try:
            if info.compress_type == zipfile.ZIP_DEFLATED:  # (inflate.py: a third of zlib's time, as zipfile reads)
                data = inflated(self.raw(info, True), info.file_size, info.CRC, info.filename)
            else:
                with self.zip.open(info) as f:
                    data = f.read(info.file_size + 1)
        except (zipfile.BadZipFile, *INFLATE_ERRORS, Damaged, EOFError, OSError, NotImplementedError,
                RuntimeError) as e:
            raise damaged(info, str(e)) from None
        if len(data) > info.file_size:
            raise LimitExceeded(f"Part '{info.filename}' inflates beyond its declared size.",
                                hint="The file lies about its sizes (damaged, or a zip bomb): use the original.")
        if len(data) < info.file_size:
            raise damaged(info, f"{len(data)} bytes instead of the {info.file_size} declared")
        self.verified.add(info.filename)
        return data

    def _read_again(self, info: zipfile.ZipInfo) -> bytes:
        """A member whose size and CRC were checked: inflated in one bounded call (zipfile's reader
        costs 10 ms more on a 22 MB part, which docx_check's screen reads again: ooxml/check/screen.py)."""
        try:
            data = at_most(self.raw(info), info.file_size + 1)
        except INFLATE_ERRORS as e:
            raise damaged(info, str(e)) from None
        if len(data) != info.file_size:
            raise damaged(info, f"{len(data)} bytes instead of the {info.file_size} declared")
        return data

    def verify(self, info: zipfile.ZipInfo) -> None:
        """Check the member's CRC-32 without keeping its data."""
        if info.filename in self.verified:
            return
        raw = self.raw(info)
        crc, size = 0, 0
        if info.compress_type == zipfile.ZIP_STORED:
            crc, size = zlib.crc32(raw), len(raw)
        else:
            inflater = zlib.decompressobj(-15)
            try:
                chunk = inflater.decompress(raw, 1 << 20)
                while chunk:
                    crc, size = zlib.crc32(chunk, crc), size + len(chunk)
                    if size > info.file_size:
                        break
                    chunk = inflater.decompress(inflater.unconsumed_tail, 1 << 20)
            except zlib.error as e:
                raise damaged(info, str(e)) from None
        if size != info.file_size:
            raise damaged(info, f"it inflates to {size} bytes, not the {info.file_size} declared")
        if crc != info.CRC:
            raise damaged(info, f"CRC-32 {crc:08x} does not match the {info.CRC:08x} recorded")
        self.verified.add(info.filename)

    def raw(self, info: zipfile.ZipInfo, named: bool = False) -> bytes:
        """The member's compressed bytes exactly as stored (``named``: its local header's name checked
        as zipfile checks it)."""
        self.fp.seek(info.header_offset)
        fields = _LOCAL_HEADER.unpack(self.fp.read(_LOCAL_HEADER.size))
        if fields[0] != b"PK\x03\x04":
            raise InvalidDocument(f"Bad local header for part '{info.filename}'.",
                                  hint="The zip is damaged: open the original file, or repair it in Word.")
        name_len, extra_len = fields[-2], fields[-1]
        if named and self.fp.read(name_len) != header_name(info):
            raise zipfile.BadZipFile(f"File name in directory {info.orig_filename!r} and header differ")
        self.fp.seek(info.header_offset + _LOCAL_HEADER.size + name_len + extra_len)
        raw = self.fp.read(info.compress_size)
        if len(raw) != info.compress_size:
            raise damaged(info, "its data is cut short")
        return raw

    def copy_raw(self, zout: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        """Write the member (under ``info``'s name) into ``zout`` as stored: no recompression."""
        # zipfile has no public raw-copy API (CPython gh-113924): write the local header and
        # the stored bytes ourselves and register the member for the central directory.
        self.verify(info)
        raw = self.raw(info)
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

    def close(self) -> None:
        self.zip.close()
        self.fp.close()


def new_info(info: zipfile.ZipInfo) -> zipfile.ZipInfo:
    """A fresh member's header, keeping ``info``'s name, date and permissions."""
    new = zipfile.ZipInfo(info.filename, date_time=info.date_time)
    new.compress_type = zipfile.ZIP_DEFLATED
    new.external_attr = info.external_attr or (0o644 << 16)
    new.create_system = info.create_system
    return new


def _check_size(info: zipfile.ZipInfo, limits: Limits) -> None:
    if info.file_size > limits.max_part_uncompressed:
        raise LimitExceeded(f"Part '{info.filename}' unpacks to {info.file_size} bytes, over the "
                            f"uncompressed part size limit ({limits.max_part_uncompressed}).",
                            hint="The operator sets limits.max_part_uncompressed.")
    if info.file_size > limits.ratio_floor and info.file_size > limits.max_ratio * max(info.compress_size, 1):
        raise LimitExceeded(f"Part '{info.filename}' expands {info.file_size // max(info.compress_size, 1)}x "
                            f"(compression ratio limit {limits.max_ratio}x): a zip bomb?",
                            hint="A real document compresses far less; the operator sets limits.max_ratio.")


def _check_method(info: zipfile.ZipInfo) -> None:
    """Members Word could not read either are refused at open, by name."""
    if info.flag_bits & 0x1:
        raise InvalidDocument(f"Part '{info.filename}' is encrypted (zip encryption), which Word documents never use.",
                              hint="Use the unencrypted document; Word protects files differently.")
    if info.compress_type not in _METHODS:
        raise InvalidDocument(
            f"Part '{info.filename}' uses zip compression method {info.compress_type}; Word documents use "
            "only 0 (stored) or 8 (deflated).",
            hint="Re-save the document in Word or LibreOffice, or re-zip it with ordinary deflate compression.")


def damaged(info: zipfile.ZipInfo, why: str) -> InvalidDocument:
    return InvalidDocument(f"Part '{info.filename}' is damaged: {why}.",
                           hint="The file is corrupt; use a backup, or let Word repair it and save a new copy.")
