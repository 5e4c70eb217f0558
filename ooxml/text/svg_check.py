"""An SVG file checked before anything renders it: our safe parser (no DTD, no entities, bounded depth),
nothing that points outside the file (hrefs, CSS ``url()``/``@import``, XInclude, style sheet
instructions), no scripts, and a bounded size once ``<use>`` and ``url(#…)`` references are expanded
(a "billion laughs" made of references). Its natural size comes from width/height/viewBox."""
from __future__ import annotations

import base64
import io
import math
import re
from dataclasses import dataclass

from lxml import etree

from ooxml.xml import budget
from ooxml.xml.errors import LimitExceeded, OoxmlError, ValidationError
from ooxml.xml.safexml import parse_part

SVG_NS = "http://www.w3.org/2000/svg"
MAX_SVG_BYTES = 10 * 1024 * 1024
MAX_ELEMENTS = 200_000
MAX_EXPANDED = 1_000_000  # elements drawn once every reference is followed
MAX_BITMAP_PIXELS = 40_000_000  # embedded images' pixels in all (decoded: 4 bytes each)
MAX_REF_DEPTH = 600  # elements and references nested (Python's recursion stays far from its limit)
_XINCLUDE = "http://www.w3.org/2001/XInclude"
_XINCLUDE_PREFIX = f"{{{_XINCLUDE}}}"
# What may follow url( or href=: a fragment of this file, or an embedded bitmap (never another SVG,
# whose own references we would not see).
_LOCAL = re.compile(r"#|data:image/(png|jpe?g|gif|webp)[;,]", re.IGNORECASE)
_URL = re.compile(r"url\(\s*['\"]?([^'\")]*)", re.IGNORECASE)
_IMPORT = re.compile(r"@import", re.IGNORECASE)
_FRAGMENT = re.compile(r"^\s*#([^\s)'\"]+)")
# CSS length units in px at 96 dpi; em/ex as resvg's default 16 px font.
_UNITS = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0,
          "em": 16.0, "ex": 8.0}
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*([a-z%]*)\s*$")
_HINT = "Save the SVG with everything it uses embedded (no links, scripts or entities), or convert it to PNG."


@dataclass
class SvgFile:
    name: str
    data: bytes  # the file's bytes, stored as the SVG part unchanged
    root: etree._Element  # parsed, for the fallback render
    size_px: tuple[float, float]  # natural size at 96 dpi
    title: str  # the SVG's <title>: the picture's alt text

    def natural_emu(self) -> tuple[int, int]:
        return round(self.size_px[0] * 9525), round(self.size_px[1] * 9525)


def refuse(name: str, what: str) -> ValidationError:
    return ValidationError(f"The SVG '{name}' is refused: {what}.", hint=_HINT)


def read_svg(name: str, data: bytes) -> SvgFile:
    if len(data) > MAX_SVG_BYTES:
        raise LimitExceeded(f"The SVG '{name}' is {len(data)} bytes, over the limit of {MAX_SVG_BYTES}.",
                            hint="Simplify the SVG or convert it to PNG.")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise refuse(name, "it declares a DTD or entities (they can read files or expand without bound)")
    try:
        root = parse_part(data, name).getroot()
    except OoxmlError as e:
        raise ValidationError(f"The SVG '{name}' is not usable XML: {e.message}", hint=_HINT) from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise ValidationError(f"'{name}' is not an SVG: its root is <{etree.QName(root).localname}>, "
                              "not <svg> in the SVG namespace.", hint="Use an SVG file.")
    _check_outside(name, root)
    _check_expansion(name, root)
    return SvgFile(name, data, root, natural_size(name, root), _title(root))


def _check_outside(name: str, root: etree._Element) -> None:
    """Everything that could reach outside the file, refused by name."""
    outer = [*root.itersiblings(preceding=True), *root.itersiblings()]
    for node in [n for n in outer if isinstance(n, etree._ProcessingInstruction)] or root.iter(etree.PI):
        raise refuse(name, f"it holds the instruction <?{node.target} …?> (style sheets may be fetched)")
    count = pixels = 0
    for el in root.iter():
        count += 1
        if count > MAX_ELEMENTS:
            raise LimitExceeded(f"The SVG '{name}' has more than {MAX_ELEMENTS:,} elements.",
                                hint="Simplify the SVG or convert it to PNG.")
        if count % 4096 == 0:
            budget.check()
        tag = el.tag
        if not isinstance(tag, str):
            continue
        if tag.startswith(_XINCLUDE_PREFIX):
            raise refuse(name, "it includes other files (XInclude)")
        local = _local(tag)  # string work, not QName objects: this walk visits every element
        if local == "script":
            raise refuse(name, "it holds a script")
        if local == "style" and el.text:
            _check_css(name, el.text)
        for attr, value in el.attrib.items():
            if _local(attr) == "href":
                if not _LOCAL.match(value.strip()):
                    raise refuse(name, f"<{local}> links to '{value[:80]}' outside the file")
                if value.strip()[:5].lower() == "data:":
                    pixels += _check_bitmap(name, value.strip(), pixels)
            lowered = value.lower()
            if "url(" in lowered or "@import" in lowered:
                _check_css(name, value)


