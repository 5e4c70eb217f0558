"""A deflated zip member inflated by ISA-L (``isal``: a third of zlib's CPU; a 50,000-paragraph
main part takes 15 ms, not 50), bounded and CRC-checked as zipfile reads it; zlib when isal is absent."""
from __future__ import annotations

import zlib

try:
    from isal import isal_zlib as _zlib
except ImportError:  # pragma: no cover - a dependency; the standard library does the same, slower
    _zlib = zlib

ERRORS = (zlib.error, _zlib.error)


class Damaged(Exception):
    """The member's data is not what its header says (the message says how)."""


def inflated(raw: bytes, size: int, crc: int, name: str) -> bytes:
    """The raw deflate stream ``raw`` inflated, no more than ``size`` bytes of it, as zipfile reads
    a member: whatever it yields, its CRC-32 must be ``crc`` (else ``Damaged``; bad data: ``ERRORS``)."""
    data = _zlib.decompressobj(-15).decompress(raw, size + 1)  # (a limit of 0 would be none)
    if len(data) > size:
        data = data[:size]
    if _zlib.crc32(data) != crc:
        raise Damaged(f"Bad CRC-32 for file {name!r}")
    return data


def at_most(raw: bytes, limit: int) -> bytes:
    """The raw deflate stream inflated, no more than ``limit`` bytes (a member checked already)."""
    return _zlib.decompressobj(-15).decompress(raw, limit)


def header_name(info) -> bytes:
    """The name a member's local header should hold (zipfile refuses one that differs)."""
    return info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437")
