"""LibreOffice opens every saved file whose original it opens.

Each editable corpus file is opened, given IDs (as a client session would) and saved; the
originals and the saved files are converted to PDF by headless LibreOffice in batches (two
concurrent processes; originals cached on disk by content hash, see
tests/support/libreoffice.py). A saved file must convert wherever its original converts,
and give the same text.

Select with ``-m libreoffice``. Without soffice the tests skip, with the reason; with
``OOXML_MCP_REQUIRE_SOFFICE=1`` (CI) a missing soffice/pdftotext is an error instead.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support import report
from tests.support.corpus import corpus_params, editable_files, save_with_ids
from tests.support.libreoffice import convert_cached, convert_to_pdf, pdf_text, require_soffice

pytestmark = [pytest.mark.corpus, pytest.mark.libreoffice]


@dataclass
class Conversions:
    originals: dict[Path, Path | None] = field(default_factory=dict)
    saved: dict[Path, Path | Exception] = field(default_factory=dict)
    saved_pdfs: dict[Path, Path | None] = field(default_factory=dict)
    notes: dict[Path, str] = field(default_factory=dict)


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
            save_with_ids(path, out)
            result.saved[path] = out
        except Exception as e:  # reported by the test of that file
            result.saved[path] = e
    t_save = time.monotonic()
    result.originals = convert_cached(files, label="corpus originals")
    t_orig = time.monotonic()
    to_convert = [p for p in result.saved.values() if isinstance(p, Path)]
    result.saved_pdfs = convert_to_pdf(to_convert, tmp_path_factory.mktemp("lo-pdf"), notes=result.notes)
    t_end = time.monotonic()
    report(f"LibreOffice: saved files: {len(to_convert)} converted in {t_end - t_orig:.1f}s "
           f"({sum(v is None for v in result.saved_pdfs.values())} did not convert)")
    report(f"test_libreoffice_corpus setup: save {t_save - t0:.1f}s, originals {t_orig - t_save:.1f}s, "
           f"saved files {t_end - t_orig:.1f}s, total {t_end - t0:.1f}s")
    return result


@pytest.fixture(scope="module", autouse=True)
def _suite_timing():
    t0 = time.monotonic()
    yield
    report(f"test_libreoffice_corpus: {time.monotonic() - t0:.1f}s")


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_saved_file_converts_like_original(path, conversions):
    original_pdf = conversions.originals.get(path)
    if original_pdf is None:
        pytest.skip("LibreOffice does not convert the original either")
    saved = conversions.saved[path]
    if isinstance(saved, Exception):
        pytest.fail(f"open/save failed: {type(saved).__name__}: {saved}")
    saved_pdf = conversions.saved_pdfs.get(saved.resolve())
    assert saved_pdf is not None, (f"LibreOffice converts the original but not the saved file: "
                                   f"{conversions.notes.get(saved.resolve(), 'no PDF')}")
    assert pdf_text(saved_pdf) == pdf_text(original_pdf), "the saved file's PDF text differs from the original's"
