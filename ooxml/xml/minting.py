"""Random values that name things (our IDs, Word's paraIds, content control ids), recordable.

Every random value a call mints comes from here. A durable server (tools/runtime/state/durable.py)
records them while a call runs and hands the same values out again, in order, when the call is
replayed from the journal: the replayed document gets the very IDs the client was shown.
"""
from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class Tape:
    """The values one call minted (recording), or the values to give back (replaying)."""

    def __init__(self, values: list | None = None):
        self.values: list = [] if values is None else list(values)
        self.replay = values is not None
        self._next = 0

    def take(self, fresh):
        if not self.replay:
            value = fresh()
            self.values.append(value)
            return value
        if self._next >= len(self.values):
            raise RuntimeError("replay minted more values than the call recorded")
        value = self.values[self._next]
        self._next += 1
        return value


_tape: ContextVar[Tape | None] = ContextVar("ooxml_minting_tape", default=None)


def token_hex(nbytes: int) -> str:
    tape = _tape.get()  # os.urandom: what secrets.token_hex reads, without its three calls per ID
    return os.urandom(nbytes).hex() if tape is None else tape.take(lambda: os.urandom(nbytes).hex())


def randbelow(n: int) -> int:
    tape = _tape.get()
    return secrets.randbelow(n) if tape is None else tape.take(lambda: secrets.randbelow(n))


def randbits(k: int) -> int:
    tape = _tape.get()
    return secrets.randbits(k) if tape is None else tape.take(lambda: secrets.randbits(k))


@contextmanager
def using(tape: Tape) -> Iterator[Tape]:
    token = _tape.set(tape)
    try:
        yield tape
    finally:
        _tape.reset(token)
