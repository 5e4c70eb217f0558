"""Packages inside the package (a chart's workbook, an embedded document): read and rewritten member
by member, recursively, within the package's size limits.

A member that cannot be read (encrypted, compressed by a method zipfile lacks such as Deflate64,
damaged) comes with the reason instead of its bytes: the leak check names it as a place it could not
look, and such a zip is never rewritten. A zip whose central directory is damaged is read from its
local headers (what a salvaging unzip does) and never rewritten either.
"""
from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import Callable, Iterator, NamedTuple

from ooxml.xml.errors import LimitExceeded

MAX_DEPTH = 3
ZIP_MAGIC = b"PK\x03\x04"
SALVAGED = " (read without its zip directory)"  # after the name of a member found by its local header
_LOCAL = struct.Struct("<4s5H3L2H")  # signature, version, flags, method, time, date, crc, sizes, name, extra
_READABLE = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)
_METHODS = {9: "Deflate64", 6: "Implode", 97: "WavPack", 98: "PPMd", 99: "AES", 93: "Zstandard"}


class Member(NamedTuple):
    name: str
    body: bytes | None  # None: it could not be read ...
    why: str | None  # ... for this reason
    info: zipfile.ZipInfo | None  # None: found by its local header (the directory is damaged)


def is_zip(data: bytes) -> bool:
    return data[:4] == ZIP_MAGIC


def is_xml_name(name: str) -> bool:
    return name.lower().endswith((".xml", ".rels", ".vml"))


def members(data: bytes, max_bytes: int) -> Iterator[Member]:
    """Every member, readable or with why not; read from the local headers when the directory is damaged."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        infos = z.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, struct.error):
        yield from _salvaged(data, max_bytes)
        return
    total = 0
    for info in infos:
        total = _counted(total, info.file_size, max_bytes)
        why = _unreadable(info.flag_bits, info.compress_type)
        if why:
            yield Member(info.filename, None, why, info)
            continue
        try:
            yield Member(info.filename, z.read(info), None, info)
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError, RuntimeError,
                zlib.error, LookupError) as e:
            yield Member(info.filename, None, f"damaged: {type(e).__name__}", info)


def _unreadable(flags: int, method: int) -> str | None:
    if flags & 1:
        return "encrypted"
    if method not in _READABLE:
        return f"{_METHODS.get(method, f'method {method}')} compression, which cannot be read"
    return None


def _counted(total: int, size: int, max_bytes: int) -> int:
    total += size
    if total > max_bytes:
        raise LimitExceeded(f"An embedded package unpacks to over {max_bytes:,} bytes.",
                            hint="Remove the embedded object with docx_scrub(categories=['embedded_objects']).")
    return total


def _salvaged(data: bytes, max_bytes: int) -> Iterator[Member]:
    """Members found by their local headers, in order (a zip whose central directory is damaged)."""
    at, total = data.find(ZIP_MAGIC), 0
    while at >= 0 and at + _LOCAL.size <= len(data):
        _, _, flags, method, _, _, _, csize, usize, nlen, xlen = _LOCAL.unpack_from(data, at)
        start = at + _LOCAL.size + nlen + xlen
        name = data[at + _LOCAL.size:at + _LOCAL.size + nlen].decode("utf-8" if flags & 0x800 else "cp437", "replace")
        nxt = data.find(ZIP_MAGIC, start)
        raw = data[start:start + csize] if csize and not flags & 8 else data[start:nxt if nxt >= 0 else len(data)]
        why = _unreadable(flags, method)
        body = None
        if not why:
            try:
                body = _inflated(raw, method, max_bytes - total)
            except zlib.error:
                why = "damaged: cannot be decompressed"
        if body is not None:
            total = _counted(total, len(body), max_bytes)
        yield Member(name + SALVAGED, body, why, None)
        at = data.find(ZIP_MAGIC, start + (0 if flags & 8 else csize))


def _inflated(raw: bytes, method: int, room: int) -> bytes:
    if method == zipfile.ZIP_STORED:
        return raw
    if method != zipfile.ZIP_DEFLATED:
        raise zlib.error("only stored and deflated members are read without the directory")
    d = zlib.decompressobj(-15)
    out = d.decompress(raw, room + 1)
    if len(out) > room:
        _counted(0, len(out), room)
    return out


def rewrite(data: bytes, change: Callable[[str, bytes, int], bytes | None], max_bytes: int,
            depth: int = 0) -> bytes | None:
    """The zip with each member ``change(name, bytes, depth)`` returned new bytes for rewritten (others
    kept); None when nothing changed, and for a zip with a member that cannot be read (it would be lost)."""
    out, changed = [], False
    for m in members(data, max_bytes):
        if m.body is None or m.info is None:
            return None
        body = m.body
        new = change(m.name, body, depth)
        if new is not None and new != body:
            changed = True
            body = new
        out.append((m.info, body))
    if not changed:
        return None
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for info, body in out:
            new_info = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            new_info.compress_type = info.compress_type if info.compress_type in (0, 8) else 8
            new_info.external_attr = info.external_attr
            z.writestr(new_info, body)
    return buf.getvalue()
