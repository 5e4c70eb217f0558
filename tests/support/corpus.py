"""The .docx test corpus: where it is, which files it has, which ones the product refuses.

The corpus folder is ``$OOXML_MCP_CORPUS`` (default ``../shared/corpus/docx`` relative to the
repository root). Its parent folder holds ``MANIFEST.tsv`` (features per file), which tells
which files the product must refuse: the file whose main part declares a DTD/external entity
(feature ``doctype``). Strict OOXML files (feature ``strict``) are opened, edited and saved as Strict.

Use :func:`corpus_params` to parametrize a test per file (test ids are the file names); when
the corpus is missing it yields one parameter that skips with the reason.
"""
from __future__ import annotations

import csv
import functools
import hashlib
import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "docx"

# Why the product refuses a file, by MANIFEST feature tag: the word the error message must contain.
REFUSAL_FEATURES = {"doctype": "DTD"}


def corpus_dir() -> Path | None:
    """The folder of corpus .docx files, or None if it is absent/empty."""
    env = os.environ.get("OOXML_MCP_CORPUS")
    path = Path(env) if env else DEFAULT_CORPUS
    if path.is_dir() and any(path.glob("*.docx")):
        return path
    return None


def missing_reason() -> str:
    env = os.environ.get("OOXML_MCP_CORPUS")
    where = env if env else str(DEFAULT_CORPUS)
    return (f"docx corpus not found at {where}: set OOXML_MCP_CORPUS to a folder of .docx files "
            "(the shared corpus is at ../shared/corpus/docx)")


def require_corpus() -> Path:
    """The corpus folder, or skip the calling test with a printed reason."""
    path = corpus_dir()
    if path is None:
        pytest.skip(missing_reason())
    return path


@functools.lru_cache(maxsize=None)
def corpus_files() -> list[Path]:
    """All corpus .docx files, sorted by name ([] when the corpus is absent)."""
    path = corpus_dir()
    if path is None:
        return []
    return sorted(path.glob("*.docx"), key=lambda p: p.name)


@functools.lru_cache(maxsize=None)
def manifest() -> dict[str, dict]:
    """File name -> MANIFEST.tsv row, with ``features`` as a frozenset ({} without a manifest)."""
    path = corpus_dir()
    if path is None or not (path.parent / "MANIFEST.tsv").is_file():
        return {}
    rows = {}
    with open(path.parent / "MANIFEST.tsv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            row = dict(row)
            row["features"] = frozenset(t for t in (row.get("features") or "").split(",") if t)
            rows[Path(row["file"]).name] = row
    return rows


def features(path: Path | str) -> frozenset[str]:
    row = manifest().get(Path(path).name)
    return row["features"] if row else frozenset()


def _sniff_refusal(path: Path) -> str | None:
    """Without a manifest entry, tell DTD files from their bytes."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            main = next((n for n in ("word/document.xml",) if n in names), None)
            if main:
                head = z.open(main).read(4096)
                if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
                    return "DTD"
    except Exception:
        return None
    return None


@functools.lru_cache(maxsize=None)
def expected_refusals() -> dict[str, str]:
    """File name -> the reason the product must refuse it: ``"DTD"``.

    From MANIFEST.tsv features (``doctype``); files missing from the manifest are sniffed.
    """
    out = {}
    rows = manifest()
    for path in corpus_files():
        row = rows.get(path.name)
        if row is not None:
            for tag, reason in REFUSAL_FEATURES.items():
                if tag in row["features"]:
                    out[path.name] = reason
                    break
        else:
            reason = _sniff_refusal(path)
            if reason:
                out[path.name] = reason
    return out


def is_strict(path: Path) -> bool:
    """A Strict OOXML file (ISO/IEC 29500 Strict namespaces): by manifest feature, else by its bytes."""
    if manifest().get(path.name) is not None:
        return "strict" in features(path)
    import zipfile
    try:
        with zipfile.ZipFile(path) as z:
            return b"purl.oclc.org/ooxml" in z.read("_rels/.rels")
    except Exception:
        return False


def strict_files() -> list[Path]:
    return [p for p in corpus_files() if is_strict(p)]


def refused_files() -> list[Path]:
    """Corpus files the product must refuse with InvalidDocument (sorted)."""
    refused = expected_refusals()
    return [p for p in corpus_files() if p.name in refused]


def editable_files() -> list[Path]:
    """Corpus files the product must open (all but the refused ones), sorted."""
    refused = expected_refusals()
    return [p for p in corpus_files() if p.name not in refused]


def corpus_params(files: list[Path] | None = None, marks: dict | None = None) -> list:
    """``pytest.param(path, id=name)`` per file, or one skipping param if there is no corpus.

    ``marks``: file name -> a mark or list of marks for that file's case (e.g. a known bug:
    ``{"x.docx": pytest.mark.xfail(strict=True, reason=...)}``).

    Usage: ``@pytest.mark.parametrize("path", corpus_params(editable_files()))``.
    """
    if corpus_dir() is None:
        return [pytest.param(None, id="no-corpus", marks=[pytest.mark.corpus, pytest.mark.skip(reason=missing_reason())])]
    files = corpus_files() if files is None else files
    marks = marks or {}
    return [pytest.param(p, id=p.name, marks=[pytest.mark.corpus, *_as_list(marks.get(p.name, ()))]) for p in files]


def _as_list(marks) -> list:
    return list(marks) if isinstance(marks, (list, tuple)) else [marks]


def sha256_file(path: Path | str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ---- a standard round trip: open, give IDs, save ---------------------------------------------------

def give_ids(doc, max_blocks: int = 50) -> dict[tuple[int, ...], str]:
    """Give IDs the way a client session would: the first ``max_blocks`` body blocks, the first
    runs of their paragraphs, and for tables the first rows, their cells and the cells' first
    paragraphs. Returns locator (:func:`locate`) -> ID."""
    from ooxml.text.body import W_P, W_TBL, iter_blocks, iter_runs, row_cells, table_rows

    given: dict[tuple[int, ...], str] = {}

    def give(el) -> None:
        given[locator(el)] = doc.id_of(el)

    for i, block in enumerate(iter_blocks(doc.body)):
        if i >= max_blocks:
            break
        give(block)
        if block.tag == W_P:
            for j, run in enumerate(iter_runs(block)):
                if j >= 3:
                    break
                give(run)
        elif block.tag == W_TBL:
            for r, tr in enumerate(table_rows(block)):
                if r >= 2:
                    break
                give(tr)
                for tc in row_cells(tr):
                    give(tc)
                    p = tc.find(W_P)
                    if p is not None:
                        give(p)
    return given


def locator(el) -> tuple[int, ...]:
    """Child indexes from the root down to ``el``: finds the same element in a reopened file."""
    path = []
    parent = el.getparent()
    while parent is not None:
        path.append(parent.index(el))
        el, parent = parent, parent.getparent()
    return tuple(reversed(path))


def locate(root, loc: tuple[int, ...]):
    """The element at a :func:`locator` (None if the tree has no such position)."""
    el = root
    for i in loc:
        if i >= len(el):
            return None
        el = el[i]
    return el


def save_with_ids(src: Path | str, dst: Path | str, max_blocks: int = 50) -> dict[tuple[int, ...], str]:
    """Open ``src``, give IDs (:func:`give_ids`), save to ``dst``; return locator -> ID."""
    from ooxml.model.document import Document

    doc = Document.open(src)
    try:
        given = give_ids(doc, max_blocks)
        doc.save(dst)
    finally:
        doc.close()
    return given
