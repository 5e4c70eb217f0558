"""Validity on every corpus file: every editing tool, tracked and untracked.

For each file the product opens, one script calls EVERY editing tool (``SCRIPT``; a registered tool
that edits and is missing from it fails ``test_every_editing_tool_is_in_the_script``) on the file's
own content (its first paragraphs, its first table) and on content the script adds. It runs twice
in-process: untracked, and with Track Changes on. Then, per file:

- accepting our revisions gives the untracked result, rejecting them gives the original: every
  paragraph's text, paragraph properties and run formatting (per stretch of text);
- the untracked and the tracked results add no kind of Open XML SDK validator error the original
  lacks (one batched node run for all files; results cached by content) and no ``check_package``
  problem the original lacks.

Files we cannot make pass yet are named in ``EXCEPTIONS`` with the reason.
"""
from __future__ import annotations

import copy
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest
from lxml import etree

from ooxml.text.body import iter_runs, paragraph_text, run_text, shown_paragraphs
from ooxml.opc.strict import to_transitional
from tests.support import report
from tests.support.client import NS, open_direct
from tests.support.corpus import corpus_params, editable_files, is_strict
from tests.support.edit_script import CELL_WORDS, WORD, integrity_problems, script_folder
from tests.support.fidelity import main_part_name, read_parts
from tests.support.registered import editing_tools, tool_names

pytestmark = pytest.mark.corpus

W = NS["w"]
OX_ID = f"{{{NS['oxm']}}}id"
AUTHOR = "Validity"
REWRITTEN = "QxRewritten"  # docx_update_paragraph_text's new text ends with it
MARKDOWN = "## QxMarkdown\n\nSome *QxEmphasis* text.\n\n- QxOne\n- QxTwo\n"
# file name -> reason, per check: files whose failure is understood and out of reach
EXCEPTIONS: dict[str, dict[str, str]] = {
    "script": {}, "accept": {}, "validator": {},
    "integrity": {},
    "reject": {},
}


def q(tag: str) -> str:
    return f"{{{W}}}{tag}"


# ---- the script: every editing tool -----------------------------------------------------------------
# (tool, arguments from the targets, flags). Flags: "untracked": Word has no revision for it, so the
# tracked run makes it with tracking off (as the refusal's hint says); a name after "->" keeps the
# answer's element_id under that name for later steps ("->S": the last section's, listed).

