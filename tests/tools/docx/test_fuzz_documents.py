"""Fuzzed documents: every outcome is a named error or a valid result (issue 12).

Seed files (the fixtures, a table-heavy built document, and small corpus files) are broken
by seeded mutations (tests/support/mutations.py: byte flips, truncation, XML damage, absurd
numbers, tables without rows or cells without paragraphs, unsupported compression, missing
parts, content controls bound by costly or deep XPaths, a secret hidden by invisible characters, in w:binData or in an embedded zip with a damaged
directory or odd compression: docx_redact must remove it or its leak check must say where it is or
where it could not look). Each is opened, read, edited and saved in a child process limited to 2 GB of address
space. The test fails on a crash, a hang over 30 s, an InternalError, an answer the validator
rejects (or an error answer without a hint), a saved file we cannot open again, or one
LibreOffice cannot convert where it converted the broken input (inputs with absurd numbers are
not given to LibreOffice: it hangs on some of them itself).

``OOXML_MCP_FUZZ_CASES`` (default 280) and ``OOXML_MCP_FUZZ_SEED`` (default 12) choose the
cases; ``OOXML_MCP_FUZZ_LO`` (default 40) how many saved results LibreOffice checks. The
counts by outcome are printed (and shown in the terminal summary).
"""
from __future__ import annotations

import os
import re
import time
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from tests.builders import build_docx, p, tbl, tc
from tests.support import report
from tests.support.corpus import corpus_dir, editable_files
from tests.support.fuzz import Outcome, run_cases
from tests.support.libreoffice import convert_cached, soffice_path, soffice_required
from tests.support.mutations import Case, make_cases

pytestmark = pytest.mark.fuzz
ROOT = Path(__file__).resolve().parents[3]
CASES = int(os.environ.get("OOXML_MCP_FUZZ_CASES", "280"))
SEED = int(os.environ.get("OOXML_MCP_FUZZ_SEED", "12"))
LO_CHECKS = int(os.environ.get("OOXML_MCP_FUZZ_LO", "40"))
LO_CHUNK, LO_TIMEOUT = 10, 120.0  # files per soffice process, seconds it may take
CORPUS_SEEDS = int(os.environ.get("OOXML_MCP_FUZZ_SEEDS", "10"))  # smallest corpus files: half with tables


