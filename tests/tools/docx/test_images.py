"""docx_insert_image: media part, relationship, content type, inline drawing, sizes, positions."""
from __future__ import annotations

import zipfile

import pytest
from lxml import etree
from PIL import Image

from tests.builders import NS, RT, build_docx, p, part_xml, png
from tests.support.client import by_id, read_part

pytestmark = pytest.mark.anyio
EMU = 914400
WP = f"{{{NS['wp']}}}"


def package(path):
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def rel_target(parts, rid, rels="word/_rels/document.xml.rels"):
    root = etree.fromstring(parts[rels])
    return next(r.get("Target") for r in root if r.get("Id") == rid)


def defaults(parts):
    root = etree.fromstring(parts["[Content_Types].xml"])
    return {d.get("Extension"): d.get("ContentType") for d in root.findall("ct:Default", NS)}


async def insert(docx, tmp_path, image, **kw):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")
    return await docx.ok("docx_insert_image", image_path=str(image), **{"position": "end:document_body", **kw})


async def test_png_gets_media_part_relationship_and_content_type(docx, tmp_path):
    a = await insert(docx, tmp_path, png(tmp_path / "red.png"))
    await docx.save(tmp_path / "o.docx")
    parts = package(tmp_path / "o.docx")
    blip = etree.fromstring(parts["word/document.xml"]).find(".//a:blip", NS)
    target = rel_target(parts, blip.get(f"{{{NS['r']}}}embed"))
    assert target == "media/image1.png" and parts["word/media/image1.png"] == (tmp_path / "red.png").read_bytes()
    assert defaults(parts)["png"] == "image/png"
    assert a.element_id.startswith("img_")


async def test_size_comes_from_pixels_and_dpi(docx, tmp_path):
    await insert(docx, tmp_path, png(tmp_path / "red.png", size=(300, 150), dpi=(150, 150)))
    body = await docx.save(tmp_path / "o.docx")
    extent = body.find(f".//{WP}extent")
    assert (int(extent.get("cx")), int(extent.get("cy"))) == (2 * EMU, EMU)


async def test_docpr_has_unique_id_and_the_file_name(docx, tmp_path):
    await insert(docx, tmp_path, png(tmp_path / "red.png"))
    await docx.ok("docx_insert_image", image_path=str(tmp_path / "red.png"), position="end:document_body")
    body = await docx.save(tmp_path / "o.docx")
    doc_prs = body.findall(f".//{WP}docPr")
    assert [d.get("name") for d in doc_prs] == ["red.png", "red.png"]
    assert len({d.get("id") for d in doc_prs}) == 2
    assert sorted(n for n in package(tmp_path / "o.docx") if n.startswith("word/media/")) == [
        "word/media/image1.png", "word/media/image2.png"]


async def test_answer_shows_the_image_in_context(docx, tmp_path):
    a = await insert(docx, tmp_path, png(tmp_path / "red.png"))
    assert "[IMG: red.png]" in a.section("Document Context") and "⭐ NEW" in a.section("Document Context")
    assert "+" in a.section("Changes") and a.cursor_line == f"Cursor: after Paragraph {a.head['Paragraph']}"


