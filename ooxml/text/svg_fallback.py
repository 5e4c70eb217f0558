"""The PNG Word shows where it cannot draw SVG, rendered by resvg (it never fetches: every reference
outside the file was refused by svg_check first) at the picture's size, stretched as the drawing is."""
from __future__ import annotations

import copy
import functools
import shutil
import subprocess

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
        return resvg_py.svg_to_bytes(svg_string=_sized(svg, px, py), width=px, height=py, **_families())
    except (ValueError, RuntimeError, OverflowError) as e:
        raise ValidationError(f"The SVG '{svg.name}' does not render: {str(e)[:200]}.",
                              hint="Open it in a browser to check it, or convert it to PNG.") from None


@functools.cache
def _families() -> dict[str, str]:
    """The machine's fonts for CSS's generic families, from fontconfig (once): resvg's own defaults
    (Times New Roman, Arial ...) are missing on most servers, and text set in them is not drawn."""
    fc = shutil.which("fc-match")
    out = {}
    for arg, generic in (("serif_family", "serif"), ("sans_serif_family", "sans-serif"),
                         ("monospace_family", "monospace")):
        try:
            name = subprocess.run([fc, "-f", "%{family[0]}", generic], capture_output=True, text=True,
                                  timeout=5).stdout.strip() if fc else ""
        except (OSError, subprocess.SubprocessError):
            name = ""
        if name:
            out[arg] = name
    if "serif_family" in out:
        out["font_family"] = out["serif_family"]  # an unnamed family is serif, as in browsers
    return out


def _sized(svg: SvgFile, px: int, py: int) -> str:
    """A copy of the SVG whose root draws its viewBox into px×py, stretched as the picture is."""
    root = copy.copy(svg.root)
    if root.get("viewBox") is None:
        root.set("viewBox", f"0 0 {svg.size_px[0]:g} {svg.size_px[1]:g}")
    root.set("width", str(px))
    root.set("height", str(py))
    root.set("preserveAspectRatio", "none")
    return etree.tostring(root, encoding=str)
