"""After a redaction changed SVG parts, the PNG fallbacks drawn from them are drawn again: the old
picture still shows the removed text. A fallback is a new ``Part`` (undo puts the old one back)."""
from __future__ import annotations

from lxml import etree

from ooxml.opc.part import Part
from ooxml.text.images import ASVG
from ooxml.text import svg_check, svg_fallback
from ooxml.xml import budget
from ooxml.xml.errors import OoxmlError
from ooxml.xml.namespaces import A, R, WP
from ooxml.xml.numbers import file_int
from ooxml.opc.parts import story_part_names

_SVG_BLIP = f"{{{ASVG}}}svgBlip"
_EMBED = f"{{{R}}}embed"


def redraw(doc, changed: set[str]) -> list[str]:
    """Names of the fallbacks drawn again for the SVG parts in ``changed``; one that does not draw
    (now refused or failing) stays as it was, and the leak check lists it as not checked."""
    package, done = doc.package, []
    for name in story_part_names(package, doc.main_name):
        if not package.has_part(name):
            continue
        rels = {r.get("Id"): package.resolve_target(name, r.get("Target", ""))
                for r in package.rels(name) if r.get("TargetMode") != "External"}
        for svg_blip in package.part(name).tree.getroot().iter(_SVG_BLIP):
            svg_name = rels.get(svg_blip.get(_EMBED))
            blip = next(svg_blip.iterancestors(f"{{{A}}}blip"), None)
            png_name = rels.get(blip.get(_EMBED)) if blip is not None else None
            if svg_name in changed and png_name and png_name not in done and package.has_part(png_name):
                budget.check()
                if _redraw_one(package, svg_name, png_name, blip):
                    done.append(png_name)
    return done


def _redraw_one(package, svg_name: str, png_name: str, blip: etree._Element) -> bool:
    extent = next((a.find(f"{{{WP}}}extent") for a in blip.iterancestors(f"{{{WP}}}inline", f"{{{WP}}}anchor")),
                  None)
    if extent is None:
        return False
    cx, cy = file_int(extent.get("cx"), 1, 1, 1 << 31), file_int(extent.get("cy"), 1, 1, 1 << 31)
    part = package.part(svg_name)
    data = etree.tostring(part.tree) if part.loaded else part.data
    try:
        png = svg_fallback.render(svg_check.read_svg(svg_name, data), cx, cy)
    except OoxmlError:
        return False
    old = package.parts[png_name]
    package.parts[png_name] = Part(package, old.info, png)  # undo puts the old Part back in the table
    return True
