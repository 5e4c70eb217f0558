"""Random sequences of editing tools (Hypothesis) on fixture documents and corpus files.

Invariants: every answer passes the validator; a failed call leaves the main part unchanged;
IDs stay unique; every saved result reopens with the same IDs and converts in LibreOffice.
"""
from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from ooxml.model.document import Document
from ooxml.xml.namespaces import OX_ID
from tests.support.answer_validator import errors, parse_head
from tests.support.corpus import editable_files
import tools.catalog  # noqa: F401  (registers the tools)
from tools.runtime.call.dispatch import run_tool
from tools.runtime.call.registry import CallContext
from tools.builtin import builtin
from tools.services import Services

SAVED: list[Path] = []
# More examples for a deeper search: OOXML_MCP_PROPERTY_EXAMPLES=200 python -m pytest tests/tools/docx/test_property_edits.py
SCALE = int(os.environ.get("OOXML_MCP_PROPERTY_EXAMPLES", "25")) / 25
TEXT = st.text(alphabet=st.sampled_from(list("abc XYZ\t\n标题é&<>")), min_size=0, max_size=12)


FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def small_corpus_files(n: int = 4) -> list[Path]:
    files = [p for p in editable_files() if p.stat().st_size < 60_000]
    return files[::max(1, len(files) // n)][:n] if files else []


def documents() -> list[Path]:
    """The fixture documents and a few small corpus files."""
    return sorted(FIXTURES.glob("*.docx")) + small_corpus_files()


class Driver:
    def __init__(self, root: Path, **services):
        self.services = Services(roots=[root], **services)
        self.ctx = CallContext(None, self.services)
        self.ids: list[str] = []

    def call(self, name: str, **args):
        outcome = asyncio.run(run_tool(builtin().get(name), name, args, self.ctx, list(builtin())))
        assert not errors(outcome.text), outcome.text
        head = parse_head(outcome.text)
        assert head.get("Error Type") != "InternalError", outcome.text  # a bug, not a refusal
        eid = head.get("Element ID")
        if not outcome.is_error and eid:
            self.ids.append(eid)
        self.ids += re.findall(r"\((para_[0-9a-f]{6}|table_[0-9a-f]{6})\)", outcome.text)[:6]
        return outcome

    def session(self):
        return self.services.sessions.get(None, None)


def target(draw, driver: Driver) -> str:
    choices = ["last_insert", "last_update", "cursor", "para_000000"] + driver.ids[-8:]
    return draw(st.sampled_from(choices))


@st.composite
def step(draw, driver: Driver):
    kind = draw(st.sampled_from(["para", "heading", "run", "update", "update_run", "font", "align",
                                 "props", "delete", "copy", "cursor", "break", "context", "table", "fill",
                                 "row", "col", "merge", "copy_table", "del_row", "replace", "range"]))
    table = draw(st.sampled_from([i for i in driver.ids if i.startswith("table_")][-4:] or ["table_000000"]))
    n = st.integers(0, 3)
    mode = draw(st.sampled_from(["before", "after", "start", "end", "inside"]))
    pos = draw(st.one_of(st.just(f"{mode}:document_body"), st.just(f"{mode}:{target(draw, driver)}")))
    t = target(draw, driver)
    text = draw(TEXT)
    return {
        "para": ("docx_insert_paragraph", {"text": text, "position": pos}),
        "heading": ("docx_insert_heading", {"text": text, "level": draw(st.integers(0, 3)), "position": pos}),
        "run": ("docx_insert_run", {"text": text, "position": pos}),
        "update": ("docx_update_paragraph_text", {"element_id": t, "new_text": text}),
        "update_run": ("docx_update_run_text", {"element_id": t, "new_text": text}),
        "font": ("docx_set_font", {"element_id": t, "bold": draw(st.booleans()), "size": draw(st.integers(6, 30))}),
        "align": ("docx_set_alignment", {"element_id": t, "alignment": draw(st.sampled_from(["left", "center", "right", "justify"]))}),
        "props": ("docx_set_properties", {"element_id": t, "properties": {"space_after": "6pt", "keep_with_next": True}}),
        "delete": ("docx_delete", {"element_id": t}),
        "copy": ("docx_copy_paragraph", {"element_id": t, "position": pos}),
        "cursor": ("docx_cursor_move", {"element_id": t, "position": draw(st.sampled_from(["before", "after"]))}),
        "break": ("docx_insert_page_break", {"position": pos}),
        "context": ("docx_get_context", {"element_id": t}),
        "table": ("docx_insert_table", {"rows": draw(st.integers(1, 3)), "cols": draw(st.integers(1, 3)),
                                        "position": pos}),
        "fill": ("docx_fill_table", {"table_id": table, "data": [[text, "x"], ["y"]] * draw(st.integers(1, 3)),
                                     "start_row": draw(n)}),
        "row": ("docx_insert_row_at", {"table_id": table, "position": draw(st.sampled_from(
            ["start", "end", "before:1", "after:0", "after:5"]))}),
        "col": ("docx_insert_col_at", {"table_id": table, "position": draw(st.sampled_from(
            ["start", "end", "before:1", "after:0"]))}),
        "merge": ("docx_merge_cells", {"table_id": table, "start_row": draw(n), "start_col": draw(n),
                                       "end_row": draw(n), "end_col": draw(n)}),
        "copy_table": ("docx_copy_table", {"table_id": table, "position": pos}),
        "del_row": ("docx_delete_row", {"table_id": table, "row_index": draw(n)}),
        "replace": ("docx_replace_text", {"old_text": draw(st.sampled_from(["a", "the", "X", "标"])),
                                          "new_text": text}),
        "range": ("docx_copy_elements_range", {"start_id": t, "end_id": target(draw, driver), "position": pos}),
    }[kind]


def main_part_bytes(driver: Driver) -> bytes:
    return etree.tostring(driver.session().doc.root)


def check_saved(driver: Driver, path: Path) -> None:
    driver.call("docx_save", file_path=str(path))
    saved = Document.open(path)
    ids = [el.get(OX_ID) for el in saved.root.iter() if isinstance(el.tag, str) and el.get(OX_ID)]
    assert len(ids) == len(set(ids)), "duplicate IDs in the saved file"
    live = driver.session().doc
    for eid in ids:
        assert live.ids.get(eid) is not None, f"{eid} in the file but not in the session"
        assert etree.QName(saved.find(eid)).localname == etree.QName(live.find(eid)).localname
    saved.close()
    SAVED.append(path)


def run_steps(driver: Driver, data, n_steps: int) -> None:
    for _ in range(n_steps):
        name, args = data.draw(step(driver))
        before = main_part_bytes(driver)
        outcome = driver.call(name, **args)
        if outcome.is_error:
            assert main_part_bytes(driver) == before, f"{name} failed but changed the document"


@settings(max_examples=max(1, int(25 * SCALE)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(data=st.data())
def test_random_edits_on_a_new_document(tmp_path_factory, data):
    root = tmp_path_factory.mktemp("prop")
    driver = Driver(root)
    driver.call("docx_create")
    run_steps(driver, data, 15)
    check_saved(driver, root / "result.docx")


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.name)
@settings(max_examples=max(1, int(6 * SCALE)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                               HealthCheck.too_slow])
@given(data=st.data())
def test_random_edits_on_fixture_and_corpus_files(tmp_path_factory, path, data):
    root = tmp_path_factory.mktemp("propc")
    (root / path.name).write_bytes(path.read_bytes())
    driver = Driver(root)
    driver.call("docx_open", file_path=path.name)
    driver.call("docx_read_content", max_elements=20)
    run_steps(driver, data, 10)
    check_saved(driver, root / f"edited-{path.name}")


@pytest.mark.libreoffice
def test_every_saved_result_converts_in_libreoffice():
    from tests.support.libreoffice import convert_to_pdf, require_soffice
    require_soffice()
    if not SAVED:
        pytest.skip("no saved results (run with the property tests)")
    results = convert_to_pdf(SAVED, SAVED[0].parent / "pdf")
    failed = [p.name for p, pdf in results.items() if pdf is None]
    assert not failed, f"LibreOffice did not convert: {failed}"
