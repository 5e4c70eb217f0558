"""Round trips over the .docx corpus: open, give IDs, save; nothing else may change.

- untouched parts come back byte for byte, the zip is sound, members keep their order;
- the main part equals the original after C14N 2.0 once our ``oxm:id`` attributes and our
  ``mc:Ignorable`` token are removed, and keeps its namespace declarations;
- IDs survive save + reopen; a save without IDs changes no byte of any part;
- ``strip`` saves leave no trace of our namespace;
- DTD files are refused with InvalidDocument naming the reason; Strict files round-trip as Strict.

Files: ``$OOXML_MCP_CORPUS`` (default ../shared/corpus/docx); see tests/support/corpus.py.
"""
from __future__ import annotations

import time

import pytest

from ooxml.model.document import Document
from ooxml.xml.errors import InvalidDocument
from ooxml.xml.namespaces import MC, OX, OX_ID, OX_PREFIX
from tests.support import report
from tests.support.corpus import (corpus_files, corpus_params, editable_files, expected_refusals, give_ids,
                                  locate, manifest, refused_files, save_with_ids, strict_files)
from tests.support.fidelity import (canonical, directory_entries, main_part_name, package_differences, parse,
                                    read_parts, root_declarations_lost, undeclared_ignorable)

pytestmark = pytest.mark.corpus

# The product writes the package's parts, not its zip directory entries ("word/", "_rels/"):
# folders are not parts (OPC) and no reader needs them. Set to True to require them.
KEEP_DIRECTORY_ENTRIES = False

@pytest.fixture(scope="module", autouse=True)
def _suite_timing():
    t0 = time.monotonic()
    yield
    report(f"test_roundtrip_corpus: {time.monotonic() - t0:.1f}s for {len(corpus_files())} corpus files")


def _first_difference(a: bytes, b: bytes) -> str:
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at byte {i}: original …{a[max(0, i - 100):i + 100]!r}… saved …{b[max(0, i - 100):i + 100]!r}…"


def _main_part_problems(orig, saved, strip_ids: bool = True) -> list[str]:
    """Differences between original and saved main parts, parsed (our markup aside if ``strip_ids``)."""
    problems = []
    a, b = canonical(orig), canonical(saved, strip_ids=strip_ids)
    if a != b:
        problems.append("main part differs after canonicalisation " + _first_difference(a, b))
    lost = root_declarations_lost(orig, saved)
    if lost:
        problems.append(f"namespace declarations lost on the root: {lost}")
    new_undeclared = set(undeclared_ignorable(saved)) - set(undeclared_ignorable(orig))
    if new_undeclared:
        problems.append(f"mc prefixes not declared: {sorted(new_undeclared)[:5]}")
    return problems


def _our_markup_problems(saved_xml: bytes, saved, expected_ids: int) -> list[str]:
    """Our namespace: declared once, on the root, listed in the root's mc:Ignorable."""
    problems = []
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
        declarations = saved_xml.count(OX.encode())
        if declarations != 1:
            problems.append(f"our namespace is declared {declarations} times (once on the root expected)")
    return problems


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_roundtrip_with_ids(path, tmp_path):
    out = tmp_path / path.name
    given = save_with_ids(path, out)
    main = main_part_name(path)
    assert main_part_name(out) == main

    problems = package_differences(path, out, changed_parts={main}, keep_dirs=KEEP_DIRECTORY_ENTRIES)
    saved_main = read_parts(out)[main]
    saved = parse(saved_main)
    problems += _main_part_problems(parse(read_parts(path)[main]), saved)
    problems += _our_markup_problems(saved_main, saved, len(given))
    assert not problems, "\n".join(problems)

    # Reopen: the same elements carry the same IDs, and the index finds them.
    doc = Document.open(out)
    try:
        wrong = []
        for loc, element_id in given.items():
            el = locate(doc.root, loc)
            if el is None or el.get(OX_ID) != element_id:
                wrong.append(f"element at {loc}: expected {element_id}, found {None if el is None else el.get(OX_ID)}")
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
    saved = parse(read_parts(out)[main])
    problems += _main_part_problems(parse(read_parts(path)[main]), saved, strip_ids=False)
    if OX_PREFIX in saved.get(f"{{{MC}}}Ignorable", "").split():
        problems.append(f"'{OX_PREFIX}' is still listed in mc:Ignorable")
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
    """The manifest covers the corpus, and the expected refusals are the DTD files (Strict ones open)."""
    files = corpus_files()
    if not files:
        pytest.skip("no corpus (set OOXML_MCP_CORPUS)")
    rows = manifest()
    if rows:
        assert {p.name for p in files} <= set(rows), "files missing from MANIFEST.tsv"
        dtd = {n for n, r in rows.items() if "doctype" in r["features"]}
        assert set(expected_refusals()) == dtd
        assert not {p.name for p in strict_files()} & set(expected_refusals()), "Strict files must open"
    report(f"corpus: {len(files)} files, {len(editable_files())} editable, "
           f"{len(refused_files())} expected refusals, "
           f"{sum(bool(directory_entries(p)) for p in files)} with zip directory entries")
