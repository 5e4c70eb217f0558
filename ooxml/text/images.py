"""Pictures: the media part, its relationship and content type (through ooxml/opc/package.py), and
the inline drawing."""
from __future__ import annotations

import io
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lxml import etree

from ooxml.xml.errors import ValidationError
from ooxml.opc.types import RT
from ooxml.xml.namespaces import A, PIC, R, WP, w
from ooxml.xml.units import EMU_PER_INCH

MAX_IMAGE_BYTES = 50 * 1024 * 1024
MAX_PIXELS = 200_000_000  # Pillow's bomb guard works on decode; we only read headers, but stay sane
MAX_EMU = 22 * EMU_PER_INCH  # Word's largest page side
# Pillow format -> (file extension, content type)
FORMATS = {"PNG": ("png", "image/png"), "JPEG": ("jpeg", "image/jpeg"), "GIF": ("gif", "image/gif")}
_EXT_ALIASES = {"jpg": "JPEG", "jpeg": "JPEG", "jpe": "JPEG", "png": "PNG", "gif": "GIF"}
_PIC_URI = "http://schemas.openxmlformats.org/drawingml/2006/picture"
ASVG = "http://schemas.microsoft.com/office/drawing/2016/SVG/main"
SVG_EXT_URI = "{96DAC541-7B7A-43D3-8B79-37D633B846F1}"


@dataclass
class ImageFile:
    name: str  # file name shown as the picture's name
    data: bytes
    ext: str
    content_type: str
    pixels: tuple[int, int]
    dpi: tuple[float, float]

    def natural_emu(self) -> tuple[int, int]:
        return (round(self.pixels[0] / self.dpi[0] * EMU_PER_INCH),
                round(self.pixels[1] / self.dpi[1] * EMU_PER_INCH))


def _sane_dpi(value) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return 96.0
    if not 10 <= v <= 2400:
        return 96.0  # 0, 1 and absurd values mean "unknown"
    # PNG stores pixels per metre: 150 dpi comes back as 149.9994
    return float(round(v)) if abs(v - round(v)) < 0.05 else v


def read_image(path: Path) -> ImageFile:
    """Read a PNG, JPEG or GIF: bytes, pixel size and resolution (Pillow reads headers only)."""
    size = path.stat().st_size
    if size > MAX_IMAGE_BYTES:
        raise ValidationError(f"The image is {size} bytes, over the limit of {MAX_IMAGE_BYTES}.",
                              hint="Compress or scale the image down first.")
    return image_of(path.read_bytes(), path.name)


def image_of(data: bytes, name: str) -> ImageFile:
    """An image from its bytes (a file's or an object's), ``name`` its file name."""
    from PIL import Image, UnidentifiedImageError

    path = PurePosixPath(name)
    if path.suffix.lower() == ".svg":
        raise ValidationError("SVG images go in through docx_insert_image only.",
                              hint="Insert it with docx_insert_image, or convert it to PNG.")
    try:
        with Image.open(io.BytesIO(data)) as img:
            fmt, pixels, info = img.format, img.size, dict(img.info)
            img.verify()
    except UnidentifiedImageError:
        raise ValidationError(f"'{path.name}' is not a readable image: it holds no PNG, JPEG or GIF data.",
                              hint="Use a PNG, JPEG or GIF file.") from None
    except Image.DecompressionBombError:
        raise ValidationError(f"'{path.name}' declares more pixels than the limit of {MAX_PIXELS:,}.",
                              hint="Scale the image down first.") from None
    except (OSError, SyntaxError, ValueError) as e:
        reason = re.sub(r"\s*<[^>]*>", "", str(e)).strip() or type(e).__name__  # no object reprs in answers
        raise ValidationError(f"'{path.name}' is not a readable image: {reason}.",
                              hint="Use a PNG, JPEG or GIF file.") from None
    if fmt not in FORMATS:
        raise ValidationError(f"'{path.name}' is a {fmt} image; only PNG, JPEG and GIF are supported.",
                              hint="Convert it to PNG first.")
    if pixels[0] < 1 or pixels[1] < 1 or pixels[0] * pixels[1] > MAX_PIXELS:
        raise ValidationError(f"'{path.name}' has an unusable pixel size {pixels[0]}×{pixels[1]}.",
                              hint=f"Use an image of at least 1×1 and at most {MAX_PIXELS:,} pixels.")
    dpi = info.get("dpi") or (96, 96)
    ext, ctype = FORMATS[fmt]
    suffix = path.suffix.lower().lstrip(".")
    if _EXT_ALIASES.get(suffix) == fmt:
        ext = suffix  # keep the file's own spelling (jpg) when it names the same format
    return ImageFile(path.name, data, ext, ctype, pixels, (_sane_dpi(dpi[0]), _sane_dpi(dpi[1])))


