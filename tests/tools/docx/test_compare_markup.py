"""docx_compare's markup, kind by kind: what the redline holds for each kind of difference.

Built in process (tests/support/redline.py, the same code path as the tool) from hand-made
documents; each test also checks that accept-all gives the revised and reject-all the original.
"""
from __future__ import annotations

import zipfile

import pytest
from lxml import etree

from tests.builders import NS, SECT, build_docx, p, part_xml, png, tbl, tc
from tests.support import redline as RL

W = NS["w"]
HDR = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/header"
FN_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
HDR_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"


def xml(parts, name="word/document.xml"):
    return etree.fromstring(parts[name])


def xp(el, path):
    return el.xpath(path, namespaces=NS)


def doc(tmp_path, name, body, **kw) -> bytes:
    return build_docx(tmp_path / name, body, **kw).read_bytes()


def test_a_changed_word_is_a_deletion_and_an_insertion_and_the_rest_keeps_its_runs(tmp_path):
    a = doc(tmp_path, "a.docx", '<w:p><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">Keep this </w:t></w:r>'
                                '<w:r><w:t>old word here.</w:t></w:r></w:p>')
    b = doc(tmp_path, "b.docx", '<w:p><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">Keep this </w:t></w:r>'
                                '<w:r><w:t>new word here.</w:t></w:r></w:p>')
    RL.check(a, b)
    parts, counts = RL.build(a, b)
    body = xml(parts)
    assert xp(body, "//w:del/w:r/w:delText/text()") == ["old"]
    assert xp(body, "//w:ins/w:r/w:t/text()") == ["new"]
    assert xp(body, "//w:r[w:rPr/w:i]/w:t/text()") == ["Keep this "]  # unchanged text keeps its run
    assert counts == {"deletions": 1, "insertions": 1}


def test_character_granularity_marks_only_the_changed_letters(tmp_path):
    a = doc(tmp_path, "a.docx", p("colour"))
    b = doc(tmp_path, "b.docx", p("color"))
    RL.check(a, b, granularity="character")
    body = xml(RL.build(a, b, granularity="character")[0])
    assert xp(body, "//w:del//w:delText/text()") == ["u"]
    assert not xp(body, "//w:ins")


def test_formatting_only_changes_are_rpr_and_ppr_changes_unless_ignored(tmp_path):
    a = doc(tmp_path, "a.docx", '<w:p><w:r><w:t>Plain text.</w:t></w:r></w:p>')
    b = doc(tmp_path, "b.docx", '<w:p><w:pPr><w:jc w:val="center"/></w:pPr>'
                                '<w:r><w:rPr><w:b/></w:rPr><w:t>Plain text.</w:t></w:r></w:p>')
    RL.check(a, b)
    parts, counts = RL.build(a, b)
    body = xml(parts)
    assert xp(body, "//w:r/w:rPr[w:b]/w:rPrChange/w:rPr[not(*)]")  # the old run properties: none
    assert xp(body, "//w:pPr[w:jc]/w:pPrChange/w:pPr[not(*)]")
    assert not xp(body, "//w:ins | //w:del")
    assert counts == {"formatting changes": 2}
    parts, counts = RL.build(a, b, formatting=False)
    assert counts == {} and not xp(xml(parts), "//w:rPrChange | //w:pPrChange")


def test_rows_inserted_and_deleted_are_row_revisions_and_cells_are_diffed(tmp_path):
    a = doc(tmp_path, "a.docx", tbl([[tc(p("r1 a")), tc(p("r1 b"))], [tc(p("Old row")), tc(p("gone"))]]))
    b = doc(tmp_path, "b.docx", tbl([[tc(p("r1 a")), tc(p("r1 changed"))], [tc(p("New row")), tc(p("here"))]]))
    RL.check(a, b)
    body = xml(RL.build(a, b)[0])
    rows = xp(body, "//w:tr")
    assert len(rows) == 3
    assert xp(rows[1], "w:trPr/w:del") and xp(rows[1], ".//w:delText[.='Old row']")
    assert xp(rows[2], "w:trPr/w:ins")
    assert xp(rows[0], ".//w:del//w:delText[.='b']") and xp(rows[0], ".//w:ins//w:t[.='changed']")
    assert not xp(rows[0], "w:trPr")  # a matched row is no row revision