def seed_files(tmp_path: Path) -> list[Path]:
    merged = [[tc(p("a"), '<w:gridSpan w:val="2"/>'), tc(p("b"))],
              [tc(p("c"), '<w:vMerge w:val="restart"/>'), tc(p("d")), tc(p("e"))],
              [tc(p(""), "<w:vMerge/>"), tc(p("f"), '<w:gridSpan w:val="2"/>')]]
    built = build_docx(tmp_path / "tables.docx", p("Tables ahead") + tbl(merged, grid=[2000, 2000, 2000]) + p("end"))
    seeds = [ROOT / "fixtures" / "report.docx", ROOT / "fixtures" / "no-styles.docx", built]
    if corpus_dir() is not None:
        from tests.support.corpus import features

        small = sorted((f for f in editable_files() if f.stat().st_size < 150_000), key=lambda f: f.stat().st_size)
        with_tables = [f for f in small if "tables" in features(f)]
        seeds += (with_tables[:CORPUS_SEEDS // 2] + [f for f in small if f not in with_tables])[:CORPUS_SEEDS]
    return seeds


def failures_of(outcomes: list[Outcome]) -> list[str]:
    out = []
    for o in outcomes:
        name = f"case {o.case.index} ({o.case.kind} of {o.case.seed_file})"
        if o.status != "done":
            out.append(f"{name}: {o.status}: {o.detail[:400]}")
            continue
        out += [f"{name}: InternalError in {e}" for e in o.result["internal"]]
        if o.result.get("saved") and o.result.get("reopened") != "ok":
            out.append(f"{name}: our saved result does not open again ({o.result.get('reopened')})")
        out += [f"{name}: invalid answer {e}" for e in o.result["bad_answers"]]
        if o.result.get("leak_ok") is False:
            out.append(f"{name}: docx_redact's leak check said nothing of a secret the file still holds")
    return out


def counts_lines(outcomes: list[Outcome]) -> list[str]:
    opened = Counter(o.result.get("open", o.status) if o.status == "done" else o.status for o in outcomes)
    by_kind = Counter((o.case.kind, "opened" if o.result.get("open") == "ok" else "refused") for o in outcomes)
    calls = Counter(kind for o in outcomes for kinds in o.result.get("calls", {}).values() for kind in kinds)
    saved = sum(1 for o in outcomes if o.result.get("saved"))
    lines = [f"fuzz: {len(outcomes)} cases (seed {SEED}); open outcomes: {dict(sorted(opened.items()))}",
             "fuzz: by mutation: " + ", ".join(f"{k}: {by_kind[(k, 'opened')]} opened/{by_kind[(k, 'refused')]} "
                                               f"refused" for k in dict.fromkeys(o.case.kind for o in outcomes)),
             f"fuzz: tool calls by outcome: {dict(calls.most_common())}; saved: {saved}"]
    return lines


_ABSURD_VALUE = re.compile(rb'="(?:-\d|\d{10,}|1e400|NaN|\xc2\xb2)')


def lo_can_judge(path: Path) -> bool:
    """False for inputs with absurd numbers: LibreOffice itself hangs on some (7.4: a negative
    w:gridBefore), so it cannot judge our result; the other checks still cover those cases."""
    try:
        with zipfile.ZipFile(path) as z:
            return not any(_ABSURD_VALUE.search(z.read(n)) for n in z.namelist() if n.endswith(".xml"))
    except (zipfile.BadZipFile, OSError, KeyError, ValueError, NotImplementedError, RuntimeError, EOFError):
        return False


def libreoffice_failures(outcomes: list[Outcome]) -> tuple[list[str], str]:
    """Saved results LibreOffice cannot convert while it converted the broken input."""
    all_saved = [o for o in outcomes if o.result.get("saved") and Path(o.case.out).is_file()]
    saved = [o for o in all_saved if lo_can_judge(Path(o.case.path))]
    skipped = len(all_saved) - len(saved)
    if not saved or LO_CHECKS <= 0:
        return [], "LibreOffice: nothing to check"
    if soffice_path() is None:
        if soffice_required():
            pytest.fail("soffice is required (OOXML_MCP_REQUIRE_SOFFICE=1) but not installed")
        return [], "LibreOffice: not installed, conversion not checked"
    step = max(1, len(saved) // LO_CHECKS)
    sample = saved[::step][:LO_CHECKS]
    t0 = time.monotonic()
    # Small batches with a bounded time each: one slow file must not hold a large batch.
    pdfs = convert_cached([Path(o.case.path) for o in sample] + [Path(o.case.out) for o in sample], label="fuzz",
                          chunk_size=LO_CHUNK, timeout=LO_TIMEOUT)
    failures = []
    converted_inputs = 0
    for o in sample:
        if pdfs.get(Path(o.case.path).resolve()) is None:
            continue
        converted_inputs += 1
        if pdfs.get(Path(o.case.out).resolve()) is None:
            failures.append(f"case {o.case.index} ({o.case.kind} of {o.case.seed_file}): LibreOffice converts the "
                            "input but not our saved result")
    return failures, (f"LibreOffice: {len(sample)} saved results checked ({converted_inputs} inputs converted; "
                      f"{skipped} with absurd numbers not given to it) in {time.monotonic() - t0:.1f}s, "
                      f"{len(failures)} failed")


def test_fuzzed_documents_give_named_errors_or_valid_results(tmp_path):
    t0 = time.monotonic()
    seeds = seed_files(tmp_path)
    cases = make_cases(seeds, CASES, SEED, tmp_path / "cases")
    outcomes = run_cases(cases, tmp_path)
    ran = time.monotonic() - t0
    lo_failures, lo_line = libreoffice_failures(outcomes)
    lines = counts_lines(outcomes) + [f"fuzz: {len(seeds)} seed files; cases ran in {ran:.1f}s; {lo_line}"]
    if corpus_dir() is None:
        lines.append("fuzz: corpus absent ($OOXML_MCP_CORPUS): fixtures and built seeds only")
    for line in lines:
        report(line)
        print(line)
    problems = failures_of(outcomes) + lo_failures
    assert not problems, f"{len(problems)} fuzz failure(s):\n" + "\n".join(problems[:30])


def test_the_harness_sees_crashes_hangs_and_the_memory_cap(tmp_path):
    """The child's crash, hang and an allocation over the cap are reported; later cases still run."""
    good = tmp_path / "report.docx"
    good.write_bytes((ROOT / "fixtures" / "report.docx").read_bytes())
    kinds = ["ok", "harness-crash", "ok", "harness-hang", "harness-memory", "ok"]
    cases = [Case(i, good.name, kind, str(good), str(tmp_path / f"out{i}.docx")) for i, kind in enumerate(kinds)]
    outcomes = run_cases(cases, tmp_path, hang_seconds=3)
    assert [o.status for o in outcomes] == ["done", "crash", "done", "hang", "done", "done"]
    assert outcomes[4].result["internal"] == ["MemoryError outside a tool call"]
    assert all(outcomes[i].result["saved"] and outcomes[i].result["reopened"] == "ok" for i in (0, 2, 5))
    assert failures_of(outcomes[:2]) and not failures_of([outcomes[0], outcomes[2], outcomes[5]])
