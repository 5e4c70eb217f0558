"""The Open XML SDK validator harness: it must see errors, and charge only new kinds to a result."""
from __future__ import annotations

import zipfile
from pathlib import Path

from lxml import etree

from tests.builders import build_docx, p
from tests.support import sdk_validator

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _with_pPr_out_of_order(src: Path, dst: Path) -> None:
    """A copy whose first paragraph has w:jc before w:pStyle: Word's schema order is broken."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "word/document.xml":
                root = etree.fromstring(data)
                para = root.find(f".//{{{W}}}p")
                ppr = etree.SubElement(para, f"{{{W}}}pPr")
                para.insert(0, ppr)
                etree.SubElement(ppr, f"{{{W}}}jc").set(f"{{{W}}}val", "center")
                etree.SubElement(ppr, f"{{{W}}}pStyle").set(f"{{{W}}}val", "Normal")
                data = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
            zout.writestr(info, data)


def test_a_clean_document_has_no_error_and_a_broken_copy_has_a_new_kind(tmp_path):
    good = tmp_path / "good.docx"
    build_docx(good, p("First") + p("Second"))
    bad = tmp_path / "bad.docx"
    _with_pPr_out_of_order(good, bad)
    found = sdk_validator.validate_files([good, bad])
    assert found[good.resolve()] == []
    new = sdk_validator.new_error_kinds(good, bad)
    assert any("document.xml" in kind for kind in new), new
    assert sdk_validator.new_error_kinds(bad, bad) == []


def test_a_stopped_run_keeps_what_it_validated(tmp_path, monkeypatch):
    """Results are cached one by one as they come: a run killed part way keeps them, and the next run
    validates only the rest."""
    node = sdk_validator.node_dir()  # the installed package; results go to a fresh cache
    monkeypatch.setenv("OOXML_MCP_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(sdk_validator, "node_dir", lambda: node)
    sdk_validator.require()
    files = [build_docx(tmp_path / f"f{i}.docx", p(f"Text {i}")) for i in range(3)]
    real = sdk_validator._store
    seen = []

    def store_then_stop(digest, item):
        seen.append(digest)
        if len(seen) == 2:
            raise KeyboardInterrupt  # as if stopped after the second result
        return real(digest, item)

    monkeypatch.setattr(sdk_validator, "_store", store_then_stop)
    try:
        sdk_validator.validate_files(files)
    except KeyboardInterrupt:
        pass
    monkeypatch.setattr(sdk_validator, "_store", real)
    assert len(list((tmp_path / "cache" / "sdk-validate").glob("*.json"))) == 1
    asked = []
    run = sdk_validator._validate
    monkeypatch.setattr(sdk_validator, "_validate",
                        lambda paths, digests, processes: asked.extend(paths) or run(paths, digests, processes))
    found = sdk_validator.validate_files(files)
    assert len(asked) == 2 and all(found[f.resolve()] == [] for f in files)


def test_a_batch_for_several_processes_goes_to_processes_of_its_own_the_rest_to_the_warm_one(tmp_path, monkeypatch):
    """Batches of many files for several processes are split over them; otherwise the one warm process
    validates, so a test validating two files does not pay a node start (about 10 s) each time."""
    node = sdk_validator.node_dir()
    monkeypatch.setenv("OOXML_MCP_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(sdk_validator, "node_dir", lambda: node)
    sdk_validator.require()
    files = [build_docx(tmp_path / f"f{i}.docx", p(f"Text {i}")) for i in range(20)]
    batched = []
    run = sdk_validator._run_batch
    monkeypatch.setattr(sdk_validator, "_run_batch", lambda paths, digests: batched.extend(paths) or run(paths, digests))
    assert all(v == [] for v in sdk_validator.validate_files(files[:2]).values())
    first = sdk_validator._WARM.proc
    assert all(v == [] for v in sdk_validator.validate_files(files[2:3]).values())
    assert batched == [] and first is not None and sdk_validator._WARM.proc is first
    assert all(v == [] for v in sdk_validator.validate_files(files[3:], processes=2).values())
    assert sorted(batched) == sorted(f.resolve() for f in files[3:])
