"""LibreOffice reads and fetches nothing a document points to (issue 17, defect 1): page images and
TOC page numbers come from a copy with every external reference cut, laid out by a LibreOffice
whose profile blocks links. Outside images are solid colours no page has; a loopback listener
records every request."""
from __future__ import annotations

import io
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from tests.support.client import open_client
from tests.support.libreoffice import require_soffice
from tests.support.linked import linked_docx, loopback_listener

pytestmark = [pytest.mark.anyio, pytest.mark.libreoffice]
MAGENTA, GREEN, ORANGE = (255, 0, 255), (0, 200, 0), (255, 128, 0)


@pytest.fixture(autouse=True)
def _soffice():
    require_soffice()


def _png(colour) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (60, 60), colour).save(buf, "PNG")
    return buf.getvalue()


def _colours(png: bytes) -> set:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return {c for _, c in image.getcolors(image.width * image.height)}


@pytest.fixture
def outside():
    """A file:// URL of a magenta PNG outside the roots, and a ../ path from LibreOffice's temporary
    copy (in the temp folder) to an orange one."""
    folder = Path(tempfile.mkdtemp(prefix="outside-roots-"))
    (folder / "secret.png").write_bytes(_png(MAGENTA))
    (folder / "climb.png").write_bytes(_png(ORANGE))
    yield (folder / "secret.png").as_uri(), "../" + os.path.relpath(folder / "climb.png", tempfile.gettempdir())
    shutil.rmtree(folder, ignore_errors=True)


async def _render_and_tocs(tmp_path: Path, outside) -> tuple[list[bytes], list[str]]:
    """Page images of the linked document, and the requests made while rendering and laying out TOCs."""
    file_url, climb = outside
    with loopback_listener(_png(GREEN), seconds=240) as (base, seen):
        doc = linked_docx(tmp_path / "linked.docx", f"{base}/x.png", files=(file_url, climb))
        async with open_client([tmp_path]) as docx:
            await docx.open(doc)
            pngs = [(await docx.ok("docx_render_page", page=n)).images[0][1] for n in (1, 2)]
            toc = await docx.ok("docx_insert_toc", position="start:document_body")
            assert "from LibreOffice's layout" in toc.head["Page Numbers"]
            await docx.ok("docx_update_toc")
            pngs.append((await docx.ok("docx_render_page", page=1)).images[0][1])
        return pngs, list(seen)


async def test_no_outside_file_or_address_reaches_libreoffice(tmp_path, outside):
    pngs, requests = await _render_and_tocs(tmp_path, outside)
    assert requests == []
    for png in pngs:
        assert not {MAGENTA, ORANGE, GREEN} & _colours(png)


async def _render_only(tmp_path: Path, outside) -> tuple[bytes, list[str]]:
    file_url, climb = outside
    with loopback_listener(_png(GREEN), seconds=240) as (base, seen):
        doc = linked_docx(tmp_path / "linked.docx", f"{base}/x.png", files=(file_url, climb))
        async with open_client([tmp_path]) as docx:
            await docx.open(doc)
            png = (await docx.ok("docx_render_page", page=1)).images[0][1]
        return png, list(seen)


@pytest.mark.parametrize("settings", ["BLOCK_LINKS", "NO_NETWORK"])
async def test_each_profile_wall_holds_without_the_cut(tmp_path, outside, monkeypatch, settings):
    """The second wall, setting by setting, with the copy left as it is: blocked links load nothing
    (no file, no request); with the network off no request reaches the address (files are the cut's job)."""
    import ooxml.opc.office_copy
    from tools.office import profile as office_profile
    monkeypatch.setattr(ooxml.opc.office_copy, "prepare", lambda path: None)
    monkeypatch.setattr(office_profile, "SETTINGS", getattr(office_profile, settings))
    png, requests = await _render_only(tmp_path, outside)
    assert requests == []
    if settings == "BLOCK_LINKS":
        assert not {MAGENTA, ORANGE, GREEN} & _colours(png)
