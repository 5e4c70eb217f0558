"""Word-style document pairs whose differences lie inside text boxes, built by code.

Each pair is an original and a revised .docx that differ only in the text of text boxes (and,
in one pair, the anchor paragraph too): in the body, in a table cell and in a header, written
the ways Word writes them:
- "alt": DrawingML (``wps:txbx``) in ``mc:Choice`` with its VML copy (``v:textbox``) in ``mc:Fallback``;
- "dml": DrawingML alone; "vml": a plain VML shape (``w:pict/v:shape/v:textbox``);
- "shape": an ellipse with text (not a text box) in ``mc:AlternateContent``.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.builders import SECT, build_docx, p, part_xml, tbl, tc

_NS = ('xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
       'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"')
_EXTENT = '<wp:extent cx="2374265" cy="914400"/>'


def _content(paragraphs: list[str]) -> str:
    return "<w:txbxContent>" + "".join(p(x) for x in paragraphs) + "</w:txbxContent>"


def _drawing(paragraphs: list[str], shape_id: int, geometry: str = "rect", text_box: bool = True) -> str:
    box = ' txBox="1"' if text_box else ""
    return ('<w:drawing><wp:anchor distT="0" distB="0" distL="114300" distR="114300" simplePos="0" '
            f'relativeHeight="{shape_id}" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
            '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset>'
            '</wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>'
            f'{_EXTENT}<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapSquare wrapText="bothSides"/>'
            f'<wp:docPr id="{shape_id}" name="Shape {shape_id}"/><wp:cNvGraphicFramePr/>'
            '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
            f'<wps:wsp {_NS}><wps:cNvSpPr{box}/><wps:spPr><a:xfrm><a:off x="0" y="0"/>'
            f'<a:ext cx="2374265" cy="914400"/></a:xfrm><a:prstGeom prst="{geometry}"><a:avLst/></a:prstGeom>'
            '<a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill><a:ln w="9525"><a:solidFill><a:srgbClr val="000000"/>'
            f'</a:solidFill></a:ln></wps:spPr><wps:txbx>{_content(paragraphs)}</wps:txbx><wps:bodyPr/></wps:wsp>'
            '</a:graphicData></a:graphic></wp:anchor></w:drawing>')


def _pict(paragraphs: list[str], shape_id: int, kind: str = "shape") -> str:
    """A VML shape with text (``kind``: "shape" with a text box shape type, or "oval")."""
    return (f'<w:pict {_NS}><v:{kind} id="Box {shape_id}" o:spid="_x0000_s{1024 + shape_id}" '
            + ('type="#_x0000_t202" ' if kind == "shape" else "")
            + 'style="position:absolute;margin-left:0;margin-top:0;width:187pt;height:72pt;z-index:1" '
            f'filled="t" stroked="t"><v:textbox>{_content(paragraphs)}</v:textbox></v:{kind}></w:pict>')


def box_run(kind: str, paragraphs: list[str], shape_id: int = 1) -> str:
    """A run anchoring a text box (or a shape with text) of ``kind`` holding ``paragraphs``."""
    if kind == "dml":
        inner = _drawing(paragraphs, shape_id)
    elif kind == "vml":
        inner = _pict(paragraphs, shape_id)
    else:
        shape = kind == "shape"
        choice = _drawing(paragraphs, shape_id, "ellipse" if shape else "rect", text_box=not shape)
        inner = (f'<mc:AlternateContent {_NS}><mc:Choice Requires="wps">{choice}</mc:Choice><mc:Fallback>'
                 f'{_pict(paragraphs, shape_id, "oval" if shape else "shape")}</mc:Fallback></mc:AlternateContent>')
    return f"<w:r>{inner}</w:r>"


def anchor(kind: str, paragraphs: list[str], text: str = "Anchor text.", shape_id: int = 1) -> str:
    return f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r>{box_run(kind, paragraphs, shape_id)}</w:p>'


@dataclass
class BoxPair:
    name: str
    body_a: str
    body_b: str
    header_a: str | None = None
    header_b: str | None = None

    def write(self, folder: Path) -> tuple[Path, Path]:
        return (_docx(folder / f"{self.name}-a.docx", self.body_a, self.header_a),
                _docx(folder / f"{self.name}-b.docx", self.body_b, self.header_b))


def _docx(path: Path, body: str, header: str | None) -> Path:
    if header is None:
        return build_docx(path, body)
    sect = SECT.replace("<w:sectPr>", '<w:sectPr><w:headerReference w:type="default" r:id="rIdHdr1"/>')
    return build_docx(path, body, sect=sect, rels=[("rIdHdr1", "header", "header1.xml")],
                      extra_parts={"word/header1.xml": part_xml("w:hdr", header)},
                      overrides={"word/header1.xml": "application/vnd.openxmlformats-officedocument."
                                                     "wordprocessingml.header+xml"})


OLD = ["The quick brown fox jumps over the lazy dog.", "Second line stays as it was."]
WORDS = ["The slow brown fox leaps over the lazy dog.", "Second line stays as it was."]
ADDED = [*OLD, "A third line, added."]
GONE = OLD[1:]


def _body(kind: str, box: list[str], before="Before the box.", text="Anchor text.") -> str:
    return p(before) + anchor(kind, box, text) + p("After the box.")


def _cell(kind: str, box: list[str]) -> str:
    return p("Above.") + tbl([[tc(p("Left cell.")), tc(anchor(kind, box, "In a cell."))]]) + p("Below.")


def pairs() -> list[BoxPair]:
    out = []
    for kind in ("alt", "dml", "vml", "shape"):
        out += [BoxPair(f"body-{kind}-words", _body(kind, OLD), _body(kind, WORDS)),
                BoxPair(f"body-{kind}-added", _body(kind, OLD), _body(kind, ADDED)),
                BoxPair(f"cell-{kind}-words", _cell(kind, OLD), _cell(kind, WORDS)),
                BoxPair(f"header-{kind}-words", p("Body."), p("Body."), anchor(kind, OLD, "Head."),
                        anchor(kind, WORDS, "Head."))]
    out += [
        BoxPair("body-alt-removed", _body("alt", OLD), _body("alt", GONE)),
        BoxPair("body-vml-removed", _body("vml", OLD), _body("vml", GONE)),
        BoxPair("body-alt-anchor-too", _body("alt", OLD), _body("alt", WORDS, text="Anchor text, edited.")),
        BoxPair("body-two-boxes", p("x") + f'<w:p>{box_run("alt", OLD, 1)}{box_run("vml", OLD, 2)}</w:p>',
                p("x") + f'<w:p>{box_run("alt", OLD, 1)}{box_run("vml", WORDS, 2)}</w:p>'),
        BoxPair("cell-alt-added", _cell("alt", OLD), _cell("alt", ADDED)),
        BoxPair("header-alt-removed", p("Body."), p("Body."), anchor("alt", OLD), anchor("alt", GONE)),
        BoxPair("body-alt-box-deleted", _body("alt", OLD), p("Before the box.") + p("After the box.")),
        BoxPair("body-vml-box-inserted", p("Before the box.") + p("After the box."), _body("vml", OLD)),
    ]
    return out
