"""The fonts a package names: what its text asks to be drawn in (runs, styles, the theme).

Read from a package's part bytes (the copy an export hands LibreOffice), so an export can say which
of them the machine lacks. Theme references (``+mj-lt``) are resolved through the theme's own fonts.
"""
from __future__ import annotations

from ooxml.xml.errors import OoxmlError
from ooxml.xml.namespaces import A, STRICT_W, W
from ooxml.xml.safexml import parse_part

MAX_FONTS = 64  # a document naming more is rare; the answer stays short
_SLOTS = ("ascii", "hAnsi", "cs", "eastAsia")


def fonts_named(parts: dict[str, bytes]) -> list[str]:
    """Font names in the order first met: theme fonts first, then styles, then the stories."""
    names: dict[str, None] = {}
    for name in sorted(parts, key=_rank):
        data = parts[name]
        if not name.endswith(".xml") or not name.startswith("word/") or (b"rFonts" not in data and b"typeface" not in data):
            continue
        try:
            root = parse_part(data, name).getroot()
        except OoxmlError:
            continue  # a damaged part: LibreOffice reads what it can, we name what we can
        for el in root.iter(f"{{{W}}}rFonts", f"{{{STRICT_W}}}rFonts", f"{{{A}}}latin"):
            for value in _values(el):
                if value and not value.startswith("+"):
                    names.setdefault(value.strip())
        if len(names) >= MAX_FONTS:
            break
    return [n for n in names if n][:MAX_FONTS]


def _values(el) -> list[str]:
    if el.tag == f"{{{A}}}latin":
        return [el.get("typeface") or ""]
    return [el.get(f"{{{ns}}}{slot}") or "" for ns in (W, STRICT_W) for slot in _SLOTS]


def _rank(name: str) -> tuple:
    return (0 if "/theme/" in name else 1 if name.endswith("styles.xml") else 2, name)
