"""The PNG Word shows where it cannot draw SVG, rendered by resvg (svg2png-py; it never fetches: every
reference outside the file was refused by svg_check first) at the picture's size, stretched as the
drawing is.

Resolution: 96 dpi of the picture's size on the page. [MS-ODRAWXML] 1.3.3 says only that Office embeds
"a rasterized version of the SVG image" in PNG for backward compatibility, naming no resolution, and we
found none documented; 96 dpi is Word's screen resolution for pictures (a web page's pixelsPerInch
default, the dpi Word scales inserted pictures to), so a viewer without SVG shows the fallback at its
size one pixel per screen pixel at 100 % zoom. Higher would cost quadratically (the raster is most of
an insert's time) for what only print or zoom would show; such readers get the SVG itself.

Renderer: svg2png-py draws the same pixels as resvg-py (byte-identical PNGs on the benchmark map) in
half the CPU, and shares one font database across calls; it has no generic-family settings, so the
SVG's family lists are resolved first (svg_fonts)."""
from __future__ import annotations

import copy
import functools

from lxml import etree

from ooxml.text import svg_fonts
from ooxml.text.svg_check import SvgFile
from ooxml.xml.errors import ValidationError

DPI = 96
MAX_SIDE = 4096  # px; a 22-inch page side at 96 dpi is 2112
FONT_SIZE = 16.0  # px: text that gives no size, as in browsers (and resvg-py before)


def pixels(cx: int, cy: int) -> tuple[int, int]:
    """The fallback's pixel size for a picture of cx×cy EMU."""
    return (max(1, min(MAX_SIDE, round(cx / 914400 * DPI))),
            max(1, min(MAX_SIDE, round(cy / 914400 * DPI))))


def render(svg: SvgFile, cx: int, cy: int) -> bytes:
    """PNG bytes of ``svg`` drawn into cx×cy EMU; a failure is a named error (nothing changed yet)."""
    import svg2png_py

    px, py = pixels(cx, cy)
    try:
        return svg2png_py.svg_to_png(_sized(svg, px, py), _fonts(), options=_options())
    except (ValueError, RuntimeError, OverflowError) as e:
        raise ValidationError(f"The SVG '{svg.name}' does not render: {str(e)[:200]}.",
                              hint="Open it in a browser to check it, or convert it to PNG.") from None


@functools.cache
def _fonts():
    """The machine's fonts, loaded once per process (loading them is a scan of every font file)."""
    import svg2png_py

    return svg2png_py.FontDatabase.system()


@functools.cache
def _options():
    import svg2png_py

    family = svg_fonts.default_family()
    return svg2png_py.RenderOptions(dpi=float(DPI), font_size=FONT_SIZE,
                                    **({"font_family": family} if family else {}))


def _sized(svg: SvgFile, px: int, py: int) -> str:
    """A copy of the SVG whose root draws its viewBox into px×py, stretched as the picture is, its
    font families resolved to the machine's."""
    root = copy.copy(svg.root)
    if root.get("viewBox") is None:
        root.set("viewBox", f"0 0 {svg.size_px[0]:g} {svg.size_px[1]:g}")
    root.set("width", str(px))
    root.set("height", str(py))
    root.set("preserveAspectRatio", "none")
    svg_fonts.resolve(root)
    return etree.tostring(root, encoding=str)
