"""Style tools through the MCP client: the answer and styles.xml as saved."""
from __future__ import annotations

import pytest
from lxml import etree

from tests.builders import build_docx
from tests.support.client import by_id, read_part

pytestmark = pytest.mark.anyio
NS = {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"}
W = "{%s}" % NS["w"]


def styles_xml(path) -> etree._Element:
    return etree.fromstring(read_part(path, "word/styles.xml"))


def style(root, sid):
    return root.find(f"w:style[@w:styleId='{sid}']", NS)


def val(el, path):
    found = el.find(path, NS)
    return None if found is None else found.get(W + "val")


async def one_paragraph(docx, text="Hello"):
    await docx.create()
    return (await docx.ok("docx_insert_paragraph", text=text, position="end:document_body")).element_id


# ---- list / get ------------------------------------------------------------------------------------

async def test_list_styles_shows_type_base_and_usage(docx, tmp_path):
    body = ('<w:p><w:pPr><w:pStyle w:val="ListParagraph"/></w:pPr><w:r><w:t>a</w:t></w:r></w:p>'
            '<w:p><w:pPr><w:pStyle w:val="ListParagraph"/></w:pPr><w:r><w:t>b</w:t></w:r></w:p>'
            '<w:p><w:r><w:t>c</w:t></w:r></w:p>')
    await docx.open(build_docx(tmp_path / "s.docx", body))
    a = await docx.ok("docx_list_styles")
    assert "| List Paragraph | ListParagraph | paragraph | Normal | yes | 2 |" in a.text
    assert "| Normal | Normal | paragraph |  | yes | 1 |" in a.text
    assert "Quote" in a.text  # latent built-ins are offered
    only = await docx.ok("docx_list_styles", style_type="table")
    assert "ListParagraph" not in only.text


async def test_get_style_resolves_based_on_chain_and_defaults(docx, tmp_path):
    await one_paragraph(docx)
    await docx.ok("docx_create_style", name="Body Red", properties={"color_hex": "FF0000", "space_after": "6pt"})
    await docx.ok("docx_create_style", name="Body Red Bold", based_on="Body Red", properties={"bold": True})
    a = await docx.ok("docx_get_style", name="body red bold")
    assert a.head["Based On Chain"] == "Normal → Body Red → Body Red Bold"
    own = a.text.split("Own properties: ")[1].splitlines()[0]
    resolved = a.text.split("Resolved properties: ")[1].splitlines()[0]
    assert own == "bold=True"
    assert "color_hex=FF0000" in resolved and "space_after=6pt" in resolved and "size=11pt" in resolved


async def test_get_style_of_a_latent_builtin_shows_words_definition(docx):
    await one_paragraph(docx)
    a = await docx.ok("docx_get_style", name="Quote")
    assert a.head["Latent"].startswith("yes") and "italic=True" in a.text and "alignment=center" in a.text


async def test_get_style_unknown_name_is_an_error_with_the_known_ones(docx):
    await one_paragraph(docx)
    err = await docx.call("docx_get_style", name="Nonexistent Thing")
    assert err.error_type == "StyleNotFound" and "Normal" in err.text


# ---- create / modify -------------------------------------------------------------------------------

async def test_create_style_writes_properties_in_schema_order(docx, tmp_path):
    await one_paragraph(docx)
    a = await docx.ok("docx_create_style", name="Note Text", next_style="Normal",
                      properties={"italic": True, "size": 9, "space_before": "3pt", "alignment": "justify"})
    sid = a.head["Style ID"]
    out = tmp_path / "o.docx"
    await docx.save(out)
    st = style(styles_xml(out), sid)
    assert st.get(W + "customStyle") == "1"
    assert [etree.QName(c).localname for c in st] == ["name", "basedOn", "next", "qFormat", "pPr", "rPr"]
    assert val(st, "w:pPr/w:jc") == "both" and st.find("w:pPr/w:spacing", NS).get(W + "before") == "60"
    assert val(st, "w:rPr/w:sz") == "18" and st.find("w:rPr/w:i", NS) is not None


async def test_create_style_existing_name_is_refused_unchanged(docx, tmp_path):
    await one_paragraph(docx)
    await docx.save(tmp_path / "a.docx")
    err = await docx.call("docx_create_style", name="normal")
    assert err.error_type == "ValidationError"
    err = await docx.call("docx_create_style", name="X", properties={"boldness": True})
    assert err.error_type == "ValidationError"
    await docx.save(tmp_path / "b.docx")
    assert read_part(tmp_path / "a.docx", "word/styles.xml") == read_part(tmp_path / "b.docx", "word/styles.xml")


async def test_modify_style_changes_existing_properties(docx, tmp_path):
    await one_paragraph(docx)
    a = await docx.ok("docx_modify_style", name="Normal", properties={"font_name": "Arial", "size": 12})
    assert "font_name=Arial" in a.text
    out = tmp_path / "o.docx"
    await docx.save(out)
    st = style(styles_xml(out), "Normal")
    assert st.find("w:rPr/w:rFonts", NS).get(W + "ascii") == "Arial" and val(st, "w:rPr/w:sz") == "24"


async def test_modify_style_of_a_latent_builtin_makes_it_real(docx, tmp_path):
    await one_paragraph(docx)
    await docx.ok("docx_modify_style", name="Intense Quote", properties={"bold": True})
    out = tmp_path / "o.docx"
    await docx.save(out)
    st = style(styles_xml(out), "IntenseQuote")
    assert val(st, "w:name") == "Intense Quote" and st.find("w:rPr/w:b", NS) is not None
    assert st.find("w:pPr/w:pBdr", NS) is not None  # Word's definition kept


# ---- apply -----------------------------------------------------------------------------------------

async def test_apply_latent_paragraph_style_adds_words_definition(docx, tmp_path):
    pid = await one_paragraph(docx)
    a = await docx.ok("docx_apply_style", element_id=pid, style="Quote")
    assert a.head["Added"].startswith("Word's built-in") and f"Paragraph ({pid}) [Quote]" in a.text
    out = tmp_path / "o.docx"
    body = await docx.save(out)
    assert val(by_id(body, pid), "w:pPr/w:pStyle") == "Quote"
    st = style(styles_xml(out), "Quote")
    assert val(st, "w:pPr/w:jc") == "center" and val(st, "w:basedOn") == "Normal"


async def test_apply_latent_heading_4_makes_it_a_heading(docx, tmp_path):
    src = build_docx(tmp_path / "in.docx", "<w:p><w:r><w:t>Scope</w:t></w:r></w:p>")
    _drop_style(src, "Heading4")
    await docx.open(src)
    pid = (await docx.ok("docx_read_content")).text.split("(")[1].split(")")[0]
    a = await docx.ok("docx_apply_style", element_id=pid, style="Heading 4")
    assert "Added" in a.head and f"Heading 4 ({pid})" in a.text
    out = tmp_path / "o.docx"
    await docx.save(out)
    st = style(styles_xml(out), "Heading4")
    assert val(st, "w:pPr/w:outlineLvl") == "3" and val(st, "w:name") == "heading 4"


def _drop_style(path, sid):
    import re
    import zipfile
    with zipfile.ZipFile(path) as z:
        items = {n: z.read(n) for n in z.namelist()}
    items["word/styles.xml"] = re.sub(rb'<w:style [^>]*w:styleId="%s">.*?</w:style>' % sid.encode(), b"",
                                      items["word/styles.xml"])
    with zipfile.ZipFile(path, "w") as z:
        for n, data in items.items():
            z.writestr(n, data)


async def test_apply_style_matches_names_case_insensitively_and_ids(docx, tmp_path):
    pid = await one_paragraph(docx)
    await docx.ok("docx_apply_style", element_id=pid, style="list paragraph")
    body = await docx.save(tmp_path / "o.docx")
    assert val(by_id(body, pid), "w:pPr/w:pStyle") == "ListParagraph"
    await docx.ok("docx_apply_style", element_id=pid, style="quote")
    await docx.ok("docx_apply_style", element_id=pid, style="IntenseQuote")
    body = await docx.save(tmp_path / "o2.docx")
    assert val(by_id(body, pid), "w:pPr/w:pStyle") == "IntenseQuote"


async def test_apply_character_style_to_every_run_of_a_paragraph(docx, tmp_path):
    pid = await one_paragraph(docx)
    await docx.ok("docx_insert_run", text=" world", position=f"end:{pid}")
    await docx.ok("docx_apply_style", element_id=pid, style="Strong")
    body = await docx.save(tmp_path / "o.docx")
    runs = by_id(body, pid).findall("w:r", NS)
    assert len(runs) == 2 and all(val(r, "w:rPr/w:rStyle") == "Strong" for r in runs)


async def test_apply_table_style(docx, tmp_path):
    await docx.create()
    tid = (await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body")).element_id
    await docx.ok("docx_apply_style", element_id=tid, style="Table Grid")
    body = await docx.save(tmp_path / "o.docx")
    assert val(by_id(body, tid), "w:tblPr/w:tblStyle") == "TableGrid"


async def test_apply_style_of_the_wrong_type_is_refused_unchanged(docx, tmp_path):
    pid = await one_paragraph(docx)
    await docx.save(tmp_path / "a.docx")
    err = await docx.call("docx_apply_style", element_id=pid, style="Table Grid")
    assert err.error_type == "InvalidElementType" and "table style" in err.text
    await docx.save(tmp_path / "b.docx")
    assert read_part(tmp_path / "a.docx", "word/styles.xml") == read_part(tmp_path / "b.docx", "word/styles.xml")


async def test_get_style_of_a_latent_builtin_shows_the_latent_settings(docx, tmp_path):
    src = build_docx(tmp_path / "l.docx", "<w:p><w:r><w:t>x</w:t></w:r></w:p>")
    import zipfile
    with zipfile.ZipFile(src) as z:
        items = {n: z.read(n) for n in z.namelist()}
    items["word/styles.xml"] = items["word/styles.xml"].replace(
        b"</w:docDefaults>", b'</w:docDefaults><w:latentStyles w:defLockedState="0" w:defUIPriority="99" '
                             b'w:defSemiHidden="0" w:defQFormat="0" w:count="376"><w:lsdException w:name="Quote" '
                             b'w:uiPriority="29" w:qFormat="1"/></w:latentStyles>')
    with zipfile.ZipFile(src, "w") as z:
        for n, data in items.items():
            z.writestr(n, data)
    await docx.open(src)
    a = await docx.ok("docx_get_style", name="quote")
    assert a.head["Latent Settings"] == "uiPriority=29, semiHidden=0, qFormat=1, locked=0"


async def _heading_1_written_by(docx, tmp_path, name, call, **args):
    src = build_docx(tmp_path / f"{name}.docx", "<w:p><w:r><w:t>Scope</w:t></w:r></w:p>")
    _drop_style(src, "Heading1")
    await docx.open(src)
    if "element_id" in args:
        args["element_id"] = (await docx.ok("docx_read_content")).text.split("(")[1].split(")")[0]
    await docx.ok(call, **args)
    out = tmp_path / f"{name}-out.docx"
    await docx.save(out)
    await docx.ok("docx_close", session_id=docx.session_id)
    return etree.tostring(style(styles_xml(out), "Heading1"))


async def test_every_tool_writes_words_one_heading_1(docx, tmp_path):
    by_apply = await _heading_1_written_by(docx, tmp_path, "apply", "docx_apply_style", element_id=None,
                                           style="Heading 1")
    by_insert = await _heading_1_written_by(docx, tmp_path, "insert", "docx_insert_heading", text="Scope",
                                            level=1, position="end:document_body")
    by_markdown = await _heading_1_written_by(docx, tmp_path, "md", "docx_insert_markdown", markdown="# Scope",
                                              position="end:document_body")
    assert by_insert == by_apply == by_markdown
    st = etree.fromstring(by_insert)  # Word's Normal.dotm: theme font, accent colour, 16 pt, not bold
    assert val(st, "w:pPr/w:outlineLvl") == "0" and val(st, "w:rPr/w:sz") == "32"
    assert val(st, "w:rPr/w:color") == "2F5496" and st.find("w:rPr/w:b", NS) is None
