"""Broken documents for the fuzz test: seeded mutations of real files, and the child that runs them.

Mutations (each seeded, so a failing case is reproduced by its number):
- ``flip``: a few bytes of the zip flipped;
- ``truncate``: the file cut short;
- ``xml``: ``word/document.xml`` damaged (a slice cut or doubled, a stray '<', an unknown entity,
  a mismatched end tag, an undeclared prefix);
- ``numbers``: absurd values in spans, grid columns, sizes, ids, levels and lengths;
- ``tables``: ``w:tbl`` without ``w:tr``, ``w:tc`` without ``w:p``, merges everywhere;
- ``compression``: a part with a compression method Word cannot read, or marked encrypted;
- ``parts``: a part (styles, numbering, relationships ...) left out;
- ``strings``: hostile text and attribute values (line breaks before Markdown, a fake head line,
  20,000 characters, bidi overrides) in text, style names, alt text, authors.

The child (``python -m tests.support.fuzz CASES.json START``) runs under a 2 GB address-space
limit. For each case it prints ``START i``, then opens, reads, edits and saves the document
through the dispatcher (the same path as a client's tools/call), then prints ``DONE i {json}``.
The parent (``run_cases``) restarts it after a crash or a hang, so one case cannot hide others.
"""
from __future__ import annotations

import json
import os
import random
import re
import selectors
import struct
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

MEMORY_LIMIT = 2 * 1024 ** 3
HANG_SECONDS = 30.0
ROOT = Path(__file__).resolve().parent.parent.parent
KINDS = ("flip", "truncate", "xml", "numbers", "tables", "compression", "parts", "strings")
# Values that must never change an answer's shape: line breaks before Markdown, a fake head line,
# very long values, bidi overrides and zero-width characters (as XML character references).
EVIL = ("a&#10;## Injected&#10;---", "&#13;**Status**: ❌ Error", "x" * 20_000, "&#x202E;evil&#x200B;",
        "&#9;tab&#11;", "]]&gt;&lt;!--", "")
ABSURD = ("2147483647", "4294967296", "99999999999999999999", "-1", "-2147483648", "1e400", "NaN", "", "²",
          "9" * 5000, "0x10", "12.5")
NUMERIC_ATTRS = ("w:val", "w:w", "w:id", "w:sz", "w:line", "w:left", "w:right", "w:hanging", "w:firstLine",
                 "w:before", "w:after", "w:h", "w:top", "w:bottom", "cx", "cy", "id", "w:char", "w:space")
MAIN = "word/document.xml"


# ---- mutations ---------------------------------------------------------------------------------

def _members(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]]:
    with zipfile.ZipFile(__import__("io").BytesIO(data)) as z:
        return [(info, z.read(info)) for info in z.infolist()]


def _rezip(members: list[tuple[zipfile.ZipInfo, bytes]], replace: dict[str, bytes] | None = None,
           drop: tuple[str, ...] = ()) -> bytes:
    import io

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in members:
            if info.filename not in drop:
                z.writestr(info.filename, (replace or {}).get(info.filename, data))
    return out.getvalue()


def _main_name(members) -> str:
    names = [info.filename for info, _ in members]
    return MAIN if MAIN in names else next((n for n in names if n.endswith("document.xml")), MAIN)


def mutate_flip(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def mutate_truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(len(data))]


def mutate_xml(data: bytes, rng: random.Random) -> bytes:
    members = _members(data)
    name = _main_name(members)
    xml = dict((i.filename, d) for i, d in members)[name].decode("utf-8", "replace")
    a = rng.randrange(len(xml))
    b = min(len(xml), a + rng.randint(1, 300))
    choice = rng.randrange(6)
    if choice == 0:
        xml = xml[:a] + xml[b:]
    elif choice == 1:
        xml = xml[:b] + xml[a:]
    elif choice == 2:
        xml = xml[:a] + "<" + xml[a:]
    elif choice == 3:
        xml = xml[:a] + "&bogus;" + xml[a:]
    elif choice == 4:
        xml = xml.replace("</w:p>", "</w:r>", 1) if rng.random() < 0.5 else xml.replace("</w:tc>", "</w:tr>", 1)
    else:
        at = xml.find("<w:r>", a) if xml.find("<w:r>", a) >= 0 else xml.find("<w:p")
        xml = xml[:at] + "<zz:unknown zz:a='1'/>" + xml[at:]
    return _rezip(members, {name: xml.encode("utf-8")})


