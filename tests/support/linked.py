"""Documents that point outside themselves (linked images, include fields, templates), and a loopback
listener that records every request made to it: for the tests that LibreOffice reads and fetches nothing."""
from __future__ import annotations

import http.server
import zipfile
import threading
from contextlib import contextmanager
from pathlib import Path

from tests.builders import NAMESPACES, RT, build_docx

VML = 'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"'
EMU = 914400  # one inch


def _linked_picture(rid: str) -> str:
    return ('<w:p><w:r><w:drawing><wp:inline><wp:extent cx="%d" cy="%d"/><wp:docPr id="901" name="Linked"/>'
            '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>'
            '<pic:nvPicPr><pic:cNvPr id="901" name="x.png"/><pic:cNvPicPr/></pic:nvPicPr>'
            '<pic:blipFill><a:blip r:link="%s"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
            '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="%d" cy="%d"/></a:xfrm><a:prstGeom prst="rect"/>'
            '</pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>'
            % (4 * EMU, 3 * EMU, rid, 4 * EMU, 3 * EMU))


def _vml_picture(rid: str, url: str) -> str:
    return (f'<w:p><w:r><w:pict><v:shape id="_x0000_i1099" style="width:200pt;height:150pt">'
            f'<v:imagedata r:id="{rid}" o:href="{url}" src="{url}"/></v:shape></w:pict></w:r></w:p>')


def _field(instruction: str) -> str:
    return ('<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> {instruction} </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>cached</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>')


def linked_docx(path: Path, url: str, *, files: tuple[str, ...] = ()) -> Path:
    """A document that links ``url`` every way a .docx can: a DrawingML picture (``a:blip r:link``),
    a VML picture, INCLUDEPICTURE and INCLUDETEXT fields (complex and simple), an attached template;
    each of ``files`` (file:// URLs or relative paths) is linked by a DrawingML picture of its own."""
    targets = [("rIdL1", "image", url), ("rIdL2", "image", url)] + [(f"rIdF{i}", "image", f)
                                                                    for i, f in enumerate(files)]
    body = ('<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Linked things</w:t></w:r></w:p>'
            + _linked_picture("rIdL1") + _vml_picture("rIdL2", url)
            + "".join(_linked_picture(f"rIdF{i}") for i in range(len(files)))
            + _field(f'INCLUDEPICTURE "{url}" \\d') + _field(f'INCLUDETEXT "{url}"')
            + f'<w:p><w:fldSimple w:instr=" INCLUDEPICTURE &quot;{url}&quot; \\d"><w:r><w:t>x</w:t></w:r>'
              '</w:fldSimple></w:p>'
            + '<w:p><w:r><w:t>After the links</w:t></w:r></w:p>')
    rels = "".join(f'<Relationship Id="{i}" Type="{RT}{t}" Target="{target}" TargetMode="External"/>'
                   for i, t, target in targets)
    build_docx(path, body)
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["word/document.xml"] = parts["word/document.xml"].replace(NAMESPACES.encode(),
                                                                    (NAMESPACES + " " + VML).encode(), 1)
    parts["word/_rels/document.xml.rels"] = parts["word/_rels/document.xml.rels"].replace(
        b"</Relationships>", rels.encode() + b"</Relationships>")
    parts["word/settings.xml"] = parts["word/settings.xml"].replace(
        b'<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">',
        b'<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
        b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        b'<w:attachedTemplate r:id="rIdT1"/>')
    parts["word/_rels/settings.xml.rels"] = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships '
        'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rIdT1" Type="{RT}attachedTemplate" Target="{url}.dotx" TargetMode="External"/>'
        '</Relationships>').encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return path


class _Recorder(http.server.BaseHTTPRequestHandler):
    def _record(self):
        self.server.seen.append(f"{self.command} {self.path}")
        body = self.server.body
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_HEAD = do_POST = do_PROPFIND = do_OPTIONS = _record

    def log_message(self, *args):
        pass


@contextmanager
def loopback_listener(body: bytes = b"", seconds: float = 300):
    """A listener on 127.0.0.1 (random port) that answers ``body`` and records every request line;
    yields (base URL, list of requests). It stops when the block ends, or after ``seconds`` at most."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.seen, server.body = [], body
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    stopper = threading.Timer(seconds, server.shutdown)
    stopper.daemon = True
    stopper.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.seen
    finally:
        stopper.cancel()
        server.shutdown()
        server.server_close()
