"""Views mark run effects that change what a reader sees: caps, small caps, hidden text, highlight."""
from __future__ import annotations

import pytest

from tests.builders import build_docx

pytestmark = pytest.mark.anyio


def _run(rpr: str, text: str) -> str:
    return f'<w:r><w:rPr>{rpr}</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>'


async def test_replacing_a_caps_placeholder_shows_the_caps_it_inherits(docx, tmp_path):
    body = f"<w:p>{_run('', 'Dear ')}{_run('<w:caps/>', '[NAME]')}</w:p>"
    await docx.open(build_docx(tmp_path / "in.docx", body))
    done = await docx.ok("docx_replace_text", old_text="[NAME]", new_text="Ada Lovelace")
    assert "Dear [caps]Ada Lovelace[/caps]" in done.section("Context")
    xml = (await docx.save(tmp_path / "out.docx"))
    caps = xml.findall(".//w:r/w:rPr/w:caps", {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"})
    assert len(caps) == 1


async def test_views_mark_small_caps_hidden_text_and_highlight(docx, tmp_path):
    runs = [("<w:smallCaps/>", "Small"), ("<w:vanish/>", "secret"), ('<w:highlight w:val="yellow"/>', "lit"),
            ('<w:caps w:val="0"/>', "plain")]
    body = "<w:p>" + "".join(_run(rpr, text) for rpr, text in runs) + "</w:p>"
    await docx.open(build_docx(tmp_path / "in.docx", body))
    line = (await docx.ok("docx_read_content")).section("Content")
    assert "[smallcaps]Small[/smallcaps][hidden]secret[/hidden][hl yellow]lit[/hl]plain" in line


async def test_views_show_an_equation_as_its_text(docx, tmp_path):
    math = ('<m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:r><m:t>a=b+c</m:t>'
            '</m:r></m:oMath>')
    await docx.open(build_docx(tmp_path / "in.docx", f"<w:p>{_run('', 'Sum: ')}{math}</w:p>"))
    assert "Sum: $a=b+c$" in (await docx.ok("docx_read_content")).section("Content")
