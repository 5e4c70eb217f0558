"""What other programs see of filled forms: LibreOffice's text export of a filled template and of
set controls (one batched export), and the Open XML SDK validator on them and on corpus files whose
every settable control was set, saved and reopened (one batched validator run)."""
from __future__ import annotations

import re
import shutil
import time
import zipfile
from pathlib import Path

import pytest

from tests.builders import png
from tests.support import sdk_validator as sdk
from tests.support.corpus import corpus_dir, editable_files
from tests.support.form_docs import TEMPLATE_DATA, controls_doc, template_doc
from tests.support.libreoffice import convert_cached, require_soffice

pytestmark = pytest.mark.anyio
VALIDATED = 8
LINE = re.compile(r"^- (sdt_\w+) \[(\w+), (\w+)\](.*)$", re.M)


def corpus_with_controls() -> list[Path]:
    out = []
    for f in editable_files() if corpus_dir() else []:
        with zipfile.ZipFile(f) as z:
            if any(n.startswith("word/") and n.endswith(".xml") and b"<w:sdt" in z.read(n) for n in z.namelist()):
                out.append(f)
    return out


def value_for(kind: str, rest: str, i: int, picture: str):
    """A value each kind takes, and how the listing shows it afterwards."""
    if kind in ("text", "rich_text", "combo_box"):
        return f"Filled {i}", f'value="Filled {i}"'
    if kind == "checkbox":
        checked = "☒ checked" in rest
        return (not checked), ("☐ unchecked" if checked else "☒ checked")
    if kind == "dropdown":
        m = re.search(r"items=([^=,]+?)(?:=([^,]+?))?(?:,|$| lock| bound)", rest)
        return (m.group(2) or m.group(1)).strip(), f'value="{m.group(1).strip()}"'
    if kind == "date":
        return "2026-03-01", "2026"
    if kind == "picture":
        return picture, None
    return None, None


def leaf_controls(listing: str) -> list[tuple[str, str, str]]:
    """(id, kind, rest) of settable, unlocked controls."""
    return [(cid, kind, rest) for cid, kind, _, rest in LINE.findall(listing)
            if kind in ("text", "rich_text", "combo_box", "checkbox", "dropdown", "date", "picture")
            and "lock=contentLocked" not in rest and "lock=sdtContentLocked" not in rest
            and (kind != "dropdown" or "items=" in rest)]


async def set_every_control(docx, src: Path, out: Path, picture: str) -> dict[str, str]:
    """Set every settable control of ``src`` (leaf controls: an outer one would replace the inner ones)."""
    await docx.open(src)
    listing = (await docx.ok("docx_list_content_controls")).text
    expected = {}
    for i, (cid, kind, rest) in enumerate(leaf_controls(listing)):
        value, shown = value_for(kind, rest, i, picture)
        a = await docx.call("docx_set_content_control", control_id=cid, value=value)
        if a.is_error and a.error_type == "ElementNotFound":
            continue  # inside a control set before it (a rich text holding others)
        assert not a.is_error, f"{src.name} {cid} {kind}: {a.text}"
        if shown:
            expected[cid] = shown
    await docx.save(out)
    await docx.ok("docx_close", session_id=docx.session_id)
    return expected


async def new_controls(docx, out: Path, picture: str) -> Path:
    """A new document with one control of every kind inserted by the tools, each set."""
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Fields: ", position="end:document_body")).element_id
    values = {"text": "T", "rich_text": "R *i*", "checkbox": True, "dropdown": "b", "combo_box": "C",
              "date": "2026-12-24", "picture": picture}
    for kind, value in values.items():
        await docx.ok("docx_insert_content_control", kind=kind, position=f"end:{para}", tag=kind, value=value,
                      items=["a", "b"] if kind in ("dropdown", "combo_box") else None)
    section = (await docx.ok("docx_insert_content_control", kind="repeating_section", element_id=para,
                             tag="rows")).element_id
    await docx.ok("docx_add_repeating_item", control_id=section)
    await docx.ok("docx_insert_content_control", kind="text", position="end:document_body", tag="block", value="B")
    await docx.save(out)
    await docx.ok("docx_close", session_id=docx.session_id)
    return out


async def test_filled_forms_read_right_outside(docx, tmp_path):
    require_soffice()
    sdk.require()
    picture = str(png(tmp_path / "pic.png"))
    template = template_doc(tmp_path / "template.docx")
    await docx.open(template)
    await docx.ok("docx_fill_template", data=TEMPLATE_DATA)
    await docx.save(tmp_path / "filled.docx")
    await docx.ok("docx_close", session_id=docx.session_id)
    controls = controls_doc(tmp_path / "controls.docx")
    await set_every_control(docx, controls, tmp_path / "controls-set.docx", picture)

    pairs = [(template, tmp_path / "filled.docx"), (controls, tmp_path / "controls-set.docx"),
             (None, await new_controls(docx, tmp_path / "new.docx", picture))]
    corpus = []
    for i, f in enumerate(corpus_with_controls()):
        src = tmp_path / f"c{i}-{f.name}"
        shutil.copy(f, src)
        out = tmp_path / f"c{i}-set.docx"
        expected = await set_every_control(docx, src, out, picture)
        await docx.open(out)  # reopened: every value reads back
        listing = (await docx.ok("docx_list_content_controls")).text
        shown = {cid: rest for cid, _, _, rest in LINE.findall(listing)}
        for cid, want in expected.items():
            assert want in shown.get(cid, ""), f"{f.name} {cid}: {want} not in {shown.get(cid)}"
        await docx.ok("docx_close", session_id=docx.session_id)
        corpus.append((len(expected), src, out))
    print(f"\nforms: {len(corpus)} corpus files with controls set, saved and reopened")
    # The validator costs about a second a file: the fixtures and the corpus files with most controls set.
    pairs += [(src, out) for _, src, out in sorted(corpus, key=lambda c: -c[0])[:VALIDATED]]

    txt = convert_cached([tmp_path / "filled.docx", tmp_path / "controls-set.docx"], label="forms", target="txt:Text")
    filled = txt[(tmp_path / "filled.docx").resolve()].read_text(encoding="utf-8-sig")
    assert "{{" not in filled and "«" not in filled
    for value in ("Dear Ada Lovelace,", "City: London on 10 December 1815", "Gears", "Cards",
                  "Person: Mary is tutor", "1 March 2026", "Green"):  # (its text export leaves text boxes out)
        assert value in filled, value
    set_text = txt[(tmp_path / "controls-set.docx").resolve()].read_text(encoding="utf-8-sig")
    assert "Filled 0" in set_text and "☒" in set_text

    t0 = time.monotonic()
    sdk.validate_files([p for pair in pairs for p in pair if p is not None])  # one batch; then its cache
    print(f"forms: validator on {2 * len(pairs) - 1} files in {time.monotonic() - t0:.1f}s")
    new = {out.name: sdk.new_error_kinds(src, out) for src, out in pairs}
    assert not any(new.values()), {k: v for k, v in new.items() if v}