def mutate_numbers(data: bytes, rng: random.Random) -> bytes:
    members = _members(data)
    replace = {}
    for info, part in members:
        if not info.filename.endswith(".xml") or info.filename.startswith("[") or len(part) > 4_000_000:
            continue
        text = part.decode("utf-8", "replace")
        attrs = rng.sample(NUMERIC_ATTRS, rng.randint(1, 4))
        pattern = re.compile(r'(\s(?:%s)=")([^"]*)(")' % "|".join(re.escape(a) for a in attrs))
        text = pattern.sub(lambda m: m.group(1) + (rng.choice(ABSURD) if rng.random() < 0.3 else m.group(2))
                           + m.group(3), text)
        if info.filename == _main_name(members):
            span = rng.choice(ABSURD)
            text = re.sub(r"<w:tcPr>", lambda m: m.group() + (f'<w:gridSpan w:val="{span}"/>'
                                                                if rng.random() < 0.3 else ""), text)
            text = re.sub(r"<w:pPr>", lambda m: m.group() + (f'<w:numPr><w:ilvl w:val="{rng.choice(ABSURD)}"/>'
                                                               f'<w:numId w:val="{rng.choice(ABSURD)}"/></w:numPr>'
                                                               if rng.random() < 0.1 else ""), text)
        replace[info.filename] = text.encode("utf-8")
    return _rezip(members, replace)


_TABLE_SEED = ('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/>'
               '<w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc>'
               '<w:tc><w:p/></w:tc></w:tr><w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc>'
               '<w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p/></w:tc></w:tr></w:tbl><w:p/>')


def mutate_tables(data: bytes, rng: random.Random) -> bytes:
    from lxml import etree

    members = _members(data)
    name = _main_name(members)
    root = etree.fromstring(dict((i.filename, d) for i, d in members)[name])
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    body = root.find(f"{w}body")
    if root.find(f".//{w}tbl") is None:
        for el in reversed(etree.fromstring(f'<w:x xmlns:w="{w[1:-1]}">{_TABLE_SEED}</w:x>')):
            body.insert(0, el)
    choice = rng.randrange(5)
    if choice == 0:  # tables without rows
        for tr in list(root.iter(f"{w}tr")):
            tr.getparent().remove(tr)
    elif choice == 1:  # cells without paragraphs
        for tc in root.iter(f"{w}tc"):
            for p in tc.findall(f"{w}p"):
                tc.remove(p)
    elif choice == 2:  # every cell continues a vertical merge
        for tc in root.iter(f"{w}tc"):
            tcpr = tc.find(f"{w}tcPr")
            if tcpr is None:
                tcpr = etree.Element(f"{w}tcPr")
                tc.insert(0, tcpr)
            etree.SubElement(tcpr, f"{w}vMerge")
    elif choice == 3:  # an empty table and a table with an empty row
        body.insert(0, etree.fromstring(f'<w:tbl xmlns:w="{w[1:-1]}"/>'))
        body.insert(1, etree.fromstring(f'<w:tbl xmlns:w="{w[1:-1]}"><w:tr/></w:tbl>'))
        body.insert(2, etree.fromstring(f'<w:p xmlns:w="{w[1:-1]}"/>'))
    else:  # gridBefore/After past the grid
        n = rng.choice(ABSURD)
        for tr in root.iter(f"{w}tr"):
            trpr = etree.Element(f"{w}trPr")
            etree.SubElement(trpr, f"{w}gridBefore").set(f"{w}val", n)
            etree.SubElement(trpr, f"{w}gridAfter").set(f"{w}val", n)
            tr.insert(0, trpr)
    return _rezip(members, {name: etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)})


