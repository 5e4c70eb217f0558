"""What LibreOffice is handed (issue 17, defect 1): a copy with every external reference cut and
hyperlinks kept, checked on the copy a stand-in worker receives (no LibreOffice needed)."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from lxml import etree

from tests.builders import NAMESPACES, RT, build_docx
from tests.support.libreoffice import write_blank_pdf

pytestmark = pytest.mark.anyio
VML = 'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"'
URL = "http://127.0.0.1:9/x"


def _field(instruction: str, result: str = "cached") -> str:
    return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> {instruction} </w:instrText></w:r>'
            f'<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>{result}</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>')


BODY = (
    '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="5" name="p"/><a:graphic>'
    '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr>'
    '<pic:cNvPr id="5" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="rX1"/></pic:blipFill>'
    '<pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>'
    f'<w:p><w:r><w:pict><v:shape id="s1"><v:imagedata r:id="rX2" o:href="{URL}" src="{URL}"/></v:shape></w:pict></w:r>'
    f'<w:r><w:object><v:shape id="s2"><v:imagedata o:relid="rX2"/></v:shape>'
    '<o:OLEObject Type="Link" ProgID="Excel.Sheet.12" ShapeID="s2" r:id="rX3" UpdateMode="Always"/></w:object></w:r></w:p>'
    '<w:subDoc r:id="rX4"/><w:altChunk r:id="rX5"/>'
    '<w:p>' + _field('DDEAUTO c:\\\\windows\\\\system32\\\\cmd.exe "/k calc"') + '</w:p>'
    '<w:p><w:fldSimple w:instr=" LINK Excel.Sheet.12 &quot;C:\\\\x.xlsx&quot; "><w:r><w:t>x</w:t></w:r></w:fldSimple></w:p>'
    '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> IF 1 = 1 "</w:instrText></w:r>'
    + _field(f'INCLUDETEXT "{URL}"', "inner") + '<w:r><w:instrText>" "no" </w:instrText></w:r>'
    '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>outer</w:t></w:r>'
    '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
    '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="6" name="q"/><a:graphic>'
    '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr>'
    '<pic:cNvPr id="6" name="q"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rX7"/></pic:blipFill>'
    '<pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>'
    '<w:p><w:hyperlink r:id="rX6"><w:r><w:t>a link</w:t></w:r></w:hyperlink></w:p>'
)


def _everything(tmp_path: Path) -> Path:
    """A document pointing outside every way this file knows, and one hyperlink (which stays)."""
    rels = [("rX1", "image"), ("rX2", "image"), ("rX3", "oleObject"), ("rX4", "subDocument"), ("rX5", "aFChunk"),
            ("rX6", "hyperlink")]
    path = build_docx(tmp_path / "everything.docx", BODY)
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["word/document.xml"] = parts["word/document.xml"].replace(NAMESPACES.encode(),
                                                                    (NAMESPACES + " " + VML).encode(), 1)
    parts["word/_rels/document.xml.rels"] = parts["word/_rels/document.xml.rels"].replace(b"</Relationships>", "".join(
        f'<Relationship Id="{i}" Type="{RT}{t}" Target="{URL}/{i}" TargetMode="External"/>' for i, t in rels
    ).encode() + f'<Relationship Id="rX7" Type="{RT}image" Target="file:///etc/passwd"/>'.encode()
        + f'<Relationship Id="rW" Type="{RT}webSettings" Target="webSettings.xml"/></Relationships>'.encode())
    parts["word/webSettings.xml"] = (
        '<w:webSettings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:frameset><w:frame>'
        '<w:sourceFileName r:id="rF1"/></w:frame></w:frameset></w:webSettings>').encode()
    parts["word/_rels/webSettings.xml.rels"] = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rF1" Type="{RT}frame" Target="file:///etc/passwd" TargetMode="External"/>'
        '</Relationships>').encode()
    parts["word/settings.xml"] = parts["word/settings.xml"].replace(
        b'main">', b'main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                   b'<w:attachedTemplate r:id="rT1"/><w:mailMerge><w:mainDocumentType w:val="formLetters"/>'
                   b'<w:dataSource r:id="rT2"/></w:mailMerge>', 1)
    parts["word/_rels/settings.xml.rels"] = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rT1" Type="{RT}attachedTemplate" Target="{URL}/t.dotx" TargetMode="External"/>'
        f'<Relationship Id="rT2" Type="{RT}mailMergeSource" Target="file:///etc/hosts" TargetMode="External"/>'
        '</Relationships>').encode()
    with zipfile.ZipFile(path, "w") as z:
        for n, d in parts.items():
            z.writestr(n, d)
    return path


class CopyKeeper:
    """Stands in for the warm worker: keeps the copy it is handed and writes a one-page PDF."""
    copies: list[dict[str, bytes]] = []

    def __init__(self, python, soffice, profile, start_timeout=None):
        self.profile = profile

    def alive(self):
        return True

    def convert(self, src, out, timeout, job=None):
        with zipfile.ZipFile(src) as z:
            CopyKeeper.copies.append({n: z.read(n) for n in z.namelist()})
        write_blank_pdf(out)
        return {"ok": True}

    def close(self):
        pass


async def test_libreoffice_is_handed_a_copy_with_every_external_reference_cut(docx, tmp_path, monkeypatch):
    from tools.office import service as office
    monkeypatch.setattr(office, "_Worker", CopyKeeper)
    monkeypatch.setattr(office, "find_uno_python", lambda soffice: "python3")
    monkeypatch.setattr(office, "find_soffice", lambda: "soffice")
    CopyKeeper.copies = []
    path = _everything(tmp_path)
    original = path.read_bytes()
    await docx.open(path)
    await docx.ok("docx_render_page", session_id=docx.session_id, page=1)
    copy = CopyKeeper.copies[0]
    text = b"".join(copy.values())
    external = [r for n, d in copy.items() if n.endswith(".rels")
                for r in etree.fromstring(d) if r.get("TargetMode") == "External"]
    assert [(r.get("Id"), r.get("Type").rsplit("/", 1)[1]) for r in external] == [("rX6", "hyperlink")]
    assert not [n for n, d in copy.items() if n.endswith(".rels") and b"file:" in d]  # "internal" addresses too
    for rid in (b"rX1", b"rX2", b"rX3", b"rX4", b"rX5", b"rX7", b"rF1", b"rT1", b"rT2"):
        assert b'"' + rid + b'"' not in text, rid
    assert URL.encode() not in copy["word/document.xml"]  # VML src / o:href, field instructions
    for kind in (b"DDEAUTO", b"LINK Excel", b"INCLUDETEXT"):
        assert kind not in copy["word/document.xml"]
    assert b" IF 1 = 1" in copy["word/document.xml"] and b"inner" in copy["word/document.xml"]
    assert b"mailMerge" not in copy["word/settings.xml"] and b"altChunk" not in copy["word/document.xml"]
    assert b'r:id="rX6"' in copy["word/document.xml"]  # the hyperlink is kept: a layout never follows it
    assert path.read_bytes() == original  # the user's file is never touched