def test_moves_are_paired_named_ranges_with_unique_ids(tmp_path):
    a = doc(tmp_path, "a.docx", p("First paragraph stays.") + p("This one moves to the end.") + p("Last one stays."))
    b = doc(tmp_path, "b.docx", p("First paragraph stays.") + p("Last one stays.") + p("This one moves to the end."))
    RL.check(a, b, moves=True)
    parts, counts = RL.build(a, b, moves=True)
    body = xml(parts)
    assert counts == {"moves": 1}
    (src,) = xp(body, "//w:moveFromRangeStart")
    (dst,) = xp(body, "//w:moveToRangeStart")
    assert src.get(f"{{{W}}}name") == dst.get(f"{{{W}}}name")
    assert xp(body, f"//w:moveFromRangeEnd[@w:id='{src.get(f'{{{W}}}id')}']")
    assert xp(body, f"//w:moveToRangeEnd[@w:id='{dst.get(f'{{{W}}}id')}']")
    assert xp(body, "//w:moveFrom//w:delText[.='This one moves to the end.']")
    assert xp(body, "//w:moveTo//w:t[.='This one moves to the end.']")
    ids = xp(body, "//*[local-name()!='moveFromRangeEnd' and local-name()!='moveToRangeEnd']/@w:id")
    assert len(ids) == len(set(ids))
    _, plain = RL.build(a, b)
    assert plain == {"deletions": 1, "insertions": 1}  # off by default


def test_a_header_edit_is_a_revision_in_the_header(tmp_path):
    sect = ('<w:sectPr><w:headerReference w:type="default" r:id="rIdH"/><w:pgSz w:w="12240" w:h="15840"/>'
            '</w:sectPr>')

    def with_header(name, text):
        return doc(tmp_path, name, p("Body text."), sect=sect, rels=[("rIdH", "header", "header1.xml")],
                   extra_parts={"word/header1.xml": part_xml("w:hdr", p(text))},
                   overrides={"word/header1.xml": HDR_CT})
    a, b = with_header("a.docx", "Draft header"), with_header("b.docx", "Final header")
    RL.check(a, b)
    parts, _ = RL.build(a, b)
    hdr = xml(parts, "word/header1.xml")
    assert xp(hdr, "//w:del//w:delText[.='Draft']") and xp(hdr, "//w:ins//w:t[.='Final']")


def test_a_footnote_edit_and_a_deleted_reference(tmp_path):
    notes = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
             '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
             '</w:footnote><w:footnote w:id="1">{}</w:footnote><w:footnote w:id="2">{}</w:footnote>')
    ref = '<w:r><w:footnoteReference w:id="{}"/></w:r>'

    def noted(name, note1, body):
        return doc(tmp_path, name, body, rels=[("rIdF", "footnotes", "footnotes.xml")],
                   extra_parts={"word/footnotes.xml": part_xml("w:footnotes", notes.format(p(note1), p("Second note.")))},
                   overrides={"word/footnotes.xml": FN_CT})
    a = noted("a.docx", "The old note.", "<w:p><w:r><w:t>One</w:t></w:r>" + ref.format(1) + "</w:p>"
              "<w:p><w:r><w:t>Two</w:t></w:r>" + ref.format(2) + "</w:p>")
    b = noted("b.docx", "The new note.", "<w:p><w:r><w:t>One</w:t></w:r>" + ref.format(1) + "</w:p>"
              "<w:p><w:r><w:t>Two</w:t></w:r></w:p>")
    RL.check(a, b)
    parts, _ = RL.build(a, b)
    notes_xml = xml(parts, "word/footnotes.xml")
    assert xp(notes_xml, "//w:footnote[@w:id='1']//w:delText[.='old']")
    (deleted_ref,) = xp(xml(parts), "//w:del//w:footnoteReference")
    assert xp(notes_xml, f"//w:footnote[@w:id='{deleted_ref.get(f'{{{W}}}id')}']//w:t[.='Second note.']")


