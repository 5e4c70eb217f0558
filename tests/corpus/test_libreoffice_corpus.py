"""LibreOffice opens every saved file whose original it opens.

Each editable corpus file is opened, given IDs (as a client session would) and saved; the
originals and the saved files are converted to PDF by headless LibreOffice in batches (two
concurrent processes; originals cached on disk by content hash, see
tests/support/libreoffice.py). A saved file must convert wherever its original converts,
and give the same text (digits masked: date/time fields; a mismatch is converted again, as
LibreOffice is not always deterministic).

Select with ``-m libreoffice``. Without soffice the tests skip, with the reason; with
``OOXML_MCP_REQUIRE_SOFFICE=1`` (CI) a missing soffice/pdftotext is an error instead.
"""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support import report
from tests.support.corpus import corpus_params, editable_files, save_with_ids
from tests.support.repeatable import repeatable, seed_of
from tests.support.libreoffice import (convert_cached, convert_to_pdf, normalised_text, pdf_text, pdf_texts,
                                       require_soffice)

pytestmark = [pytest.mark.corpus, pytest.mark.libreoffice]


@dataclass
class Conversions:
    originals: dict[Path, Path | None] = field(default_factory=dict)  # original -> cached PDF
    saved: dict[Path, Path | Exception] = field(default_factory=dict)  # original -> saved file
    saved_pdfs: dict[Path, Path | None] = field(default_factory=dict)  # saved file -> PDF
    notes: dict[Path, str] = field(default_factory=dict)  # saved file -> why no PDF
    again: dict[Path, tuple[str | None, str | None]] = field(default_factory=dict)  # original -> texts


def _text(pdf: Path | None) -> str | None:
    return normalised_text(pdf_text(pdf)) if pdf is not None else None


@pytest.fixture(scope="module")
def conversions(tmp_path_factory) -> Conversions:
    require_soffice(need_pdftotext=True)
    files = editable_files()
    t0 = time.monotonic()
    result = Conversions()
    saved_dir = tmp_path_factory.mktemp("lo-saved")
    for path in files:
        out = saved_dir / path.name
        try:
            with repeatable(seed_of(path.name)):  # the same bytes every run: LibreOffice's cache holds
                save_with_ids(path, out)
            result.saved[path] = out.resolve()
        except Exception as e:  # reported by the test of that file
            result.saved[path] = e
    t_save = time.monotonic()
    result.originals = convert_cached(files, label="corpus originals")
    t_orig = time.monotonic()
    to_convert = [p for p in result.saved.values() if isinstance(p, Path)]
    result.saved_pdfs = convert_cached(to_convert, label="saved files", notes=result.notes)
    t_saved = time.monotonic()
    # LibreOffice's layout is not always deterministic (it can depend on what the same
    # process converted before): where the texts differ, convert original and saved again,
    # side by side, in one more batch.
    pairs = {}
    again_dir = tmp_path_factory.mktemp("lo-again")
    texts = pdf_texts([*result.originals.values(), *result.saved_pdfs.values()])
    for path in files:
        saved = result.saved[path]
        o_pdf = result.originals.get(path.resolve())  # keys are resolved paths
        s_pdf = result.saved_pdfs.get(saved) if isinstance(saved, Path) else None
        if (o_pdf is not None and s_pdf is not None
                and normalised_text(texts[o_pdf]) != normalised_text(texts[s_pdf])):
            copy = again_dir / f"original__{path.name}"
            shutil.copyfile(path, copy)
            pairs[path] = (copy.resolve(), saved)
    if pairs:
        again = convert_to_pdf([p for pair in pairs.values() for p in pair], again_dir / "pdf")
        for path, (copy, saved) in pairs.items():
            result.again[path] = (_text(again[copy]), _text(again[saved]))
    t_end = time.monotonic()
    report(f"LibreOffice: saved files: {len(to_convert)} converted in {t_saved - t_orig:.1f}s "
           f"({sum(v is None for v in result.saved_pdfs.values())} did not convert); "
           f"{len(pairs)} with a different text converted again in {t_end - t_saved:.1f}s")
    report(f"test_libreoffice_corpus setup: save {t_save - t0:.1f}s, originals {t_orig - t_save:.1f}s, "
           f"saved files {t_saved - t_orig:.1f}s, again {t_end - t_saved:.1f}s, total {t_end - t0:.1f}s")
    return result


@pytest.fixture(scope="module", autouse=True)
def _suite_timing():
    t0 = time.monotonic()
    yield
    report(f"test_libreoffice_corpus: {time.monotonic() - t0:.1f}s")


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_saved_file_converts_like_original(path, conversions):
    original_pdf = conversions.originals.get(path.resolve())
    if original_pdf is None:
        pytest.skip("LibreOffice does not convert the original either")
    saved = conversions.saved[path]
    if isinstance(saved, Exception):
        pytest.fail(f"open/save failed: {type(saved).__name__}: {saved}")
    saved_pdf = conversions.saved_pdfs.get(saved)
    assert saved_pdf is not None, (f"LibreOffice converts the original but not the saved file: "
                                   f"{conversions.notes.get(saved, 'no PDF')}")
    if path not in conversions.again:
        return  # same text
    text_o, text_s = conversions.again[path]
    if text_o is not None and text_o == text_s:
        return  # differed in the batch, same side by side
    if text_o != _text(original_pdf):
        report(f"LibreOffice: {path.name}: output not deterministic (the original's text changes between "
               "conversions); text not compared")
        pytest.skip("LibreOffice's text for the original changes between conversions")
    text_s = text_s or ""
    diff = next(i for i, (a, b) in enumerate(zip(text_o + "\0", text_s + "\1")) if a != b)
    lo, hi = max(0, diff - 60), diff + 60
    pytest.fail(f"the saved file's PDF text differs from the original's at char {diff}: "
                f"original …{text_o[lo:hi]!r}… saved …{text_s[lo:hi]!r}…")


def test_libreoffice_converted_the_originals(conversions):
    """Guard: the per-file tests skip files whose original does not convert; if a lookup or an
    install went wrong they would all skip and prove nothing. The corpus README: 169 of 170 convert."""
    files = editable_files()
    converted = sum(conversions.originals.get(p.resolve()) is not None for p in files)
    assert converted >= len(files) - 2, f"only {converted} of {len(files)} originals converted"
