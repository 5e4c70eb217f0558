"""Careless or hostile arguments: a named error with a hint, and the document unchanged (issue 12).

Each case failed before the fix: with an InternalError, a silently wrong edit ({"bold": "false"}
turned bold on), or a failed call that left an empty ``w:rFonts``/``w:pPr``/``w:rPr`` behind.
"""
from __future__ import annotations

import pytest

from tests.support.client import read_part

pytestmark = pytest.mark.anyio

# (tool, arguments, error type, words the message must name); PARA is the paragraph, RUN its run.
BAD_CALLS = [
    # defect 5: failed calls changed the document
    ("docx_set_font", {"element_id": "PARA", "font_name": "Ari\x00al"}, "ValidationError", ["font_name", "U+0000"]),
    ("docx_set_font", {"element_id": "RUN", "font_name": "\x01"}, "ValidationError", ["font_name", "U+0001"]),
    ("docx_set_font", {"element_id": "RUN", "font_name": ""}, "ValidationError", ["font_name", "empty"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"line_spacing": True}}, "ValidationError",
     ["line_spacing", "boolean"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"line_spacing": 1e308}}, "ValidationError",
     ["line_spacing", "range"]),
    # defect 10: value types
    ("docx_set_properties", {"element_id": "PARA", "properties": {"bold": "false"}}, "ValidationError",
     ["bold", "true or false", "string"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"italic": [1]}}, "ValidationError",
     ["italic", "list"]),
    ("docx_set_properties", {"element_id": "RUN", "properties": {"bold": None}}, "ValidationError",
     ["bold", "null"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"strike": 1}}, "ValidationError", ["strike"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"font_name": 12}}, "ValidationError",
     ["font_name", "number"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"highlight": ["yellow"]}}, "ValidationError",
     ["highlight"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"superscript": True, "subscript": True}},
     "ValidationError", ["superscript", "subscript"]),
    # defect 12: lengths that are not numbers a page can have
    ("docx_set_properties", {"element_id": "PARA", "properties": {"space_after": 1e308}}, "ValidationError",
     ["space_after"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"left_indent": "1e308in"}}, "ValidationError",
     ["left_indent"]),
    ("docx_set_font", {"element_id": "PARA", "size": 1e308}, "ValidationError", ["size"]),
    ("docx_set_margins", {"top": 1e308}, "ValidationError", ["top"]),
    # defect 15: ranges
    ("docx_set_properties", {"element_id": "PARA", "properties": {"left_indent": "-99in"}}, "ValidationError",
     ["left_indent", "range"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"line_spacing": -3}}, "ValidationError",
     ["line_spacing", "range"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"line_spacing": "-0.5in"}}, "ValidationError",
     ["line_spacing", "range"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"space_before": "-12pt"}}, "ValidationError",
     ["space_before", "range"]),
    ("docx_set_properties", {"element_id": "PARA", "properties": {"first_line_indent": "30in"}}, "ValidationError",
     ["first_line_indent", "range"]),
    # defect 15: control characters are refused, naming where they are
    ("docx_insert_paragraph", {"text": "a\x01b", "position": "end:document_body"}, "ValidationError",
     ["text", "U+0001", "character 1"]),
    ("docx_update_paragraph_text", {"element_id": "PARA", "new_text": "x\x0by"}, "ValidationError",
     ["new_text", "vertical tab"]),
    ("docx_replace_text", {"old_text": "Stable", "new_text": "bad\x1f"}, "ValidationError", ["new_text"]),
    ("docx_insert_table", {"rows": 1, "cols": 2, "position": "end:document_body", "data": [["ok", "\x07"]]},
     "ValidationError", ["data[0][1]"]),
]


async def prepared(docx, tmp_path) -> tuple[str, str]:
    await docx.create()
    para = (await docx.ok("docx_insert_paragraph", text="Stable", position="end:document_body")).element_id
    await docx.ok("docx_cursor_move", element_id=para, position="inside_start")
    run = (await docx.ok("docx_insert_run", text=" run", position=f"end:{para}")).element_id
    await docx.save(tmp_path / "before.docx")
    return para, run


@pytest.mark.parametrize("name,args,error_type,words", BAD_CALLS,
                         ids=[f"{n}-{i}" for i, (n, *_) in enumerate(BAD_CALLS)])
async def test_bad_argument_is_named_and_changes_nothing(docx, tmp_path, name, args, error_type, words):
    para, run = await prepared(docx, tmp_path)
    args = {k: (v.replace("PARA", para).replace("RUN", run) if isinstance(v, str) else v) for k, v in args.items()}
    a = await docx.call(name, session_id=docx.session_id, **args)
    assert a.is_error and a.error_type == error_type, a.text
    for word in words:
        assert word.lower() in a.head["Message"].lower(), (word, a.text)
    assert a.head.get("Hint"), a.text
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


async def test_valid_typed_properties_still_apply(docx, tmp_path):
    para, _ = await prepared(docx, tmp_path)
    await docx.ok("docx_set_properties", session_id=docx.session_id, element_id=para,
                  properties={"bold": False, "line_spacing": 1.5, "left_indent": "-0.5in", "space_after": "6pt",
                              "font_name": "Arial"})
    xml = read_part(await _saved(docx, tmp_path))
    assert b'w:line="360"' in xml and b'w:left="-720"' in xml and b'w:b w:val="0"' in xml and b'w:ascii="Arial"' in xml


async def _saved(docx, tmp_path):
    await docx.save(tmp_path / "out.docx")
    return tmp_path / "out.docx"


@pytest.mark.parametrize("data", [b"not an image", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, b"GIF89a\xff\xff"])
async def test_image_errors_name_the_file_not_python_objects(docx, tmp_path, data):
    (tmp_path / "bad.png").write_bytes(data)
    await prepared(docx, tmp_path)
    a = await docx.call("docx_insert_image", image_path=str(tmp_path / "bad.png"), position="end:document_body")
    assert a.is_error and a.error_type == "ValidationError", a.text
    assert "'bad.png'" in a.head["Message"] and "BytesIO" not in a.text and " at 0x" not in a.text
    assert a.head.get("Hint")
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")


@pytest.mark.parametrize("position", ["before:" + "9" * 5000, "after:²", "before:1e308", "before:-1"])
async def test_row_positions_with_absurd_numbers_are_invalid_positions(docx, tmp_path, position):
    await prepared(docx, tmp_path)
    table = (await docx.ok("docx_insert_table", rows=2, cols=2, position="end:document_body")).element_id
    await docx.save(tmp_path / "before.docx")
    a = await docx.call("docx_insert_row_at", table_id=table, position=position)
    assert a.is_error and a.error_type == "InvalidPosition" and a.head.get("Hint"), a.text
    assert len(a.head["Message"]) < 200
    await docx.save(tmp_path / "after.docx")
    assert read_part(tmp_path / "after.docx") == read_part(tmp_path / "before.docx")
