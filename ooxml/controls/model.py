"""The content control model: kind, level and properties read from ``w:sdtPr``.

Reads only. A control is a ``w:sdt`` at one of four levels: around blocks (``block``), among a
paragraph's runs (``inline``), around table rows (``row``) or cells (``cell``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from ooxml.model import places as P
from ooxml.text import body as B
from ooxml.xml.namespaces import W14, w

W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
KINDS = ("text", "rich_text", "checkbox", "dropdown", "combo_box", "date", "picture", "repeating_section")
SETTABLE = {"text", "rich_text", "checkbox", "dropdown", "combo_box", "date", "picture"}
CONTENT_LOCKS = {"contentLocked", "sdtContentLocked"}
MAX_XPATH = 1000

_BY_CHILD = {w("text"): "text", f"{{{W14}}}checkbox": "checkbox", w("dropDownList"): "dropdown",
             w("comboBox"): "combo_box", w("date"): "date", w("picture"): "picture",
             f"{{{W15}}}repeatingSection": "repeating_section", f"{{{W15}}}repeatingSectionItem": "repeating_item",
             w("group"): "group", w("docPartObj"): "doc_part", w("docPartList"): "doc_part",
             w("citation"): "other", w("bibliography"): "other", w("equation"): "other"}


@dataclass
class Binding:
    xpath: str
    store_item: str | None
    prefixes: dict[str, str] = field(default_factory=dict)


@dataclass
class Control:
    el: etree._Element  # the w:sdt
    kind: str
    level: str  # block, inline, row, cell
    tag: str | None
    alias: str | None
    lock: str | None
    placeholder: bool  # still showing its placeholder text
    binding: Binding | None
    items: list[tuple[str, str]]  # (display text, value) of a drop-down or combo box
    date_format: str | None
    checked: bool | None

    @property
    def pr(self) -> etree._Element | None:
        return self.el.find(w("sdtPr"))

    @property
    def content(self) -> etree._Element | None:
        return self.el.find(w("sdtContent"))

    @property
    def settable(self) -> bool:
        return self.kind in SETTABLE

    @property
    def content_locked(self) -> bool:
        return self.lock in CONTENT_LOCKS


def _val(el: etree._Element | None, attr: str = w("val")) -> str | None:
    return el.get(attr) if el is not None else None


def kind_of(pr: etree._Element | None) -> str:
    if pr is None:
        return "rich_text"
    for child in pr:
        kind = _BY_CHILD.get(child.tag)
        if kind is not None:
            return kind
    return "rich_text"


def level_of(sdt: etree._Element) -> str:
    parent = sdt.getparent()
    tag = parent.tag if parent is not None else None
    if tag == B.W_TBL:
        return "row"
    if tag == B.W_TR:
        return "cell"
    return "inline" if P.inline_slot(sdt) else "block"


def _binding(pr: etree._Element) -> Binding | None:
    db = pr.find(w("dataBinding"))
    if db is None or not db.get(w("xpath")):
        return None
    return Binding(db.get(w("xpath"))[:MAX_XPATH + 1], db.get(w("storeItemID")),
                   parse_prefixes(db.get(w("prefixMappings")) or ""))


def parse_prefixes(text: str) -> dict[str, str]:
    """``xmlns:ns0='urn:a' xmlns:ns1="urn:b"`` -> {'ns0': 'urn:a', 'ns1': 'urn:b'}."""
    out = {}
    for part in text.replace('"', "'").split("xmlns:")[1:]:
        prefix, _, rest = part.partition("=")
        uri = rest.strip().strip("'").split("'")[0]
        if prefix.strip() and uri:
            out[prefix.strip()] = uri
    return out


def _items(pr: etree._Element, kind: str) -> list[tuple[str, str]]:
    holder = pr.find(w("dropDownList" if kind == "dropdown" else "comboBox"))
    if holder is None:
        return []
    out = []
    for item in holder.findall(w("listItem")):
        value = item.get(w("value")) or ""
        out.append((item.get(w("displayText")) or value, value))
    return out


def read(sdt: etree._Element) -> Control:
    pr = sdt.find(w("sdtPr"))
    kind = kind_of(pr)
    pr_ = pr if pr is not None else etree.Element(w("sdtPr"))
    checked = None
    if kind == "checkbox":
        box = pr_.find(f"{{{W14}}}checkbox")
        state = box.find(f"{{{W14}}}checked") if box is not None else None
        checked = _val(state, f"{{{W14}}}val") in ("1", "true", "on")
    date = pr_.find(w("date"))
    return Control(
        el=sdt, kind=kind, level=level_of(sdt), tag=_val(pr_.find(w("tag"))), alias=_val(pr_.find(w("alias"))),
        lock=_val(pr_.find(w("lock"))), placeholder=pr_.find(w("showingPlcHdr")) is not None and
        _val(pr_.find(w("showingPlcHdr"))) not in ("0", "false", "off"),
        binding=_binding(pr_), items=_items(pr_, kind) if kind in ("dropdown", "combo_box") else [],
        date_format=_val(date.find(w("dateFormat"))) if date is not None else None, checked=checked)


def value_text(ctrl: Control, limit: int = 2000) -> str:
    """What the control shows, as plain text (paragraphs joined by newlines)."""
    content = ctrl.content
    if content is None:
        return ""
    if ctrl.level == "inline":
        return "".join(B.run_text(r) for r in B.iter_runs(content))[:limit]
    return B.block_text(content, limit)[:limit]


def iter_sdts(root: etree._Element):
    """Every w:sdt under ``root`` in document order (nested ones too), except those in a
    markup-compatibility fallback (a copy of the choice)."""
    for sdt in root.iter(B.W_SDT):
        if any(a.tag == "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
               for a in sdt.iterancestors()):
            continue
        yield sdt


def story_roots(doc) -> list[etree._Element]:
    """The main story's root, then the other stories by part name: the order controls are listed in."""
    main, *rest = doc.stories()
    return [main.root, *(s.root for s in sorted(rest, key=lambda s: s.name))]


def all_controls(doc, scope: etree._Element | None = None) -> list[Control]:
    roots = [scope] if scope is not None else story_roots(doc)
    return [read(sdt) for root in roots for sdt in iter_sdts(root)]


def gallery(ctrl: Control) -> str | None:
    """A building-block control's gallery ('Table of Contents', 'Cover Pages' ...), else None."""
    pr = ctrl.pr
    if pr is None:
        return None
    el = pr.find(f"{w('docPartObj')}/{w('docPartGallery')}")
    if el is None:
        el = pr.find(f"{w('docPartList')}/{w('docPartGallery')}")
    return el.get(w("val")) if el is not None else None


def is_toc(ctrl: Control) -> bool:
    return (gallery(ctrl) or "").startswith("Table of Contents")