SCRIPT: list[tuple[str, object, str]] = [
    ("docx_insert_paragraph", lambda t: dict(text="QxPara sentence wording here.",
                                             position=f"after:{t['P']}" if t["P"] else "end:document_body"), "->Q"),
    ("docx_insert_heading", lambda t: dict(text="QxHeading", level=2, position=f"before:{t['P'] or t['Q']}"), "->H"),
    ("docx_insert_run", lambda t: dict(text=" QxRun", position=f"end:{t['P']}"), "->R"),
    ("docx_update_run_text", lambda t: dict(element_id=t["R"], new_text=" QxRunChanged words"), ""),
    ("docx_add_comment", lambda t: dict(element_id=t["P"], text="QxComment", anchor_text=t["W"]), "->C"),
    ("docx_reply_comment", lambda t: dict(comment_id=t["C"], text="QxReply"), ""),
    ("docx_resolve_comment", lambda t: dict(comment_id=t["C"]), ""),
    ("docx_add_comment", lambda t: dict(element_id=t["Q"], text="QxGone"), "->C2"),
    ("docx_delete_comment", lambda t: dict(comment_id=t["C2"]), ""),
    ("docx_insert_footnote", lambda t: dict(element_id=t["P"], text="QxNote", anchor_text=t["W"]), ""),
    ("docx_insert_footnote", lambda t: dict(element_id=t["Q"], text="QxEndnote", kind="endnote"), ""),
    ("docx_insert_hyperlink", lambda t: dict(text="QxLink", url="https://example.com/", position=f"after:{t['R']}"), ""),
    ("docx_insert_field", lambda t: dict(field="PAGE", position=f"end:{t['Q']}"), ""),
    ("docx_add_bookmark", lambda t: dict(name="QxMark", element_id=t["Q"]), ""),
    ("docx_update_paragraph_text", lambda t: dict(element_id=t["P2"], new_text=t["P2 new"]), ""),
    ("docx_replace_text", lambda t: dict(old_text=t["W"], new_text=t["W"] + "Qz"), ""),
    ("docx_set_font", lambda t: dict(element_id=t["P"], italic=True), ""),
    ("docx_set_alignment", lambda t: dict(element_id=t["P2"], alignment="center"), ""),
    ("docx_set_properties", lambda t: dict(element_id=t["P"], properties={"space_after": "6pt", "keep_with_next": True}), ""),
    ("docx_format_copy", lambda t: dict(source_id=t["P"], target_id=t["Q"]), ""),
    ("docx_create_style", lambda t: dict(name="QxStyle", style_type="paragraph", properties={"italic": True}), ""),
    ("docx_modify_style", lambda t: dict(name="QxStyle", properties={"bold": True}), ""),
    ("docx_apply_style", lambda t: dict(element_id=t["H"], style="QxStyle"), ""),
    ("docx_insert_list", lambda t: dict(items=["QxItem one", "QxItem two"], position="end:document_body",
                                        list_type="number"), "->L"),
    ("docx_restart_numbering", lambda t: dict(element_id=t["L"], start=3), ""),
    ("docx_set_list", lambda t: dict(element_id=t["Q"], list_type="bullet"), ""),
    ("docx_insert_table", lambda t: dict(rows=2, cols=3, position="end:document_body", data=[["x", "y", "z"]]), "->NT"),
    ("docx_fill_table", lambda t: dict(table_id=t["NT"], data=CELL_WORDS), ""),
    ("docx_insert_row_at", lambda t: dict(table_id=t["NT"], position="end"), ""),
    ("docx_insert_col_at", lambda t: dict(table_id=t["NT"], position="end"), "untracked"),
    ("docx_merge_cells", lambda t: dict(table_id=t["NT"], start_row=1, start_col=1, end_row=2, end_col=2), "untracked"),
    ("docx_delete_col", lambda t: dict(table_id=t["NT"], col_index=3), "untracked"),
    ("docx_delete_row", lambda t: dict(table_id=t["NT"], row_index=0), ""),
    ("docx_insert_paragraph_to_cell", lambda t: dict(text="QxCellPara", table_id=t["NT"], row=0, col=0), ""),
    ("docx_copy_table", lambda t: dict(table_id=t["T"] or t["NT"], position="end:document_body"), ""),
    ("docx_insert_row_at", lambda t: dict(table_id=t["T"] or t["NT"], position="end"), ""),
    ("docx_copy_paragraph", lambda t: dict(element_id=t["P"], position="end:document_body"), ""),
    ("docx_copy_elements_range", lambda t: dict(start_id=t["B0"], end_id=t["B2"], position="end:document_body"), ""),
    ("docx_insert_markdown", lambda t: dict(markdown=MARKDOWN, position="end:document_body"), ""),
    ("docx_insert_image", lambda t: dict(image_path=t["image"], position="end:document_body", width="2cm"), "->IMG"),
    ("docx_set_alt_text", lambda t: dict(element_id=t["IMG"], text="QxPicture", decorative=True), ""),
    ("docx_set_alt_text", lambda t: dict(element_id=t["NT"], text="QxTable"), ""),
    ("docx_insert_page_break", lambda t: dict(position="end:document_body"), ""),
    ("docx_insert_chart", lambda t: dict(kind="column", categories=["Qx1", "Qx2"], position="end:document_body",
                                         series=[{"name": "QxSeries", "values": [1, 2]}], title="QxChart"), "->CH"),
    ("docx_update_chart", lambda t: dict(chart_id=t["CH"], categories=["Qx1", "Qx2", "Qx3"],
                                         series=[{"name": "QxA", "values": [3, 4, 5]},
                                                 {"name": "QxB", "values": [6, 7, 8]}]), ""),
    ("docx_insert_equation", lambda t: dict(latex=r"x_{Qx} = \frac{-b}{2a}", position="end:document_body"), "->EQ"),
    ("docx_set_equation", lambda t: dict(element_id=t["EQ"], latex=r"\sqrt{Qx^2}"), ""),
    ("docx_insert_text_box", lambda t: dict(position="end:document_body", text="QxBox one\nQxBox two"), "->TB"),
    ("docx_insert_paragraph", lambda t: dict(text="QxInBox", position=f"end:{t['TB']}"), ""),
    ("docx_insert_toc", lambda t: dict(position="end:document_body", page_numbers=False), "->TOC"),
    ("docx_update_toc", lambda t: dict(toc_id=t["TOC"], page_numbers=False), ""),
    ("docx_insert_caption", lambda t: dict(element_id=t["NT"], text="QxCaption", label="Table"), "->CAP"),
    ("docx_insert_cross_reference", lambda t: dict(target_id=t["CAP"], position=f"end:{t['Q']}",
                                                   kind="label_and_number"), ""),
    ("docx_insert_table_of_figures", lambda t: dict(position="start:document_body", label="Table",
                                                    page_numbers=False), ""),
    ("docx_update_fields", lambda t: dict(kinds=["SEQ", "REF", "NOTEREF", "STYLEREF", "DOCPROPERTY", "TOC"]), ""),
    ("docx_insert_section_break", lambda t: dict(position="end:document_body", kind="next_page"), "->S"),
    ("docx_create_header_footer", lambda t: dict(kind="header", which="default", text="QxHeader", section_id=t["S"]),
     ""),
    ("docx_set_margins", lambda t: dict(top="2cm", bottom="2cm", left="2cm", right="2cm"), ""),
    ("docx_set_page_setup", lambda t: dict(orientation="landscape"), ""),
    ("docx_delete", lambda t: dict(element_id=t["P3"]), ""),
    ("docx_batch", lambda t: dict(calls=[
        {"tool": "docx_insert_paragraph", "arguments": {"text": "QxBatch one", "position": f"after:{t['Q']}"}},
        {"tool": "docx_set_font", "arguments": {"element_id": "last_insert", "bold": True}}]), ""),
    ("docx_insert_content_control", lambda t: dict(kind="text", position="end:document_body", tag="QxTag",
                                                   alias="QxAlias", value="QxControl"), "->CC"),
    ("docx_set_content_control", lambda t: dict(control_id=t["CC"], value="QxControlSet"), ""),
    ("docx_insert_content_control", lambda t: dict(kind="repeating_section", element_id=t["Q"], tag="QxItems"),
     "->RS"),
    ("docx_add_repeating_item", lambda t: dict(control_id=t["RS"]), ""),
    ("docx_fill_template", lambda t: dict(data={"QxTag": "QxFilled"}), ""),
    ("docx_redact", lambda t: dict(text="QxPara"), ""),
    ("docx_scrub", lambda t: dict(categories=["properties", "alt_text"]), ""),
    # the title and language (word repairs on the corpus: tests/corpus/test_check_corpus.py, element by element)
    ("docx_check", lambda t: dict(rules=["accessibility"], repair=True, title="QxTitle", language="en-US"), ""),
]
# Refusals the script accepts (the same in both runs): tool -> (message pattern, why it is right).
REFUSALS = {
    "docx_create_style": (r"no styles part|styles\.xml", "the file has no styles part to hold a style"),
    "docx_modify_style": (r"No style named|no styles part|styles\.xml", "no styles part: the style was not made"),
    "docx_apply_style": (r"No style named|no styles part|styles\.xml", "no styles part: the style was not made"),
}
# Registered tools that change no document content, or that this test calls itself around the script.
NOT_EDITS = {
    "docx_open": "opens", "docx_create": "makes a new document", "docx_close": "ends a session",
    "docx_save": "writes the file the checks read", "docx_export_markdown": "reads the document",
    "docx_cursor_move": "moves the cursor", "docx_undo": "the test's own step", "docx_redo": "the test's own step",
    "docx_set_track_changes": "the test's own step", "docx_accept_revisions": "the test's own step",
    "docx_reject_revisions": "the test's own step", "docx_toolsets": "changes what tools/list offers",
}


