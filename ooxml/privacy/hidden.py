"""Which runs a reader never sees: ``w:vanish`` on the run, or on its character style or its paragraph's
style (followed through ``basedOn``), the first layer that says either way deciding (Word's HTML form
styles "Top of Form" hide their text this way)."""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import W

_OFF = {"0", "false", "off"}
MAX_DEPTH = 20  # basedOn chains: a loop in a damaged file ends here


def _w(local: str) -> str:
    return f"{{{W}}}{local}"


def _says(rpr) -> bool | None:
    v = rpr.find(_w("vanish")) if rpr is not None else None
    return None if v is None else v.get(_w("val"), "true") not in _OFF


class Hidden:
    def __init__(self, styles):
        self.by_id = styles.by_id if styles is not None else {}
        self._memo: dict[str, bool | None] = {}

    def style(self, style_id: str | None, depth: int = 0) -> bool | None:
        if not style_id or depth > MAX_DEPTH:
            return None
        if style_id not in self._memo:
            st = self.by_id.get(style_id)
            said = _says(st.find(_w("rPr"))) if st is not None else None
            if said is None and st is not None and st.find(_w("basedOn")) is not None:
                said = self.style(st.find(_w("basedOn")).get(_w("val")), depth + 1)
            self._memo[style_id] = said
        return self._memo[style_id]

    def run(self, r: etree._Element) -> bool:
        rpr = r.find(_w("rPr"))
        said = _says(rpr)
        if said is None and rpr is not None and rpr.find(_w("rStyle")) is not None:
            said = self.style(rpr.find(_w("rStyle")).get(_w("val")))
        if said is None:
            p = next(r.iterancestors(_w("p")), None)
            ppr = p.find(_w("pPr")) if p is not None else None
            pstyle = ppr.find(_w("pStyle")) if ppr is not None else None
            said = self.style(pstyle.get(_w("val")) if pstyle is not None else None)
        return bool(said)

    def runs(self, root: etree._Element) -> list[etree._Element]:
        return [r for r in root.iter(_w("r")) if self.run(r)]
