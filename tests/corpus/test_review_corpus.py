"""Review on real documents: files that arrive with revisions and comments, and random tracked edits.

- Files with tracked changes or comments (MANIFEST features): list, accept all, reject all, reply
  to a comment, save; the results keep no revision, add no new kind of Open XML SDK validation
  error and convert in LibreOffice.
- A random edit script (Hypothesis) on corpus files: accepting our revisions gives the text of
  the same edits made untracked, rejecting them gives back the original, in text and paragraph count.
- LibreOffice shows the changes of a tracked document: the deleted words are in its PDF.
"""
from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from ooxml.text.body import paragraph_text
from tests.support import corpus as CORPUS
from ooxml.opc.strict import to_transitional
from tests.support.client import NS, open_client, read_part

W = NS["w"]
REVISION_XPATH = ("//w:ins | //w:del | //w:moveFrom | //w:moveTo | //w:rPrChange | //w:pPrChange"
                  " | //w:tblPrChange | //w:trPrChange | //w:tcPrChange | //w:sectPrChange")
_ID = re.compile(r"\((para_[0-9a-f]+)\)")


def read_body(path: Path) -> etree._Element:
    """The saved body in transitional names: Strict files are saved as Strict."""
    return etree.fromstring(to_transitional(read_part(path))).find(f"{{{W}}}body")


def review_files() -> list[Path]:
    refused = CORPUS.expected_refusals()
    return [f for f in CORPUS.corpus_files()
            if CORPUS.features(f) & {"tracked-changes", "comments"} and f.name not in refused]


def params(files):
    return CORPUS.corpus_params(files) if files else CORPUS.corpus_params([])


def body_texts(path: Path) -> list[str]:
    """Each paragraph's text as it reads; a paragraph that another author already deleted whole
    (its mark deleted, no text left) is not read (deleting it again changes nothing in Word)."""
    body = read_body(path)
    out = []
    for p in body.iter(f"{{{W}}}p"):
        text = paragraph_text(p)
        if text or not p.xpath("w:pPr/w:rPr/w:del", namespaces=NS):
            out.append(text)
    return out


async def _call(c, name, **kw):
    a = await c.call(name, **kw)
    assert not a.is_error, a.text
    return a


# ---- files that arrive with revisions and comments ---------------------------------------------------

async def _review_file(f: Path, out: Path) -> tuple[Path, Path]:
    async with open_client([out, f.parent]) as c:
        await c.open(f)
        listing = await _call(c, "docx_list_revisions", session_id=c.session_id)
        count = int(listing.head["Revisions"])
        acc = await _call(c, "docx_accept_revisions", session_id=c.session_id)
        if count:
            assert acc.head["Remaining Revisions"] == "0"
        comments = await _call(c, "docx_list_comments", session_id=c.session_id)
        first = re.search(r"^- (comment_[0-9a-f]+) ", comments.text, re.M)
        if first:
            await _call(c, "docx_reply_comment", session_id=c.session_id, comment_id=first.group(1),
                        text="Reply from the test", author="Tester")
        accepted = out / f"accepted-{f.name}"
        await c.save(accepted)
        await _call(c, "docx_close", session_id=c.session_id)
        await c.open(f)
        await _call(c, "docx_reject_revisions", session_id=c.session_id)
        rejected = out / f"rejected-{f.name}"
        await c.save(rejected)
    return accepted, rejected


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory) -> dict[Path, tuple[Path, Path]]:
    files = review_files()
    out = tmp_path_factory.mktemp("review-corpus")
    return {f: asyncio.run(_review_file(f, out)) for f in files}


@pytest.mark.parametrize("f", params(review_files()))
def test_accept_all_and_reject_all_leave_no_revision(f, reviewed):
    accepted, rejected = reviewed[f]
    for path in (accepted, rejected):
        body = read_body(path)
        assert not body.xpath(REVISION_XPATH, namespaces=NS), path.name
    assert not read_body(rejected).xpath("//w:delText", namespaces=NS)


@pytest.mark.parametrize("f", params(review_files()))
def test_reviewed_files_validate_like_the_original(f, reviewed):
    from tests.support.sdk_validator import new_error_kinds, require, validate_files
    require()
    validate_files([f, *reviewed[f]] + [x for pair in reviewed.values() for x in pair] + list(reviewed))
    for path in reviewed[f]:
        assert new_error_kinds(f, path) == [], path.name