# Editing tools not in the script yet, each with why (this table is to be emptied, not grown).
PENDING: dict[str, str] = {}


def test_every_editing_tool_is_in_the_script():
    """The editing tools are the ones tests/tools/docx/test_tool_protocol.py wants a recipe of (tests/support/registered.py)."""
    missing = sorted(editing_tools() - {name for name, _, _ in SCRIPT} - set(NOT_EDITS) - set(PENDING))
    assert not missing, f"editing tools missing from SCRIPT (add them, with arguments) or NOT_EDITS: {missing}"
    stale = sorted(({name for name, _, _ in SCRIPT} | set(NOT_EDITS) | set(PENDING)) - tool_names())
    assert not stale, f"not registered tools, named in SCRIPT, NOT_EDITS or PENDING: {stale}"


# ---- targets, read from the base file (the original with our IDs) -------------------------------------

def _main_root(path: Path) -> etree._Element:
    data = read_parts(path)[main_part_name(path)]
    return etree.fromstring(to_transitional(data) if is_strict(path) else data,
                            etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True))


def _changed_text(old: str) -> str:
    """The text with its first long word replaced and a word added: a word-level edit."""
    m = WORD.search(old)
    return (old[:m.start()] + "Qxchanged" + old[m.end():] if m else old) + " " + REWRITTEN


