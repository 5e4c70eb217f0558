"""docx_insert_image with an SVG: the SVG part (asvg:svgBlip) beside a PNG fallback at the picture's size;
undo, tracking, the view's alt text; bad and hostile SVGs refused with nothing fetched, document unchanged."""
from __future__ import annotations

import base64
import io
import socketserver
import threading
import zipfile

import pytest
from lxml import etree
from PIL import Image

from tests.builders import NS

pytestmark = pytest.mark.anyio
EMU = 914400
ASVG = "http://schemas.microsoft.com/office/drawing/2016/SVG/main"
R_EMBED = f"{{{NS['r']}}}embed"
RED = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><title>Red  logo</title>'
       '<rect width="200" height="100" fill="#ff0000"/></svg>')


def parts(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def write(tmp_path, text: str, name: str = "logo.svg"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def targets(saved: dict[str, bytes]) -> dict[str, str]:
    rels = etree.fromstring(saved["word/_rels/document.xml.rels"])
    return {r.get("Id"): "word/" + r.get("Target") for r in rels}


def blips(saved: dict[str, bytes]) -> list[tuple[str, str | None]]:
    """(fallback part, SVG part) of every picture of the body."""
    rels, out = targets(saved), []
    for blip in etree.fromstring(saved["word/document.xml"]).iterfind(".//a:blip", NS):
        svg = blip.find(f".//{{{ASVG}}}svgBlip")
        out.append((rels[blip.get(R_EMBED)], rels[svg.get(R_EMBED)] if svg is not None else None))
    return out


async def insert(docx, path, **kw):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")
    return await docx.call("docx_insert_image", image_path=str(path), **{"position": "end:document_body", **kw})


async def test_svg_part_sits_beside_its_png_fallback(docx, tmp_path):
    svg = write(tmp_path, RED)
    a = await insert(docx, svg)
    assert not a.is_error, a.text
    await docx.save(tmp_path / "o.docx")
    saved = parts(tmp_path / "o.docx")
    [(png, svg_part)] = blips(saved)
    assert saved[svg_part] == svg.read_bytes() and svg_part.endswith(".svg")
    assert Image.open(io.BytesIO(saved[png])).format == "PNG"
    ct = etree.fromstring(saved["[Content_Types].xml"])
    assert {d.get("Extension"): d.get("ContentType") for d in ct} ["svg"] == "image/svg+xml"
    ext = etree.fromstring(saved["word/document.xml"]).find(".//a:blip/a:extLst/a:ext", NS)
    assert ext.get("uri") == "{96DAC541-7B7A-43D3-8B79-37D633B846F1}"


async def test_fallback_png_has_the_pictures_size_and_aspect(docx, tmp_path):
    a = await insert(docx, write(tmp_path, RED), width="3in")
    assert not a.is_error, a.text
    body = await docx.save(tmp_path / "o.docx")
    extent = body.find(".//wp:extent", NS)
    assert (int(extent.get("cx")), int(extent.get("cy"))) == (3 * EMU, 3 * EMU // 2)
    saved = parts(tmp_path / "o.docx")
    png = Image.open(io.BytesIO(saved[blips(saved)[0][0]])).convert("RGB")
    assert png.size == (288, 144) and png.getpixel((144, 72)) == (255, 0, 0)


async def test_both_sizes_given_stretch_the_fallback_as_the_picture(docx, tmp_path):
    await insert(docx, write(tmp_path, RED), width="1in", height="1in")
    await docx.save(tmp_path / "o.docx")
    saved = parts(tmp_path / "o.docx")
    png = Image.open(io.BytesIO(saved[blips(saved)[0][0]])).convert("RGB")
    assert png.size == (96, 96) and png.getpixel((2, 2)) == png.getpixel((93, 93)) == (255, 0, 0)


async def test_size_comes_from_width_and_the_viewbox_aspect(docx, tmp_path):
    svg = write(tmp_path, '<svg xmlns="http://www.w3.org/2000/svg" width="5.08cm" viewBox="0 0 100 50">'
                          '<circle cx="50" cy="25" r="20" fill="blue"/></svg>')
    await insert(docx, svg)
    body = await docx.save(tmp_path / "o.docx")
    extent = body.find(".//wp:extent", NS)
    assert (int(extent.get("cx")), int(extent.get("cy"))) == (2 * EMU, EMU)


async def test_viewbox_alone_gives_the_size_in_pixels(docx, tmp_path):
    await insert(docx, write(tmp_path, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 192 96"/>'))
    body = await docx.save(tmp_path / "o.docx")
    extent = body.find(".//wp:extent", NS)
    assert (int(extent.get("cx")), int(extent.get("cy"))) == (2 * EMU, EMU)


async def test_the_view_shows_the_svg_as_an_image_with_its_title_as_alt_text(docx, tmp_path):
    a = await insert(docx, write(tmp_path, RED))
    assert "[IMG: Red logo]" in a.section("Document Context")
    body = await docx.save(tmp_path / "o.docx")
    assert body.find(".//wp:docPr", NS).get("descr") == "Red logo"


async def test_undo_takes_back_both_parts_byte_for_byte(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")
    await docx.save(tmp_path / "before.docx")
    await docx.ok("docx_insert_image", image_path=str(write(tmp_path, RED)), position="end:document_body")
    await docx.save(tmp_path / "with.docx")
    assert len([n for n in parts(tmp_path / "with.docx") if n.startswith("word/media/")]) == 2
    await docx.ok("docx_undo")
    await docx.save(tmp_path / "after.docx")
    assert parts(tmp_path / "after.docx") == parts(tmp_path / "before.docx")


async def test_tracked_insert_puts_the_svg_drawing_inside_w_ins(docx, tmp_path):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")
    await docx.ok("docx_set_track_changes", enabled=True)
    await docx.ok("docx_insert_image", image_path=str(write(tmp_path, RED)), position="end:document_body")
    body = await docx.save(tmp_path / "o.docx")
    drawing = body.find(".//w:drawing", NS)
    assert drawing.getparent().getparent().tag == f"{{{NS['w']}}}ins"
    assert drawing.find(f".//{{{ASVG}}}svgBlip") is not None


# ---- bad and hostile SVGs -----------------------------------------------------------------------

class Listener:
    """A loopback TCP listener that counts every connection (an SVG that fetched would connect)."""

    def __init__(self):
        self.hits = 0
        listener = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                listener.hits += 1

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def listener():
    li = Listener()
    yield li
    li.close()


def _svg(inner: str, attrs: str = "") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="100" height="100"{attrs}>{inner}</svg>')


def _bomb(levels: int = 8, fan: int = 10) -> str:
    defs = '<rect id="l0" width="1" height="1"/>'
    for i in range(1, levels + 1):
        defs += f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * fan + "</g>"
    return _svg(f"<defs>{defs}</defs><use href='#l{levels}'/>")


def _huge_png() -> str:
    """30,000 × 30,000 pixels in about 100 KB: 3.6 GB once decoded."""
    out = io.BytesIO()
    Image.new("1", (30_000, 30_000)).save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


HOSTILE = {
    "image over http": lambda u: _svg(f'<image href="{u}/a.png" width="10" height="10"/>'),
    "xlink image from a file": lambda u: _svg('<image xlink:href="file:///etc/hostname" width="9" height="9"/>'),
    "relative file": lambda u: _svg('<image href="../secret.png" width="9" height="9"/>'),
    "use of another file": lambda u: _svg(f'<use href="{u}/other.svg#shape"/>'),
    "feImage": lambda u: _svg(f'<filter id="f"><feImage href="{u}/i.png"/></filter><rect filter="url(#f)" '
                              'width="9" height="9"/>'),
    "fill url": lambda u: _svg(f'<rect fill="url({u}/p.svg#g)" width="9" height="9"/>'),
    "style url": lambda u: _svg(f'<rect style="fill: url(\'{u}/p.svg#g\')" width="9" height="9"/>'),
    "css import": lambda u: _svg(f'<style>@import "{u}/x.css";</style>'),
    "css font": lambda u: _svg(f'<style>@font-face {{ src: url({u}/f.ttf) }}</style>'),
    "xinclude": lambda u: _svg(f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{u}/x.xml"/>'),
    "stylesheet instruction": lambda u: f'<?xml-stylesheet href="{u}/s.css"?>' + _svg(""),
    "external entity": lambda u: f'<!DOCTYPE svg [<!ENTITY e SYSTEM "{u}/e">]>' + _svg("<text>&e;</text>"),
    "billion laughs": lambda u: ('<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {c} "' + f"&{p};" * 10 + '">' for p, c in zip("abcdefgh", "bcdefghi")) + "]>"
        + _svg("<text>&i;</text>")),
    "nested svg data": lambda u: _svg('<image href="data:image/svg+xml;base64,PHN2Zy8+" width="9" height="9"/>'),
    "script": lambda u: _svg(f'<script>fetch("{u}")</script>'),
    "use bomb": lambda u: _bomb(),
    "bitmap bomb": lambda u: _svg(f'<image href="data:image/png;base64,{_huge_png()}" width="9" height="9"/>'),
    "bitmap not base64": lambda u: _svg('<image href="data:image/png,%89PNG" width="9" height="9"/>'),
    "reference cycle": lambda u: _svg('<g id="a"><use href="#a"/></g>'),
    "deep nesting": lambda u: _svg("<g>" * 2000 + "</g>" * 2000),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
async def test_hostile_svg_is_refused_before_anything_is_fetched(docx, tmp_path, listener, case):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")
    await docx.save(tmp_path / "before.docx")
    a = await docx.call("docx_insert_image", image_path=str(write(tmp_path, HOSTILE[case](listener.url))),
                        position="end:document_body")
    assert a.is_error and a.error_type in ("ValidationError", "LimitExceeded"), a.text
    assert "SVG" in a.head["Message"]
    await docx.save(tmp_path / "after.docx")
    assert parts(tmp_path / "after.docx") == parts(tmp_path / "before.docx")
    assert listener.hits == 0


async def test_an_embedded_png_is_drawn_in_the_fallback(docx, tmp_path):
    data = io.BytesIO()
    Image.new("RGB", (4, 4), (0, 0, 255)).save(data, "PNG")
    uri = "data:image/png;base64," + base64.b64encode(data.getvalue()).decode()
    a = await insert(docx, write(tmp_path, _svg(f'<image href="{uri}" width="100" height="100"/>')))
    assert not a.is_error, a.text
    await docx.save(tmp_path / "o.docx")
    saved = parts(tmp_path / "o.docx")
    assert Image.open(io.BytesIO(saved[blips(saved)[0][0]])).convert("RGB").getpixel((50, 50)) == (0, 0, 255)


async def test_a_huge_declared_size_is_fitted_to_the_page(docx, tmp_path):
    a = await insert(docx, write(tmp_path, '<svg xmlns="http://www.w3.org/2000/svg" width="100000000" '
                                           'height="50000000"><rect width="100%" height="100%"/></svg>'))
    assert not a.is_error, a.text
    await docx.save(tmp_path / "o.docx")
    saved = parts(tmp_path / "o.docx")
    png = Image.open(io.BytesIO(saved[blips(saved)[0][0]]))
    assert png.width <= 2112 and abs(png.width / png.height - 2) < 0.02


@pytest.mark.parametrize("text, words", [
    ("<svg xmlns='http://www.w3.org/2000/svg'><rect", "not usable XML"),
    ("<html xmlns='http://www.w3.org/1999/xhtml'/>", "not an SVG"),
    ("<svg xmlns='http://www.w3.org/2000/svg' width='0' height='10'/>", "more than 0"),
    ("<svg xmlns='http://www.w3.org/2000/svg' width='1e999' height='10'/>", "more than 0"),
    ("<svg xmlns='http://www.w3.org/2000/svg' width='wide' height='10'/>", "not a length"),
    ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 -5 10'/>", "viewBox"),
])
async def test_a_bad_svg_gets_a_named_error_and_changes_nothing(docx, tmp_path, text, words):
    await docx.create()
    await docx.ok("docx_insert_paragraph", text="Text", position="end:document_body")
    await docx.save(tmp_path / "before.docx")
    a = await docx.call("docx_insert_image", image_path=str(write(tmp_path, text)), position="end:document_body")
    assert a.is_error and a.error_type == "ValidationError" and words in a.head["Message"], a.text
    await docx.save(tmp_path / "after.docx")
    assert parts(tmp_path / "after.docx") == parts(tmp_path / "before.docx")


@pytest.mark.parametrize("family", ["", ' font-family="Arial"', ' font-family="sans-serif"',
                                    ' style="font-family:monospace"', ' style="font: italic 40px cursive"'])
async def test_text_is_drawn_in_the_fallback_with_the_machines_fonts(docx, tmp_path, family):
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="200" height="60" '
           f'fill="#ffffff"/><text x="10" y="45" font-size="40"{family}>Hello</text></svg>')
    await insert(docx, write(tmp_path, svg))
    await docx.save(tmp_path / "o.docx")
    saved = parts(tmp_path / "o.docx")
    png = Image.open(io.BytesIO(saved[blips(saved)[0][0]])).convert("L")
    assert sum(png.histogram()[:100]) > 300  # the word's strokes: dark pixels


# ---- redaction --------------------------------------------------------------------------------

SECRET = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="200" height="60" '
          'fill="#ffffff"/><text x="10" y="40" font-size="30">{}</text></svg>')


async def _fallbacks(docx, tmp_path, name: str) -> list[bytes]:
    await docx.save(tmp_path / name)
    saved = parts(tmp_path / name)
    return [saved[png] for png, _ in blips(saved)]


async def test_redaction_draws_the_fallback_again_from_the_redacted_svg(docx, tmp_path):
    await insert(docx, write(tmp_path, SECRET.format("Secret")))
    [before] = await _fallbacks(docx, tmp_path, "before.docx")
    a = await docx.ok("docx_redact", text="Secret", replacement="X")
    assert "drawn again" in a.section("Content")
    await docx.ok("docx_insert_image", image_path=str(write(tmp_path, SECRET.format("XXXXXX"), "plain.svg")),
                  position="end:document_body")
    redacted, plain = await _fallbacks(docx, tmp_path, "after.docx")
    assert redacted != before and redacted == plain
