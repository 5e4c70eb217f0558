"""Run under a Python with LibreOffice's ``uno``: each file loaded, every tracked change accepted
(.uno:AcceptAllTrackedChanges, as a user does in Writer) or, with mode "hidden", every hidden character
deleted (a replace-all of text formatted hidden), saved as plain text (the "Text" filter).
argv: mode soffice profile pipe, then src out pairs. Kept free of project imports but tools/office/worker.py."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "office"))
import worker as W  # noqa: E402  (start_office, connect, prop; imports uno)
import uno  # noqa: E402


def main():
    mode, soffice, profile, pipe = sys.argv[1:5]
    pairs = list(zip(sys.argv[5::2], sys.argv[6::2]))
    proc = W.start_office(soffice, profile, pipe)
    desktop = W.connect(pipe, proc, time.monotonic() + 90)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    remote = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
    helper = remote.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", remote)
    try:
        for src, out in pairs:
            doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), "_blank", 0,
                                               (W.prop("Hidden", True), W.prop("UpdateDocMode", 0),
                                                W.prop("MacroExecutionMode", 0)))
            if mode == "hidden":
                _delete_hidden(doc)
            else:
                helper.executeDispatch(doc.getCurrentController().getFrame(), ".uno:AcceptAllTrackedChanges", "", 0, ())
            doc.storeToURL(uno.systemPathToFileUrl(out), (W.prop("FilterName", "Text"),))
            doc.close(True)
    finally:
        try:
            desktop.terminate()
        except Exception:
            pass
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _delete_hidden(doc):
    _delete_hidden_in(doc.getText())


def _delete_hidden_in(text):
    """Text portions formatted hidden emptied, in paragraphs and table cells (body text only)."""
    hidden = []
    for block in _each(text):
        if block.supportsService("com.sun.star.text.TextTable"):
            for name in block.getCellNames():
                _delete_hidden_in(block.getCellByName(name).getText())
        elif block.supportsService("com.sun.star.text.Paragraph"):
            hidden += [p for p in _each(block) if p.TextPortionType == "Text" and p.CharHidden]
    for portion in hidden:
        portion.setString("")


def _each(container):
    found = container.createEnumeration()
    while found.hasMoreElements():
        yield found.nextElement()


if __name__ == "__main__":
    main()
