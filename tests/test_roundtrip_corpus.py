"""Round trips over the .docx corpus: open, give IDs, save; nothing else may change.

- untouched parts come back byte for byte, the zip is sound, members keep their order;
- the main part equals the original after C14N 2.0 once our ``oxm:id`` attributes and our
  ``mc:Ignorable`` token are removed, and keeps its namespace declarations;
- IDs survive save + reopen; a save without IDs changes no byte of any part;
- ``strip`` saves leave no trace of our namespace;
- Strict and DTD files are refused with InvalidDocument naming the reason.

Files: ``$OOXML_MCP_CORPUS`` (default ../shared/corpus/docx); see tests/support/corpus.py.
"""
from __future__ import annotations

import time

import pytest

from ooxml.document import Document
from ooxml.errors import InvalidDocument
from ooxml.namespaces import MC, OX, OX_ID
from tests.support import report
from tests.support.corpus import (corpus_files, corpus_params, editable_files, expected_refusals, give_ids,
                                  manifest, refused_files, save_with_ids)
from tests.support.fidelity import (canonical, directory_entries, main_part_name, ns_declarations,
                                    package_differences, parse, read_parts, undeclared_ignorable)

pytestmark = pytest.mark.corpus

# The product writes the package's parts, not its zip directory entries ("word/", "_rels/"):
# folders are not parts (OPC) and no reader needs them. Set to True to require them.
KEEP_DIRECTORY_ENTRIES = False


@pytest.fixture(scope="module", autouse=True)
def _suite_timing():
    t0 = time.monotonic()
    yield
    report(f"test_roundtrip_corpus: {time.monotonic() - t0:.1f}s for {len(corpus_files())} corpus files")


def _main_part_problems(orig_xml: bytes, saved_xml: bytes) -> list[str]:
    """Differences between original and saved main parts, our markup aside."""
    problems = []
    orig, saved = parse(orig_xml), parse(saved_xml)
    if canonical(orig) != canonical(saved):
        a, b = canonical(orig), canonical(saved)
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        problems.append(f"main part differs after canonicalisation at char {i}: "
                        f"original …{a[max(0, i - 80):i + 80]!r}… saved …{b[max(0, i - 80):i + 80]!r}…")
    decl_o, decl_s = dict(ns_declarations(orig)), dict(ns_declarations(saved))
    root_path = saved.getroottree().getpath(saved)
    if orig.nsmap.get(next((p for p, u in saved.nsmap.items() if u == MC), None)) is None:
        # the product may declare mc on the root when the original had none (for mc:Ignorable)
        decl_s[root_path] = frozenset(d for d in decl_s.get(root_path, ()) if d[1] != MC) | {
            d for d in decl_o.get(root_path, ()) if d[1] == MC}
    decl_s = {k: v for k, v in decl_s.items() if v}
    if decl_o != decl_s:
        diffs = [f"{k}: {sorted(decl_o.get(k, ()))} -> {sorted(decl_s.get(k, ()))}"
                 for k in sorted(set(decl_o) | set(decl_s)) if decl_o.get(k) != decl_s.get(k)]
        problems.append("namespace declarations changed: " + "; ".join(diffs[:5]))
    new_undeclared = set(undeclared_ignorable(saved)) - set(undeclared_ignorable(orig))
    if new_undeclared:
        problems.append(f"mc prefixes not declared: {sorted(new_undeclared)}")
    return problems


