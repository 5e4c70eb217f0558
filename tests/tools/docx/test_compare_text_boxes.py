"""docx_compare inside text boxes: Word-style pairs (tests/support/box_pairs.py) whose text boxes
changed, in the body, table cells and headers, DrawingML with its VML fallback, DrawingML alone,
plain VML and shapes with text.

- the redline holds the change as word-level revisions inside the box;
- accept-all gives the revised text and reject-all the original in every part (the normal view of
  tests/support/redline.py reads text boxes too);
- no mc:Fallback is left saying something else than its Choice;
- the redlines pass the Open XML SDK validator and LibreOffice converts them (one batch each).
"""
from __future__ import annotations

import functools
import zipfile

import pytest
from lxml import etree

from tests.builders import NS
from tests.support import box_pairs as BP
from tests.support import compare_pairs as CP
from tests.support import edits as E
from tests.support import redline as RL

NS = {**NS, "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006"}
PAIRS = BP.pairs()


@functools.cache
def _built(folder: str) -> dict:
    """name -> (original, revised, redline path, counts), built once per run."""
    from pathlib import Path
    out = {}
    for k, pair in enumerate(PAIRS):
        a, b = pair.write(Path(folder))
        with CP.repeatable(k):
            parts, counts = RL.build(a.read_bytes(), b.read_bytes())
        red = Path(folder) / f"{pair.name}-redline.docx"
        red.write_bytes(E._zip(parts))  # noqa: SLF001
        out[pair.name] = (a, b, red, counts)
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return _built(str(tmp_path_factory.mktemp("boxes")))


def _story(path, pair_name: str) -> etree._Element:
    with zipfile.ZipFile(path) as z:
        return etree.fromstring(z.read("word/header1.xml" if pair_name.startswith("header") else "word/document.xml"))


@pytest.mark.parametrize("name", [x.name for x in PAIRS])
def test_accept_all_gives_revised_and_reject_all_original(built, name):
    a, b, red, _ = built[name]
    with zipfile.ZipFile(red) as z:
        RL.check_parts({n: z.read(n) for n in z.namelist()}, a.read_bytes(), b.read_bytes())


@pytest.mark.parametrize("name", [x.name for x in PAIRS])
def test_box_changes_are_word_revisions_inside_the_box(built, name):
    _, _, red, counts = built[name]
    root = _story(red, name)
    if "-box-" in name:  # the whole anchor goes or comes
        return
    inside = root.xpath("//w:txbxContent[not(ancestor::mc:Fallback)]//w:ins | "
                        "//w:txbxContent[not(ancestor::mc:Fallback)]//w:del", namespaces=NS)
    assert inside and counts
    if name.endswith("-words"):  # one word each way, the rest unchanged
        assert [t.text for t in root.xpath("//w:txbxContent//w:delText", namespaces=NS)] == ["quick", "jumps"]
        assert [t.text for t in root.xpath("//w:txbxContent//w:ins//w:t", namespaces=NS)] == ["slow", "leaps"]
    # the anchor itself is not deleted and inserted again
    assert not root.xpath("//w:del[.//w:drawing or .//w:pict or .//mc:AlternateContent]", namespaces=NS)


def _words(el) -> list[tuple[str, str]]:
    return [(etree.QName(t).localname, t.text) for t in el.iter(f"{{{NS['w']}}}t", f"{{{NS['w']}}}delText")]


def test_no_fallback_says_other_than_its_choice(built):
    stale = []
    for name, (_, _, red, _) in built.items():
        for alt in _story(red, name).iter(f"{{{NS['mc']}}}AlternateContent"):
            choice, fallback = alt.find("mc:Choice", NS), alt.find("mc:Fallback", NS)
            if fallback is not None and _words(choice) != _words(fallback):
                stale.append(name)
    assert stale == []


def test_a_deleted_or_inserted_anchor_marks_its_box_text_too(built):
    """As a tracked deletion does (tests/tools/docx/test_review_text_box_delete.py): the box's runs get a
    revision of their own, in every copy."""
    for name, tag in (("body-alt-box-deleted", "del"), ("body-vml-box-inserted", "ins")):
        root = _story(built[name][2], name)
        texts = root.xpath("//w:txbxContent//w:t | //w:txbxContent//w:delText", namespaces=NS)
        assert texts and all(_marked_in_box(t, tag) for t in texts), name
        assert all(t.tag.endswith("delText") == (tag == "del") for t in texts)


def _marked_in_box(el, tag: str) -> bool:
    for up in el.iterancestors():
        if etree.QName(up).localname == "txbxContent":
            return False
        if up.tag == f"{{{NS['w']}}}{tag}":
            return True
    return False


def test_unchanged_boxes_keep_their_fallback(built):
    root = _story(built["body-two-boxes"][2], "body-two-boxes")
    assert len(root.xpath("//mc:Fallback", namespaces=NS)) == 1  # the unchanged box's


def test_redlines_pass_the_sdk_validator(built):
    from tests.support.sdk_validator import require, validate_files
    require()
    files = [f for a, _, red, _ in built.values() for f in (a, red)]
    found = validate_files(files)
    from tests.support.sdk_validator import kinds
    new = {red.name: sorted(kinds(found[red.resolve()]) - kinds(found[a.resolve()]))
           for a, _, red, _ in built.values()}
    assert {k: v for k, v in new.items() if v} == {}


def test_libreoffice_converts_the_redlines(built):
    from tests.support.libreoffice import convert_cached, require_soffice
    require_soffice()
    reds = [red for _, _, red, _ in built.values()]
    results = convert_cached(reds, label="text box redlines")
    assert [r.name for r in reds if results[r.resolve()] is None] == []


@pytest.mark.anyio
@pytest.mark.parametrize("accept", [True, False])
async def test_through_the_client_decided_boxes_read_as_each_version(docx, tmp_path, accept):
    from tests.support.client import read_part
    pair = next(x for x in PAIRS if x.name == "body-alt-words")
    a, b = pair.write(tmp_path)
    ans = await docx.ok("docx_compare", original_path=str(a), revised_path=str(b))
    assert (ans.head["Insertions"], ans.head["Deletions"]) == ("2", "2")
    sid = ans.head["Session ID"]
    await docx.ok("docx_accept_revisions" if accept else "docx_reject_revisions", session_id=sid)
    await docx.ok("docx_save", session_id=sid, file_path=str(tmp_path / "out.docx"))
    root = etree.fromstring(read_part(tmp_path / "out.docx"))
    shown = [t.text for t in root.xpath("//w:txbxContent[not(ancestor::mc:Fallback)]//w:t", namespaces=NS)]
    assert "".join(shown).startswith(BP.WORDS[0] if accept else BP.OLD[0])
    assert not root.xpath("//w:ins | //w:del", namespaces=NS)