def test_a_replaced_image_is_a_deleted_one_and_an_inserted_one(tmp_path):
    from ooxml.text.images import inline_drawing
    drawing = etree.tostring(inline_drawing("rIdImg", 914400, 457200, 7, "pic")).decode()
    body = f'<w:p><w:r><w:t xml:space="preserve">Picture: </w:t></w:r><w:r>{drawing}</w:r></w:p>'
    img_ct = {"word/media/image1.png": "image/png"}

    def pictured(name, colour, size):
        png(tmp_path / f"{name}.png", colour=colour)
        big = etree.tostring(inline_drawing("rIdImg", size, 457200, 7, "pic")).decode()
        return doc(tmp_path, name, body.replace(drawing, big), rels=[("rIdImg", "image", "media/image1.png")],
                   extra_parts={"word/media/image1.png": (tmp_path / f"{name}.png").read_bytes()}, overrides=img_ct)
    a, b = pictured("a.docx", (200, 0, 0), 914400), pictured("b.docx", (0, 0, 200), 1828800)
    RL.check(a, b)
    parts, counts = RL.build(a, b)
    red = xml(parts)
    (old,) = xp(red, "//w:del//a:blip/@r:embed")
    (new,) = xp(red, "//w:ins//a:blip/@r:embed")
    assert old != new
    rels = etree.fromstring(parts["word/_rels/document.xml.rels"])
    target = rels.xpath(f"//*[@Id='{old}']/@Target")[0]
    assert parts["word/" + target] == (tmp_path / "a.docx.png").read_bytes()  # the original's image, carried over


@pytest.mark.parametrize("others", [0, 12])  # a short body, and one long enough to be aligned on its XML
def test_a_picture_swapped_for_another_of_the_same_size_is_deleted_and_inserted(tmp_path, others):
    from ooxml.text.images import inline_drawing
    drawing = etree.tostring(inline_drawing("rIdImg", 914400, 457200, 7, "pic")).decode()
    body = f'<w:p><w:r><w:t xml:space="preserve">Picture: </w:t></w:r><w:r>{drawing}</w:r></w:p>' + \
        "".join(p(f"Paragraph {n}.") for n in range(others))

    def pictured(name, colour):  # the same XML, the same media name: only the image's bytes differ
        png(tmp_path / f"{name}.png", colour=colour)
        return doc(tmp_path, name, body, rels=[("rIdImg", "image", "media/image1.png")],
                   extra_parts={"word/media/image1.png": (tmp_path / f"{name}.png").read_bytes()},
                   overrides={"word/media/image1.png": "image/png"})
    a, b = pictured("a.docx", (200, 0, 0)), pictured("b.docx", (0, 0, 200))
    RL.check(a, b)
    parts, counts = RL.build(a, b)
    red = xml(parts)
    assert len(xp(red, "//w:del//a:blip")) == 1 and len(xp(red, "//w:ins//a:blip")) == 1
    assert xp(red, "//w:del//w:t") == [] and xp(red, "//w:ins//w:t") == []  # the text is untouched
    for accept, want in ((True, "b.docx.png"), (False, "a.docx.png")):
        decided = RL.decided(parts, accept)
        try:
            decided.save(tmp_path / f"decided-{accept}.docx")
        finally:
            decided.close()
        with zipfile.ZipFile(tmp_path / f"decided-{accept}.docx") as z:
            (rid,) = xp(etree.fromstring(z.read("word/document.xml")), "//a:blip/@r:embed")
            rels = etree.fromstring(z.read("word/_rels/document.xml.rels"))
            (target,) = rels.xpath(f"//*[@Id='{rid}']/@Target")
            assert z.read("word/" + target) == (tmp_path / want).read_bytes()


def test_page_setup_and_table_properties_are_sect_and_table_property_changes(tmp_path):
    from tests.builders import SECT
    grid = tbl([[tc(p("cell"))]])
    a = doc(tmp_path, "a.docx", p("Text.") + grid)
    b = doc(tmp_path, "b.docx", p("Text.") + grid.replace('<w:tblW w:w="0" w:type="auto"/>',
                                                         '<w:tblW w:w="5000" w:type="pct"/><w:jc w:val="center"/>'),
            sect=SECT.replace('w:w="12240" w:h="15840"', 'w:w="15840" w:h="12240" w:orient="landscape"'))
    RL.check(a, b)
    parts, counts = RL.build(a, b)
    body = xml(parts)
    assert xp(body, "//w:sectPr/w:sectPrChange/w:sectPr/w:pgSz[@w:w='12240']")
    assert xp(body, "//w:tblPr[w:jc]/w:tblPrChange/w:tblPr/w:tblW[@w:type='auto']")
    assert counts == {"formatting changes": 2}
    rejected = RL.decided(parts, False)
    assert xp(rejected.body, "w:sectPr/w:pgSz[@w:w='12240']") and not xp(rejected.body, "//w:tblPr/w:jc")


