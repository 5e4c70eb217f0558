"""The fuzz test's runner: broken documents opened, read, edited and saved in a child process.

The child (``python -m tests.support.fuzz CASES.json START ROOT``) runs under a 2 GB address-space
limit. For each case it prints ``START i``, then opens, reads, edits and saves the document
through the dispatcher (the same path as a client's tools/call), opens the saved file again,
then prints ``DONE i {json}``. The parent (``run_cases``) restarts it after a crash or a hang,
so one case cannot hide the others. The cases come from ``tests/support/mutations.py``.
"""
from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.mutations import Case

MEMORY_LIMIT = 2 * 1024 ** 3
HANG_SECONDS = 30.0
ROOT = Path(__file__).resolve().parent.parent.parent


# ---- the parent: run cases in a child, survive crashes and hangs ------------------------------------

@dataclass
class Outcome:
    case: Case
    status: str  # done, crash, hang
    result: dict = field(default_factory=dict)
    detail: str = ""


def run_cases(cases: list[Case], workdir: Path, hang_seconds: float = HANG_SECONDS) -> list[Outcome]:
    spec = workdir / "cases.json"
    spec.write_text(json.dumps([c.__dict__ for c in cases]))
    outcomes: dict[int, Outcome] = {}
    start = 0
    while start < len(cases):
        start = _run_child(cases, spec, start, outcomes, workdir, hang_seconds)
    return [outcomes[c.index] for c in cases]


def _run_child(cases: list[Case], spec: Path, start: int, outcomes: dict, workdir: Path, hang: float) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OOXML_MCP_CHECK_DRAWN": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "tests.support.fuzz", str(spec), str(start), str(workdir)],
                            cwd=str(ROOT), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    current, deadline, buffer = None, time.monotonic() + max(hang * 2, 60.0), b""
    try:
        while True:
            if not sel.select(timeout=max(0.0, deadline - time.monotonic())):
                proc.kill()
                proc.wait()
                at = current if current is not None else start
                outcomes[at] = Outcome(cases[at], "hang", detail=f"no answer in {hang:.0f}s")
                return at + 1
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                proc.wait()
                err = proc.stderr.read().decode("utf-8", "replace")[-2000:]
                if current is None:
                    if start >= len(cases):
                        return start
                    raise RuntimeError(f"fuzz child failed before any case (exit {proc.returncode}): {err}")
                outcomes[current] = Outcome(cases[current], "crash", detail=f"exit {proc.returncode}: {err}")
                return current + 1
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                word, _, rest = line.decode("utf-8", "replace").partition(" ")
                if word == "START":
                    current, deadline = int(rest), time.monotonic() + hang
                elif word == "DONE":
                    index, _, payload = rest.partition(" ")
                    outcomes[int(index)] = Outcome(cases[int(index)], "done", json.loads(payload))
                    current = None
                elif word == "END":
                    proc.wait()
                    return len(cases)
    finally:
        sel.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


# ---- the child ---------------------------------------------------------------------------------------

_IDS = re.compile(r"\b(para|table)_[0-9a-f]{6,}\b")


def _child(spec: Path, start: int, root: Path) -> None:
    import asyncio
    import logging
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    logging.disable(logging.CRITICAL)
    import tools.catalog  # noqa: F401  (registers the tools)
    from tests.support.answer_validator import errors, parse_head
    from tools.runtime.call.dispatch import run_tool
    from tools.runtime.call.registry import CallContext
    from tools.services import Services

    cases = [Case(**c) for c in json.loads(spec.read_text())]
    loop = asyncio.new_event_loop()
    for case in cases[start:]:
        print(f"START {case.index}", flush=True)
        services = Services(roots=[root])
        result = {"calls": {}, "internal": [], "bad_answers": []}

        def call(name, **arguments):
            outcome = loop.run_until_complete(run_tool(services.all_tools().get(name), name, arguments,
                                                       CallContext(None, services)))
            kind = outcome.error_type or "ok"
            result["calls"].setdefault(name, []).append(kind)
            if kind == "InternalError":
                result["internal"].append(f"{name}: {parse_head(outcome.text).get('Message', '')[:300]}")
            problems = errors(outcome.text)
            if outcome.is_error and not parse_head(outcome.text).get("Hint"):
                problems = [*problems, f"{kind} without a Hint"]
            if problems:
                result["bad_answers"].append(f"{name}: {problems[:2]}")
            return outcome, parse_head(outcome.text)

        try:
            _harness_check(case.kind)
            _exercise(case, call, result)
        except MemoryError:
            result["internal"].append("MemoryError outside a tool call")
        print(f"DONE {case.index} {json.dumps(result)}", flush=True)
    print("END", flush=True)


def _harness_check(kind: str) -> None:
    """Cases that test the harness itself: the parent must see a crash, a hang, a memory cap."""
    if kind == "harness-crash":
        os.abort()
    elif kind == "harness-hang":
        time.sleep(3600)
    elif kind == "harness-memory":
        bytearray(MEMORY_LIMIT + 1)  # over the cap: MemoryError, not the machine's memory


