"""The LibreOffice user profile the server runs with: what a document links to is not loaded.

Written before soffice first starts in the folder (``-env:UserInstallation``); soffice keeps
settings it finds there. The copy LibreOffice is given has its external references cut already
(ooxml/external_refs.py): these settings are the second wall, checked by tests/test_office_isolation.py.
"""
from __future__ import annotations

from pathlib import Path

SETTINGS = (
    # Links (images, sections, OLE) of a document outside LibreOffice's trusted locations are not
    # loaded: the one setting found to stop both file reads and fetches (tests/test_office_isolation.py).
    ("/org.openoffice.Office.Common/Security/Scripting", "BlockUntrustedRefererLinks", "true"),
)


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
