"""Shared fixtures: an MCP client connected in-process to a fresh server per test.

Every answer a test receives passes through the answer validator (tests/support/answer_validator.py):
a test fails on any ERROR finding, whatever it asserts itself.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

# Every cached box the answers reuse is redrawn and compared (render/blocks.py _Drawn).
os.environ.setdefault("OOXML_MCP_CHECK_DRAWN", "1")
# Every element changed by a call must have been announced with doc.will_change() (undo records it).
os.environ.setdefault("OOXML_MCP_CHECK_UNDO", "1")

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.support.client import DocxClient, open_client  # noqa: E402
# The server builds its registry on first need (tools/builtin.py); tests that read it while
# collecting (parametrize over every tool) need it at once, and the config's name check too.
from tools.builtin import builtin  # noqa: E402

builtin()


# The slow tiers, by where their tests live (a test parametrized by corpus_params, or named for the corpus,
# is `corpus` wherever it lives). The inner loop leaves them out: -m "not corpus and not fuzz and not install and not scale";
# tests/run_all.py (CI) runs every tier.
TIERS = {
    "corpus": ("corpus/", "tools/docx/test_compare_office.py"),  # the latter: the corpus pairs' redlines
    "fuzz": ("tools/docx/test_fuzz_documents.py", "tools/docx/test_property_edits.py",
             "tools/docx/test_undo_property.py", "tools/docx/test_compare_property.py",
             "tools/runtime/test_durable_history.py"),
    "install": ("project/test_install.py",),
    "scale": ("deploy/", "tools/runtime/test_time_limits.py", "tools/runtime/test_time_limits_privacy.py",
              "tools/runtime/test_kill_save.py", "tools/docx/test_compare_growth.py", "tools/docx/test_scrub_growth.py",
              "tools/docx/test_batch_growth.py", "tools/storage/test_store_upload_memory.py"),
}


def pytest_collection_modifyitems(items):
    tests = Path(__file__).resolve().parent
    for item in items:
        path = Path(str(item.fspath)).resolve()
        if not path.is_relative_to(tests):  # a test an inner pytest run made (pytester) has no tier
            continue
        where = path.relative_to(tests).as_posix()
        for tier, places in TIERS.items():
            if where.startswith(places) or (tier == "corpus" and "corpus" in item.name):
                item.add_marker(tier)


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
async def docx(tmp_path) -> DocxClient:
    async with open_client([tmp_path]) as client:
        yield client


@pytest.fixture(scope="module", autouse=True)
def _close_offices():
    """The warm LibreOffice of every server a module started (closed or not) goes with the module,
    not at pytest's exit: one left per module would pile up over a run."""
    yield
    from tools.office.service import close_all
    close_all()


@pytest.fixture(scope="session")
def seaweed():
    """One real SeaweedFS S3 gateway for the whole run (tests/support/seaweed.py)."""
    from tests.support.seaweed import SeaweedFS
    store = SeaweedFS().start()
    yield store
    store.close()


def pytest_terminal_summary(terminalreporter):
    """Print the timings and counts that tests/support recorded (LibreOffice batches, suites)."""
    from tests.support import report_lines

    lines = report_lines()
    if lines:
        terminalreporter.section("ooxml-mcp corpus timings")
        for line in lines:
            terminalreporter.write_line(line)
