"""Track Changes as a document setting: docx_set_track_changes writes Word's w:trackRevisions into
settings.xml (so Word opens the saved file tracking), a file saved with it on is tracked from the
moment it is opened, and undo gives settings.xml back byte for byte."""
from __future__ import annotations

import zipfile

import pytest

from tests.builders import build_docx, p
from tests.support.client import NS

pytestmark = pytest.mark.anyio
W = NS["w"]
SETTINGS = "word/settings.xml"


def settings_bytes(path) -> bytes:
    with zipfile.ZipFile(path) as z:
        return z.read(SETTINGS)


def settings(path):
    from lxml import etree
    return etree.fromstring(settings_bytes(path))


def names(root) -> list[str]:
    return [etree_local(c) for c in root]


def etree_local(el) -> str:
    return el.tag.split("}")[1]


def tracked_doc(tmp_path, val: str | None = ""):
    """A small file whose settings say Track Changes on (``val`` None: no setting at all)."""
    path = tmp_path / "in.docx"
    build_docx(path, p("First paragraph.") + p("Second paragraph."))
    if val is None:
        return path
    attr = f' w:val="{val}"' if val else ""
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts[SETTINGS] = parts[SETTINGS].replace(b"<w:defaultTabStop", f"<w:trackRevisions{attr}/><w:defaultTabStop".encode())
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in parts.items():
            z.writestr(n, data)
    return path


async def test_turning_tracking_on_writes_track_revisions_in_schema_order(docx, tmp_path):
    await docx.open(tracked_doc(tmp_path, None))
    a = await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    assert a.head["Word Setting"] == "w:trackRevisions on"
    out = tmp_path / "on.docx"
    await docx.save(out)
    order = names(settings(out))
    assert order.count("trackRevisions") == 1
    assert order.index("trackRevisions") < order.index("defaultTabStop"), order
    assert settings(out).find(f"{{{W}}}trackRevisions").get(f"{{{W}}}val") is None


async def test_turning_tracking_off_removes_the_setting(docx, tmp_path):
    await docx.open(tracked_doc(tmp_path))
    a = await docx.ok("docx_set_track_changes", enabled=False)
    assert a.head["Word Setting"] == "w:trackRevisions off"
    out = tmp_path / "off.docx"
    await docx.save(out)
    assert "trackRevisions" not in names(settings(out))
    edit = await docx.ok("docx_insert_paragraph", text="Plain.", position="end:document_body")
    assert "Tracked" not in edit.head


async def test_a_file_saved_tracking_is_tracked_from_the_start(docx, tmp_path):
    a = await docx.open(tracked_doc(tmp_path))
    assert a.head["Tracking"].startswith("on") and "'ooxml-mcp'" in a.head["Tracking"]
    edit = await docx.ok("docx_insert_paragraph", text="Added.", position="end:document_body")
    assert edit.head["Tracked"] == "yes"
    body = await docx.save(tmp_path / "out.docx")
    ins = body.xpath("//w:p[w:ins/w:r/w:t='Added.']/w:pPr/w:rPr/w:ins", namespaces=NS)
    assert len(ins) == 1 and ins[0].get(f"{{{W}}}author") == "ooxml-mcp"


async def test_a_setting_turned_off_by_value_does_not_track(docx, tmp_path):
    a = await docx.open(tracked_doc(tmp_path, "false"))
    assert "Tracking" not in a.head
    edit = await docx.ok("docx_insert_paragraph", text="Plain.", position="end:document_body")
    assert "Tracked" not in edit.head
    await docx.ok("docx_set_track_changes", enabled=True)
    out = tmp_path / "on.docx"
    await docx.save(out)
    flag = settings(out).find(f"{{{W}}}trackRevisions")
    assert flag is not None and flag.get(f"{{{W}}}val") is None, "on is written as Word writes it: no w:val"


async def test_the_tracking_author_of_an_opened_file_comes_from_the_config(tmp_path):
    import server
    from mcp import Client
    from tests.support.client import DocxClient

    src = tracked_doc(tmp_path)
    config = tmp_path / "c.yaml"
    config.write_text("author: Config Person\n")
    for argv, expected in ((["--author", "Flag Person", "--config", str(config)], "Flag Person"),
                           (["--config", str(config)], "Config Person")):
        services = server.make_services(server.parse_args(["--root", str(tmp_path), *argv]))
        async with Client(server.build_server(services), cache=None) as client:
            c = DocxClient(client, [tmp_path])
            a = await c.open(src)
            assert f"'{expected}'" in a.head["Tracking"]
            await c.ok("docx_insert_paragraph", text="Added.", position="end:document_body")
            body = await c.save(tmp_path / f"out-{expected.split()[0]}.docx")
            assert body.xpath("//w:ins/@w:author", namespaces=NS)[0] == expected
            await c.ok("docx_close", session_id=c.session_id)


@pytest.mark.parametrize("enabled", [True, False])
async def test_undo_gives_settings_back_byte_for_byte_and_the_tracking_state(docx, tmp_path, enabled):
    src = tracked_doc(tmp_path, None if enabled else "")
    await docx.open(src)
    await docx.save(tmp_path / "before.docx")
    await docx.ok("docx_set_track_changes", enabled=enabled)
    await docx.save(tmp_path / "changed.docx")
    assert settings_bytes(tmp_path / "changed.docx") != settings_bytes(tmp_path / "before.docx")
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "undone.docx")
    assert settings_bytes(tmp_path / "undone.docx") == settings_bytes(tmp_path / "before.docx")
    edit = await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    assert ("Tracked" in edit.head) == (not enabled), "undo puts the tracking mode back with the setting"


async def test_redo_turns_tracking_on_again(docx, tmp_path):
    await docx.open(tracked_doc(tmp_path, None))
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.ok("docx_undo")
    await docx.ok("docx_redo")
    edit = await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")
    assert edit.head["Tracked"] == "yes"
    body = await docx.save(tmp_path / "redone.docx")
    assert body.xpath("//w:ins/@w:author", namespaces=NS)[0] == "Alice"
    assert "trackRevisions" in names(settings(tmp_path / "redone.docx"))


async def test_tracking_setting_adds_no_sdk_validation_error(docx, tmp_path):
    from tests.support import sdk_validator
    sdk_validator.require()
    src = tracked_doc(tmp_path, None)
    await docx.open(src)
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_insert_paragraph", text="Added.", position="end:document_body")
    out = tmp_path / "on.docx"
    await docx.save(out)
    assert sdk_validator.new_error_kinds(src, out) == []

