"""New footnotes: footnotes.xml (created with Word's two separator notes when missing) and notes in it."""
from __future__ import annotations

from lxml import etree

from ooxml.images import add_relationship
from ooxml.namespaces import CT, W, w

RT_FOOTNOTES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes"
CT_FOOTNOTES = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
FOOTNOTES_XML = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:footnotes xmlns:w="{W}">'
                 '<w:footnote w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0" w:line="240" '
                 'w:lineRule="auto"/></w:pPr><w:r><w:separator/></w:r></w:p></w:footnote>'
                 '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0" '
                 'w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>'
                 '</w:footnotes>').encode()


class FootnoteWriter:
    """Adds footnotes for one call; the part is found (or made) and its ids read once."""

    def __init__(self, doc):
        self.doc = doc
        self.part = None
        self.next_id = 1

    def _root(self) -> etree._Element:
        if self.part is None:
            self.part = self.doc.related_part(RT_FOOTNOTES) or self._new_part()
            self.part.touch()
            root = self.part.tree.getroot()
            ids = [int(n.get(w("id"))) for n in root.iter(w("footnote")) if (n.get(w("id")) or "").lstrip("-").isdigit()]
            self.next_id = max(ids + [0]) + 1
        return self.part.tree.getroot()

    def _new_part(self):
        package = self.doc.package
        name = "word/footnotes.xml"
        n = 1
        while package.has_part(name):
            name = f"word/footnotes{n}.xml"
            n += 1
        part = package.add_part(name, FOOTNOTES_XML)
        package.part("[Content_Types].xml").touch()
        etree.SubElement(package.content_types, f"{{{CT}}}Override", PartName="/" + name, ContentType=CT_FOOTNOTES)
        add_relationship(package, self.doc.main_name, RT_FOOTNOTES, name.rsplit("/", 1)[1])
        # The new part is a story part: our ID namespace must be declared when it is parsed.
        self.doc._stories = None
        return part

    @property
    def part_name(self) -> str:
        self._root()
        return self.part.name

    def add(self, paragraphs: list[etree._Element]) -> str:
        """A new footnote holding ``paragraphs`` (the first gets the note's own reference mark)."""
        root = self._root()
        note_id = str(self.next_id)
        self.next_id += 1
        note = etree.SubElement(root, w("footnote"), {w("id"): note_id})
        for p in paragraphs or [etree.Element(w("p"))]:
            note.append(p)
        return note_id
