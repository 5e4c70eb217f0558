"""A tracked deletion of a run anchoring a text box deletes the box's text too (w:delText under w:del),
so no w:t sits inside a deletion; rejecting gives the box its text back."""
from __future__ import annotations

import pytest

from tests.builders import build_docx
from tests.support.client import NS

pytestmark = pytest.mark.anyio
V = "urn:schemas-microsoft-com:vml"
BOX = (f'<w:p><w:r><w:t>Before</w:t></w:r><w:r><w:pict><v:shape xmlns:v="{V}" style="width:100pt;height:50pt">'
       '<v:textbox><w:txbxContent><w:p><w:r><w:t>Boxed words</w:t></w:r></w:p></w:txbxContent></v:textbox>'
       '</v:shape></w:pict></w:r></w:p><w:p><w:r><w:t>After</w:t></w:r></w:p>')


def xp(el, path: str):
    return el.xpath(path, namespaces=NS)


async def _deleted(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", BOX))
    content = (await docx.ok("docx_read_content")).section("Content").split("\n")
    pid = next(line for line in content if "Before" in line).split("(")[1].split(")")[0]
    await docx.ok("docx_set_track_changes", enabled=True, author="Alice")
    await docx.ok("docx_delete", element_id=pid)


async def test_deleting_a_box_anchor_deletes_the_box_text(docx, tmp_path):
    await _deleted(docx, tmp_path)
    body = await docx.save(tmp_path / "out.docx")
    assert not xp(body, "//w:del//w:t")
    assert [t.text for t in xp(body, "//w:txbxContent//w:del/w:r/w:delText")] == ["Boxed words"]


async def test_rejecting_gives_the_box_its_text_back(docx, tmp_path):
    await _deleted(docx, tmp_path)
    await docx.ok("docx_reject_revisions")
    body = await docx.save(tmp_path / "out.docx")
    assert [t.text for t in xp(body, "//w:txbxContent//w:t")] == ["Boxed words"]
    assert not xp(body, "//w:del | //w:ins | //w:delText")