def test_a_changed_field_code_is_deleted_and_inserted_whole(tmp_path):
    def field(code):
        return ('<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
                f'<w:r><w:instrText xml:space="preserve"> {code} </w:instrText></w:r>'
                '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r>'
                '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>')
    a, b = doc(tmp_path, "a.docx", field("PAGE")), doc(tmp_path, "b.docx", field("NUMPAGES"))
    RL.check(a, b)
    body = xml(RL.build(a, b)[0])
    assert xp(body, "//w:del//w:delInstrText[.=' PAGE ']") and xp(body, "//w:ins//w:instrText[.=' NUMPAGES ']")


# ---- what two unrelated documents differ by: headers one side lacks, row and cell properties,
# equations, comments on deleted text ------------------------------------------------------------

HDR_SECT = SECT.replace("<w:sectPr>", '<w:sectPr><w:headerReference w:type="default" r:id="rIdH"/>')


def _headed(tmp_path, name, text):
    return doc(tmp_path, name, p("Body text."), sect=HDR_SECT, rels=[("rIdH", "header", "header1.xml")],
               extra_parts={"word/header1.xml": part_xml("w:hdr", p(text))}, overrides={"word/header1.xml": HDR_CT})


def test_a_header_only_the_revised_has_is_inserted_whole(tmp_path):
    a, b = doc(tmp_path, "a.docx", p("Body text.")), _headed(tmp_path, "b.docx", "New header")
    RL.check(a, b)
    parts, counts = RL.build(a, b)
    assert xp(xml(parts, "word/header1.xml"), "//w:ins//w:t[.='New header']")
    assert counts == {"insertions": 1}


def test_a_header_only_the_original_has_comes_back_deleted_in_a_part_of_its_own(tmp_path):
    a, b = _headed(tmp_path, "a.docx", "Old header"), doc(tmp_path, "b.docx", p("Body text."))
    RL.check(a, b)
    parts, counts = RL.build(a, b)
    (ref,) = xp(xml(parts), "//w:sectPr/w:headerReference")
    rels = etree.fromstring(parts["word/_rels/document.xml.rels"])
    rid = ref.get("{%s}id" % NS["r"])
    target = xp(rels, f"//pr:Relationship[@Id='{rid}']/@Target")[0]
    assert xp(xml(parts, "word/" + target), "//w:del//w:delText[.='Old header']")
    assert counts == {"deletions": 1}


def test_row_and_cell_properties_are_trprchange_and_tcprchange(tmp_path):
    a = doc(tmp_path, "a.docx", tbl([[tc(p("x"), '<w:shd w:val="clear" w:fill="FF0000"/>'), tc(p("y"))]]))
    b = doc(tmp_path, "b.docx", tbl([[tc(p("x")), tc(p("y"), '<w:vAlign w:val="center"/>')]]).replace(
        "<w:tr>", '<w:tr><w:trPr><w:cantSplit/></w:trPr>', 1))
    RL.check(a, b)
    parts, counts = RL.build(a, b)
    body = xml(parts)
    assert xp(body, "//w:trPr[w:cantSplit]/w:trPrChange/w:trPr[not(*)]")
    assert xp(body, "//w:tc[1]/w:tcPr/w:tcPrChange/w:tcPr/w:shd[@w:fill='FF0000']")
    assert xp(body, "//w:tc[2]/w:tcPr[w:vAlign]/w:tcPrChange/w:tcPr[not(w:vAlign)]")
    assert counts == {"formatting changes": 3}


MATH = ('<w:p><m:oMathPara xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:oMath>'
        '<m:r><m:t>{}</m:t></m:r></m:oMath></m:oMathPara></w:p>')


def test_an_equation_only_paragraph_changed_is_the_old_equation_deleted_and_the_new_inserted(tmp_path):
    a = doc(tmp_path, "a.docx", p("Before.") + MATH.format("x+1"))
    b = doc(tmp_path, "b.docx", p("Before.") + MATH.format("y-2"))
    RL.check(a, b)
    body = xml(RL.build(a, b)[0])
    m = "http://schemas.openxmlformats.org/officeDocument/2006/math"
    assert body.xpath("//w:del/m:oMathPara//m:t/text()", namespaces={**NS, "m": m}) == ["x+1"]
    assert body.xpath("//w:ins/m:oMathPara//m:t/text()", namespaces={**NS, "m": m}) == ["y-2"]


