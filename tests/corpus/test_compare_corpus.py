"""docx_compare over the corpus: the two definitions of correct, self-compare, validity.

- Self-compare of every corpus file gives no revision.
- For pairs made by scripted edits of corpus files (tests/support/edits.py: words, inserted,
  deleted and moved paragraphs, runs made bold, cells, rows, headers, footnotes, list levels,
  images),
  accepting every revision of the redline gives the edited file and rejecting every one gives
  the original (stories compared through tests/support/redline.py's normal view), by words, by
  characters, without formatting, and with moves.
- Every one of those redlines adds no new Open XML SDK validator error kinds (one batched run) and
  no new check_package problems (tests/tools/docx/test_compare_office.py converts each in LibreOffice).
"""
from __future__ import annotations

import functools
import re

import pytest

from ooxml.model.document import Document
from ooxml.model.integrity import check_package
from ooxml.opc.package import Package
from tests.support import compare_pairs as CP
from tests.support import corpus as CORPUS
from tests.support import edits as E
from tests.support import redline as RL


files = CP.files


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


def _failures(group: str) -> dict:
    failed = {}
    for pair in CP.pairs(group):
        try:
            assert not pair.error, pair.error
            RL.check_parts(pair.parts(), pair.a.read_bytes(), pair.b.read_bytes(),
                           pair.options.get("formatting", True))
        except AssertionError as e:
            failed[pair.name] = str(e)
    return failed


@pytest.mark.parametrize("variant", list(CP.VARIANTS))
def test_accept_gives_revised_and_reject_gives_original(variant):
    """Words on half of the files, each other variant on an eighth (tests/support/compare_pairs.py)."""
    if not files():
        pytest.skip(CORPUS.missing_reason())
    assert _failures(variant) == {}


def test_images_removed_and_resized_hold_both_ways():
    """Every other corpus file with pictures, two of them removed or resized (a resized picture is
    a replaced one: deleted and inserted), since the mixed script rarely picks an image."""
    if not CP.pairs("image"):
        pytest.skip(CORPUS.missing_reason())
    assert _failures("image") == {}
    changed = sum(bool(p.counts) for p in CP.pairs("image"))
    assert changed >= len(CP.pairs("image")) // 2


def test_unrelated_documents_hold_both_ways():
    """Two different corpus files (every 4th against the next): every block differs, headers and
    footers, sections, tables, equations and comments one side lacks; accept-all still gives the
    second, reject-all the first."""
    if not files():
        pytest.skip(CORPUS.missing_reason())
    assert _failures("unrelated") == {}


def test_every_redline_validates_like_its_documents():
    """Every redline the tests above build: no check_package problem that neither document has, and
    no Open XML SDK validator error kind that neither has (one batched run, cached by content)."""
    from tests.support.sdk_validator import require, validate_files
    if not files():
        pytest.skip(CORPUS.missing_reason())
    require()
    built = [p for p in CP.every_pair() if p.redline is not None]  # a build that raised fails above
    problems = {}
    for pair in built:
        new = set(check_package(Document(Package.from_parts(pair.parts())))) - _problems(pair.a) - _problems(pair.b)
        if new:
            problems[f"{pair.group}/{pair.name}"] = sorted(new)
    assert problems == {}
    # The revised file is validated only where the redline has kinds its original lacks (few do):
    # an edit's own errors are not the redline's, and most revised files need no run at all.
    found = validate_files([f for p in built for f in (p.a, p.redline)], processes=2)
    suspects = [p for p in built if _unnumbered(found[p.redline.resolve()]) - _unnumbered(found[p.a.resolve()])]
    found.update(validate_files([p.b for p in suspects]))
    news = {}
    for pair in suspects:
        new = _unnumbered(found[pair.redline.resolve()]) - _unnumbered(found[pair.a.resolve()]) - _unnumbered(
            found[pair.b.resolve()]) - STRICT_CONVERSION.get(pair.b.name, set())
        if new:
            news[f"{pair.group}/{pair.name}"] = sorted(new)[:3]
    assert news == {}


# Kinds a Strict revised file's Transitional reading has and the Strict file itself does not: a
# Strict w:cnfStyle has the row/column attributes only, Transitional wants w:val too (ooxml/opc/strict.py
# converts names, not this; any save of the file has it, not only a redline).
STRICT_CONVERSION = {"Open-XML-SDK__Strict01.docx": {
    "/word/document.xml Sch_MissRequiredAttribute The required attribute 'val' is missing."}}


@functools.cache
def _problems(path) -> set:
    return set(check_package(Document.from_bytes(path.read_bytes())))


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