def targets(base: Path, tables: str) -> dict:
    """The paragraphs and table the script edits: the file's own where it has them."""
    body = _main_root(base).find(q("body"))
    blocks = [el for el in body if el.get(OX_ID)]
    inside = _in_field_results(body)
    paras = [p for p in blocks if p.tag == q("p") and paragraph_text(p).strip() and p not in inside]
    with_word = [p for p in paras if WORD.search(paragraph_text(p))]
    t: dict = {"P": None, "W": "sentence", "P2": None, "P3": None}
    if with_word:
        p = with_word[0]
        t["P"], t["W"] = p.get(OX_ID), WORD.search(paragraph_text(p)).group(0)
        rest = [x for x in paras if x is not p]
        if rest:
            t["P2"], t["P2 new"] = rest[0].get(OX_ID), _changed_text(paragraph_text(rest[0]))
        if len(rest) > 1:
            t["P3"] = rest[1].get(OX_ID)
    first = re.search(r"^- (table_[0-9a-f]+):", tables, re.M)
    t["T"] = first.group(1) if first else None
    t["B0"] = blocks[0].get(OX_ID) if blocks else None
    t["B2"] = blocks[min(2, len(blocks) - 1)].get(OX_ID) if blocks else None
    return t


def _in_field_results(body: etree._Element) -> set:
    """Paragraphs inside a field's result that spans paragraphs (a TOC, a table of figures): updating
    the field rewrites them, as Word's F9 does, so the script edits none of them."""
    inside, depth = set(), 0
    for p in body.iter(q("p")):
        start = depth
        for fc in p.iter(q("fldChar")):
            kind = fc.get(q("fldCharType"))
            depth += 1 if kind == "begin" else -1 if kind == "end" and depth else 0
        if start or depth:
            inside.add(p)
    return inside


def _fallbacks(t: dict) -> None:
    """Targets the file lacks: the script's own paragraphs stand in."""
    if t["P"] is None:
        t["P"] = t["Q"]
    if t.get("P2") is None:
        t["P2"], t["P2 new"] = t["Q"], "QxPara sentence changed wording here. " + REWRITTEN
    if t.get("P3") is None:
        t["P3"] = t["H"]
    if t["B0"] is None:
        t["B0"] = t["B2"] = t["Q"]


# ---- running it ------------------------------------------------------------------------------------

@dataclass
class Result:
    source: Path
    base: Path | None = None
    untracked: Path | None = None
    tracked: Path | None = None
    accepted: Path | None = None
    rejected: Path | None = None
    failure: str | None = None
    calls: int = 0
    # what the checks compare, worked out in the worker process that made the files
    accept_difference: str | None = None
    reject_difference: str | None = None
    new_problems: dict = field(default_factory=dict)


async def _run_script(docx, t: dict, tracked: bool) -> int:
    sid = docx.session_id
    calls = 0
    for name, args, flags in SCRIPT:
        if t.get("H"):
            _fallbacks(t)
        off = tracked and flags == "untracked"
        if off:
            await docx.ok("docx_set_track_changes", session_id=sid, enabled=False)
        a = await docx.call(name, session_id=sid, **args(t))
        if a.is_error and name in REFUSALS and re.search(REFUSALS[name][0], a.text):
            a = None  # a refusal the table names (it changed nothing)
        elif a.is_error:
            raise AssertionError(f"{name}({args(t)}) {'tracked' if tracked else 'untracked'}:\n{a.text[:1500]}")
        calls += 1
        if off:
            await docx.ok("docx_set_track_changes", session_id=sid, enabled=True, author=AUTHOR)
        if a is None:
            continue
        if flags == "->S":  # the new last section: it has no header of its own
            listed = (await docx.ok("docx_list_sections", session_id=sid)).text
            t["S"] = re.findall(r"^- (sect_[0-9a-f]+) ", listed, re.M)[-1]
        elif flags.startswith("->"):
            t[flags[2:]] = a.element_id
    return calls


