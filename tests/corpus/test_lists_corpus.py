"""Lists and styles tools on real documents with numbering: every result converts in LibreOffice and
adds no kind of Open XML SDK error the original lacked."""
from __future__ import annotations

import re
import shutil

import pytest

from tests.support import sdk_validator as SDK
from tests.support.corpus import editable_files, features, require_corpus
from tests.support.libreoffice import convert_cached, require_soffice

pytestmark = pytest.mark.anyio
FILES = 8  # the first editable files with numbering, by name: enough variety, a short run


def chosen():
    return [f for f in editable_files() if "numbering" in features(f)][:FILES]


def first_paragraph_ids(answer_text: str, n: int) -> list[str]:
    return re.findall(r"\[(?:Paragraph|Heading \d) \((para_[0-9a-f]+)\)", answer_text)[:n]


async def edit(docx, path, out):
    await docx.open(path)
    ids = first_paragraph_ids((await docx.ok("docx_read_content")).text, 3)
    if len(ids) >= 3:
        await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[1], list_type="number")
        await docx.ok("docx_apply_style", element_id=ids[2], style="Quote")
        await docx.ok("docx_restart_numbering", element_id=ids[1], start=4)
    await docx.ok("docx_insert_list", items=["One", ["One, a"], "Two"], position="end:document_body",
                  list_type="upper_roman")
    await docx.ok("docx_create_style", name="Corpus Test Style", properties={"italic": True})
    await docx.save(out)
    await docx.ok("docx_close", session_id=docx.session_id)


async def test_tools_on_corpus_documents_keep_them_valid_and_readable(docx, tmp_path):
    require_corpus()
    files = chosen()
    assert files, "no editable corpus file with numbering"
    results = {}
    for f in files:
        src = tmp_path / "in" / f.name  # the server opens files under its root only
        src.parent.mkdir(exist_ok=True)
        shutil.copyfile(f, src)
        results[f] = tmp_path / f.name
        await edit(docx, src, results[f])
    require_soffice()
    converted = convert_cached(results.values(), label="lists corpus edits")
    assert all(converted[r.resolve()] is not None for r in results.values()), converted
    SDK.require()
    SDK.validate_files([*files, *results.values()])  # one batch
    new = {f.name: SDK.new_error_kinds(f, r) for f, r in results.items()}
    assert all(not kinds for kinds in new.values()), new


FIRST_LABELS = {"number": "1", "lower_letter": "a", "upper_letter": "A", "lower_roman": "i", "upper_roman": "I"}


async def test_new_lists_at_the_end_of_corpus_documents_start_at_one(docx, tmp_path):
    """Issue 18: a new list never continues a list of the document nor starts where a reused
    definition starts ('8) Fruit', '(iii)'): five new lists, one after another, at the end of every
    corpus file with numbering each open with 1, a, A, i or I."""
    require_corpus()
    files = [f for f in editable_files() if "numbering" in features(f)]
    wrong = {}
    for f in files:
        src = tmp_path / f.name
        shutil.copyfile(f, src)
        await docx.open(src)
        for list_type, first in FIRST_LABELS.items():
            a = await docx.ok("docx_insert_list", items=["Fruit", "Bread"], position="end:document_body",
                              list_type=list_type)
            label = re.search(r"^\+.*│ (\S+) (?:\[\+)?Fruit", a.text, re.M)  # the new box; [+ +]: tracked
            if label is None or label.group(1).strip("().") != first:
                wrong[f"{f.name} {list_type}"] = label.group(1) if label else None
        await docx.ok("docx_close", session_id=docx.session_id)
    assert len(files) > 40 and not wrong, wrong
