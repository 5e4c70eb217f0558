"""The LibreOffice user profile the server runs with: what a document links to is not loaded.

Written before soffice first starts in the folder (``-env:UserInstallation``); soffice keeps
settings it finds there. The copy LibreOffice is given has its external references cut already
(ooxml/opc/external_refs.py): these settings are the second wall, checked by tests/tools/office/test_office_isolation.py.
"""
from __future__ import annotations

from pathlib import Path

# Links (images, sections, OLE) of a document outside LibreOffice's trusted locations are not
# loaded: stops both file reads and fetches.
BLOCK_LINKS = (("/org.openoffice.Office.Common/Security/Scripting", "BlockUntrustedRefererLinks", "true"),)
# Whatever LibreOffice still asks of the network goes to a proxy that is not there (loopback port 1),
# never to the address named: no request leaves, no name is looked up.
NO_NETWORK = (("/org.openoffice.Inet/Settings", "ooInetProxyType", "2"),
              ("/org.openoffice.Inet/Settings", "ooInetNoProxy", ""),
              *(("/org.openoffice.Inet/Settings", f"ooInet{kind}Proxy{what}", value)
                for kind in ("HTTP", "HTTPS", "FTP") for what, value in (("Name", "127.0.0.1"), ("Port", "1"))))
SETTINGS = BLOCK_LINKS + NO_NETWORK


def seed(profile: Path) -> Path:
    """Write the settings into ``profile`` (a folder soffice will use as its user installation)."""
    user = profile / "user"
    user.mkdir(parents=True, exist_ok=True)
    items = "".join(f'<item oor:path="{path}"><prop oor:name="{name}" oor:op="fuse">'
                    f'<value>{value}</value></prop></item>\n' for path, name, value in SETTINGS)
    (user / "registrymodifications.xcu").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        + items + "</oor:items>\n", encoding="utf-8")
    return profile
