"""Undo and redo over random edit sequences (Hypothesis) on fixtures and small corpus files.

After any sequence, undoing every step gives back every part byte for byte (serialised trees and
raw parts alike), the same docx_read_content answer and the same cursor; redoing every step gives
the final state again. OOXML_MCP_CHECK_UNDO=1 (set in conftest) also fails any edit that changes
an element without calling doc.will_change() first.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ooxml.xml.safexml import parse_part, serialize
from ooxml.opc.strict import to_transitional
from tests.builders import png
from tests.support.corpus import strict_files
from tests.tools.docx.test_property_edits import SCALE, TEXT, Driver, documents, step, target

READS = {"docx_get_context", "docx_cursor_move"}  # they give IDs outside the history: kept out


@st.composite
def edit(draw, driver: Driver):
    """An editing call: the property tests' edits plus margins, images and format painting."""
    extra = draw(st.sampled_from(["none", "none", "none", "margins", "image", "format_copy", "del_col", "props",
                                  "text_box", "in_box"]))
    t = target(draw, driver)
    if extra == "text_box":
        mode = draw(st.sampled_from(["after", "end", "start"]))
        return "docx_insert_text_box", {"text": draw(TEXT) or "box", "position": f"{mode}:{t}"}
    if extra == "in_box":  # the paragraph's ID joins the targets: later edits land inside the box
        box = draw(st.sampled_from([i for i in driver.ids if i.startswith("tbx_")][-3:] or ["tbx_000000"]))
        return "docx_insert_paragraph", {"text": draw(TEXT), "position": f"{draw(st.sampled_from(['start', 'end']))}:{box}"}
    if extra == "margins":
        return "docx_set_margins", {"top": draw(st.sampled_from(["2cm", "1in", 0.75]))}
    if extra == "image":
        mode = draw(st.sampled_from(["after", "end", "start"]))
        return "docx_insert_image", {"image_path": "dot.png", "position": f"{mode}:{t}"}
    if extra == "format_copy":
        return "docx_format_copy", {"source_id": t, "target_id": target(draw, driver)}
    if extra == "del_col":
        table = draw(st.sampled_from([i for i in driver.ids if i.startswith("table_")][-4:] or ["table_000000"]))
        return "docx_delete_col", {"table_id": table, "col_index": draw(st.integers(0, 2))}
    if extra == "props":
        return "docx_set_properties", {"element_id": t, "properties": {"bold": True, "alignment": "center",
                                                                        "left_indent": "1cm", "strike": True}}
    return draw(step(driver).filter(lambda s: s[0] not in READS))


def parts(driver: Driver) -> dict[str, bytes]:
    """Every part's bytes; XML parts serialised (loaded or not) so that parsing alone changes nothing."""
    doc = driver.session().doc
    out = {}
    for name, p in doc.package.parts.items():
        if p.loaded:
            out[name] = serialize(p.tree)
        elif name.endswith((".xml", ".rels")):
            data = to_transitional(p.data) if doc.package.strict else p.data  # as loading would map it
            prepare = doc.package.prepare_hook(name)  # loading declares our namespace on story roots
            data = prepare(data)[0] if prepare else data
            out[name] = serialize(parse_part(data, name))
        else:
            out[name] = p.data
    return out


def state(driver: Driver) -> tuple:
    s = driver.session()
    return s.cursor, s.last_insert, s.last_update


ID = re.compile(rb' oxm:id="([^"]+)"')


def differing(a: dict, b: dict) -> list[str]:
    """Parts of b that differ from a's. An ID a view gave out in between (a no-op edit's answer
    names the paragraphs it shows) stays: an agent may hold it, so undo rightly keeps it."""
    return sorted(n for n in set(a) | set(b) if a.get(n) != without_new_ids(b.get(n), a.get(n)))


def without_new_ids(data: bytes | None, before: bytes | None) -> bytes | None:
    if data is None or before is None:
        return data
    known = set(ID.findall(before))
    return ID.sub(lambda m: m.group(0) if m.group(1) in known else b"", data)


def run_and_rewind(driver: Driver, data, n_steps: int) -> None:
    read = driver.call("docx_read_content", max_elements=40).text
    start, start_state = parts(driver), state(driver)
    for _ in range(n_steps):
        name, args = data.draw(edit(driver))
        driver.call(name, **args)
    end, end_state = parts(driver), state(driver)
    recorded = len(driver.session().doc.history.undo_steps)
    event(f"steps recorded: {min(recorded, 8) // 3 * 3}+")
    undo = driver.call("docx_undo", steps=1000)
    assert not undo.is_error and f"**Undone**: {recorded} step(s)" in undo.text, undo.text
    assert differing(start, parts(driver)) == [], "undo did not restore these parts byte for byte"
    assert state(driver) == start_state
    assert driver.call("docx_read_content", max_elements=40).text == read
    redo = driver.call("docx_redo", steps=1000)
    assert f"**Redone**: {recorded} step(s)" in redo.text, redo.text
    assert differing(end, parts(driver)) == [], "redo did not give the final state back"
    assert state(driver) == end_state


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@settings(max_examples=max(1, int(20 * SCALE)), **SETTINGS)
@given(data=st.data())
def test_undo_all_and_redo_all_on_a_new_document(tmp_path_factory, data):
    root = tmp_path_factory.mktemp("undo")
    png(root / "dot.png")
    driver = Driver(root)
    driver.call("docx_create")
    run_and_rewind(driver, data, 12)


def undo_documents() -> list[Path]:
    """The property tests' documents and the smallest Strict corpus file (its parts map back and forth)."""
    strict = sorted(strict_files(), key=lambda p: p.stat().st_size)[:1]
    return documents() + [p for p in strict if p not in documents()]


@pytest.mark.parametrize("path", undo_documents(), ids=lambda p: p.name)
@settings(max_examples=max(1, int(6 * SCALE)), **SETTINGS)
@given(data=st.data())
def test_undo_all_and_redo_all_on_fixture_and_corpus_files(tmp_path_factory, path: Path, data):
    root = tmp_path_factory.mktemp("undoc")
    (root / path.name).write_bytes(path.read_bytes())
    png(root / "dot.png")
    driver = Driver(root)
    driver.call("docx_open", file_path=path.name)
    run_and_rewind(driver, data, 10)
