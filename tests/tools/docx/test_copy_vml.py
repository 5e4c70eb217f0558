"""Copies of paragraphs and tables holding VML shapes keep one shape type definition a part.

Word writes each ``v:shapetype`` (``_x0000_t202`` text box, ``_x0000_t75`` picture frame) once a
part; shapes name it by ``type="#_x0000_t75"``. A copy brings the definitions of its shapes: those
the part has already go (two definitions of one id are invalid: the Open XML SDK validator reports
``Sem_UniqueAttributeValue``), the shapes stay and keep their type.
"""
from __future__ import annotations

from collections import Counter

import pytest

from tests.builders import build_docx, document_xml, png, tbl, tc
from tests.support.client import NS

pytestmark = pytest.mark.anyio
VML_NS = ('xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
          'xmlns:oxm="urn:ooxml-mcp:ids:2026"')
VNS = {**NS, "v": "urn:schemas-microsoft-com:vml"}
TEXT_BOX = ('<w:r><w:pict><v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" '
            'path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/>'
            '<v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>'
            '<v:shape id="_x0000_s1026" type="#_x0000_t202" style="width:120pt;height:40pt">'
            '<v:textbox><w:txbxContent><w:p><w:r><w:t>Boxed words</w:t></w:r></w:p></w:txbxContent></v:textbox>'
            '</v:shape></w:pict></w:r>')
PICTURE = ('<w:r><w:pict><v:shapetype id="_x0000_t75" coordsize="21600,21600" o:spt="75" o:preferrelative="t" '
           'path="m@4@5l@4@11@9@11@9@5xe" filled="f" stroked="f"><v:stroke joinstyle="miter"/>'
           '<v:path o:extrusionok="f" gradientshapeok="t" o:connecttype="rect"/>'
           '<o:lock v:ext="edit" aspectratio="t"/></v:shapetype>'
           '<v:shape id="_x0000_i1025" type="#_x0000_t75" style="width:60pt;height:30pt">'
           '<v:imagedata r:id="rIdPic" o:title=""/></v:shape></w:pict></w:r>')

# a second picture in the part: its shape names the definition above (as Word writes it)
PICTURE_AGAIN = PICTURE[:PICTURE.index("<v:shapetype")] + PICTURE[PICTURE.index("</v:shapetype>") + 14:].replace(
    "_x0000_i1025", "_x0000_i1026")


@pytest.fixture
def vml_doc(tmp_path):
    body = (f'<w:p oxm:id="para_0000a1"><w:r><w:t>A text box: </w:t></w:r>{TEXT_BOX}</w:p>'
            f'<w:p oxm:id="para_0000a2"><w:r><w:t>A picture: </w:t></w:r>{PICTURE}</w:p>'
            f'<w:tbl oxm:id="table_0000a3"' + tbl([[tc(f"<w:p>{PICTURE_AGAIN}</w:p>"), tc("<w:p><w:r><w:t>x</w:t></w:r></w:p>")]])[6:]
            + '<w:p oxm:id="para_0000a4"><w:r><w:t>Closing words.</w:t></w:r></w:p>')
    main = document_xml(body).replace(b"<w:document ", f"<w:document {VML_NS} ".encode(), 1)
    image = png(tmp_path / "image1.png").read_bytes()
    return build_docx(tmp_path / "vml.docx", "", extra_parts={"word/document.xml": main, "word/media/image1.png": image},
                      rels=[("rIdPic", "image", "media/image1.png")], overrides={"word/media/image1.png": "image/png"})


COPIES = {
    "paragraph": ("docx_copy_paragraph", dict(element_id="para_0000a1", position="end:document_body")),
    "range": ("docx_copy_elements_range", dict(start_id="para_0000a1", end_id="table_0000a3",
                                               position="end:document_body")),
    "table": ("docx_copy_table", dict(table_id="table_0000a3", position="end:document_body")),
}


async def test_copies_keep_one_definition_of_each_shape_type(docx, vml_doc, tmp_path):
    from tests.support.sdk_validator import new_error_kinds, require, validate_files
    require()
    outs = {}
    for case, (name, args) in COPIES.items():
        await docx.open(vml_doc)
        await docx.ok(name, **args)
        outs[case] = tmp_path / f"{case}.docx"
        body = await docx.save(outs[case])
        await docx.ok("docx_close", session_id=docx.session_id)
        defined = Counter(body.xpath("//v:shapetype/@id", namespaces=VNS))
        assert defined and max(defined.values()) == 1, (case, defined)
        shapes = body.xpath("//v:shape", namespaces=VNS)
        assert len(shapes) > 3, case  # the copies' shapes are there ...
        assert {s.get("type")[1:] for s in shapes} <= set(defined), case  # ... and name a definition
        assert len({s.get("id") for s in shapes}) == len(shapes), case
    validate_files([vml_doc, *outs.values()])
    for case, out in outs.items():
        assert new_error_kinds(vml_doc, out) == [], case
