"""A test module that starts the warm LibreOffice (tools/office/service.py) and never closes its
server's office leaves no LibreOffice process behind once the module ends (tests/conftest.py closes
every office at each module's end), rather than one per such module until pytest exits."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.libreoffice import require_soffice

pytest_plugins = ["pytester"]

INNER = '''
from tests.builders import build_docx, p
from tools.services import Services


def test_a_layout_leaves_the_office_open(tmp_path):
    services = Services(roots=[tmp_path])  # never closed, as many tests do
    services.office.to_pdf(build_docx(tmp_path / "a.docx", p("Hello")), tmp_path / "a.pdf")
    assert services.office.starts == 1 and (tmp_path / "a.pdf").is_file()
'''


def libreoffice_descendants() -> set[int]:
    """PIDs of this process's descendants that are LibreOffice or its warm worker (from /proc)."""
    parents, lines = {}, {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                lines[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    mine, grew = {os.getpid()}, True
    while grew:
        found = {pid for pid, ppid in parents.items() if ppid in mine} - mine
        mine |= found
        grew = bool(found)
    return {pid for pid in mine if "soffice" in lines.get(pid, "") or "office/worker.py" in lines.get(pid, "")}


def test_a_modules_warm_libreoffice_is_gone_when_the_module_ends(pytester):
    soffice = require_soffice()
    from tools.office.find import find_uno_python
    if find_uno_python(soffice) is None:
        pytest.skip("no Python with LibreOffice's uno module: no warm LibreOffice to leave")
    pytester.makepyfile(test_inner=INNER)
    before = libreoffice_descendants()
    result = pytester.runpytest_inprocess("-p", "tests.conftest", "-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert libreoffice_descendants() - before == set()
