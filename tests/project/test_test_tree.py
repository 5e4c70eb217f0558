"""The test tree mirrors the source (tests/ooxml/<folder>, tests/render, tests/tools/<folder>): its
folders are no packages, so none shadows the real `ooxml`, `render` or `tools`, and no two test
files share a name (pytest imports each by its name alone)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import ooxml
import render
import tools

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"


def test_the_real_packages_are_imported_not_the_test_folders_named_after_them():
    for package in (ooxml, render, tools):
        assert Path(package.__file__).parent.parent == REPO, package.__file__


def test_no_test_folder_is_a_package():
    inits = [p.relative_to(TESTS) for p in TESTS.rglob("__init__.py") if "support" not in p.parts]
    assert not inits, f"test folders must not be packages (they would shadow ooxml/render/tools): {inits}"


def test_no_two_test_files_share_a_name():
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert not [n for n, k in names.items() if k > 1]
