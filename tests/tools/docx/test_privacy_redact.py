"""docx_redact (SPEC §11, issue 24): a text planted in every place a package holds text is gone from every
decompressed part, as bytes and as the text reads, and nothing else changed."""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from tests.support import planted
from tests.support.client import read_part

pytestmark = pytest.mark.anyio
SECRET = "Quillfeather"
EMAIL = "jane.doe@example.org"
PHONE = "415-555-0132"
ACCOUNT = "4155550132"
EMAILS = r"[a-z0-9._]+@[a-z0-9.]+\.[a-z]{2,}"
PHONES = r"\d{3}-\d{3}-\d{4}"
ACCOUNTS = r"\b\d{10}\b"


def _blocked(regex: re.Pattern):
    return lambda text: regex.sub(lambda m: "█" * len(m.group()), text)


async def redacted(docx, tmp_path: Path, plant: str, **args) -> tuple[Path, Path, object]:
    """The planted file, the file docx_redact saved from it, and the answer."""
    src = planted.build(tmp_path / f"planted-{abs(hash(plant))}.docx", plant)
    await docx.open(src)
    a = await docx.ok("docx_redact", **args)
    out = tmp_path / f"redacted-{abs(hash(plant))}.docx"
    await docx.save(out, strip_ids=True)
    return src, out, a


def assert_only_matches_changed(src: Path, out: Path, regex: re.Pattern) -> None:
    before, after = planted.reading(src), planted.reading(out)
    assert before.keys() == after.keys()
    block = _blocked(regex)
    for place in before:
        assert [block(t) for t in before[place]] == after[place], place


async def test_a_secret_planted_everywhere_is_gone_from_every_part(docx, tmp_path):
    src, out, a = await redacted(docx, tmp_path, SECRET, text=SECRET.lower(), case_sensitive=False)
    secret = re.compile(re.escape(SECRET), re.IGNORECASE)
    assert len(planted.leaks(src, secret)) >= 15  # planted in the body, notes, comments, charts, properties ...
    assert planted.leaks(out, secret) == []
    assert a.head["Leak Check"].startswith("nothing left") and int(a.head["Matches"]) >= 50
    assert "not checked: word/media/image1.png" in a.text
    assert_only_matches_changed(src, out, secret)


async def test_the_replacement_keeps_the_first_runs_formatting(docx, tmp_path):
    _, out, _ = await redacted(docx, tmp_path, SECRET, text=SECRET)
    body = read_part(out).decode()
    # "Quill|feather" split over a plain and a bold run: the whole mark in the plain run, the bold one emptied
    assert f'<w:t xml:space="preserve">Split </w:t></w:r><w:r><w:t xml:space="preserve">{"█" * 12}</w:t></w:r>' \
           '<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve"></w:t>' in body


async def test_case_sensitive_redaction_leaves_other_cases(docx, tmp_path):
    _, out, _ = await redacted(docx, tmp_path, SECRET, text=SECRET)
    assert planted.leaks(out, re.compile(re.escape(SECRET))) == []
    assert planted.leaks(out, re.compile(re.escape(SECRET.upper())))  # a different text, kept


@pytest.mark.parametrize("plant,pattern", [(EMAIL, EMAILS), (PHONE, PHONES), (ACCOUNT, ACCOUNTS)])
async def test_a_pattern_planted_everywhere_is_gone(docx, tmp_path, plant, pattern):
    src, out, a = await redacted(docx, tmp_path, plant, pattern=pattern, case_sensitive=False)
    regex = re.compile(pattern, re.IGNORECASE)
    assert planted.leaks(src, regex) and planted.leaks(out, regex) == []
    assert a.head["Leak Check"].startswith("nothing left")
    assert_only_matches_changed(src, out, regex)


