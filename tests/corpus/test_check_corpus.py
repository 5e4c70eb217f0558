"""docx_check(rules=["word"]) agrees with Microsoft's Open XML SDK validator on every corpus file (issue 34):
every validator error of the kinds the word rules cover is found (same part, same element where the
validator names one), and a file the validator finds clean gets no error-level finding.

One batched validator run for the corpus (tests/support/sdk_validator.py: cached by content, so a
second run costs only our checks)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ooxml.check import word_order
from ooxml.check.run import check
from ooxml.model.document import Document
from tests.support import sdk_validator
from tests.support.corpus import editable_files, require_corpus

pytestmark = pytest.mark.corpus

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
# "unexpected child": a child in the wrong place (order); "invalid child" is a child the content model does
# not allow at all (vocabulary, not order: smartTagType in Office 2010's settings): left to others.
_ORDER_IDS = {"Sch_UnexpectedElementContentExpectingComplex"}
_ID_ATTRS = {f"{W}:id", f"{W14}:paraId", f"{W14}:textId", "id", f"{W}:styleId"}


def covered(error: dict) -> str | None:
    """The finding code a validator error must be matched by, or None for kinds the rules leave to others."""
    xpath = error.get("xpath") or ""
    parent = re.sub(r"\[\d+\]", "", xpath).rpartition("/")[2]
    if error["id"] in _ORDER_IDS and parent.startswith("w:") and parent[2:] in word_order.CONTAINERS.values():
        child = re.search(r"child element '([^']*)'", error["description"])
        if child and child.group(1).startswith(W + ":") and \
                word_order.rank(parent[2:], "{%s}%s" % (W, child.group(1).rpartition(":")[2])) is not None:
            return "order"
    attr = re.search(r"ttribute '([^']*)'", error["description"])
    if error["id"] == "Sem_UniqueAttributeValue" and attr and attr.group(1) in _ID_ATTRS:
        return "para-id" if "paraId" in attr.group(1) else "duplicate-id"
    if error["id"] == "Sch_AttributeValueDataTypeDetailed" and attr and "paraId" in attr.group(1) + "textId":
        return "para-id"
    if error["id"] == "ValidatorFailure" and "part does not exist" in error["description"]:
        return "missing-part"
    return None


def _path(f) -> str:
    el = f.element
    return el.getroottree().getpath(el) if el is not None and isinstance(el.tag, str) else ""


def _norm(xpath: str) -> str:
    return re.sub(r"\[1\]", "", xpath)


def disagreements(path: Path, errors: list[dict]) -> list[str]:
    doc = Document.open(path)
    try:
        found = check(doc, ("word",))
    finally:
        doc.close()
    out = []
    if not errors:
        out += [f"validator clean, yet error {f.code} at {f.where}: {f.what}" for f in found if f.severity == "error"]
    for error in errors:
        code = covered(error)
        if code is None:
            continue
        part = (error.get("part") or "").lstrip("/")
        same = [f for f in found if f.code == code and (f.part == part or code == "missing-part")]
        if not same:
            out.append(f"missed {code}: {error['part']} {error.get('xpath')} {error['description'][:160]}")
        elif code == "order" and _norm(error["xpath"]) not in {_norm(_path(f)) for f in same}:
            out.append(f"order at another element: {error['xpath']} (ours: {[_path(f) for f in same][:3]})")
    return out


def test_word_rules_agree_with_the_validator_on_the_corpus():
    require_corpus()
    sdk_validator.require()
    files = editable_files()
    results = sdk_validator.validate_files(files)
    problems = {}
    for path in files:
        found = disagreements(path, results[Path(path).resolve()])
        if found:
            problems[path.name] = found
    assert not problems, "\n".join(f"{name}: {'; '.join(p[:4])}" for name, p in sorted(problems.items()))


def test_repair_adds_no_validator_error_on_the_corpus(tmp_path):
    """docx_check(repair=True)'s fixes on every corpus file they apply to: no new validator error (one batched
    run over the repaired files). New: a kind the original lacks, at an element the validator found clean.
    The validator reports one content error per element, so putting an element's children in order can show
    the next error it already held (w:highlight, which the SDK refuses in docDefaults, behind a misplaced w:b):
    that one is the original's, not the repair's."""
    from ooxml.check.repair import repair
    from tests.support.repeatable import repeatable, seed_of
    require_corpus()
    sdk_validator.require()
    pairs = {}
    for path in editable_files():
        doc = Document.open(path)
        try:  # the same bytes every run (Word IDs seeded, ours stripped): the validator's cache holds
            with repeatable(seed_of(path.name)):
                done = repair(doc, [f for f in check(doc, ("word",)) if f.repairable], doc.will_change)
            if done.fixed:
                out = tmp_path / path.name
                for name in {f.part for f in done.fixed if doc.package.has_part(f.part)}:
                    doc.package.part(name).touch()  # outside a tool call: no undo step to tell
                doc.save(out, strip=True)
                pairs[path] = out
        finally:
            doc.close()
    found = sdk_validator.validate_files([*pairs, *pairs.values()])
    added = {src.name: _new_errors(found[src.resolve()], found[out.resolve()]) for src, out in pairs.items()}
    added = {name: kinds for name, kinds in added.items() if kinds}
    assert pairs and not added, "\n".join(f"{name}: {kinds[:3]}" for name, kinds in sorted(added.items()))


def _new_errors(before: list[dict], after: list[dict]) -> list[str]:
    kinds = sdk_validator.kinds(before)
    places = {(e["part"], e.get("xpath")) for e in before}
    return sorted(sdk_validator.error_kind(e) for e in after
                  if sdk_validator.error_kind(e) not in kinds and (e["part"], e.get("xpath")) not in places)
