"""README's test command: install what the tests need, then run the whole suite.

Installs the Python dependencies (pip, editable with the test extras) and, when missing and
when running as root, LibreOffice headless and poppler-utils from Debian's packages. Extra
arguments go to pytest. Exits with pytest's status (5, "no tests ran", counts as a failure).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APT = {"soffice": "libreoffice-writer-nogui", "pdftotext": "poppler-utils", "node": "nodejs", "npm": "npm",
       "redis-server": "redis-server", "haproxy": "haproxy",  # these two: scale-out tests (issue 13)
       "pdfinfo": "poppler-utils", "fc-match": "fontconfig"}  # exports: PDF metadata, substituted fonts (issue 32)
# Packages without a command: LibreOffice's Python bridge keeps one LibreOffice warm for docx_render_page.
APT_FILES = {"/usr/lib/python3/dist-packages/uno.py": "python3-uno",
             # LibreOffice's equation module: without it Office Math is dropped from its layouts (issue 31)
             "/usr/lib/libreoffice/program/libsmlo.so": "libreoffice-math-nogui"}


def install_system_packages() -> None:
    missing = [pkg for cmd, pkg in APT.items() if shutil.which(cmd) is None]
    missing += [pkg for path, pkg in APT_FILES.items() if not os.path.exists(path)]
    if not missing:
        return
    if os.geteuid() != 0:
        print(f"note: {', '.join(missing)} missing and not root: LibreOffice checks will skip", flush=True)
        return
    print(f"installing {' '.join(missing)} from Debian's packages", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True, env=env,
                   stdout=subprocess.DEVNULL)


def install_python_packages() -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-e",
                    f"{ROOT}[test]"], check=True)


def install_sdk_validator() -> None:
    """Microsoft's Open XML SDK validator (npm), into the test cache; see tests/support/sdk_validator.py."""
    sys.path.insert(0, str(ROOT))
    from tests.support.sdk_validator import install
    problem = install()
    if problem:
        print(f"note: {problem}: Open XML SDK validator checks will skip (fail in CI)", flush=True)


def main() -> int:
    started = time.monotonic()
    install_system_packages()
    install_python_packages()
    install_sdk_validator()
    # Every tier runs (corpus, fuzz, install, scale included); the 25 slowest are listed for the CI log.
    status = subprocess.run([sys.executable, "-m", "pytest", "-q", "--durations=25", *sys.argv[1:]], cwd=ROOT).returncode
    print(f"test run took {time.monotonic() - started:.0f} s", flush=True)
    if status == 5:
        print("pytest ran no tests: failing", flush=True)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
