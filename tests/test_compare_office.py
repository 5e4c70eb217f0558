"""LibreOffice opens docx_compare's redlines: each converts, and its PDF (changes shown, as
LibreOffice prints them) holds the deleted words. One batched, cached conversion (the clock is
pinned so the redlines are the same bytes every run)."""
from __future__ import annotations

from datetime import datetime, timezone

from ooxml.xml import clock
from tests.builders import build_docx, p, tbl, tc
from tests.support import corpus as CORPUS
from tests.support import edits as E
from tests.support import redline as RL

WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


def redline(path, a: bytes, b: bytes, **kw):
    with clock.pinned(WHEN):
        parts, _ = RL.build(a, b, **kw)
    path.write_bytes(E._zip(parts))  # noqa: SLF001
    return path


def test_libreoffice_converts_redlines_and_shows_deleted_words(tmp_path):
    from tests.support.libreoffice import convert_cached, normalised_text, pdf_text, require_soffice
    require_soffice(need_pdftotext=True)
    a = build_docx(tmp_path / "a.docx", p("The quick brown fox jumps.") + p("Moved paragraph with words.")
                   + tbl([[tc(p("Cellword")), tc(p("Rowgone"))]]) + p("End.")).read_bytes()
    b = build_docx(tmp_path / "b.docx", p("The slow brown fox jumps.") + p("End.")
                   + p("Moved paragraph with words.")).read_bytes()
    mine = {redline(tmp_path / "words.docx", a, b): ["quick", "Rowgone"],
            redline(tmp_path / "moves.docx", a, b, moves=True): ["quick", "Moved"]}
    corpus = []
    if CORPUS.corpus_dir():
        refused = CORPUS.expected_refusals()
        usable = [f for f in CORPUS.corpus_files() if f.name not in refused]
        for k, f in enumerate(usable[::40]):
            data = f.read_bytes()
            corpus.append(redline(tmp_path / f"corpus-{k}.docx", data, E.edited(data, 900 + k, count=4), moves=True))
        for k in range(7, len(usable) - 1, 40):  # unrelated pairs: new header parts, rows, equations, comments
            corpus.append(redline(tmp_path / f"unrelated-{k}.docx", usable[k].read_bytes(), usable[k + 1].read_bytes()))
    results = convert_cached([*mine, *corpus], label="compare redlines")
    assert [x.name for x, pdf in results.items() if pdf is None] == []
    for path, words in mine.items():
        text = normalised_text(pdf_text(results[path]))
        assert all(w in text for w in words), (path.name, text[:300])