async def edit_file(docx, src: Path, out: Path, image: Path) -> Result:
    result = Result(src)
    stem = src.stem
    opened = await docx.open(src)
    sid = docx.session_id
    await docx.ok("docx_read_content", session_id=sid, max_elements=40)
    tables = (await docx.ok("docx_list_tables", session_id=sid)).text
    result.base = out / f"{stem}.base.docx"
    await docx.ok("docx_save", session_id=sid, file_path=str(result.base))
    plan = targets(result.base, tables)
    plan["image"] = str(image)
    if opened.head.get("Tracking", "").startswith("on"):
        await docx.ok("docx_set_track_changes", session_id=sid, enabled=False)
    t = dict(plan)
    result.calls += await _run_script(docx, t, tracked=False)
    result.untracked = await _save(docx, out / f"{stem}.untracked.docx")
    await docx.ok("docx_close", session_id=sid)

    await docx.open(result.base)
    sid = docx.session_id
    await docx.ok("docx_set_track_changes", session_id=sid, enabled=True, author=AUTHOR)
    t = dict(plan)
    result.calls += await _run_script(docx, t, tracked=True)
    result.tracked = await _save(docx, out / f"{stem}.tracked.docx")
    await docx.ok("docx_accept_revisions", session_id=sid, author=AUTHOR)
    result.accepted = await _save(docx, out / f"{stem}.accepted.docx")
    await docx.ok("docx_undo", session_id=sid)
    await docx.ok("docx_reject_revisions", session_id=sid, author=AUTHOR)
    result.rejected = await _save(docx, out / f"{stem}.rejected.docx")
    await docx.ok("docx_close", session_id=sid)
    return result


async def _save(docx, path: Path) -> Path:
    await docx.ok("docx_save", session_id=docx.session_id, file_path=str(path))
    return path


