"""Styles: names, outline levels (headings) and the default table style."""
from __future__ import annotations

import re

from lxml import etree

from ooxml.xml.namespaces import w
from ooxml.xml.numbers import file_int

W_VAL = w("val")
_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.I)


class Styles:
    def __init__(self, root: etree._Element | None):
        self.root = root
        self.by_id: dict[str, etree._Element] = {}
        if root is not None:
            for st in root.iter(w("style")):
                sid = st.get(w("styleId"))
                if sid:
                    self.by_id[sid] = st
        self._levels: dict[str, int | None] = {}

    def name(self, style_id: str) -> str:
        st = self.by_id.get(style_id)
        if st is None:
            return style_id
        n = st.find(w("name"))
        return n.get(W_VAL, style_id) if n is not None else style_id

    def exists(self, style_id: str) -> bool:
        return style_id in self.by_id

    def find_id(self, name_or_id: str, kind: str = "paragraph") -> str | None:
        """A style ID from an ID or a display name ('Heading 1', 'heading 1', 'Heading1')."""
        if name_or_id in self.by_id:
            return name_or_id
        wanted = name_or_id.replace(" ", "").lower()
        for sid, st in self.by_id.items():
            if st.get(w("type"), "paragraph") != kind:
                continue
            if sid.lower() == wanted or self.name(sid).replace(" ", "").lower() == wanted:
                return sid
        return None

    def outline_level(self, style_id: str, depth: int = 0) -> int | None:
        """0-based outline level of a paragraph style (following basedOn), None for body text."""
        if style_id in self._levels:
            return self._levels[style_id]
        level = None
        m = _HEADING_NAME.match(self.name(style_id)) or re.match(r"^heading([1-9])$", style_id, re.I)
        st = self.by_id.get(style_id)
        if st is not None:
            ppr = st.find(w("pPr"))
            ol = ppr.find(w("outlineLvl")) if ppr is not None else None
            outline = file_int(ol.get(W_VAL), 9, -1, 9) if ol is not None else 9
            if 0 <= outline < 9:
                level = outline
            elif m:
                level = int(m.group(1)) - 1
            elif depth < 10:
                based = st.find(w("basedOn"))
                if based is not None and based.get(W_VAL) in self.by_id:
                    level = self.outline_level(based.get(W_VAL), depth + 1)
        elif m:
            level = int(m.group(1)) - 1
        self._levels[style_id] = level
        return level

    def default_table_style(self) -> str | None:
        for candidate in ("TableGrid", "Table Grid"):
            sid = self.find_id(candidate, "table")
            if sid:
                return sid
        return None
