"""Namespace URIs and Clark-notation helpers."""

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
PIC = "http://schemas.openxmlformats.org/drawingml/2006/picture"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
V = "urn:schemas-microsoft-com:vml"
M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
XML = "http://www.w3.org/XML/1998/namespace"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
PR = "http://schemas.openxmlformats.org/package/2006/relationships"
STRICT_W = "http://purl.oclc.org/ooxml/wordprocessingml/main"

# Our own namespace for element IDs; listed in mc:Ignorable so Word accepts and drops it.
OX = "urn:ooxml-mcp:ids:2026"
OX_PREFIX = "oxm"
OX_ID = f"{{{OX}}}id"

NSMAP = {"w": W, "r": R, "wp": WP, "a": A, "pic": PIC, "mc": MC, "w14": W14, "v": V, "m": M,
         "c": "http://schemas.openxmlformats.org/drawingml/2006/chart", OX_PREFIX: OX}


def w(tag: str) -> str:
    """``w('p')`` -> ``{...main}p``."""
    return f"{{{W}}}{tag}"


def qn(name: str) -> str:
    """``qn('wp:inline')`` -> Clark notation."""
    prefix, _, local = name.partition(":")
    return f"{{{NSMAP[prefix]}}}{local}"


def local(tag: object) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""
