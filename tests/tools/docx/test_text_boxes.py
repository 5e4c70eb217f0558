"""A text box Word writes twice (mc:Choice and its VML mc:Fallback) is shown, found and edited once,
and an edit leaves no stale copy behind."""
from __future__ import annotations

import re

import pytest

from tests.builders import build_docx, p
from tests.support.client import read_part

pytestmark = pytest.mark.anyio

_NS = ('xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
       'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"')


def _box_content(text: str) -> str:
    return f"<w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent>"


def alternate_text_box(text: str = "Datum plane") -> str:
    """A paragraph anchoring a text box as Word writes it: DrawingML choice, VML fallback."""
    return (
        f'<w:p><w:r><w:t>Anchor</w:t></w:r><w:r><mc:AlternateContent {_NS}><mc:Choice Requires="wps"><w:drawing>'
        '<wp:anchor distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="2" behindDoc="0" '
        'locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
        '<wp:positionH relativeFrom="column"><wp:align>center</wp:align></wp:positionH>'
        '<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>'
        '<wp:extent cx="2374265" cy="1403985"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapNone/>'
        '<wp:docPr id="7" name="Text Box 2"/><wp:cNvGraphicFramePr/>'
        '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        '<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2374265" cy="1403985"/>'
        '</a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>'
        f'<wps:txbx>{_box_content(text)}</wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic>'
        '</wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict>'
        '<v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"/>'
        '<v:shape id="Text Box 2" o:spid="_x0000_s1026" type="#_x0000_t202" '
        'style="position:absolute;width:186.95pt;height:110.55pt">'
        f'<v:textbox>{_box_content(text)}</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent>'
        '</w:r></w:p>')


async def test_a_text_box_is_found_and_shown_once(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", alternate_text_box() + p("after")))
    assert (await docx.ok("docx_read_content")).section("Content").count("[TEXT BOX tbx_") == 1  # not its fallback too
    found = await docx.ok("docx_find_paragraphs", query="Datum")
    assert found.head["Matches"] == "1"
    para = re.search(r"(para_\w+): Datum plane", found.text).group(1)
    assert (await docx.ok("docx_get_context", element_id=para)).section("Context").count("Datum plane") == 1


async def test_replacing_in_a_text_box_changes_it_once_and_leaves_no_stale_copy(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", alternate_text_box() + p("after")))
    done = await docx.ok("docx_replace_text", old_text="Datum", new_text="Zebra")
    assert done.head["Replacements"] == "1"
    await docx.save(tmp_path / "out.docx")
    xml = read_part(tmp_path / "out.docx", "word/document.xml").decode()
    assert "Datum" not in xml and xml.count("Zebra plane") == 1
    assert "mc:Choice" in xml and "mc:Fallback" not in xml  # Word and LibreOffice draw the Choice


async def test_undo_of_a_text_box_edit_brings_back_the_fallback(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", alternate_text_box() + p("after")))
    await docx.ok("docx_replace_text", old_text="Datum", new_text="Zebra")
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "out.docx")
    xml = read_part(tmp_path / "out.docx", "word/document.xml").decode()
    assert xml.count("Datum plane") == 2 and "mc:Fallback" in xml


async def test_an_edit_outside_the_text_box_keeps_its_fallback(docx, tmp_path):
    await docx.open(build_docx(tmp_path / "in.docx", alternate_text_box() + p("after")))
    await docx.ok("docx_replace_text", old_text="Anchor", new_text="Holder")
    await docx.save(tmp_path / "out.docx")
    xml = read_part(tmp_path / "out.docx", "word/document.xml").decode()
    assert xml.count("Datum plane") == 2 and "mc:Fallback" in xml


@pytest.mark.corpus
@pytest.mark.libreoffice
async def test_libreoffice_shows_the_edited_text_box_text(docx, tmp_path):
    """On a text box from Word (LibreOffice draws none of a hand-made package's text boxes)."""
    import shutil
    from tests.support.corpus import require_corpus
    from tests.support.libreoffice import convert_cached, require_soffice
    require_soffice()
    src = require_corpus() / "mammoth.js__text-box.docx"
    if not src.exists():
        pytest.skip(f"{src.name} not in the corpus")
    await docx.open(shutil.copy(src, tmp_path / src.name))
    assert (await docx.ok("docx_replace_text", old_text="Datum", new_text="Zebra")).head["Replacements"] == "1"
    out = tmp_path / "out.docx"
    await docx.save(out)
    txt = convert_cached([out], label="edited text box", target="txt:Text")[out.resolve()]
    assert txt is not None
    text = txt.read_text(encoding="utf-8-sig")
    assert "Zebra plane" in text and "Datum" not in text