def edit_one(src: Path, out: Path, image: Path) -> Result:
    """Both runs of the script on one file, on a server of its own (one worker process's job)."""
    async def main() -> Result:
        async with open_direct([src.parent, out]) as docx:
            try:
                return await edit_file(docx, src, out, image)
            except Exception as e:  # recorded per file, reported by that file's tests
                return Result(src, failure=f"{type(e).__name__}: {e}"[:4000])
    r = anyio.run(main)
    if r.failure is None:
        r.accept_difference = _difference(paragraphs(r.accepted), paragraphs(r.untracked))
        r.reject_difference = _difference(paragraphs(r.rejected), paragraphs(r.base))
        before = Counter(integrity_problems(src))
        r.new_problems = {mode: sorted((Counter(integrity_problems(p)) - before).elements())
                          for mode, p in (("untracked", r.untracked), ("tracked", r.tracked))}
    return r


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, Result]:
    """The script on every editable file, in worker processes (one a core): files are independent."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    out, image = script_folder(tmp_path_factory, "validity")
    files = editable_files()
    t0 = time.monotonic()
    workers = max(1, min(len(os.sched_getaffinity(0)), 4))
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        found = {r.source.name: r for r in pool.map(edit_one, files, [out] * len(files), [image] * len(files))}
    calls = sum(r.calls for r in found.values())
    report(f"test_validity_corpus: {len(found)} files x {len(SCRIPT)} tools x 2 modes ({calls} edit calls, "
           f"{workers} processes) in {time.monotonic() - t0:.1f}s")
    return found


def _result(results: dict[str, Result], path: Path) -> Result:
    r = results[path.name]
    if path.name in EXCEPTIONS["script"]:
        pytest.skip(f"{path.name}: {EXCEPTIONS['script'][path.name]}")
    assert r.failure is None, f"the script failed on {path.name}:\n{r.failure}"
    return r


def _check(check: str, path: Path, problem: object) -> None:
    """Fail on ``problem`` unless the file is a named exception for ``check``; an exception is still
    checked: it is reported as an expected failure while it fails, and fails the test once it passes."""
    reason = EXCEPTIONS[check].get(path.name)
    if reason is None:
        assert not problem, problem
    elif problem:
        pytest.xfail(f"{check} exception: {reason}")
    else:
        pytest.fail(f"{path.name} is an exception for {check} but passes now: remove it from EXCEPTIONS")


# ---- what the comparisons read -----------------------------------------------------------------------

_NOT_FORMAT = {q(n) for n in "rPrChange pPrChange ins del moveFrom moveTo rPr sectPr".split()}


def _props(el: etree._Element | None, keep_rpr: bool = False) -> str:
    """Properties as text, revision records (and the mark's properties, sections) left out."""
    if el is None:
        return ""
    el = copy.deepcopy(el)
    for child in list(el):
        if child.tag in _NOT_FORMAT and not (keep_rpr and child.tag == q("rPr")):
            el.remove(child)
    el.attrib.pop(OX_ID, None)
    if not len(el) and not el.attrib:
        return ""
    # in any order: a reject writes properties back in schema order, where the file may have had another
    children = sorted(etree.tostring(c, method="c14n", exclusive=True).decode() for c in el)
    return f"{sorted(el.attrib.items())}{children}"


def paragraphs(path: Path) -> list[tuple[str, str, tuple]]:
    """Each body paragraph as it reads: (text, paragraph properties, (text, run properties) stretches).
    A paragraph someone else deleted whole (mark deleted, no text) is not read, nor a copy in an
    mc:Fallback (an edit of its Choice drops a fallback gone stale, by design: ooxml/text/alt_content.py). The paragraph
    docx_update_paragraph_text rewrites is read with its runs' formatting too: tracked or not, the same
    word diff keeps each unchanged word's own."""
    out = []
    for p in shown_paragraphs(_main_root(path).find(q("body"))):
        text = paragraph_text(p)
        if not text and p.xpath("w:pPr/w:rPr/w:del", namespaces=NS):
            continue
        stretches: list[list[str]] = []
        for r in iter_runs(p):
            words, props = run_text(r), _props(r.find(q("rPr")))
            if not words:
                continue
            if stretches and stretches[-1][1] == props:
                stretches[-1][0] += words
            else:
                stretches.append([words, props])
        out.append((text, _props(p.find(q("pPr"))), tuple(map(tuple, stretches))))
    return out


def _difference(a: list, b: list) -> str | None:
    return None if a == b else _first_difference(a, b)


def _first_difference(a: list, b: list) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"paragraph {i}:\n  got      {x}\n  expected {y}"
    return f"{len(a)} paragraphs, expected {len(b)}"


# ---- the checks ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_accepting_our_revisions_gives_the_untracked_edits(results, path):
    r = _result(results, path)
    _check("accept", path, r.accept_difference)


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_rejecting_our_revisions_gives_the_original(results, path):
    r = _result(results, path)
    _check("reject", path, r.reject_difference)


@pytest.fixture(scope="module")
def validated(results) -> dict[Path, list[dict]]:
    """One batched validator run over every original and result (cached by content)."""
    from tests.support.sdk_validator import require, validate_files
    require()
    t0 = time.monotonic()
    files = [p for r in results.values() if r.failure is None for p in (r.source, r.untracked, r.tracked)]
    found = validate_files(files, processes=max(1, min(len(os.sched_getaffinity(0)), 4)))
    report(f"test_validity_corpus: validator on {len(files)} files (originals cached) in {time.monotonic() - t0:.1f}s")
    return found


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_no_new_validator_error_kind(results, validated, path):
    from tests.support.sdk_validator import kinds
    r = _result(results, path)
    before = kinds(validated[r.source.resolve()])
    new = {mode: sorted(kinds(validated[p.resolve()]) - before)
           for mode, p in (("untracked", r.untracked), ("tracked", r.tracked))}
    _check("validator", path, {mode: found for mode, found in new.items() if found})


@pytest.mark.parametrize("path", corpus_params(editable_files()))
def test_no_new_integrity_problem(results, path):
    r = _result(results, path)
    _check("integrity", path, {mode: found for mode, found in r.new_problems.items() if found})
