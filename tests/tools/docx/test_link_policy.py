"""Content that reads or fetches outside the document is refused unless the operator allows it
(issue 17, defect 9): fields that include files or fetch addresses, and links to schemes other than
http, https and mailto, in docx_insert_field, docx_insert_hyperlink and docx_insert_markdown."""
from __future__ import annotations

import zipfile

import pytest

from tests.support.client import read_part
from tools.config.model import ConfigError
from tools.config.loading import parse_config

pytestmark = pytest.mark.anyio

REFUSED_FIELDS = [
    'INCLUDETEXT "/etc/passwd"',
    'INCLUDEPICTURE "http://127.0.0.1:9/x.png" \\d',
    'LINK Excel.Sheet.12 "C:\\\\data\\\\book.xlsx" "Sheet1!R1C1"',
    "DDE cmd \"/c calc\" A1",
    "DDEAUTO c:\\\\windows\\\\system32\\\\cmd.exe \"/k calc.exe\"",
    'IMPORT "file:///etc/hosts"',
    'INCLUDE "/etc/passwd"',
    'includetext "/etc/passwd"',  # field names are case-insensitive in Word
]


async def _paragraph(docx) -> str:
    await docx.create()
    return (await docx.ok("docx_insert_paragraph", text="Body", position="end:document_body")).element_id


async def _saved(docx, path) -> bytes:
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(path), overwrite=True)
    return read_part(path)


def _allow(docx, tmp_path, **allow) -> None:
    docx.services.live.install(parse_config({"allow": allow}, base_dir=tmp_path))


@pytest.mark.parametrize("instruction", REFUSED_FIELDS)
async def test_a_field_that_reads_or_fetches_outside_is_refused_and_the_document_kept(docx, tmp_path, instruction):
    para = await _paragraph(docx)
    before = await _saved(docx, tmp_path / "before.docx")
    answer = await docx.call("docx_insert_field", field=instruction, position=f"end:{para}")
    kind = instruction.split()[0].upper()
    assert answer.is_error and answer.error_type == "PermissionDenied"
    assert f"{kind} fields are refused" in answer.head["Message"]
    assert f"allow: {{field_kinds: [{kind}]}}" in answer.head["Hint"]
    assert await _saved(docx, tmp_path / "after.docx") == before


async def test_a_raw_instruction_given_as_the_instruction_argument_is_checked_too(docx):
    para = await _paragraph(docx)
    answer = await docx.call("docx_insert_field", field="AUTHOR", instruction='INCLUDEPICTURE "http://x/y.png"',
                             position=f"end:{para}")
    assert answer.is_error and answer.error_type == "PermissionDenied"


async def test_a_hyperlink_field_to_a_file_is_refused(docx):
    para = await _paragraph(docx)
    answer = await docx.call("docx_insert_field", field='HYPERLINK "file:///etc/passwd"', position=f"end:{para}")
    assert answer.is_error and answer.error_type == "PermissionDenied"
    assert "'file:' scheme" in answer.head["Message"]


async def test_harmless_fields_are_still_accepted(docx, tmp_path):
    para = await _paragraph(docx)
    for field in ("AUTHOR", 'HYPERLINK "https://example.com/"', "FILENAME \\p", "PAGE"):
        await docx.ok("docx_insert_field", field=field, position=f"end:{para}")
    assert b"FILENAME" in await _saved(docx, tmp_path / "ok.docx")


async def test_a_field_kind_the_operator_allows_is_inserted(docx, tmp_path):
    para = await _paragraph(docx)
    _allow(docx, tmp_path, field_kinds=["includepicture"])
    answer = await docx.ok("docx_insert_field", field='INCLUDEPICTURE "https://example.com/x.png"',
                           position=f"end:{para}")
    assert "INCLUDEPICTURE" in answer.head["Field"]
    assert b"INCLUDEPICTURE" in await _saved(docx, tmp_path / "allowed.docx")
    refused = await docx.call("docx_insert_field", field='INCLUDETEXT "/etc/passwd"', position=f"end:{para}")
    assert refused.error_type == "PermissionDenied"  # only the named kind is allowed


@pytest.mark.parametrize("url", ["file:///etc/passwd", "FILE:///C:/secret.txt", "ftp://example.com/a", "tel:+123"])
async def test_a_hyperlink_to_a_scheme_not_allowed_is_refused(docx, tmp_path, url):
    para = await _paragraph(docx)
    before = await _saved(docx, tmp_path / "before.docx")
    answer = await docx.call("docx_insert_hyperlink", text="here", url=url, position=f"end:{para}")
    scheme = url.split(":")[0].lower()
    assert answer.is_error and answer.error_type == "PermissionDenied"
    assert f"'{scheme}:' scheme are refused" in answer.head["Message"]
    assert f"allow: {{url_schemes: [{scheme}]}}" in answer.head["Hint"]
    assert await _saved(docx, tmp_path / "after.docx") == before


async def test_a_markdown_link_to_a_file_is_refused_by_the_same_rule(docx, tmp_path):
    para = await _paragraph(docx)
    before = await _saved(docx, tmp_path / "before.docx")
    answer = await docx.call("docx_insert_markdown", markdown="See [the secret](file:///etc/passwd).",
                             position=f"after:{para}")
    assert answer.is_error and answer.error_type == "PermissionDenied"
    assert "'file:' scheme" in answer.head["Message"]
    assert await _saved(docx, tmp_path / "after.docx") == before


async def test_a_markdown_link_to_a_relative_path_counts_as_a_file_link(docx):
    para = await _paragraph(docx)
    answer = await docx.call("docx_insert_markdown", markdown="[up](../../etc/passwd)", position=f"after:{para}")
    assert answer.is_error and "'file:' scheme" in answer.head["Message"]
    await docx.ok("docx_insert_markdown", markdown="[intro](#intro) and [web](https://example.com)",
                  position=f"after:{para}")


async def test_a_scheme_the_operator_allows_is_linked_by_both_tools(docx, tmp_path):
    para = await _paragraph(docx)
    _allow(docx, tmp_path, url_schemes=["file"])
    await docx.ok("docx_insert_hyperlink", text="here", url="file:///srv/share/a.txt", position=f"end:{para}")
    await docx.ok("docx_insert_markdown", markdown="[there](file:///srv/share/b.txt)", position=f"after:{para}")
    path = tmp_path / "allowed.docx"
    await _saved(docx, path)
    rels = read_part(path, "word/_rels/document.xml.rels")
    assert b'Target="file:///srv/share/a.txt"' in rels and b'Target="file:///srv/share/b.txt"' in rels
    answer = await docx.call("docx_insert_hyperlink", text="x", url="ftp://example.com/", position=f"end:{para}")
    assert answer.error_type == "PermissionDenied"  # only the named scheme is allowed


def test_the_config_key_names_what_it_does_not_know(tmp_path):
    with pytest.raises(ConfigError) as e:
        parse_config({"allow": {"url_schemes": ["gopher"], "field_kinds": ["MACROBUTTON"], "other": 1}},
                     base_dir=tmp_path)
    text = str(e.value)
    assert "allow.url_schemes: 'gopher' is not one of" in text
    assert "allow.field_kinds: 'MACROBUTTON' is not one of" in text
    assert "allow.other: unknown key" in text
