"""Parsing that never resolves entities, never touches the network, and has limits."""
from __future__ import annotations

from lxml import etree

from ooxml.xml.errors import InvalidDocument, LimitExceeded

# libxml2 without huge_tree refuses nesting deeper than this and text nodes over 10 MB.
MAX_DEPTH = 256

def new_parser() -> etree.XMLParser:
    """A parser of this module's settings (an lxml parser serves one thread at a time)."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False, remove_blank_text=False, collect_ids=False)


_PARSER = new_parser()


def parse_part(data: bytes, part_name: str, parser: etree.XMLParser | None = None) -> etree._ElementTree:
    """Parse one package part, refusing DTDs (entities are how XXE and billion laughs work);
    ``parser``: another thread's own (``new_parser``)."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf")
    if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
        raise InvalidDocument(
            f"Part '{part_name}' declares a DTD or entities; documents with DTDs are refused "
            "because entities can read local files or the network (XXE) or expand without bound.",
            hint="Re-save the document in Word or LibreOffice, which never write DTDs.")
    try:
        tree = etree.fromstring(data, parser or _PARSER).getroottree()
    except etree.XMLSyntaxError as e:
        msg = str(e)
        if "Excessive depth" in msg or "depth" in msg.lower():
            raise LimitExceeded(f"Part '{part_name}' nests elements deeper than the nesting depth "
                                f"limit ({MAX_DEPTH}): {msg}",
                                hint="Documents from Word never nest this deep: the file is damaged.") from None
        if "huge" in msg.lower():
            raise LimitExceeded(f"Part '{part_name}' has a text node over libxml2's 10 MB limit: {msg}",
                                hint="Split the huge text, or open the original file.") from None
        raise InvalidDocument(f"Part '{part_name}' is not well-formed XML: {msg}",
                              hint="The file may be truncated or damaged; try the original.") from None
    if tree.docinfo.doctype:
        raise InvalidDocument(f"Part '{part_name}' declares a DTD; refused for safety.",
                              hint="Documents from Word never declare a DTD: use the original file.")
    return tree


def serialize(tree: etree._ElementTree, head: bytes | None = None) -> bytes:
    """The part's bytes; ``head`` (the original UTF-8 XML declaration with the blank after it)
    is kept byte for byte, where lxml would write its own (other quotes, standalone='no')."""
    if head is not None:
        return head + etree.tostring(tree, xml_declaration=False, encoding="UTF-8")
    info = tree.docinfo
    return etree.tostring(tree, xml_declaration=True, encoding=info.encoding or "UTF-8",
                          standalone=info.standalone)