async def test_a_number_cached_in_a_chart_is_redacted_and_the_other_values_kept(docx, tmp_path):
    _, out, a = await redacted(docx, tmp_path, ACCOUNT, pattern=ACCOUNTS)
    assert "- word/charts/chart1.xml: 6" in a.text  # title, series and category names, two formats, a value
    chart = read_part(out, "word/charts/chart1.xml").decode()
    assert ACCOUNT not in chart and f"<c:v>{'█' * 10}</c:v>" in chart
    assert "<c:v>4</c:v>" in chart and "<c:v>5</c:v>" in chart and f'<c:formatCode>"{"█" * 10} "General' in chart


@pytest.mark.parametrize("pattern", [r"\bQZ\b", r"(?<![\w-])QZ(?!\w)", r"(?=(Q))\1Z"])
async def test_patterns_with_boundaries_and_lookarounds_find_every_paragraph(docx, tmp_path, pattern):
    """Paragraphs are first looked for in all their texts joined: there a neighbour's letters touch."""
    await docx.create()
    for text in ("Code QZ", "QZ left", "Room QZ"):
        await docx.ok("docx_insert_paragraph", text=text, position="end:document_body")
    a = await docx.ok("docx_redact", pattern=pattern)
    assert a.head["Matches"] == "3" and a.head["Leak Check"].startswith("nothing left")
    await docx.save(tmp_path / "b.docx")
    body = read_part(tmp_path / "b.docx").decode()
    assert all(t in body for t in ("Code ██", "██ left", "Room ██"))


async def test_a_longer_replacement_stands_for_each_match(docx, tmp_path):
    _, out, _ = await redacted(docx, tmp_path, SECRET, text=SECRET, replacement="[redacted]")
    assert "Plain [redacted] here." in read_part(out).decode()


async def test_undo_restores_every_part_byte_for_byte(docx, tmp_path):
    src = planted.build(tmp_path / "p.docx", SECRET)
    await docx.open(src)
    await docx.save(tmp_path / "before.docx")
    await docx.ok("docx_redact", text=SECRET, case_sensitive=False)
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "after.docx")
    before, after = (dict(planted.members((tmp_path / n).read_bytes())) for n in ("before.docx", "after.docx"))
    assert before == after


async def test_with_tracking_on_the_redaction_is_final_and_says_so(docx, tmp_path):
    src = planted.build(tmp_path / "p.docx", SECRET)
    await docx.open(src)
    await docx.ok("docx_set_track_changes", enabled=True)
    a = await docx.ok("docx_redact", text=SECRET)
    assert a.head["Tracked"].startswith("no: a redaction is final")
    await docx.save(tmp_path / "out.docx")
    assert SECRET not in read_part(tmp_path / "out.docx").decode()


async def test_element_ids_remove_the_elements_text_everywhere(docx, tmp_path):
    await docx.create()
    p = (await docx.ok("docx_insert_paragraph", text="Project Nightingale", position="end:document_body")).element_id
    await docx.ok("docx_insert_paragraph", text="About Project Nightingale.", position="end:document_body")
    await docx.ok("docx_create_header_footer", kind="header", text="Project Nightingale draft")
    a = await docx.ok("docx_redact", element_ids=[p])
    assert a.head["Leak Check"].startswith("nothing left")
    await docx.save(tmp_path / "e.docx")
    assert planted.leaks(tmp_path / "e.docx", re.compile("Nightingale")) == []


async def test_a_secret_in_a_binary_object_fails_the_leak_check_and_save_repeats_it(docx, tmp_path):
    src = planted.build(tmp_path / "p.docx", SECRET)
    with zipfile.ZipFile(src, "a") as z:
        z.writestr("word/embeddings/oleObject1.bin", b"\xd0\xcf\x11\xe0" + SECRET.encode("utf-16-le"))
    await docx.open(src)
    a = await docx.ok("docx_redact", text=SECRET)
    assert a.head["Leak Check"] == "FAILED: 1 place(s) still hold it"
    assert "still there: word/embeddings/oleObject1.bin (binary" in a.text
    saved = await docx.ok("docx_save", file_path=str(tmp_path / "out.docx"))
    assert saved.head["Leak Check"] == "FAILED: 1 place(s) still hold it"