def test_reviewed_files_convert_in_libreoffice(reviewed):
    from tests.support.libreoffice import convert_cached, require_soffice
    if not reviewed:
        pytest.skip(CORPUS.missing_reason())
    require_soffice()
    results = convert_cached([x for pair in reviewed.values() for x in pair], label="review corpus")
    failed = [p.name for p, pdf in results.items() if pdf is None]
    assert not failed


# ---- random tracked edits: accept(ours) == untracked, reject(ours) == original ------------------------

def script_files() -> list[Path]:
    refused = CORPUS.expected_refusals()
    small = [f for f in CORPUS.corpus_files() if f.name not in refused and f.stat().st_size < 150_000]
    tracked = [f for f in small if "tracked-changes" in CORPUS.features(f)]
    others = [f for f in small if "tracked-changes" not in CORPUS.features(f)]
    return tracked[:4] + others[:: max(1, len(others) // 6)][:6]


async def _base(f: Path, out: Path) -> tuple[Path, list[str]]:
    """The file saved with paragraph IDs given (so every session of the script names the same ones)."""
    async with open_client([out, f.parent]) as c:
        await c.open(f)
        a = await _call(c, "docx_read_content", session_id=c.session_id, max_elements=60)
        base = out / f"base-{f.name}"
        await c.save(base)
    return base, list(dict.fromkeys(_ID.findall(a.text)))


WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "the", "and", ",", "."])


@st.composite
def edit_scripts(draw, n_targets: int):
    ops = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["update", "insert", "delete", "replace", "run", "font"]))
        ops.append((kind, draw(st.integers(0, max(0, n_targets - 1))), draw(st.lists(WORDS, max_size=6)),
                    draw(st.integers(0, 10))))
    return ops


def _new_text(old: str, words: list[str], seed: int) -> str:
    toks = old.split(" ")
    if toks and seed % 3 == 0:
        toks[seed % len(toks)] = " ".join(words) or "x"
    elif toks and seed % 3 == 1:
        del toks[seed % len(toks)]
    else:
        toks.insert(seed % (len(toks) + 1), " ".join(words))
    return " ".join(toks)


async def _apply(c, base_texts: dict, ids: list[str], ops) -> None:
    for kind, i, words, seed in ops:
        pid = ids[i]
        if kind == "update":
            await c.call("docx_update_paragraph_text", session_id=c.session_id, element_id=pid,
                         new_text=_new_text(base_texts.get(pid, ""), words, seed))
        elif kind == "insert":
            await c.call("docx_insert_paragraph", session_id=c.session_id, text=" ".join(words) or "new",
                         position=f"after:{pid}")
        elif kind == "delete":
            await c.call("docx_delete", session_id=c.session_id, element_id=pid)
        elif kind == "replace":
            old = base_texts.get(pid, "").split()
            if old:
                await c.call("docx_replace_text", session_id=c.session_id, old_text=old[seed % len(old)],
                             new_text=" ".join(words), scope_id=pid)
        elif kind == "run":
            await c.call("docx_insert_run", session_id=c.session_id, text=" " + " ".join(words), position=f"end:{pid}")
        else:
            await c.call("docx_set_font", session_id=c.session_id, element_id=pid, bold=bool(seed % 2))


async def _script(base: Path, out: Path, ids: list[str], ops) -> None:
    body = read_body(base)
    texts = {p.get(f"{{{NS['oxm']}}}id"): paragraph_text(p) for p in body.iter(f"{{{W}}}p")}
    results = {}
    async with open_client([out, base.parent]) as c:
        for mode in ("plain", "accept", "reject"):
            await c.open(base)
            if mode != "plain":
                await _call(c, "docx_set_track_changes", session_id=c.session_id, enabled=True, author="Script")
            await _apply(c, texts, ids, ops)
            if mode == "accept":
                await _call(c, "docx_accept_revisions", session_id=c.session_id, author="Script")
            elif mode == "reject":
                await _call(c, "docx_reject_revisions", session_id=c.session_id, author="Script")
            results[mode] = out / f"{mode}.docx"
            await c.save(results[mode], overwrite=True)  # every example writes these three
            await _call(c, "docx_close", session_id=c.session_id)
    assert body_texts(results["accept"]) == body_texts(results["plain"]), ops
    assert body_texts(results["reject"]) == body_texts(base), ops