def fit_size(natural: tuple[int, int], width: int | None, height: int | None,
             max_w: int, max_h: int) -> tuple[int, int]:
    """Size in EMU: given sizes win, one given keeps the aspect ratio, then capped to the text area."""
    nw, nh = natural
    if width is not None and height is not None:
        cx, cy = width, height
    elif width is not None:
        cx, cy = width, round(width * nh / nw)
    elif height is not None:
        cx, cy = round(height * nw / nh), height
    else:
        cx, cy = nw, nh
    factor = min(1.0, max_w / cx if cx else 1.0, max_h / cy if cy else 1.0)
    return max(1, round(cx * factor)), max(1, round(cy * factor))


def check_length(value: int | None, arg: str) -> None:
    if value is not None and not 0 < value <= MAX_EMU:
        raise ValidationError(f"{arg} must be more than 0 and at most 22 inches.",
                              hint="Give a length such as 3 (inches), '5cm' or '200pt', or leave it out.")


# ---- package bookkeeping -----------------------------------------------------------------------

def new_media_name(package, source_part: str, ext: str) -> str:
    folder = posixpath.join(posixpath.dirname(source_part), "media")
    taken = {name.lower() for name in package.parts}
    n = 1
    while f"{folder}/image{n}.{ext}".lower() in taken:
        n += 1
    return f"{folder}/image{n}.{ext}"


def add_image_part(package, source_part: str, image: ImageFile) -> str:
    """Store the image as a new media part related to ``source_part``; returns the rId."""
    media = new_media_name(package, source_part, image.ext)
    package.add_part(media, image.data)
    package.set_default(image.ext, image.content_type)
    return package.relate_part(source_part, RT.IMAGE, media)


def add_svg_parts(package, source_part: str, svg_data: bytes, png: bytes) -> tuple[str, str]:
    """The PNG fallback and the SVG as media parts related to ``source_part``: (png rId, svg rId)."""
    png_rid = add_image_part(package, source_part, ImageFile("", png, "png", "image/png", (1, 1), (96, 96)))
    svg_rid = add_image_part(package, source_part, ImageFile("", svg_data, "svg", "image/svg+xml", (1, 1), (96, 96)))
    return png_rid, svg_rid


# ---- the drawing --------------------------------------------------------------------------------

def _el(parent, tag: str, ns: str, **attrs) -> etree._Element:
    return etree.SubElement(parent, f"{{{ns}}}{tag}", {k: str(v) for k, v in attrs.items()})


def inline_drawing(rid: str, cx: int, cy: int, doc_pr_id: int, name: str, svg_rid: str | None = None,
                   descr: str = "") -> etree._Element:
    """``w:drawing/wp:inline`` showing the picture related as ``rid`` at cx×cy EMU (``svg_rid``: the SVG
    Word draws instead, ``rid`` being its PNG fallback)."""
    drawing = etree.Element(w("drawing"))
    inline = etree.SubElement(drawing, f"{{{WP}}}inline", nsmap={"wp": WP},
                              distT="0", distB="0", distL="0", distR="0")
    _el(inline, "extent", WP, cx=cx, cy=cy)
    _el(inline, "effectExtent", WP, l=0, t=0, r=0, b=0)
    doc_pr = _el(inline, "docPr", WP, id=doc_pr_id, name=name)
    if descr:
        doc_pr.set("descr", descr)
    frame = _el(inline, "cNvGraphicFramePr", WP)
    etree.SubElement(frame, f"{{{A}}}graphicFrameLocks", nsmap={"a": A}, noChangeAspect="1")
    graphic = etree.SubElement(inline, f"{{{A}}}graphic", nsmap={"a": A})
    data = _el(graphic, "graphicData", A, uri=_PIC_URI)
    pic = etree.SubElement(data, f"{{{PIC}}}pic", nsmap={"pic": PIC})
    nv = _el(pic, "nvPicPr", PIC)
    _el(nv, "cNvPr", PIC, id=0, name=name)
    _el(nv, "cNvPicPr", PIC)
    fill = _el(pic, "blipFill", PIC)
    blip = etree.SubElement(fill, f"{{{A}}}blip", nsmap={"r": R})
    blip.set(f"{{{R}}}embed", rid)
    if svg_rid:
        ext = _el(_el(blip, "extLst", A), "ext", A, uri=SVG_EXT_URI)
        etree.SubElement(ext, f"{{{ASVG}}}svgBlip", {f"{{{R}}}embed": svg_rid}, nsmap={"asvg": ASVG})
    _el(_el(fill, "stretch", A), "fillRect", A)
    sp = _el(pic, "spPr", PIC)
    xfrm = _el(sp, "xfrm", A)
    _el(xfrm, "off", A, x=0, y=0)
    _el(xfrm, "ext", A, cx=cx, cy=cy)
    _el(_el(sp, "prstGeom", A, prst="rect"), "avLst", A)
    return drawing