def _exercise(case: Case, call, result: dict) -> None:
    """Open, read, edit, save: the calls an agent makes, each allowed to fail with a named error."""
    opened, head = call("docx_open", file_path=case.path)
    result["open"] = opened.error_type or "ok"
    if opened.is_error:
        return
    sid = head["Session ID"]
    if case.kind == "secrets":
        _redact_secret(call, sid, case, result)
    call("docx_get_structure", session_id=sid)
    content, _ = call("docx_read_content", session_id=sid)
    tables_answer, _ = call("docx_list_tables", session_id=sid)
    paras = [m.group() for m in _IDS.finditer(content.text) if m.group(1) == "para"]
    tables = [m.group() for m in _IDS.finditer(tables_answer.text) if m.group(1) == "table"]
    for table in tables[:2]:
        call("docx_get_table", session_id=sid, table_id=table)
        call("docx_get_cell", session_id=sid, table_id=table, row=0, col=0)
        call("docx_insert_row_at", session_id=sid, table_id=table, position="end")
        call("docx_insert_col_at", session_id=sid, table_id=table, position="start")
        call("docx_fill_table", session_id=sid, table_id=table, data=[["fuzz", None, "x"]])
        call("docx_merge_cells", session_id=sid, table_id=table, start_row=0, start_col=0, end_row=1, end_col=1)
        call("docx_delete_col", session_id=sid, table_id=table, col_index=0)
        call("docx_copy_table", session_id=sid, table_id=table, position="end:document_body")
    for para in paras[:2]:
        call("docx_get_context", session_id=sid, element_id=para)
        call("docx_set_properties", session_id=sid, element_id=para,
             properties={"bold": True, "space_after": "6pt", "line_spacing": 1.5})
        call("docx_insert_run", session_id=sid, text=" fuzz", position=f"end:{para}")
        call("docx_copy_paragraph", session_id=sid, element_id=para, position="end:document_body")
    call("docx_insert_paragraph", session_id=sid, text="Fuzzed and edited", position="end:document_body")
    call("docx_insert_table", session_id=sid, rows=2, cols=2, position="end:document_body", data=[["a", "b"]])
    call("docx_replace_text", session_id=sid, old_text="e", new_text="E")
    if case.kind == "nesting":
        _nested_arguments(call, sid, case.index)
    if case.kind == "binding":
        _bound_control(call, sid)
    saved, _ = call("docx_save", session_id=sid, file_path=case.out)
    result["saved"] = not saved.is_error
    call("docx_close", session_id=sid)
    if result["saved"]:  # what we saved, we open again
        again, head = call("docx_open", file_path=case.out)
        result["reopened"] = again.error_type or "ok"
        if not again.is_error:
            call("docx_close", session_id=head["Session ID"])


def _bound_control(call, sid: str) -> None:
    """List the controls (the binding is read) and set the bound one (its node would be written)."""
    listed, _ = call("docx_list_content_controls", session_id=sid)
    found = re.search(r"\b(sdt_[0-9a-f]+)\b[^\n]*tag=bound", listed.text)
    if found:
        call("docx_set_content_control", session_id=sid, control_id=found.group(1), value="fuzz")


def _redact_secret(call, sid: str, case: Case, result: dict) -> None:
    """mutate_secrets hid SECRET: the redaction removes it, or its leak check says FAILED or names
    the place it could not look (result["leak_ok"]; an answer of "nothing left" is checked on the file
    saved right after, with invisible characters taken out of its text)."""
    from tests.support.mutations import INVISIBLE, SECRET
    call("docx_inspect", session_id=sid, find=SECRET)
    redacted, head = call("docx_redact", session_id=sid, text=SECRET)
    if redacted.is_error:
        return
    told = head.get("Leak Check", "").startswith("FAILED") or "not checked: word/embeddings/" in redacted.text \
        or "> w:binData" in redacted.text
    saved, _ = call("docx_save", session_id=sid, file_path=case.out)
    result["leak_ok"] = told or (not saved.is_error and not _holds(Path(case.out), SECRET, INVISIBLE))


def _holds(path: Path, secret: str, invisible) -> bool:
    """The saved package holds ``secret`` in a member's text (invisible characters ignored), or in a
    part the harness cannot read (w:binData, an embedded package): then it cannot tell."""
    import zipfile
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            text = z.read(info).decode("utf-8", "ignore")
            for ch in invisible:
                text = text.replace(ch, "")
            if secret in text or "binData" in text or info.filename.startswith("word/embeddings/"):
                return True
    return False


def _nested_arguments(call, sid: str, index: int) -> None:
    """Deeply nested Markdown and JSON arguments: each a named error or a valid result."""
    import random
    rng = random.Random(index)
    depth = rng.choice((50, 200, 500, 1000, 5000))
    markdown = rng.choice((">" * depth + " quoted", "*" * depth + "x" + "*" * depth,
                           "".join("  " * i + "- item\n" for i in range(depth // 5)),
                           "[" * depth + "x" + "](y)" * depth, "`" * depth + "x"))
    call("docx_insert_markdown", session_id=sid, markdown=markdown, position="end:document_body")
    items: list = ["leaf"]
    for _ in range(depth):
        items = ["item", items]
    call("docx_insert_list", session_id=sid, items=items, position="end:document_body")
    properties: dict = {"bold": True}
    for _ in range(depth):
        properties = {"bold": properties}
    call("docx_set_properties", session_id=sid, element_id="last_insert", properties=properties)
    data: list = [["x"]]
    for _ in range(depth // 10):
        data = [data]
    call("docx_insert_table", session_id=sid, rows=1, cols=1, position="end:document_body", data=data)


if __name__ == "__main__":
    _child(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