def test_random_tracked_edits_accept_to_untracked_and_reject_to_original(tmp_path_factory):
    files = script_files()
    if not files:
        pytest.skip(CORPUS.missing_reason())
    out = tmp_path_factory.mktemp("review-script")
    bases = [asyncio.run(_base(f, out)) for f in files]
    bases = [(b, ids) for b, ids in bases if ids]

    @settings(max_examples=int(os.environ.get("OOXML_MCP_REVIEW_EXAMPLES", "12")), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        base, ids = data.draw(st.sampled_from(bases))
        ops = data.draw(edit_scripts(len(ids)))
        asyncio.run(_script(base, out, ids, ops))

    run()


# ---- LibreOffice shows the changes ---------------------------------------------------------------------

def test_libreoffice_pdf_shows_tracked_deletions(tmp_path):
    from tests.support.libreoffice import convert_cached, pdf_text, require_soffice
    require_soffice(need_pdftotext=True)

    async def make() -> Path:
        async with open_client([tmp_path]) as c:
            await c.create()
            a = await _call(c, "docx_insert_paragraph", session_id=c.session_id,
                            text="Payment is due within thirty days.", position="end:document_body")
            await _call(c, "docx_set_track_changes", session_id=c.session_id, enabled=True, author="Alice")
            await _call(c, "docx_update_paragraph_text", session_id=c.session_id, element_id=a.element_id,
                        new_text="Payment is due within sixty days.")
            path = tmp_path / "tracked.docx"
            await c.save(path)
            return path

    path = asyncio.run(make())
    # LibreOffice shows recorded changes unless the file hides them (w:revisionView w:insDel="0"),
    # and its PDF export prints what is shown: the deleted word is there, struck through.
    pdf = convert_cached([path], label="tracked")[path.resolve()]
    assert pdf is not None
    text = " ".join(pdf_text(pdf).split())
    assert "thirty" in text and "sixty" in text


# ---- our own markup validates ------------------------------------------------------------------------

def test_tracked_edits_and_comments_add_no_sdk_error_kind(tmp_path):
    """Every editing tool tracked, then comments with replies: no new kind of Open XML SDK error."""
    from tests.support.sdk_validator import new_error_kinds, require, validate_files
    from tests.tools.docx.test_review_tracking import SCRIPT
    require()

    async def make() -> tuple[Path, list[Path]]:
        async with open_client([tmp_path]) as c:
            await c.create()
            ids = {}
            ids["h"] = (await _call(c, "docx_insert_heading", session_id=c.session_id, text="Terms", level=1,
                                    position="end:document_body")).element_id
            ids["p"] = (await _call(c, "docx_insert_paragraph", session_id=c.session_id,
                                    text="The quick brown fox jumps.", position="end:document_body")).element_id
            ids["p2"] = (await _call(c, "docx_insert_paragraph", session_id=c.session_id, text="Second one.",
                                     position="end:document_body")).element_id
            ids["t"] = (await _call(c, "docx_insert_table", session_id=c.session_id, rows=2, cols=2,
                                    position="end:document_body", data=[["a", "b"], ["c", "d"]])).element_id
            ids["last"] = (await _call(c, "docx_insert_paragraph", session_id=c.session_id, text="Closing words.",
                                       position="end:document_body")).element_id
            base = tmp_path / "base.docx"
            await c.save(base)
            await _call(c, "docx_set_track_changes", session_id=c.session_id, enabled=True, author="Alice")
            for name, args in SCRIPT:
                await _call(c, name, session_id=c.session_id, **args(ids))
            await _call(c, "docx_set_margins", session_id=c.session_id, left="2cm")
            cm = await _call(c, "docx_add_comment", session_id=c.session_id, element_id=ids["last"], text="Why?",
                             anchor_text="words")
            await _call(c, "docx_reply_comment", session_id=c.session_id, comment_id=cm.element_id, text="Because.")
            await _call(c, "docx_resolve_comment", session_id=c.session_id, comment_id=cm.element_id)
            outs = [tmp_path / "tracked.docx"]
            await c.save(outs[0])
            await _call(c, "docx_accept_revisions", session_id=c.session_id)
            outs.append(tmp_path / "accepted.docx")
            await c.save(outs[1])
            return base, outs

    base, outs = asyncio.run(make())
    validate_files([base, *outs])
    for out in outs:
        assert new_error_kinds(base, out) == [], out.name
