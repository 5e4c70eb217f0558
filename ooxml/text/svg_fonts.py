"""An SVG's font-family lists resolved as a renderer without generic-family settings needs them: the
generic families (serif, sans-serif, monospace) named by the machine's fonts (fontconfig, once), and
the default serif family last in every list, so text set in a font the machine lacks is still drawn
(resvg falls back to its serif family, whose built-in name, Times New Roman, most servers lack)."""
from __future__ import annotations

import functools
import re
import shutil
import subprocess

from lxml import etree

SVG_STYLE = "{http://www.w3.org/2000/svg}style"
_GENERIC = ("serif", "sans-serif", "monospace")
# a font-family declaration, or the font shorthand (its family list last), in a style attribute or sheet
_DECLARATION = re.compile(r"(^|[{;])(\s*)(font-family|font)(\s*:\s*)([^;}\"<]+)", re.IGNORECASE | re.MULTILINE)
_KEYWORDS = frozenset({"inherit", "initial", "unset", "revert", "revert-layer"})
_IMPORTANT = re.compile(r"\s*!\s*important\s*$", re.IGNORECASE)


@functools.cache
def machine_families() -> dict[str, str]:
    """Generic family -> the family fontconfig gives it here (none without fc-match)."""
    fc = shutil.which("fc-match")
    out = {}
    for generic in _GENERIC:
        try:
            name = subprocess.run([fc, "-f", "%{family[0]}", generic], capture_output=True, text=True,
                                  timeout=5).stdout.strip() if fc else ""
        except (OSError, subprocess.SubprocessError):
            name = ""
        if name:
            out[generic] = name
    return out


def default_family() -> str | None:
    """The family of text that names none (serif, as in browsers)."""
    return machine_families().get("serif")


def resolve(root: etree._Element) -> None:
    """Every font-family list of ``root`` (a copy: changed in place) resolved to the machine's fonts."""
    if not machine_families():
        return
    for el in root.iter():
        if el.get("font-family") is not None:
            el.set("font-family", family_list(el.get("font-family")))
        if el.get("style") is not None and "font" in el.get("style"):
            el.set("style", _DECLARATION.sub(_declaration, el.get("style")))
        if el.tag == SVG_STYLE and el.text and "font" in el.text:
            el.text = _DECLARATION.sub(_declaration, el.text)


def _declaration(m: re.Match) -> str:
    return "".join(m.group(1, 2, 3, 4)) + family_list(m.group(5))


def family_list(value: str) -> str:
    """``value`` (a family list, or the font shorthand ending in one) with its generic families named
    and the default family appended."""
    important = _IMPORTANT.search(value)
    body = value[:important.start()] if important else value.rstrip()
    if body.strip().lower() in _KEYWORDS:  # the parent's family: left for the renderer to inherit
        return value
    items = [_named(item) for item in body.split(",")]
    return ", ".join(items + [f"'{default_family()}'"]) + (" !important" if important else "")


def _named(item: str) -> str:
    """A list item with a generic family (its last word: the shorthand puts size and style first) named."""
    head, _, last = item.strip().rpartition(" ")
    concrete = machine_families().get(last.lower())
    if concrete is None:
        return item.strip()
    return f"{head} '{concrete}'".strip()
