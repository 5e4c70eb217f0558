"""Word's id rules in docx_check (ooxml/check/word_ids.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.builders import build_docx

ROOT = Path(__file__).resolve().parents[3]
# One w:id on an insertion and a later deletion: the later one is the one "used twice".
BODY = ('<w:p><w:ins w:id="7" w:author="a"><w:r><w:t>one</w:t></w:r></w:ins></w:p>'
        '<w:p><w:del w:id="7" w:author="a"><w:r><w:delText>two</w:delText></w:r></w:del></w:p>'
        '<w:p><w:moveTo w:id="7" w:author="a"><w:r><w:t>three</w:t></w:r></w:moveTo></w:p>')
PROBE = """
import sys
from ooxml.model.document import Document
from ooxml.check.run import check
doc = Document.open(sys.argv[1])
print([f.element.getroottree().getpath(f.element) for f in check(doc, ("word",)) if f.code == "duplicate-id"])
"""


def test_a_repeated_revision_id_is_reported_on_its_later_uses_whatever_the_hash_seed(tmp_path):
    path = build_docx(tmp_path / "ids.docx", BODY)
    seen = set()
    for seed in ("1", "2", "3", "4"):
        out = subprocess.run([sys.executable, "-c", PROBE, str(path)], cwd=ROOT, capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}, check=True, timeout=60)
        seen.add(out.stdout.strip())
    assert seen == {"['/w:document/w:body/w:p[2]/w:del', '/w:document/w:body/w:p[3]/w:moveTo']"}
