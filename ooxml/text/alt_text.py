"""Alternative text of images, charts, shapes (their ``wp:docPr``) and tables (``w:tblCaption`` /
``w:tblDescription``), and Word's "decorative" marker on a drawing (an ``a:extLst`` extension)."""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ooxml.xml.errors import InvalidElementType, ValidationError
from ooxml.xml.namespaces import A, MC, V, WP, w
from ooxml.xml.order import get_or_add, set_child

DECORATIVE_URI = "{C183D7F6-B498-43B3-948B-1728B52AA6E4}"
ADEC = "http://schemas.microsoft.com/office/drawing/2017/decorative"
MAX_ALT_CHARS = 4_000  # far more than any reader reads aloud; Word's own box takes about as much

_DRAWING, _TBL, _TBL_PR = w("drawing"), w("tbl"), w("tblPr")
_DOC_PR, _EXT_LST, _EXT = f"{{{WP}}}docPr", f"{{{A}}}extLst", f"{{{A}}}ext"
_DECORATIVE = f"{{{ADEC}}}decorative"
_CHART = "{http://schemas.openxmlformats.org/drawingml/2006/chart}chart"
_HINT = "Pass the ID of an image, chart or shape (img_…, chart_…) or of a table (table_…)."


@dataclass
class AltText:
    text: str
    title: str
    decorative: bool


def holder_of(el: etree._Element) -> etree._Element:
    """Where ``el``'s alt text lives: the ``wp:docPr`` of a drawing (an image, a shape, a chart's frame),
    or a table itself."""
    if el.tag == _TBL:
        return el
    drawing = el if el.tag == _DRAWING else next(el.iterancestors(_DRAWING), None) if el.tag == _CHART else None
    doc_pr = next(drawing.iter(_DOC_PR), None) if drawing is not None else None
    if doc_pr is None:
        kind = "a VML picture (w:pict)" if el.tag == w("pict") else f"a {etree.QName(el).localname}"
        raise InvalidElementType(f"{kind} has no alt text this tool can set.", hint=_HINT)
    return doc_pr


def read(holder: etree._Element) -> AltText:
    if holder.tag == _TBL:
        pr = holder.find(_TBL_PR)
        val = (lambda n: (pr.find(w(n)).get(w("val"), "") if pr is not None and pr.find(w(n)) is not None else ""))
        return AltText(val("tblDescription"), val("tblCaption"), False)
    return AltText(holder.get("descr", ""), holder.get("title", ""), is_decorative(holder))


def is_decorative(doc_pr: etree._Element) -> bool:
    ext = _decorative_ext(doc_pr)
    mark = ext.find(_DECORATIVE) if ext is not None else None
    return mark is not None and mark.get("val") in ("1", "true")


def check(holder: etree._Element, text: str, title: str | None, decorative: bool) -> None:
    """Refuse what cannot be written, before anything changes."""
    for name, value in (("text", text), ("title", title or "")):
        if len(value) > MAX_ALT_CHARS:
            raise ValidationError(f"{name} is {len(value)} characters, over {MAX_ALT_CHARS}.",
                                  hint="Describe the element in a sentence or two; long descriptions go in the text.")
    if decorative and holder.tag == _TBL:
        raise ValidationError("Word marks images, charts and shapes decorative, not tables.",
                              hint="Leave decorative out for a table; give its alt text or a header row instead.")


def write(holder: etree._Element, text: str, title: str | None, decorative: bool) -> None:
    """Set the description (an empty one removed), the title when given, and the decorative marker."""
    if holder.tag == _TBL:
        _write_table(holder, text, title)
        return
    for name, value in (("descr", text), ("title", title)):
        if value:
            holder.set(name, value)
        elif value is not None:
            holder.attrib.pop(name, None)
    _set_decorative(holder, decorative)
    for shape in _fallback_shapes(holder):  # the VML copy older readers see says the same
        if text:
            shape.set("alt", text)
        else:
            shape.attrib.pop("alt", None)


def _fallback_shapes(doc_pr: etree._Element) -> list[etree._Element]:
    """The VML shapes of the ``mc:Fallback`` beside the ``mc:Choice`` holding ``doc_pr``, if any."""
    choice = next(doc_pr.iterancestors(f"{{{MC}}}Choice"), None)
    fallback = choice.getnext() if choice is not None else None
    if fallback is None or fallback.tag != f"{{{MC}}}Fallback":
        return []
    return [el for pict in fallback.iter(w("pict")) for el in pict
            if isinstance(el.tag, str) and el.tag.startswith(f"{{{V}}}") and el.tag != f"{{{V}}}shapetype"]


def _write_table(tbl: etree._Element, text: str, title: str | None) -> None:
    pr = get_or_add(tbl, "tblPr")
    for name, value in (("tblDescription", text), ("tblCaption", title)):
        if value:
            set_child(pr, name, val=value)
        elif value is not None:
            for old in pr.findall(w(name)):
                pr.remove(old)


def _decorative_ext(doc_pr: etree._Element) -> etree._Element | None:
    lst = doc_pr.find(_EXT_LST)
    if lst is None:
        return None
    return next((e for e in lst.iterchildren(_EXT) if e.get("uri") == DECORATIVE_URI), None)


def _set_decorative(doc_pr: etree._Element, on: bool) -> None:
    ext = _decorative_ext(doc_pr)
    if not on:
        if ext is not None:
            lst = ext.getparent()
            lst.remove(ext)
            if len(lst) == 0:
                doc_pr.remove(lst)
        return
    if ext is None:
        lst = doc_pr.find(_EXT_LST)
        if lst is None:
            lst = etree.SubElement(doc_pr, _EXT_LST, nsmap={"a": A})  # a:extLst is docPr's last child
        ext = etree.SubElement(lst, _EXT, uri=DECORATIVE_URI)
    for old in list(ext):
        ext.remove(old)
    etree.SubElement(ext, _DECORATIVE, nsmap={"adec": ADEC}, val="1")