def test_an_equation_paragraph_against_text_holds_both_ways(tmp_path):
    a = doc(tmp_path, "a.docx", MATH.format("x+1"))
    b = doc(tmp_path, "b.docx", p("Plain words instead."))
    RL.check(a, b)
    RL.check(b, a)


COMMENTS_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"


def _commented_then_gone(tmp_path, body: str, wid: int, text: str) -> tuple[bytes, bytes]:
    """A document with ``body`` (holding comment ``wid``: ``text``) after a kept paragraph, and the
    same without it."""
    comments = part_xml("w:comments", f'<w:comment w:id="{wid}" w:author="Ann">{p(text)}</w:comment>')
    a = doc(tmp_path, "a.docx", p("Kept text.") + body, rels=[("rIdC", "comments", "comments.xml")],
            extra_parts={"word/comments.xml": comments}, overrides={"word/comments.xml": COMMENTS_CT})
    return a, doc(tmp_path, "b.docx", p("Kept text."))


def test_a_comment_on_deleted_text_comes_back_on_reject(tmp_path):
    a, b = _commented_then_gone(tmp_path, '<w:p><w:commentRangeStart w:id="7"/><w:r><w:t>Remark on this.</w:t></w:r>'
                                          '<w:commentRangeEnd w:id="7"/><w:r><w:commentReference w:id="7"/></w:r>'
                                          '</w:p>', 7, "Check the figure.")
    RL.check(a, b)
    parts, _ = RL.build(a, b)
    (ref,) = xp(xml(parts), "//w:del/w:r/w:commentReference")
    wid = ref.get(f"{{{W}}}id")
    assert xp(xml(parts), f"//w:commentRangeStart[@w:id='{wid}']") and xp(xml(parts), f"//w:commentRangeEnd[@w:id='{wid}']")
    assert xp(xml(parts, "word/comments.xml"), f"//w:comment[@w:id='{wid}']//w:t/text()") == ["Check the figure."]


def test_a_comment_over_several_deleted_paragraphs_comes_back_whole(tmp_path):
    a, b = _commented_then_gone(tmp_path, '<w:p><w:commentRangeStart w:id="3"/><w:r><w:t>First gone.</w:t></w:r></w:p>'
                                          '<w:p><w:r><w:t>Second gone.</w:t></w:r><w:commentRangeEnd w:id="3"/>'
                                          '<w:r><w:commentReference w:id="3"/></w:r></w:p>', 3, "Both paragraphs.")
    RL.check(a, b)
    parts, _ = RL.build(a, b)
    body = xml(parts)
    (wid,) = set(xp(body, "//w:commentRangeStart/@w:id") + xp(body, "//w:commentRangeEnd/@w:id") +
                 xp(body, "//w:del//w:commentReference/@w:id"))
    assert xp(xml(parts, "word/comments.xml"), f"//w:comment[@w:id='{wid}']//w:t/text()") == ["Both paragraphs."]
    rejected = RL.decided(parts, False)
    try:
        assert RL.view_of(rejected)[-3] == ("comments", ["Both paragraphs."])
    finally:
        rejected.close()


def test_a_deleted_row_keeps_no_revision_id_the_redline_uses_again(tmp_path):
    # w:tblPrExChange is in Word's one id space but no accept-all removes it: copied, it gets a fresh id.
    ex = ('<w:tblPrEx><w:tblBorders/><w:tblPrExChange w:id="{}" w:author="X"><w:tblPrEx/></w:tblPrExChange>'
          '</w:tblPrEx>')
    row = '<w:tr>{}<w:tc><w:p><w:r><w:t>{}</w:t></w:r></w:p></w:tc></w:tr>'
    table = tbl([[tc(p("head"))]]).split("<w:tr>")[0]
    a = doc(tmp_path, "a.docx", table + "".join(row.format(ex.format(k), f"old {k}") for k in range(6)) + "</w:tbl>")
    b = doc(tmp_path, "b.docx", p("Something else entirely."))
    parts, _ = RL.build(a, b)
    from ooxml.model.document import Document
    from ooxml.model.integrity import check_package
    from ooxml.opc.package import Package
    assert check_package(Document(Package.from_parts(parts))) == []
    RL.check(a, b)