def _check_bitmap(name: str, uri: str, before: int) -> int:
    """An embedded bitmap's pixels, read from its header (a small PNG can declare gigabytes); the
    file's bitmaps together stay under MAX_BITMAP_PIXELS."""
    from PIL import Image

    head, _, data = uri.partition(",")
    if not head.lower().endswith(";base64"):
        raise refuse(name, "an embedded image is not base64 data")
    try:
        with Image.open(io.BytesIO(base64.b64decode(data, validate=False))) as img:
            w, h = img.size
    except Exception:  # noqa: BLE001 (Pillow raises many kinds for damaged data)
        raise refuse(name, "an embedded image is not readable PNG, JPEG, GIF or WebP data") from None
    if before + w * h > MAX_BITMAP_PIXELS:
        raise LimitExceeded(f"The SVG '{name}' embeds images of more than {MAX_BITMAP_PIXELS:,} pixels "
                            f"(one is {w}×{h}).", hint="Scale the embedded images down, or convert the SVG to PNG.")
    return w * h


def _check_css(name: str, css: str) -> None:
    if _IMPORT.search(css):
        raise refuse(name, "its style imports another style sheet (@import)")
    for target in _URL.findall(css):
        if not _LOCAL.match(target.strip()):
            raise refuse(name, f"its style points to '{target[:80]}' outside the file (url())")


def _check_expansion(name: str, root: etree._Element) -> None:
    """Elements drawn once references (href="#id", url(#id)) are followed, counted without drawing;
    a reference cycle or a total over MAX_EXPANDED is refused."""
    by_id = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    sizes: dict = {}
    visiting: set = set()

    def size(el, depth: int) -> int:
        if el in sizes:
            return sizes[el]
        if depth > MAX_REF_DEPTH:
            raise LimitExceeded(f"The SVG '{name}' nests references deeper than {MAX_REF_DEPTH}.",
                                hint="Simplify the SVG or convert it to PNG.")
        visiting.add(el)
        total = 1
        for ref in _refs(el):
            target = by_id.get(ref)
            if target is None:
                continue
            if target in visiting:
                raise refuse(name, f"its element '{ref[:40]}' refers to itself")
            total += size(target, depth + 1)
        for child in el:
            if total > MAX_EXPANDED:
                break
            if isinstance(child.tag, str):
                total += size(child, depth + 1)
        if total > MAX_EXPANDED:
            raise LimitExceeded(f"The SVG '{name}' draws more than {MAX_EXPANDED:,} elements once its "
                                "references are followed.", hint="Simplify the SVG or convert it to PNG.")
        visiting.discard(el)
        sizes[el] = total
        return total

    size(root, 0)


def _local(name: str) -> str:
    """The local part of a tag or attribute name ("{namespace}local" or "local"), as QName gives it."""
    return name.rpartition("}")[2]


def _refs(el: etree._Element) -> list[str]:
    out = []
    for attr, value in el.attrib.items():
        if _local(attr) == "href":
            m = _FRAGMENT.match(value)
            if m:
                out.append(m.group(1))
        elif "url(" in value:
            out += [t.strip()[1:] for t in _URL.findall(value) if t.strip().startswith("#")]
    return out


def natural_size(name: str, root: etree._Element) -> tuple[float, float]:
    """Width and height in px: the attributes where absolute, else the viewBox's (its aspect kept)."""
    box = _view_box(name, root.get("viewBox"))
    w, h = _length(name, "width", root.get("width")), _length(name, "height", root.get("height"))
    if w is None and h is None:
        return box or (100.0, 100.0)  # resvg's size for an SVG that gives none
    if box is not None:
        if w is None:
            w = h * box[0] / box[1]
        elif h is None:
            h = w * box[1] / box[0]
    return w or 100.0, h or 100.0


def _length(name: str, attr: str, value: str | None) -> float | None:
    if value is None or value.strip().endswith("%") or value.strip() in ("", "auto"):
        return None
    m = _LENGTH.match(value.lower())
    if not m or m.group(2) not in _UNITS:
        raise ValidationError(f"The SVG '{name}' has {attr}=\"{value[:40]}\", not a length.",
                              hint="Give the SVG a width and height such as 200 or 5cm, or a viewBox.")
    px = float(m.group(1)) * _UNITS[m.group(2)]
    if not (math.isfinite(px) and px > 0):
        raise ValidationError(f"The SVG '{name}' has {attr}=\"{value[:40]}\": it must be more than 0.",
                              hint="Give the SVG a positive width and height, or a viewBox.")
    return px


def _view_box(name: str, value: str | None) -> tuple[float, float] | None:
    if value is None:
        return None
    try:
        nums = [float(v) for v in re.split(r"[\s,]+", value.strip())]
    except ValueError:
        nums = []
    if len(nums) != 4 or not all(math.isfinite(v) for v in nums) or nums[2] <= 0 or nums[3] <= 0:
        raise ValidationError(f"The SVG '{name}' has viewBox=\"{value[:60]}\", not four numbers with a "
                              "positive width and height.", hint="Fix the viewBox or leave it out.")
    return nums[2], nums[3]


def _title(root: etree._Element) -> str:
    el = root.find(f"{{{SVG_NS}}}title")
    text = " ".join("".join(el.itertext()).split()) if el is not None else ""
    return text[:500]
