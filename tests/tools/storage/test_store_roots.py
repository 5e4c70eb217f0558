"""Object roots on the command line and the key sandbox: keys obey the rules of paths."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tools.storage.roots import ObjectRoot, locate
from tools.storage.store import StoreDenied

ROOT = Path(__file__).resolve().parents[3]
ROOTS = [ObjectRoot.parse("s3://docs/team"), ObjectRoot.parse("s3://archive")]


@pytest.mark.parametrize("path, bucket, key", [
    ("a.docx", "docs", "team/a.docx"),
    ("s3://docs/team/sub/a.docx", "docs", "team/sub/a.docx"),
    ("s3://archive/any/where.docx", "archive", "any/where.docx"),
])
def test_keys_inside_the_roots(path, bucket, key):
    where = locate(path, ROOTS)
    assert (where.root.bucket, where.key) == (bucket, key)


@pytest.mark.parametrize("path", ["../a.docx", "s3://docs/teamx/a.docx", "s3://docs/a.docx", "s3://other/team/a.docx",
                                  "s3://docs/team/../b.docx", "s3://docs/team//a.docx", "sub/./a.docx",
                                  "s3://docs/team/a\\..\\b.docx", "s3://docs/team/a\x01.docx"])
def test_keys_outside_the_roots_are_refused(path):
    with pytest.raises(StoreDenied):
        locate(path, ROOTS)


@pytest.mark.parametrize("root", ["s3://", "s3://bad_bucket!/x", "s3://docs/../x"])
def test_a_bad_object_root_stops_the_server_with_the_reason(root):
    run = subprocess.run([sys.executable, str(ROOT / "server.py"), "--root", root], capture_output=True, text=True,
                         timeout=60, stdin=subprocess.DEVNULL, cwd=ROOT)
    assert run.returncode == 2 and "--root" in run.stderr, run.stderr


@pytest.mark.anyio
async def test_with_only_object_roots_a_file_path_is_refused_naming_them(tmp_path):
    from tests.support.client import open_client
    async with open_client([], objects=ROOTS, objects_first=True) as c:
        refused = await c.call("docx_open", file_path="/etc/passwd")
    assert refused.error_type == "PermissionDenied", refused.text
    assert "s3://docs/team" in refused.text