def test_a_row_rewritten_past_matching_keeps_no_paragraph_id_twice(tmp_path):
    # w14:paraId is on rows too: the original's row, deleted beside the revised one that still has
    # its id, comes without it (a duplicate is a problem check_package and Word both report)
    row = '<w:tr w14:paraId="1A2B3C4D"><w:tc><w:p><w:r><w:t>{}</w:t></w:r></w:p></w:tc></w:tr>'
    table = tbl([[tc(p("head"))]]).split("<w:tr>")[0]
    a = doc(tmp_path, "a.docx", table + row.format("alpha beta gamma delta") + "</w:tbl>")
    b = doc(tmp_path, "b.docx", table + row.format("something else entirely") + "</w:tbl>")
    parts, counts = RL.build(a, b)
    from ooxml.model.document import Document
    from ooxml.model.integrity import check_package
    from ooxml.opc.package import Package
    assert counts.get("deletions") and xp(xml(parts), "//w:tr/@w14:paraId") == ["1A2B3C4D"]
    assert check_package(Document(Package.from_parts(parts))) == []
    RL.check(a, b)


def test_a_deleted_ole_object_names_its_renumbered_shape(tmp_path):
    # the copy's VML shape gets a fresh id; the OLE object names its shape by that id (ShapeID)
    obj = ('<w:p><w:r><w:object><v:shape id="_x0000_i1025" type="#_x0000_t75" style="width:50pt;height:20pt" '
           'xmlns:v="urn:schemas-microsoft-com:vml"><v:imagedata r:id="rIdImg" o:title=""/></v:shape>'
           '<o:OLEObject Type="Embed" ProgID="Equation.3" ShapeID="_x0000_i1025" DrawAspect="Content" '
           'ObjectID="_1" r:id="rIdOle"/></w:object></w:r></w:p>')
    png(tmp_path / "img.png")
    a = doc(tmp_path, "a.docx", p("Kept words.") + obj.replace("<w:p>", '<w:p xmlns:o="urn:schemas-microsoft-com:'
                                                               'office:office">'),
            rels=[("rIdImg", "image", "media/image1.png"), ("rIdOle", "oleObject", "embeddings/oleObject1.bin")],
            extra_parts={"word/media/image1.png": (tmp_path / "img.png").read_bytes(),
                         "word/embeddings/oleObject1.bin": b"ole"},
            overrides={"word/media/image1.png": "image/png",
                       "word/embeddings/oleObject1.bin": "application/vnd.openxmlformats-officedocument.oleObject"})
    b = doc(tmp_path, "b.docx", p("Kept words."))
    parts, counts = RL.build(a, b)
    red = xml(parts)
    vml = {**NS, "v": "urn:schemas-microsoft-com:vml", "o": "urn:schemas-microsoft-com:office:office"}
    (shape,) = red.xpath("//w:del//v:shape/@id", namespaces=vml)
    assert counts.get("deletions") and shape != "_x0000_i1025"
    assert red.xpath("//w:del//o:OLEObject/@ShapeID", namespaces=vml) == [shape]


def test_a_deleted_chart_comes_with_the_parts_it_relates_to(tmp_path):
    # the original's chart is copied under a new name: its own relationships (the workbook) come too
    chart = ('<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="457200"/><wp:docPr id="5" name="c"/>'
             '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://'
             'schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/'
             'drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')
    chart_xml = (b'<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://'
                 b'schemas.openxmlformats.org/officeDocument/2006/relationships"><c:externalData r:id="rId3"/>'
                 b'</c:chartSpace>')
    chart_rels = (b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship '
                  b'Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/package" '
                  b'Target="../embeddings/book1.xlsx"/></Relationships>')
    a = doc(tmp_path, "a.docx", p("Kept words.") + chart, rels=[("rIdChart", "chart", "charts/chart1.xml")],
            extra_parts={"word/charts/chart1.xml": chart_xml, "word/charts/_rels/chart1.xml.rels": chart_rels,
                         "word/embeddings/book1.xlsx": b"workbook"},
            overrides={"word/charts/chart1.xml": "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"})
    b = doc(tmp_path, "b.docx", p("Kept words."))
    parts, _ = RL.build(a, b)
    (rid,) = xp(xml(parts), "//w:del//@r:id")
    rels = etree.fromstring(parts["word/_rels/document.xml.rels"])
    name = "word/" + rels.xpath(f"//*[@Id='{rid}']/@Target")[0]
    inner = etree.fromstring(parts[name.replace("charts/", "charts/_rels/") + ".rels"])
    (target,) = inner.xpath("//*[@Id='rId3']/@Target")
    import posixpath
    assert parts[name] == chart_xml and parts[posixpath.normpath("word/charts/" + target)] == b"workbook"