async def test_width_alone_keeps_the_aspect_ratio(docx, tmp_path):
    jpg = tmp_path / "photo.jpg"
    Image.new("RGB", (400, 100), (0, 0, 255)).save(jpg)
    await insert(docx, tmp_path, jpg, width="5.08cm")
    body = await docx.save(tmp_path / "o.docx")
    extent = body.find(f".//{WP}extent")
    assert (int(extent.get("cx")), int(extent.get("cy"))) == (2 * EMU, EMU // 2)
    assert defaults(package(tmp_path / "o.docx"))["jpg"] == "image/jpeg"


async def test_large_images_are_capped_to_the_text_width(docx, tmp_path):
    await insert(docx, tmp_path, png(tmp_path / "big.png", size=(3000, 1500), dpi=(96, 96)))
    body = await docx.save(tmp_path / "o.docx")
    extent = body.find(f".//{WP}extent")
    assert int(extent.get("cx")) == round(6.5 * EMU) and int(extent.get("cy")) == round(3.25 * EMU)


async def test_gif_inside_a_paragraph_at_a_run_position(docx, tmp_path):
    gif = tmp_path / "dot.gif"
    Image.new("P", (20, 20)).save(gif)
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Before", position="end:document_body")).element_id
    a = await docx.ok("docx_insert_image", image_path=str(gif), position=f"end:{para}")
    assert a.head["Paragraph"] == para and "Before[IMG: dot.gif]" in a.section("Document Context")
    runs = by_id(await docx.save(tmp_path / "o.docx"), para).findall("w:r", NS)
    assert len(runs) == 2 and runs[1].find("w:drawing", NS) is not None


async def test_docpr_ids_are_unique_across_headers(docx, tmp_path):
    header = part_xml("w:hdr", '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1" cy="1"/>'
                               '<wp:docPr id="7" name="logo"/><a:graphic><a:graphicData uri="x"/></a:graphic>'
                               '</wp:inline></w:drawing></w:r></w:p>')
    path = build_docx(tmp_path / "in.docx", p("Body"), extra_parts={"word/header1.xml": header},
                      rels=[("rId9", "header", "header1.xml")],
                      overrides={"word/header1.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"})
    await docx.open(path)
    await docx.ok("docx_insert_image", image_path=str(png(tmp_path / "r.png")), position="end:document_body")
    body = await docx.save(tmp_path / "o.docx")
    assert body.find(f".//{WP}docPr").get("id") == "8"


async def test_image_outside_the_roots_is_refused(docx, tmp_path):
    await docx.create()
    a = await docx.call("docx_insert_image", image_path="/etc/hostname", position="end:document_body")
    assert a.is_error and a.error_type == "PermissionDenied"


async def test_a_file_that_is_not_an_image_changes_nothing(docx, tmp_path):
    (tmp_path / "fake.png").write_text("not an image")
    await docx.create()
    await docx.save(tmp_path / "a.docx")
    a = await docx.call("docx_insert_image", image_path=str(tmp_path / "fake.png"), position="end:document_body")
    assert a.is_error and a.error_type == "ValidationError" and "not a readable image" in a.head["Message"]
    await docx.save(tmp_path / "b.docx")
    assert package(tmp_path / "a.docx") == package(tmp_path / "b.docx")


async def test_bad_position_adds_no_media(docx, tmp_path):
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="x", position="end:document_body")).element_id
    run = (await docx.ok("docx_insert_run", text="y", position=f"end:{para}")).element_id
    a = await docx.call("docx_insert_image", image_path=str(png(tmp_path / "r.png")), position=f"start:{run}")
    assert a.is_error and a.error_type == "InvalidPosition"
    await docx.save(tmp_path / "o.docx")
    assert not [n for n in package(tmp_path / "o.docx") if "media" in n]


async def test_rels_and_content_type_are_created_when_missing(docx, tmp_path):
    path = build_docx(tmp_path / "in.docx", p("x"))
    parts = package(path)
    del parts["word/_rels/document.xml.rels"]
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>', b"")
    with zipfile.ZipFile(path, "w") as z:
        for n, d in parts.items():
            z.writestr(n, d)
    await docx.open(path)
    await docx.ok("docx_insert_image", image_path=str(png(tmp_path / "r.png")), position="end:document_body")
    await docx.save(tmp_path / "o.docx")
    out = package(tmp_path / "o.docx")
    assert "word/_rels/document.xml.rels" in out and defaults(out)["rels"].endswith("relationships+xml")
    assert read_part(tmp_path / "o.docx", "word/media/image1.png")
    rels = etree.fromstring(out["word/_rels/document.xml.rels"])
    assert rels[0].get("Type") == RT + "image"
