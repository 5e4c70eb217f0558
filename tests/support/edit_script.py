"""What the two corpus edit scripts share (test_edit_scripts_corpus.py, test_validity_corpus.py):
the table data they fill, the word they look for, the picture they insert, the integrity check."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ooxml.model.document import Document
from ooxml.model.integrity import check_package
from tests.support.corpus import corpus_dir, missing_reason

CELL_WORDS = [["QxCellA", "QxCellB", "QxCellC"], ["QxCellD", "QxCellE", "QxCellF"], ["QxCellG", "QxCellH", "QxCellI"]]
WORD = re.compile(r"[^\W\d_]{5,}")  # a word of the file's own text (letters only, 5 or more)


def script_folder(tmp_path_factory, name: str) -> tuple[Path, Path]:
    """A fresh folder for a script's output and the picture it inserts; skips without the corpus."""
    if corpus_dir() is None:
        pytest.skip(missing_reason())
    from PIL import Image

    base = tmp_path_factory.mktemp(name)
    image = base / "picture.png"
    Image.new("RGB", (120, 60), (30, 120, 200)).save(image, dpi=(96, 96))
    return base, image


def integrity_problems(path: Path) -> list[str]:
    doc = Document.open(path)
    try:
        return check_package(doc, all_parts=True)
    finally:
        doc.close()