@pytest.mark.parametrize("args,why", [
    ({"pattern": "x*"}, "matches empty text"),
    ({"pattern": "[a-"}, "not a valid regular expression"),
    ({"text": "a", "pattern": "b"}, "exactly one of"),
    ({"text": "abc", "replacement": "xabcx"}, "contains what is being redacted"),
])
async def test_bad_input_is_refused_and_changes_nothing(docx, tmp_path, args, why):
    src = planted.build(tmp_path / "p.docx", SECRET)
    await docx.open(src)
    a = await docx.call("docx_redact", **args)
    assert a.is_error and a.error_type == "ValidationError" and why in a.text and a.head["Hint"]
    await docx.save(tmp_path / "same.docx", strip_ids=True)
    assert planted.reading(src) == planted.reading(tmp_path / "same.docx")


async def test_parts_without_a_match_are_saved_as_they_came(docx, tmp_path):
    """A redaction reads every part; those it did not change are written back as opened (a diagram with
    an empty r:blip that Word wrote stays unreported by the save's integrity check)."""
    import shutil
    from tests.support.corpus import require_corpus
    name = "Open-XML-SDK__Strict01.docx"
    src = shutil.copy(require_corpus() / name, tmp_path / name)
    await docx.open(src)
    await docx.ok("docx_redact", text="Allison")
    saved = await docx.ok("docx_save", file_path=str(tmp_path / "out.docx"))
    assert saved.head["Integrity"] == "ok"
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(tmp_path / "out.docx") as b:
        assert a.read("word/diagrams/layout1.xml") == b.read("word/diagrams/layout1.xml")


@pytest.mark.parametrize("pattern", [r"(?=(Q))\1Z", r"Quill(?=(f))\1eather", r"(?=((a)(b)))\1\3", r"(?<=(x))y\b",
                                     r"(?=(Q(?=(u))\2))\1i"])
async def test_a_lookaround_capturing_a_group_still_narrows_the_paragraphs_looked_at(pattern):
    """The paragraphs' texts joined are searched without lookarounds first; a group captured inside one
    stands for its reference there. Every match is found by that search, and text without one is
    skipped (before: every paragraph was read, 3.4 s of CPU for the bench's 50,000 paragraphs)."""
    from ooxml.privacy import matcher as MT
    m = MT.for_pattern(pattern, case_sensitive=False)
    texts = ["xQZ", "ab abb", "a Quillfeather", "xy z", "Quip Quill", "QUIZ", "nothing here"]
    for text in texts:
        for hit in m.regex.finditer(text):
            assert any(s < hit.end() and hit.start() < e for s, e in (x.span() for x in m.loose.finditer(text)))
    assert m.loose.search("nothing here at all") is None


CORPUS = ["Open-Xml-PowerTools__HC031-Complicated-Document.docx", "tika__memo.docx",
          "Open-XML-SDK__TestFiles_Document.docx"]


@pytest.mark.parametrize("plant,args", [(SECRET, {"text": SECRET}), (EMAIL, {"pattern": EMAILS})], ids=["text", "pattern"])
@pytest.mark.parametrize("name", CORPUS)
async def test_a_secret_planted_in_a_corpus_file_is_gone_and_every_other_text_is_as_before(docx, tmp_path, name,
                                                                                          plant, args):
    """Planted where the file has each kind of place (text boxes, tables, headers, footers, notes, comments,
    deleted text, alt text, tooltips, properties, custom XML, charts), split across runs, in three cases."""
    from tests.support.corpus import require_corpus
    await docx.open(planted.into_corpus(require_corpus() / name, tmp_path / name, plant))
    before, out = tmp_path / "before.docx", tmp_path / "after.docx"
    await docx.save(before, strip_ids=True)
    regex = re.compile(args.get("pattern") or re.escape(plant), re.IGNORECASE)
    assert len(planted.leaks(before, regex)) >= 8
    a = await docx.ok("docx_redact", case_sensitive=False, **args)
    assert a.head["Leak Check"].startswith("nothing left"), a.text
    await docx.save(out, strip_ids=True)
    assert planted.leaks(out, regex) == []
    assert_only_matches_changed(before, out, regex)
