"""A warm LibreOffice: this script runs under a Python that has LibreOffice's ``uno`` module.

It starts one headless ``soffice`` listening on a private pipe, connects over UNO, and then
converts documents, one JSON request per stdin line (``{"in": path, "out": path}``, optional
``filter`` (default writer_pdf_Export), ``data`` (its FilterData), ``options`` (FilterOptions),
``title`` (set when the document has none), ``count`` (answer the page count)), one JSON answer
per stdout line (``{"ok": true}`` or ``{"ok": false, "error": "..."}``).
EOF on stdin ends soffice and the script. The server (tools/office/service.py) kills the whole
process group when a conversion hangs.

Kept free of project imports: it runs under the system Python, not the server's.
"""
import json
import os
import subprocess
import sys
import time

try:
    import uno
except ImportError:  # Debian's python3-uno lives outside a non-system Python's path
    sys.path.append("/usr/lib/python3/dist-packages")
    import uno
from com.sun.star.beans import PropertyValue  # noqa: E402  (needs uno imported first)
from com.sun.star.connection import NoConnectException  # noqa: E402


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def start_office(soffice, profile, pipe):
    args = [soffice, "--headless", "--invisible", "--nologo", "--norestore", "--nodefault",
            "--nolockcheck", "-env:UserInstallation=" + uno.systemPathToFileUrl(profile),
            "--accept=pipe,name=%s;urp;StarOffice.ComponentContext" % pipe]
    return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def connect(pipe, proc, deadline):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    while True:
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except NoConnectException:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("soffice did not start (exit status %s)" % proc.poll())
            time.sleep(0.1)


def filter_value(value):
    if isinstance(value, dict):  # a nested FilterData ("PageRange" lives there too)
        return uno.Any("[]com.sun.star.beans.PropertyValue", tuple(prop(k, filter_value(v)) for k, v in value.items()))
    return value


def page_count(doc):
    controller = doc.getCurrentController()
    if controller is not None:
        try:
            return controller.getPropertyValue("PageCount")
        except Exception:
            pass
    return doc.getPropertyValue("DocumentStatistics")  # not reached for Writer documents


def convert(desktop, request):
    """One conversion; the answer's extra fields (``pages``: the document's page count when asked)."""
    src, out = request["in"], request["out"]
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), "_blank", 0,
                                       (prop("Hidden", True), prop("ReadOnly", True),
                                        # links are not updated, macros never run
                                        prop("UpdateDocMode", 0), prop("MacroExecutionMode", 0)))
    if doc is None:
        raise RuntimeError("LibreOffice could not load the document")
    try:
        extra = {}
        if request.get("title") and not doc.getDocumentProperties().Title:
            doc.getDocumentProperties().Title = request["title"]
        if request.get("count"):
            extra["pages"] = page_count(doc)
        data = request.get("data", {"ExportBookmarksToPDFDestination": True})
        props = [prop("FilterName", request.get("filter", "writer_pdf_Export"))]
        if data:
            props.append(prop("FilterData", filter_value(data)))
        if request.get("options"):
            props.append(prop("FilterOptions", request["options"]))
        uno.invoke(doc, "storeToURL", (uno.systemPathToFileUrl(out), tuple(props)))
        return extra
    finally:
        doc.close(True)


def main():
    soffice, profile, pipe = sys.argv[1:4]
    proc = start_office(soffice, profile, pipe)
    desktop = None
    try:
        try:
            desktop = connect(pipe, proc, time.monotonic() + 60)
        except Exception as e:
            print(json.dumps({"ok": False, "error": str(e)}), flush=True)
            return
        print(json.dumps({"ok": True, "ready": True}), flush=True)
        for line in sys.stdin:
            request = json.loads(line)
            try:
                answer = {"ok": True, **convert(desktop, request)}
            except Exception as e:  # the server turns this into an error answer
                answer = {"ok": False, "error": "%s: %s" % (type(e).__name__, getattr(e, "Message", "") or e)}
            print(json.dumps(answer), flush=True)
    finally:
        try:
            if desktop is not None:
                desktop.terminate()
        except Exception:
            pass
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
        os._exit(0)


if __name__ == "__main__":
    main()
