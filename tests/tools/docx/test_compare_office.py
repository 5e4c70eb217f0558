"""LibreOffice opens docx_compare's redlines: each converts, and its PDF (changes shown, as
LibreOffice prints them) holds the deleted words. The redlines are two made here and every one the
corpus tests build (tests/support/compare_pairs.py): one batched, cached conversion (the clock is
pinned and IDs seeded, so the redlines are the same bytes every run)."""
from __future__ import annotations

import re

from tests.builders import build_docx, p, tbl, tc
from tests.support import compare_pairs as CP
from tests.support import edits as E
from tests.support import redline as RL


def redline(path, a: bytes, b: bytes, **kw):
    with CP.repeatable(0):  # pinned clock, seeded IDs (these two documents still carry the time they were built)
        parts, _ = RL.build(a, b, **kw)
    path.write_bytes(E._zip(parts))  # noqa: SLF001
    return path


def test_libreoffice_converts_redlines_and_shows_deleted_words(tmp_path):
    from tests.support.libreoffice import convert_cached, normalised_text, pdf_text, pdf_texts, require_soffice
    require_soffice(need_pdftotext=True)
    a = build_docx(tmp_path / "a.docx", p("The quick brown fox jumps.") + p("Moved paragraph with words.")
                   + tbl([[tc(p("Cellword")), tc(p("Rowgone"))]]) + p("End.")).read_bytes()
    b = build_docx(tmp_path / "b.docx", p("The slow brown fox jumps.") + p("End.")
                   + p("Moved paragraph with words.")).read_bytes()
    mine = {redline(tmp_path / "words.docx", a, b): ["quick", "Rowgone"],
            redline(tmp_path / "moves.docx", a, b, moves=True): ["quick", "Moved"]}
    pairs = {p.redline: p for p in CP.every_pair()  # every corpus test's redline; a crash is never cached:
             if p.redline is not None and f"{p.group}/{p.name}" not in LIBREOFFICE_CRASHES}  # not retried each run
    results = convert_cached([*mine, *pairs], label="compare redlines")
    failed = [f"{p.group}/{p.name}" for r, p in pairs.items() if results[r] is None]
    assert [x.name for x in mine if results[x] is None] == []
    assert failed == []
    for path, words in mine.items():
        text = normalised_text(pdf_text(results[path]))
        assert all(w in text for w in words), (path.name, text[:300])
    texts = pdf_texts(results[r] for r in pairs)
    unseen = {f"{p.group}/{p.name}": missing for r, p in pairs.items() if results[r] is not None
              and not set(missing := _unseen(deleted_words(r), texts[results[r]])) <= NOT_ONE_WORD.get(f"{p.group}/{p.name}", set())}
    assert unseen == {}


# Redlines LibreOffice 7.4 aborts on, though Word's markup: a header only the original has, deleted
# whole, holding an anchored DrawingML group (wpg) (SwDoc::CopyPageDescHeaderFooterImpl; the same
# redline converts with the group's VML fallback alone, or with the header not deleted).
LIBREOFFICE_CRASHES = {"unrelated/onlyoffice-document-templates__sample_sample.docx"}
# Deleted words the PDF's text may not hold as one word, though on the page: "CU Educator" in a
# column 0.6 inch wide, its letters split across lines among other cells' text with CI's fonts.
# A known miss is allowed, never required: with other fonts the word fits and is found.
NOT_ONE_WORD = {"unrelated/Open-XML-SDK__632399964516872542_1.docx": {"Educator"}}


def deleted_words(redline_path) -> list[str]:
    """Words of four letters or more that the body deletes (w:delText), where a page shows them as
    they are: not in hidden runs, field results (LibreOffice updates a DATE) or text boxes."""
    import zipfile
    from lxml import etree
    from ooxml.xml.namespaces import w
    with zipfile.ZipFile(redline_path) as z:  # the main part by its relationship: not always word/document.xml
        main = re.search(rb'Type="[^"]*/officeDocument"[^>]*?Target="/?([^"]+)"|Target="/?([^"]+)"[^>]*?Type="[^"]*/officeDocument"',
                         z.read("_rels/.rels"))
        root = etree.fromstring(z.read((main.group(1) or main.group(2)).decode()))
    words, fields = [], 0
    for el in root.iter(w("fldChar"), w("delText")):
        kind = el.get(w("fldCharType"))
        fields += 1 if kind == "begin" else -1 if kind == "end" and fields else 0
        if el.tag == w("delText") and not fields and el.getparent().find(f"{w('rPr')}/{w('vanish')}") is None \
                and next(el.iterancestors(w("fldSimple"), w("txbxContent")), None) is None:
            words += re.findall(r"[A-Za-z]{4,}", el.text or "")
    return list(dict.fromkeys(words))


def _unseen(words: list[str], text: str) -> list[str]:
    flat = re.sub(r"[\s\-\u00ad]", "", text).lower()  # a word broken across lines, or hyphenated, still counts
    return [x for x in words if x.lower() not in flat]
