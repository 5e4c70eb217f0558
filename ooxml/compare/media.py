"""The images a comparison sees, by the hash of their bytes: a picture swapped for another of the
same size is a different item, and two saves of one picture (new relationship IDs) are the same.
A chart is seen by what it shows (kind, title, series, categories, values), not by its XML."""
from __future__ import annotations

import hashlib

from lxml import etree

from ooxml.charts import model as charts
from ooxml.xml.namespaces import R


class Images:
    """``images(blip)``: the hash of the image part the blip embeds, through the relationships of the
    part (of any of ``docs``) that holds it; each image part is hashed once."""

    def __init__(self, *docs):
        self.docs = docs
        self._rels: dict = {}  # (package, part name) -> {rId: target part name}
        self._hashes: dict = {}  # (package, image part name) -> hash

    def __call__(self, blip: etree._Element) -> str:
        rid = blip.get(f"{{{R}}}embed") or blip.get(f"{{{R}}}link") or ""
        part = self._part_of(blip)
        if part is None or not rid:
            return ""
        package = part.package
        target = self._targets(package, part.name).get(rid)
        if target is None or not package.has_part(target):
            return ""
        key = (package, target)
        if key not in self._hashes:
            self._hashes[key] = hashlib.sha1(package.part(target).data).hexdigest()[:12]
        return self._hashes[key]

    def chart(self, ref: etree._Element) -> str:
        """The hash of what the chart a ``c:chart`` reference names shows ("" when its part is missing)."""
        part = self._part_of(ref)
        target = self._targets(part.package, part.name).get(charts.chart_rid(ref) or "") if part else None
        if target is None or not part.package.has_part(target):
            return ""
        key = (part.package, target)
        if key not in self._hashes:
            c = charts.read(part.package.part(target).tree.getroot(), target, None, lambda: None)
            shown = repr((c.kinds, c.title, [(s.name, s.values, s.categories) for s in c.series]))
            self._hashes[key] = hashlib.sha1(shown.encode()).hexdigest()[:12]
        return self._hashes[key]

    def _part_of(self, el: etree._Element):
        top = el
        while (parent := top.getparent()) is not None:
            top = parent
        for doc in self.docs:
            part = doc.part_of(top)
            if part.tree.getroot() is top:  # part_of answers the main part for a root it does not know
                return part
        return None

    def _targets(self, package, name: str) -> dict:
        key = (package, name)
        if key not in self._rels:
            self._rels[key] = {r.get("Id"): package.resolve_target(name, r.get("Target", ""))
                               for r in package.rels(name) if r.get("TargetMode") != "External"}
        return self._rels[key]
