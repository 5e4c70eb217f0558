"""A seeded script of hostile calls on the newer tools (tracked changes, comments, Markdown, styles,
numbering, batches, undo/redo after failures): after every failed call the document's parts are
byte-identical to before it (as the server holds them), no call is an InternalError, every error
has a hint, and the server answers the next call (issue 17).

Arguments are drawn per parameter type from the tool's own schema: wrong types, huge values,
control characters, IDs that do not exist or name the wrong kind, nonsense positions, and now and
then a valid ID from earlier answers so that calls get past the first check.
"""
from __future__ import annotations

import random
import re

import pytest

from tests.builders import build_docx, p
from tests.support.parts import part_bytes
from tools.builtin import builtin

pytestmark = pytest.mark.anyio
SEED, CALLS = 17, 260

TOOLS = ["docx_set_track_changes", "docx_accept_revisions", "docx_reject_revisions", "docx_list_revisions",
         "docx_add_comment", "docx_reply_comment", "docx_resolve_comment", "docx_delete_comment",
         "docx_list_comments", "docx_insert_markdown", "docx_export_markdown", "docx_create_style",
         "docx_modify_style", "docx_apply_style", "docx_get_style", "docx_set_list", "docx_restart_numbering",
         "docx_insert_list", "docx_update_paragraph_text", "docx_insert_paragraph", "docx_delete",
         "docx_set_properties", "docx_insert_footnote", "docx_insert_field", "docx_insert_hyperlink",
         "docx_batch", "docx_undo", "docx_redo"]
_ID = re.compile(r"\b(?:para|run|table|cell|comment|rev|note|style|list|field|link|bm)_[0-9a-f]{6,}\b")
BAD_STRINGS = ["", "   ", "a\x00b", "x\x1by", "\ud800", "x" * 100_001, "para_000000", "comment_ffffff",
               "rev_123456", "before:para_000000", "inside:document_body", "sideways:cursor", "end:",
               "../../etc/passwd", "\u202eevil", "last_insert", "last_update", "cursor", "Heading 1",
               "No Such Style", "# Title\n\n> q\n\n- a\n  - b\n\n[^1]\n\n[^1]: n", "*" * 30 + "x" + "*" * 30,
               "[x](file:///etc/passwd)", "[x](http://127.0.0.1:1/)", "INCLUDETEXT \"/etc/passwd\""]
BAD_INTS = [-1, 0, 9, 2**31, 10**18, -(2**63), 32768]
BAD_OTHER = [None, True, 1.5, "3", [], {}, [None], {"bold": "yes"}, {"sparkle": 1}, {"font_name": "\x00"},
             [["x"] * 3] * 3, ["rev_000000"] * 3, [{"tool": "docx_delete", "arguments": {"element_id": "cursor"}}],
             [{"tool": "docx_insert_paragraph", "arguments": {"text": "ok", "position": "end:document_body"}},
              {"tool": "docx_delete", "arguments": {"element_id": "para_000000"}}]]


def hostile_value(rng: random.Random, spec: dict, ids: list[str]):
    kinds = spec.get("type", "string")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(BAD_OTHER)  # whatever the type: the schema or the tool must refuse it
    if "string" in kinds:
        if ids and roll < 0.55:
            base = rng.choice(ids)
            return rng.choice([base, base, f"after:{base}", f"end:{base}", f"inside:{base}", base.upper()])
        return rng.choice(BAD_STRINGS)
    if "integer" in kinds:
        return rng.choice(BAD_INTS)
    if "boolean" in kinds:
        return rng.choice([True, False])
    if "array" in kinds:
        return rng.choice([[rng.choice(ids or ["x"])], [], ["a", ["b", ["c"]]], ["x"] * 5000, [1, 2]])
    return rng.choice(BAD_OTHER)


def hostile_call(rng: random.Random, name: str, ids: list[str]) -> dict:
    props = builtin()[name].input_schema.get("properties", {})
    required = set(builtin()[name].input_schema.get("required", []))
    args = {}
    for key, spec in props.items():
        if key in ("session_id", "view", "file_path"):
            continue
        if key in required or rng.random() < 0.5:
            args[key] = hostile_value(rng, spec, ids)
    return args


async def prepared(c, tmp_path) -> list[str]:
    body = (p("Alpha paragraph with words") + p("Beta paragraph") + p("Gamma item") + p("Delta item"))
    answer = await c.open(build_docx(tmp_path / "probe.docx", body))
    content = (await c.ok("docx_read_content")).text
    paras = re.findall(r"\bpara_[0-9a-f]+", content)
    await c.ok("docx_set_list", element_id=paras[2], end_id=paras[3], list_type="number")
    await c.ok("docx_add_comment", element_id=paras[0], text="A comment")
    await c.ok("docx_set_track_changes", enabled=True, author="Probe")
    await c.ok("docx_update_paragraph_text", element_id=paras[1], new_text="Beta paragraph, edited")
    await c.ok("docx_set_track_changes", enabled=False)
    listed = (await c.ok("docx_list_revisions")).text + (await c.ok("docx_list_comments")).text
    return sorted(set(_ID.findall(content + listed + answer.text)))


async def test_a_seeded_script_of_hostile_calls_leaves_every_failed_call_without_a_trace(docx, tmp_path):
    rng = random.Random(SEED)
    ids = await prepared(docx, tmp_path)
    services, sid = docx.services, docx.session_id
    problems, outcomes = [], {"ok": 0}
    before = part_bytes(services, sid)
    for i in range(CALLS):
        name = rng.choice(TOOLS)
        args = hostile_call(rng, name, ids)
        answer = await docx.call(name, session_id=sid, **args)
        where = f"call {i}: {name}({', '.join(f'{k}={str(v)[:40]!r}' for k, v in args.items())})"
        if not answer.is_error:
            outcomes["ok"] += 1
            ids = sorted(set(ids) | set(_ID.findall(answer.text)))[-200:]
            before = part_bytes(services, sid)
            continue
        outcomes[answer.error_type] = outcomes.get(answer.error_type, 0) + 1
        if answer.error_type == "InternalError" or not answer.head.get("Hint"):
            problems.append(f"{where}: {answer.error_type} {answer.head.get('Message', '')[:200]}")
        if part_bytes(services, sid) != before:
            problems.append(f"{where}: failed with {answer.error_type} but changed the document")
            before = part_bytes(services, sid)
        if rng.random() < 0.3:  # undo/redo right after a failure: the failed call is no step
            step = rng.choice(["docx_undo", "docx_redo"])
            again = await docx.call(step, session_id=sid, steps=rng.choice([1, 1, 2, 1000, -1]))
            if again.error_type == "InternalError":
                problems.append(f"{where}, then {step}: InternalError {again.head.get('Message', '')[:200]}")
            before = part_bytes(services, sid)
    alive = await docx.ok("docx_get_structure", session_id=sid)
    print(f"hostile probe: {CALLS} calls, outcomes {outcomes}")
    assert alive.head["Status"].endswith("Success")
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems[:20])
    assert outcomes["ok"] > 10 and len(outcomes) > 4, outcomes  # the script reaches past the first checks