def test_a_redline_shows_its_markup_though_the_revised_hid_it(tmp_path):
    # w:revisionView insDel="0" in the revised document's settings would open the redline with its
    # insertions and deletions hidden (LibreOffice printed it without them)
    a = doc(tmp_path, "a.docx", p("Old words here."))
    b = build_docx(tmp_path / "b.docx", p("New words here."))
    with zipfile.ZipFile(b) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["word/settings.xml"] = parts["word/settings.xml"].replace(
        b"</w:settings>", b'<w:revisionView w:insDel="0" w:formatting="0"/></w:settings>')
    assert b"revisionView" in parts["word/settings.xml"]
    from tests.support.edits import _zip
    b = _zip(parts)
    red, counts = RL.build(a, b)
    view = xp(xml(red, "word/settings.xml"), "//w:revisionView")
    assert counts.get("deletions") and len(view) == 1 and dict(view[0].attrib) == {}
    RL.check(a, b)


def test_sections_against_a_document_without_page_setup_hold_both_ways(tmp_path):
    # the redline's last section is empty (the defaults, as none) and holds the original's as its
    # change: an accepted deleted break merges into it, a reject gives the original's back
    from tests.builders import SECT
    landscape = SECT.replace('w:w="12240" w:h="15840"', 'w:w="15840" w:h="12240" w:orient="landscape"')
    a = doc(tmp_path, "a.docx", p("First section.") + f'<w:p><w:pPr>{landscape}</w:pPr></w:p>' + p("Second."),
            sect=SECT.replace("<w:sectPr>", '<w:sectPr><w:type w:val="continuous"/>'))
    b = doc(tmp_path, "b.docx", p("Other text."), sect=None)
    RL.check(a, b)
    parts, _ = RL.build(a, b)
    (last,) = xp(xml(parts), "/w:document/w:body/w:sectPr")
    assert [etree.QName(c).localname for c in last] == ["sectPrChange"]
    assert xp(last, "w:sectPrChange/w:sectPr/w:type[@w:val='continuous']")
    accepted = RL.decided(parts, True)
    try:
        assert not xp(accepted.body, "//w:pPr/w:sectPr") and not len(accepted.body.find(f"{{{W}}}sectPr"))
    finally:
        accepted.close()


def test_a_comment_on_words_deleted_from_a_kept_paragraph_comes_back_with_them(tmp_path):
    said = '<w:commentRangeStart w:id="4"/><w:r><w:t>old words</w:t></w:r><w:commentRangeEnd w:id="4"/>' \
           '<w:r><w:commentReference w:id="4"/></w:r>'
    a, _ = _commented_then_gone(tmp_path, f'<w:p><w:r><w:t xml:space="preserve">Keep these </w:t></w:r>{said}'
                                          '<w:r><w:t xml:space="preserve"> and the rest.</w:t></w:r></w:p>', 4, "Why?")
    b = doc(tmp_path, "b.docx", p("Kept text.") + p("Keep these and the rest."))
    RL.check(a, b)
    parts, _ = RL.build(a, b)
    (deleted,) = xp(xml(parts), "//w:del[.//w:delText]")
    kids = [etree.QName(c).localname + "".join(xp(c, "w:delText/text()")) for c in deleted]
    assert kids == ["commentRangeStart", "rold words", "commentRangeEnd", "r", "r "]  # the reference, then the space
    (wid,) = set(xp(deleted, "w:commentRangeStart/@w:id | w:commentRangeEnd/@w:id | w:r/w:commentReference/@w:id"))
    assert xp(xml(parts, "word/comments.xml"), f"//w:comment[@w:id='{wid}']//w:t/text()") == ["Why?"]
    rejected = RL.decided(parts, False)
    try:
        assert RL.view_of(rejected)[-3] == ("comments", ["Why?"])
    finally:
        rejected.close()