def _our_markup_problems(saved_xml: bytes, expected_ids: int) -> list[str]:
    """Our namespace: declared once, on the root, listed in the root's mc:Ignorable."""
    problems = []
    saved = parse(saved_xml)
    ids = saved.xpath("//@oxm:id", namespaces={"oxm": OX})
    if len(ids) != expected_ids:
        problems.append(f"{len(ids)} oxm:id attributes saved, {expected_ids} given")
    if len(set(ids)) != len(ids):
        problems.append("duplicate oxm:id values")
    if expected_ids:
        ours = [p for p, u in saved.nsmap.items() if u == OX]
        if not ours:
            problems.append("our namespace is not declared on the root")
        elif ours[0] not in saved.get(f"{{{MC}}}Ignorable", "").split():
            problems.append(f"our prefix '{ours[0]}' is not in the root's mc:Ignorable")
        declared_below = [path for path, decl in ns_declarations(saved, frozenset())[1:]
                          if any(u == OX for _, u in decl)]
        if declared_below:
            problems.append(f"our namespace is declared again below the root ({len(declared_below)} elements), "
                            f"e.g. {declared_below[0]}")
    return problems


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_roundtrip_with_ids(path, tmp_path):
    out = tmp_path / path.name
    given = save_with_ids(path, out)
    main = main_part_name(path)
    assert main_part_name(out) == main

    problems = package_differences(path, out, changed_parts={main}, keep_dirs=KEEP_DIRECTORY_ENTRIES)
    orig_main, saved_main = read_parts(path)[main], read_parts(out)[main]
    problems += _main_part_problems(orig_main, saved_main)
    problems += _our_markup_problems(saved_main, len(given))
    assert not problems, "\n".join(problems)

    # Reopen: the same elements carry the same IDs, and the index finds them.
    doc = Document.open(out)
    try:
        tree = doc.root.getroottree()
        wrong = []
        for el_path, element_id in given.items():
            el = tree.find(el_path)
            if el is None or el.get(OX_ID) != element_id:
                wrong.append(f"{el_path}: expected {element_id}, found {None if el is None else el.get(OX_ID)}")
            elif doc.find(element_id) is not el or doc.id_of(el) != element_id:
                wrong.append(f"{element_id}: not found again by its ID after reopening")
        assert not wrong, "\n".join(wrong[:10])
        # giving the same IDs again changes nothing: the main part stays clean
        assert give_ids(doc) == given
        assert not doc.main.dirty, "re-giving existing IDs marked the main part dirty"
    finally:
        doc.close()


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_save_without_ids_is_byte_identical(path, tmp_path):
    out = tmp_path / path.name
    doc = Document.open(path)
    try:
        doc.save(out)
    finally:
        doc.close()
    problems = package_differences(path, out, keep_dirs=KEEP_DIRECTORY_ENTRIES)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_save_strip_ids_leaves_no_trace(path, tmp_path):
    out = tmp_path / path.name
    doc = Document.open(path)
    try:
        n = len(give_ids(doc))
        doc.save(out, strip=True)
        # the document in memory keeps its IDs (stripping works on a copy)
        assert len(doc.root.xpath("//@oxm:id", namespaces={"oxm": OX})) == n
    finally:
        doc.close()
    traces = [name for name, data in read_parts(out).items() if OX.encode() in data]
    assert not traces, f"our namespace is still in {traces}"
    main = main_part_name(path)
    problems = package_differences(path, out, changed_parts={main}, keep_dirs=KEEP_DIRECTORY_ENTRIES)
    orig_main, saved_main = read_parts(path)[main], read_parts(out)[main]
    if canonical(orig_main, strip_ids=False) != canonical(saved_main, strip_ids=False):
        problems.append("main part differs from the original after canonicalisation")
    if ns_declarations(orig_main) != ns_declarations(saved_main):
        o, s = dict(ns_declarations(orig_main)), dict(ns_declarations(saved_main))
        problems.append("namespace declarations differ from the original: " + "; ".join(
            f"{k}: {sorted(o.get(k, ()))} -> {sorted(s.get(k, ()))}" for k in sorted(set(o) | set(s))
            if o.get(k) != s.get(k))[:600])
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", corpus_params(refused_files()))
def test_refused_with_reason(path):
    reason = expected_refusals()[path.name]
    with pytest.raises(InvalidDocument) as info:
        Document.open(path).close()
    assert reason.lower() in info.value.message.lower(), (
        f"{path.name} must be refused naming '{reason}', got: {info.value.message}")
    assert info.value.error_type == "InvalidDocument"


def test_corpus_inventory():
    """The manifest covers the corpus, and the expected refusals are the Strict + DTD files."""
    files = corpus_files()
    if not files:
        pytest.skip("no corpus (set OOXML_MCP_CORPUS)")
    rows = manifest()
    if rows:
        assert {p.name for p in files} <= set(rows), "files missing from MANIFEST.tsv"
        strict = {n for n, r in rows.items() if "strict" in r["features"]}
        assert {n for n, why in expected_refusals().items() if why == "Strict"} == strict
    report(f"corpus: {len(files)} files, {len(editable_files())} editable, "
           f"{len(refused_files())} expected refusals, "
           f"{sum(bool(directory_entries(p)) for p in files)} with zip directory entries")
