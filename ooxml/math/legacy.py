"""Old equation objects: ``w:object`` holding an OLE ``Equation.3`` (Equation Editor 3) or MathType
object. Their formula is in a binary part we do not read: they show as ``[equation]``."""
from __future__ import annotations

from lxml import etree

from ooxml.xml.namespaces import W

_OLE = "{urn:schemas-microsoft-com:office:office}OLEObject"
_EQUATION_PROGIDS = ("Equation.", "MathType", "Equation")


def is_legacy_equation(obj: etree._Element) -> bool:
    """Whether a ``w:object`` is an old equation object."""
    ole = next(obj.iter(_OLE), None)
    return ole is not None and (ole.get("ProgID") or "").startswith(_EQUATION_PROGIDS)


OBJECT = f"{{{W}}}object"
