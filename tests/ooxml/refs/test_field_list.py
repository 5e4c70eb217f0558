"""A document's fields (ooxml/refs/field_list.py) and the updates that write their results."""
from __future__ import annotations

from ooxml.model.document import Document
from ooxml.refs import field_list as FLD
from ooxml.refs import updating as UP
from ooxml.text import body as B
from tests.builders import build_docx

# Word's TC entry with SEQ fields in its instruction (Open-XML-SDK's Normalize_complex0.docx): their
# "results" are part of the code; Word shows them nowhere.
TC = ('<w:p><w:r><w:t>Marker:</w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
      '<w:r><w:instrText>tc "</w:instrText></w:r>'
      '<w:fldSimple w:instr="seq Figure"><w:r><w:instrText>1</w:instrText></w:r></w:fldSimple>'
      '<w:r><w:instrText>"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
      '<w:r><w:t> after</w:t></w:r></w:p>'
      '<w:p><w:r><w:t>Figure </w:t></w:r><w:fldSimple w:instr="SEQ Figure"><w:r><w:t>9</w:t></w:r></w:fldSimple></w:p>')


def test_a_field_in_another_fields_instruction_is_marked_as_code(tmp_path):
    doc = Document.open(build_docx(tmp_path / "tc.docx", TC))
    marks = [(f.name, f.in_code) for f in FLD.fields_of(doc.root)]
    assert marks == [("TC", False), ("SEQ", True), ("SEQ", False)]


def test_updating_sequences_leaves_a_field_code_as_it_is(tmp_path):
    doc = Document.open(build_docx(tmp_path / "tc.docx", TC))
    first, second = list(doc.body.iter(B.W_P))
    UP.update_computed(doc, {"SEQ"}, lambda *els: None)
    assert B.paragraph_text(first) == "Marker: after"
    assert B.paragraph_text(second) == "Figure 2"  # the SEQ in the code counts, as Word counts it
