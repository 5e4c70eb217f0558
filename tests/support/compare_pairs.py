"""The pairs the compare corpus tests check, and their redlines, built once per test run.

Groups: the scripted pairs in each variant (word, character, no-formatting, moves), image edits
of the pictured files, and unrelated pairs (a corpus file against the next). Each redline is built
with the clock pinned and Word's IDs minted from a generator seeded per pair, so a pair gives the
same bytes every run: the validator's and LibreOffice's caches (by content hash) hold across runs.
The files (original, revised, redline) are written under one temporary folder per test run, and
the same pairs serve the accept/reject tests, the validator test and the LibreOffice test.
"""
from __future__ import annotations

import atexit
import random
import shutil
import tempfile
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

from tests.support import corpus as CORPUS
from tests.support import edits as E
from tests.support import redline as RL

WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
VARIANTS = {"word": {}, "character": dict(granularity="character"), "no-formatting": dict(formatting=False),
            "moves": dict(moves=True)}
GROUPS = (*VARIANTS, "image", "unrelated")
# Consecutive pairs outside the sample that once failed (a sweep of all of them): a copied OLE
# object without the shape type its new part already defines, a field never updated.
ONCE_FAILED = ("aspose-words-python__Shape.OfficeMath_Gold.docx", "pandoc__equations.docx")


@dataclass
class Pair:
    group: str
    name: str          # the original's file name
    a: Path
    b: Path
    redline: Path | None = None  # None when building it raised (error says what)
    options: dict = field(default_factory=dict)
    counts: dict = field(default_factory=dict)
    error: str = ""

    def parts(self) -> dict:
        with zipfile.ZipFile(self.redline) as z:
            return {n: z.read(n) for n in z.namelist()}


def files() -> list[Path]:
    refused = CORPUS.expected_refusals()
    return [f for f in CORPUS.corpus_files() if f.name not in refused] if CORPUS.corpus_dir() else []


def pictured(f: Path) -> bool:
    with zipfile.ZipFile(f) as z:
        return "word/document.xml" in z.namelist() and b"<a:blip " in z.read("word/document.xml")


class _Seeded:
    """secrets' minting functions from a seeded generator: the same redline bytes every run."""

    def __init__(self, seed: int):
        self.rnd = random.Random(seed)

    def token_hex(self, n: int) -> str:
        return self.rnd.randbytes(n).hex()

    def randbelow(self, n: int) -> int:
        return self.rnd.randrange(n)

    def randbits(self, k: int) -> int:
        return self.rnd.getrandbits(k)


@contextmanager
def repeatable(seed: int):
    from ooxml.xml import clock, minting
    saved = minting.secrets
    minting.secrets = _Seeded(seed)
    try:
        with clock.pinned(WHEN):
            yield
    finally:
        minting.secrets = saved


@cache
def _folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="compare-pairs-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _sources(group: str) -> list[tuple[Path, Path | None, int]]:
    """(original, other file or None for a scripted edit, seed) of a group, as the tests have always drawn them."""
    fs = files()
    if group in VARIANTS:
        v = list(VARIANTS).index(group)  # words on half of the files, each other variant on an eighth
        return [(f, None, 100 * v + k) for k, f in enumerate(fs) if k % (2 if v == 0 else 8) == v]
    if group == "image":  # every other pictured file
        return [(f, None, 1000 + k) for k, f in enumerate([f for f in fs if pictured(f)][::2])]
    return [(fs[k], fs[k + 1], 0) for k in range(len(fs) - 1) if k % 4 == 2 or fs[k].name in ONCE_FAILED]


@cache
def pairs(group: str) -> tuple[Pair, ...]:
    out = []
    for k, (f, other, seed) in enumerate(_sources(group)):
        data = f.read_bytes()
        options = VARIANTS.get(group, {})
        pair = Pair(group, f.name, f, other or _folder() / f"{group}-{k}-b.docx", options=options)
        try:
            with repeatable(seed):
                if other is None:
                    kinds = ("image",) if group == "image" else E.EDITS
                    pair.b.write_bytes(E.edited(data, seed, kinds=kinds, count=2 if group == "image" else 5))
                parts, pair.counts = RL.build(data, pair.b.read_bytes(), **options)
            pair.redline = _folder() / f"{group}-{k}-redline.docx"
            pair.redline.write_bytes(E._zip(parts))  # noqa: SLF001
        except Exception as e:  # noqa: BLE001 - reported by the tests as this pair's failure
            pair.error = f"{type(e).__name__}: {e}"
        out.append(pair)
    return tuple(out)


def every_pair() -> list[Pair]:
    return [p for g in GROUPS for p in pairs(g)]
