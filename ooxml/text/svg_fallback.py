"""The PNG Word shows where it cannot draw SVG, rendered by resvg (it never fetches: every reference
outside the file was refused by svg_check first) at the picture's size, stretched as the drawing is."""
from __future__ import annotations

import copy

from lxml import etree

from ooxml.text.svg_check import SvgFile
from ooxml.xml.errors import ValidationError

DPI = 96
MAX_SIDE = 4096  # px; a 22-inch page side at 96 dpi is 2112


def pixels(cx: int, cy: int) -> tuple[int, int]:
    """The fallback's pixel size for a picture of cx×cy EMU."""
    return (max(1, min(MAX_SIDE, round(cx / 914400 * DPI))),
            max(1, min(MAX_SIDE, round(cy / 914400 * DPI))))


def render(svg: SvgFile, cx: int, cy: int) -> bytes:
    """PNG bytes of ``svg`` drawn into cx×cy EMU; a failure is a named error (nothing changed yet)."""
    import resvg_py

    px, py = pixels(cx, cy)
    try:
        return resvg_py.svg_to_bytes(svg_string=_sized(svg, px, py), width=px, height=py)
    except (ValueError, RuntimeError, OverflowError) as e:
        raise ValidationError(f"The SVG '{svg.name}' does not render: {str(e)[:200]}.",
                              hint="Open it in a browser to check it, or convert it to PNG.") from None


def _sized(svg: SvgFile, px: int, py: int) -> str:
    """A copy of the SVG whose root draws its viewBox into px×py, stretched as the picture is."""
    root = copy.copy(svg.root)
    if root.get("viewBox") is None:
        root.set("viewBox", f"0 0 {svg.size_px[0]:g} {svg.size_px[1]:g}")
    root.set("width", str(px))
    root.set("height", str(py))
    root.set("preserveAspectRatio", "none")
    return etree.tostring(root, encoding=str)
