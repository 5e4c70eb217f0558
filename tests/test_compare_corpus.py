"""docx_compare over the corpus: the two definitions of correct, self-compare, validity.

- Self-compare of every corpus file gives no revision.
- For pairs made by scripted edits of corpus files (tests/support/edits.py: words, inserted,
  deleted and moved paragraphs, runs made bold, cells, rows, headers, footnotes, list levels,
  images),
  accepting every revision of the redline gives the edited file and rejecting every one gives
  the original (stories compared through tests/support/redline.py's normal view), by words, by
  characters, without formatting, and with moves.
- The redlines of a sample add no new Open XML SDK validator error kinds (one batched run) and no
  new check_package problems.
"""
from __future__ import annotations

import random
import re
from datetime import datetime, timezone

import pytest

from ooxml.xml import clock
from ooxml.model.document import Document
from ooxml.model.integrity import check_package
from ooxml.opc.package import Package
from tests.support import corpus as CORPUS
from tests.support import edits as E
from tests.support import redline as RL


def files():
    refused = CORPUS.expected_refusals()
    return [f for f in CORPUS.corpus_files() if f.name not in refused] if CORPUS.corpus_dir() else []


def test_self_compare_of_every_corpus_file_gives_no_revision():
    if not files():
        pytest.skip(CORPUS.missing_reason())
    changed = {}
    for f in files():
        data = f.read_bytes()
        _, counts = RL.build(data, data)
        if counts:
            changed[f.name] = counts
    assert changed == {}


WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
VARIANTS = [dict(), dict(granularity="character"), dict(formatting=False), dict(moves=True)]


@pytest.mark.parametrize("variant", range(len(VARIANTS)), ids=["word", "character", "no-formatting", "moves"])
def test_accept_gives_revised_and_reject_gives_original(variant):
    if not files():
        pytest.skip(CORPUS.missing_reason())
    failed = {}
    for k, f in enumerate(files()):
        if k % (2 if variant == 0 else 8) != variant:
            continue  # words on half of the files, each other variant on an eighth
        data = f.read_bytes()
        edited = E.edited(data, 100 * variant + k, count=5)
        try:
            RL.check(data, edited, **VARIANTS[variant])
        except AssertionError as e:
            failed[f.name] = str(e)
    assert failed == {}


def _pictured(f) -> bool:
    import zipfile
    with zipfile.ZipFile(f) as z:
        return "word/document.xml" in z.namelist() and b"<a:blip " in z.read("word/document.xml")


def test_images_removed_and_resized_hold_both_ways():
    """Every other corpus file with pictures, two of them removed or resized (a resized picture is
    a replaced one: deleted and inserted), since the mixed script rarely picks an image."""
    pictured = [f for f in files() if _pictured(f)][::2]
    if not pictured:
        pytest.skip(CORPUS.missing_reason())
    failed, changed = {}, 0
    for k, f in enumerate(pictured):
        data = f.read_bytes()
        try:
            changed += bool(RL.check(data, E.edited(data, 1000 + k, kinds=("image",), count=2)))
        except AssertionError as e:
            failed[f.name] = str(e)
    assert failed == {} and changed >= len(pictured) // 2


# Consecutive pairs outside the sample that once failed (a sweep of all of them): a copied OLE
# object without the shape type its new part already defines, a field never updated.
ONCE_FAILED = ("aspose-words-python__Shape.OfficeMath_Gold.docx", "pandoc__equations.docx")


def unrelated_pairs(every: int = 4, offset: int = 2, also=()):
    fs = files()
    return [(fs[k], fs[k + 1]) for k in range(len(fs) - 1) if k % every == offset or fs[k].name in also]


def test_unrelated_documents_hold_both_ways():
    """Two different corpus files: every block differs, headers and footers, sections, tables,
    equations and comments one side lacks; accept-all still gives the second, reject-all the first."""
    if not files():
        pytest.skip(CORPUS.missing_reason())
    failed = {}
    for a, b in unrelated_pairs(also=ONCE_FAILED):
        try:
            RL.check(a.read_bytes(), b.read_bytes())
        except AssertionError as e:
            failed[a.name] = str(e)
    assert failed == {}


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


def test_redlines_validate_like_their_documents(tmp_path, monkeypatch):
    from ooxml.xml import minting
    from tests.support.sdk_validator import require, validate_files
    if not files():
        pytest.skip(CORPUS.missing_reason())
    require()
    monkeypatch.setattr(minting, "secrets", _Seeded(7))  # with the pinned clock: the validator's cache holds
    triples, problems = [], {}
    scripted = [(f.read_bytes(), E.edited(f.read_bytes(), 500 + k, count=6)) for k, f in enumerate(files()[::8])]
    unrelated = [(a.read_bytes(), b.read_bytes()) for a, b in unrelated_pairs(16)]  # new parts, rows, equations
    for k, (data, edited) in enumerate(scripted + unrelated):
        with clock.pinned(WHEN):  # the same redline bytes every run: the validator's cache holds
            parts, _ = RL.build(data, edited, moves=True)
        a, b, red = tmp_path / f"{k}-a.docx", tmp_path / f"{k}-b.docx", tmp_path / f"{k}-redline.docx"
        a.write_bytes(data)
        b.write_bytes(edited)
        red.write_bytes(E._zip(parts))  # noqa: SLF001
        triples.append((a, b, red))
        doc = Document(Package.from_parts(parts))
        new = set(check_package(doc)) - set(check_package(Document.from_bytes(data))) - set(
            check_package(Document.from_bytes(edited)))  # what the redline adds to both documents
        if new:
            problems[k] = sorted(new)
    assert problems == {}
    found = validate_files([p for t in triples for p in t])
    news = {}
    for a, b, red in triples:
        new = _unnumbered(found[red.resolve()]) - _unnumbered(found[a.resolve()]) - _unnumbered(found[b.resolve()])
        if new:
            news[red.name] = sorted(new)[:3]
    assert news == {}


def _unnumbered(errors) -> set[str]:
    """Error kinds with part numbers blanked: a header, chart or image of the original's comes into
    the redline as a part of another number (footer1.xml -> footer5.xml, chart3.xml -> chart3_c1.xml)."""
    from tests.support.sdk_validator import kinds
    return {re.sub(r"\d+(_c\d+)?\.xml", "#.xml", k) for k in kinds(errors)}


def test_redlines_of_strict_files_are_transitional_packages():
    from ooxml.opc.strict import STRICT_MARK
    strict = [f for f in CORPUS.strict_files() if f.name not in CORPUS.expected_refusals()] if files() else []
    if not strict:
        pytest.skip(CORPUS.missing_reason())
    for k, f in enumerate(strict):
        data = f.read_bytes()
        parts, _ = RL.build(data, E.edited(data, 700 + k, count=3))
        mixed = [name for name, part in parts.items() if name.endswith((".xml", ".rels")) and STRICT_MARK in part]
        assert mixed == [], f.name