def mutate_compression(data: bytes, rng: random.Random) -> bytes:
    """Patch one member's method (or its encryption flag) in both its headers."""
    out = bytearray(data)
    members = zipfile.ZipFile(__import__("io").BytesIO(data)).infolist()
    target = rng.choice(members).filename.encode()
    method = rng.choice((1, 6, 9, 12, 14, 95, 99))
    encrypt = rng.random() < 0.25
    eocd = out.rfind(b"PK\x05\x06")
    pos = struct.unpack("<L", out[eocd + 16:eocd + 20])[0]
    while out[pos:pos + 4] == b"PK\x01\x02":
        n, e, c = struct.unpack("<3H", out[pos + 28:pos + 34])
        local = struct.unpack("<L", out[pos + 42:pos + 46])[0]
        if out[pos + 46:pos + 46 + n] == target:
            for flags_at, method_at in ((pos + 8, pos + 10), (local + 6, local + 8)):
                if encrypt:
                    out[flags_at:flags_at + 2] = struct.pack("<H", struct.unpack("<H", out[flags_at:flags_at + 2])[0] | 1)
                else:
                    out[method_at:method_at + 2] = struct.pack("<H", method)
        pos += 46 + n + e + c
    return bytes(out)


def mutate_parts(data: bytes, rng: random.Random) -> bytes:
    members = _members(data)
    names = [i.filename for i, _ in members if i.filename != "[Content_Types].xml" or rng.random() < 0.2]
    return _rezip(members, drop=(rng.choice(names),))


def mutate_strings(data: bytes, rng: random.Random) -> bytes:
    """Hostile text and attribute values (names, styles, alt text, authors) in the XML parts."""
    members = _members(data)
    replace = {}
    for info, part in members:
        if not info.filename.endswith(".xml") or info.filename.startswith("[") or len(part) > 4_000_000:
            continue
        text = part.decode("utf-8", "replace")
        text = re.sub(r"(<w:t(?: [^>]*)?>)([^<]*)(</w:t>)",
                      lambda m: m.group(1) + (rng.choice(EVIL) if rng.random() < 0.2 else m.group(2)) + m.group(3),
                      text)
        text = re.sub(r'(\s(?:w:val|descr|name|title|w:author|w:name|w:styleId)=")([^"]*)(")',
                      lambda m: m.group(1) + (rng.choice(EVIL) if rng.random() < 0.15 else m.group(2)) + m.group(3),
                      text)
        replace[info.filename] = text.encode("utf-8")
    return _rezip(members, replace)


MUTATORS = {"strings": mutate_strings, "flip": mutate_flip, "truncate": mutate_truncate, "xml": mutate_xml, "numbers": mutate_numbers,
            "tables": mutate_tables, "compression": mutate_compression, "parts": mutate_parts}


@dataclass
class Case:
    index: int
    seed_file: str
    kind: str
    path: str
    out: str


def make_cases(seeds: list[Path], count: int, seed: int, folder: Path) -> list[Case]:
    """``count`` cases, kinds and seed files in turn, each mutated by its own seeded generator."""
    folder.mkdir(parents=True, exist_ok=True)
    cases = []
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        src = seeds[(i // len(KINDS)) % len(seeds)]
        rng = random.Random(f"{seed}:{i}")
        data = src.read_bytes()
        try:
            broken = MUTATORS[kind](data, rng)
        except (zipfile.BadZipFile, ValueError, IndexError, KeyError, SyntaxError):
            broken = mutate_flip(data, rng)  # a seed the mutation cannot apply to still gets broken
        path = folder / f"case{i:04d}.docx"
        path.write_bytes(broken)
        cases.append(Case(i, src.name, kind, str(path), str(folder / f"case{i:04d}.out.docx")))
    return cases


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
    from render.validator import errors, parse_head
    from tools.runtime.dispatch import run_tool
    from tools.runtime.registry import CallContext
    from tools.runtime.services import Services

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
    saved, _ = call("docx_save", session_id=sid, file_path=case.out)
    result["saved"] = not saved.is_error
    call("docx_close", session_id=sid)
    if result["saved"]:  # what we saved, we open again
        again, head = call("docx_open", file_path=case.out)
        result["reopened"] = again.error_type or "ok"
        if not again.is_error:
            call("docx_close", session_id=head["Session ID"])


if __name__ == "__main__":
    _child(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
