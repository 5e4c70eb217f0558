"""A document made only with the lists and styles tools opens in LibreOffice with the lists and styles
we meant (its text export and its converted styles.xml), and adds no kind of Open XML SDK error."""
from __future__ import annotations

import re
import zipfile

import pytest

from tests.support import sdk_validator as SDK
from tests.support.libreoffice import convert_cached, require_soffice

pytestmark = pytest.mark.anyio

EXPECTED_TEXT = [
    "Intro text",
    "A clause",
    "1. Alpha", "a. Alpha one", "b. Alpha two", "2. Beta",
    "• Milk", "• Bread",
    "Plain one", "i. Roman one", "ii. Roman two",
    "1. Restarted", "2. After restart",
    "1. Alpha", "a. Alpha one", "b. Alpha two", "2. Beta",
    "1. Numbered by style", "2. Numbered by style too",
]


async def build(docx, folder):
    """Every lists and styles tool, in a document that starts empty; (empty original, result)."""
    await docx.create()
    original = folder / "empty.docx"
    await docx.save(original)
    end = "end:document_body"
    intro = (await docx.ok("docx_insert_paragraph", text="Intro text", position=end)).element_id
    await docx.ok("docx_apply_style", element_id=intro, style="Quote")
    await docx.ok("docx_create_style", name="Clause", properties={"bold": True, "color_hex": "FF0000"})
    await docx.ok("docx_modify_style", name="Clause", properties={"space_after": "6pt"})
    clause = (await docx.ok("docx_insert_paragraph", text="A clause", position=end, style="Clause")).element_id
    await docx.ok("docx_apply_style", element_id=clause, style="Strong")
    first = (await docx.ok("docx_insert_list", items=["Alpha", ["Alpha one", "Alpha two"], "Beta"], position=end,
                           list_type="number")).head["First Item"]
    last = (await docx.ok("docx_insert_list", items=["Milk", "Bread"], position=end)).element_id
    beta = (await docx.ok("docx_read_content")).text.split("2. Beta")[0].rsplit("(", 1)[1].split(")")[0]
    ids = []
    for text in ("Plain one", "Roman one", "Roman two", "Restarted", "After restart"):
        ids.append((await docx.ok("docx_insert_paragraph", text=text, position=end)).element_id)
    await docx.ok("docx_set_list", element_id=ids[0], end_id=ids[2], list_type="lower_roman")
    await docx.ok("docx_set_list", element_id=ids[0], list_type="none")
    await docx.ok("docx_set_list", element_id=ids[3], end_id=ids[4], list_type="number")
    await docx.ok("docx_restart_numbering", element_id=ids[3])
    await docx.ok("docx_copy_elements_range", start_id=first, end_id=beta, position=end)
    await docx.ok("docx_insert_paragraph", text="Numbered by style", position=end, style="List Number")
    await docx.ok("docx_insert_paragraph", text="Numbered by style too", position=end, style="List Number")
    assert last
    result = folder / "result.docx"
    await docx.save(result)
    return original, result


async def test_our_own_views_show_the_labels_meant(docx, tmp_path):
    await build(docx, tmp_path)
    lines = [ln.rsplit("] ", 1)[1] for ln in (await docx.ok("docx_read_content")).text.splitlines()
             if ln.startswith("[")]
    assert lines == EXPECTED_TEXT


async def test_libreoffice_shows_the_lists_and_styles_meant(docx, tmp_path):
    require_soffice()
    _, result = await build(docx, tmp_path)
    txt = convert_cached([result], label="lists round trip", target="txt:Text")[result.resolve()]
    odt = convert_cached([result], label="lists round trip", target="odt")[result.resolve()]
    assert txt is not None and odt is not None, "LibreOffice did not convert the result"
    lines = [ln.strip() for ln in txt.read_bytes().decode("utf-8").lstrip("\ufeff").splitlines() if ln.strip()]
    assert lines == EXPECTED_TEXT
    with zipfile.ZipFile(odt) as z:
        styles = z.read("styles.xml").decode()
    clause = re.search(r'<style:style style:name="Clause"[^>]*>(.*?)</style:style>', styles).group(1)
    assert 'fo:font-weight="bold"' in clause and 'fo:color="#ff0000"' in clause and 'fo:margin-bottom="0.0835in"' \
        in clause
    quote = re.search(r'<style:style style:name="Quote"[^>]*>(.*?)</style:style>', styles).group(1)
    assert 'fo:text-align="center"' in quote and 'fo:font-style="italic"' in quote
    assert 'style:name="Strong"' in styles and 'style:display-name="List Number"' in styles


async def test_no_new_kind_of_open_xml_sdk_error(docx, tmp_path):
    SDK.require()
    original, result = await build(docx, tmp_path)
    assert SDK.new_error_kinds(original, result) == []
