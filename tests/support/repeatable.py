"""Runs that write the same bytes every time: the clock pinned and every minted value (our IDs, Word's
paraIds) from a generator seeded by the caller, so LibreOffice's and the validator's caches (keyed by
a file's content) hold across test runs."""
from __future__ import annotations

import random
import zlib
from contextlib import contextmanager
from datetime import datetime, timezone

WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


class _Seeded:
    """What ooxml/xml/minting.py reads from ``secrets`` and ``os``, from a seeded generator."""

    def __init__(self, seed: int):
        self.rnd = random.Random(seed)

    def urandom(self, n: int) -> bytes:
        return self.rnd.randbytes(n)

    def token_hex(self, n: int) -> str:
        return self.rnd.randbytes(n).hex()

    def randbelow(self, n: int) -> int:
        return self.rnd.randrange(n)

    def randbits(self, k: int) -> int:
        return self.rnd.getrandbits(k)


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


@contextmanager
def repeatable(seed: int):
    """In this thread's process: minted values from ``seed``, the clock at ``WHEN`` (not thread-safe: one
    caller at a time, as the corpus loops are)."""
    from ooxml.xml import clock, minting
    saved = minting.secrets, minting.os
    minting.secrets = minting.os = _Seeded(seed)
    try:
        with clock.pinned(WHEN):
            yield
    finally:
        minting.secrets, minting.os = saved
