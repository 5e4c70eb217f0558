"""Redacted and scrubbed documents (issue 24) open in LibreOffice and pass the Open XML SDK validator with no
new kind of error; a scrub keeps list labels as LibreOffice numbers them. One batch of each."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.support import lo_accepted, planted, sdk_validator
from tests.support.corpus import require_corpus
from tests.support.libreoffice import convert_cached, require_soffice
from tests.support.list_labels import lo_lines

pytestmark = pytest.mark.anyio
SECRET = "Quillfeather"
CORPUS = ["Open-Xml-PowerTools__HC031-Complicated-Document.docx", "tika__memo.docx",
          "Open-XML-SDK__TestFiles_Document.docx"]
SCRUB_CORPUS = ["Open-Xml-PowerTools__HC031-Complicated-Document.docx", "tika__testWORD_2006ml.docx"]
ALL = ["personal_info", "properties", "comments", "revisions", "custom_xml", "hidden_text", "headers_footers",
       "embedded_objects", "chart_data", "alt_text"]


async def _save(docx, path: Path) -> Path:
    await docx.save(path, strip_ids=True)
    return path


async def plant_in_corpus(docx, tmp_path: Path, name: str) -> Path:
    """A corpus file with the secret where it has each kind of place (planted.into_corpus), and in a new
    paragraph, a comment on it and a footnote, saved."""
    await docx.open(planted.into_corpus(require_corpus() / name, tmp_path / name, SECRET))
    p = (await docx.ok("docx_insert_paragraph", session_id=docx.session_id, text=f"Client {SECRET} and {SECRET.upper()}.",
                       position="end:document_body")).element_id
    await docx.ok("docx_add_comment", session_id=docx.session_id, element_id=p, text=f"Ask {SECRET.lower()}")
    await docx.ok("docx_insert_footnote", session_id=docx.session_id, element_id=p, text=f"Source: {SECRET}")
    return await _save(docx, tmp_path / f"planted-{name}")


async def redacted_pairs(docx, tmp_path: Path) -> list[tuple[Path, Path]]:
    pairs = []
    for plant, args in ((SECRET, {"text": SECRET, "case_sensitive": False}),
                        ("jane.doe@example.org", {"pattern": r"[a-z0-9._]+@[a-z0-9.]+\.[a-z]{2,}"}),
                        ("4155550132", {"pattern": r"\b\d{10}\b"})):  # a chart's cached number among them
        src = planted.build(tmp_path / f"planted-{len(pairs)}.docx", plant)
        await docx.open(src)
        await docx.ok("docx_redact", session_id=docx.session_id, **args)
        pairs.append((src, await _save(docx, tmp_path / f"redacted-{len(pairs)}.docx")))
    for name in CORPUS:
        src = await plant_in_corpus(docx, tmp_path, name)
        a = await docx.ok("docx_redact", session_id=docx.session_id, text=SECRET, case_sensitive=False)
        assert a.head["Leak Check"].startswith("nothing left"), a.text
        out = await _save(docx, tmp_path / f"redacted-{name}")
        assert planted.leaks(out, re.compile(SECRET, re.IGNORECASE)) == []
        pairs.append((src, out))
    return pairs


async def scrubbed_pairs(docx, tmp_path: Path, categories) -> list[tuple[Path, Path]]:
    pairs = []
    for name in SCRUB_CORPUS:
        src = shutil.copy(require_corpus() / name, tmp_path / name)
        await docx.open(src)
        await docx.ok("docx_scrub", session_id=docx.session_id, categories=categories)
        pairs.append((Path(src), await _save(docx, tmp_path / f"scrubbed-{len(categories or [])}-{name}")))
    return pairs


async def test_redacted_and_scrubbed_files_convert_and_add_no_validator_errors(docx, tmp_path):
    require_soffice()
    sdk_validator.require()
    pairs = await redacted_pairs(docx, tmp_path) + await scrubbed_pairs(docx, tmp_path, None)
    src = planted.build(tmp_path / "planted-all.docx", SECRET)
    await docx.open(src)
    await docx.ok("docx_scrub", session_id=docx.session_id, categories=ALL)
    pairs.append((src, await _save(docx, tmp_path / "scrubbed-all.docx")))
    results = [r for _, r in pairs]
    converted = convert_cached(results, label="privacy results", target="txt:Text")
    assert [r.name for r in results if converted[r.resolve()] is None] == []
    found = sdk_validator.validate_files([f for pair in pairs for f in pair])
    new = {r.name: sorted(sdk_validator.kinds(found[r.resolve()]) - sdk_validator.kinds(found[o.resolve()]))
           for o, r in pairs}
    assert {k: v for k, v in new.items() if v} == {}


async def test_a_scrub_keeps_list_labels_as_libreoffice_numbers_them(docx, tmp_path):
    """Categories that leave the text as it reads (no revisions accepted, nothing hidden removed)."""
    require_soffice()
    pairs = await scrubbed_pairs(docx, tmp_path, ["personal_info", "properties", "comments", "custom_xml"])
    txt = convert_cached([f for pair in pairs for f in pair], label="privacy lists", target="txt:Text")
    for original, result in pairs:
        assert lo_lines(txt[result.resolve()]) == lo_lines(txt[original.resolve()]), result.name


HIDDEN_CORPUS = ["Open-XML-SDK__complex2010.docx", "tika__017097.docx"]  # w:vanish on runs and in styles


def _seen(txt: Path) -> list[str]:
    """LibreOffice's text export as lines with list labels, blank lines left out (LibreOffice keeps an
    empty paragraph where an accepted deletion took a table; Word does not)."""
    return [line for line in lo_lines(txt) if line.strip()]


async def test_a_scrub_of_revisions_reads_as_libreoffice_accepting_them(docx, tmp_path):
    require_soffice()
    pairs = await scrubbed_pairs(docx, tmp_path, ["revisions"])
    originals = [o for o, _ in pairs]
    accepted = lo_accepted.accepted_texts(originals)
    txt = convert_cached([f for pair in pairs for f in pair], label="privacy revisions", target="txt:Text")
    for original, result in pairs:
        assert accepted[original.resolve()] is not None, original.name
        assert _seen(txt[original.resolve()]) != _seen(accepted[original.resolve()])  # it had revisions
        assert _seen(txt[result.resolve()]) == _seen(accepted[original.resolve()]), result.name


async def test_a_scrub_of_hidden_text_reads_as_libreoffice_without_it(docx, tmp_path):
    """Hidden by the run's own formatting or by its style: LibreOffice deletes what it formats hidden."""
    require_soffice()
    pairs = []
    sources = [shutil.copy(require_corpus() / n, tmp_path / n) for n in HIDDEN_CORPUS]
    for src in [*map(Path, sources), planted.build(tmp_path / "planted.docx", SECRET)]:
        await docx.open(src)
        await docx.ok("docx_scrub", session_id=docx.session_id, categories=["hidden_text"])
        pairs.append((src, await _save(docx, tmp_path / f"no-hidden-{src.name}")))
    shown = lo_accepted.accepted_texts([o for o, _ in pairs], mode="hidden")
    txt = convert_cached([f for pair in pairs for f in pair], label="privacy hidden text", target="txt:Text")
    changed = [o.name for o, _ in pairs if _seen(txt[o.resolve()]) != _seen(shown[o.resolve()])]
    assert changed == ["Open-XML-SDK__complex2010.docx", "planted.docx"]  # the other hides only empty runs
    for original, result in pairs:
        assert _seen(txt[result.resolve()]) == _seen(shown[original.resolve()]), result.name
