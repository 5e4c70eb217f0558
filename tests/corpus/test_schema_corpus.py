"""Schema validation over the corpus: a round trip (IDs given, saved) adds no schema error.

Main parts are validated against the ISO/IEC 29500 transitional schemas (+ Microsoft
extensions) after Markup Compatibility preprocessing (tests/support/schema.py); errors of
the saved part are compared with the original's as multisets of normalised messages.
Strict files cannot be validated with the transitional schemas and are skipped.
"""
from __future__ import annotations

import csv
import time

import pytest

from tests.support import report
from tests.support.corpus import (corpus_dir, corpus_files, corpus_params, expected_refusals, is_strict,
                                  save_with_ids)
from tests.support.schema import (main_part_bytes, new_schema_errors, require_schemas, schema_errors_cached,
                                  validate_main_part)

pytestmark = [pytest.mark.corpus, pytest.mark.schema]


@pytest.fixture(scope="module", autouse=True)
def _suite_timing():
    t0 = time.monotonic()
    yield
    report(f"test_schema_corpus: {time.monotonic() - t0:.1f}s")


def _skip_if_not_validatable(path):
    reason = expected_refusals().get(path.name)
    if is_strict(path):
        pytest.skip("Strict OOXML cannot be validated with the transitional schemas "
                    "(tests/tools/docx/test_strict.py checks Strict files with the Open XML SDK validator)")
    if reason:
        pytest.skip(f"the product refuses this file ({reason}); nothing is saved")


@pytest.mark.parametrize("path", corpus_params())
def test_roundtrip_adds_no_schema_error(path, tmp_path):
    require_schemas()
    _skip_if_not_validatable(path)
    out = tmp_path / path.name
    save_with_ids(path, out)
    new = new_schema_errors(main_part_bytes(path), main_part_bytes(out))
    assert not new, f"{len(new)} schema errors the original did not have:\n" + "\n".join(new[:20])


def test_preprocessing_matches_schema_validation_tsv():
    """Our MCE preprocessing validates exactly the main parts SCHEMA_VALIDATION.tsv says are valid."""
    require_schemas()
    folder = corpus_dir()
    if folder is None:
        pytest.skip("no corpus (set OOXML_MCP_CORPUS)")
    tsv = folder.parent / "SCHEMA_VALIDATION.tsv"
    if not tsv.is_file():
        pytest.skip(f"{tsv} not found")
    with open(tsv, encoding="utf-8", newline="") as f:
        rows = {r["file"].rpartition("/")[2]: r for r in csv.DictReader(f, delimiter="\t")}
    checked = valid = 0
    disagree = []
    for path in corpus_files():
        row = rows.get(path.name)
        if row is None or row["result"] == "not-checked-strict":
            continue
        checked += 1
        errors = schema_errors_cached(main_part_bytes(path))
        valid += not errors
        if (not errors) != (row["result"] == "valid"):
            disagree.append(f"{path.name}: TSV {row['result']}, ours {errors[:1] or 'valid'}")
    expected_valid = sum(r["result"] == "valid" for r in rows.values())
    report(f"schema: {valid} of {checked} transitional main parts valid after MCE preprocessing "
           f"(SCHEMA_VALIDATION.tsv: {expected_valid})")
    assert not disagree, "\n".join(disagree)


def test_preprocessing_strips_our_ids_and_alternate_content():
    """A small hand-made document: ignorable attributes, AlternateContent, ProcessContent."""
    require_schemas()
    xml = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"
  xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"
  xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"
  xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
  xmlns:x="urn:example:unknown" xmlns:oxm="urn:ooxml-mcp:ids:2026"
  mc:Ignorable="w14 x oxm" mc:ProcessContent="x:wrap">
<w:body>
<w:p w14:paraId="1234ABCD" oxm:id="para_000001"><w:r oxm:id="run_000002"><w:t>a</w:t></w:r></w:p>
<x:wrap><w:p><w:r><w:t>kept: ProcessContent unwraps</w:t></w:r></w:p></x:wrap>
<x:gone><w:p/></x:gone>
<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><wps:wsp/></mc:Choice>
<mc:Fallback><w:t>fallback</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>
<w:sectPr/>
</w:body></w:document>"""
    assert validate_main_part(xml) == []
    # without preprocessing the same part is invalid
    assert validate_main_part(xml, preprocess=False)
    # our IDs without mc:Ignorable listing our prefix: errors
    bad = xml.replace(b'mc:Ignorable="w14 x oxm"', b'mc:Ignorable="w14 x"')
    errors = validate_main_part(bad)
    assert any("oxm:id" in e for e in errors), errors
    assert new_schema_errors(xml, bad) == sorted(errors)
