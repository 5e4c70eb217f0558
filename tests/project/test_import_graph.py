"""The import graph of the product (docs/architecture.md): layers import only downwards
(ooxml -> render -> tools -> server), no two modules import each other (directly or around a
loop), and no two folders do. Every import counts, the ones inside functions too: a lazy import
hides a cycle from Python, not from a reader."""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("ooxml", "render", "tools", "server")

# Known exceptions, each to go with the issue named (the test fails once one is no longer needed).
UPWARD_KNOWN: set[tuple[str, str]] = set()
FOLDER_CYCLES_KNOWN: set[tuple[str, ...]] = set()


@cache
def modules() -> dict[str, Path]:
    found = {"server": ROOT / "server.py"}
    for top in LAYERS[:-1]:
        for path in (ROOT / top).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The product modules ``name`` imports (``from a import b`` is a.b where that is a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        out.update(t for t in targets if t in known and t != name)
    return out


@cache
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, path, known) for name, path in known.items()}


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def folder(module: str) -> str:
    """The folder a module lives in (a package's own __init__ counts as its folder)."""
    path = modules()[module]
    return module if path.name == "__init__.py" else (module.rpartition(".")[0] or module)


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    for start in g:
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(g.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_layer_imports_a_higher_one():
    upward = {(a, b) for a, targets in graph().items() for b in targets if layer(a) < layer(b)}
    assert upward - UPWARD_KNOWN == set(), "a lower layer imports a higher one (ooxml < render < tools < server)"
    assert UPWARD_KNOWN <= upward, f"an exception no longer needed: {UPWARD_KNOWN - upward}"


def test_no_cycle_between_modules():
    assert cycles(graph()) == []


def test_no_cycle_between_folders():
    folders: dict[str, set[str]] = {}
    for a, targets in graph().items():
        for b in targets:
            if (a, b) not in UPWARD_KNOWN and folder(a) != folder(b):
                folders.setdefault(folder(a), set()).add(folder(b))
            folders.setdefault(folder(b), set())
    found = {tuple(c) for c in cycles(folders)}
    assert found - FOLDER_CYCLES_KNOWN == set(), "folders import each other"
    assert FOLDER_CYCLES_KNOWN <= found, f"an exception no longer needed: {FOLDER_CYCLES_KNOWN - found}"


def test_the_cycle_finder_finds_a_loop_and_nothing_else():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_ooxml_holds_only_folders():
    """Each concern in a folder of its own (issue 19): no module lies loose beside them."""
    loose = [p.name for p in (ROOT / "ooxml").glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"modules outside a folder in ooxml/: {loose}"


def test_tool_modules_do_not_import_each_others_private_names():
    """A tool module's ``_name`` is its own (issue 19): what another module needs is made public."""
    found = []
    for name, path in modules().items():
        if not name.startswith("tools.docx."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tools.docx"):
                found += [f"{name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    assert not found, found


def _reads_environment(tree: ast.AST) -> bool:
    """``os.environ``/``os.getenv``/``os.putenv``, or ``environ``/``getenv`` imported from os."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb") \
                and isinstance(node.value, ast.Name) and node.value.id == "os":
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "os" \
                and {a.name for a in node.names} & {"environ", "getenv", "environb"}:
            return True
    return False


def test_the_finder_of_environment_reads_sees_both_spellings():
    assert _reads_environment(ast.parse("import os\nx = os.environ.get('A')"))
    assert _reads_environment(ast.parse("from os import getenv"))
    assert not _reads_environment(ast.parse("import os\nx = os.path.join('a')"))


def test_no_model_or_render_module_reads_the_environment():
    """Settings come in as arguments (tools/runtime/sessions/limits.py reads them, issue 30): a model
    or a renderer that read the environment would behave apart from the server's settings."""
    found = [name for name, path in modules().items() if name.split(".")[0] in ("ooxml", "render")
             and _reads_environment(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, f"read the environment: {found}"


# ---- tools/docx: one floor of tool modules over a small kit (issue 30) ----------------------------

KIT = {"tools.docx.common", "tools.docx.protocol", "tools.docx.view"}
# Sideways imports still needed, each to go with the issue named (the test fails once one is not).
SIDEWAYS_KNOWN: set[tuple[str, str]] = set()


def tool_graph() -> dict[str, set[str]]:
    """tools/docx's modules and which of them each imports (the package's own __init__ left out)."""
    inside = {m for m in modules() if m.startswith("tools.docx.")}
    return {m: {t for t in graph()[m] if t in inside} for m in inside}


def test_a_tool_module_imports_only_the_kit_from_tools_docx():
    sideways = {(a, b) for a, targets in tool_graph().items() if a not in KIT for b in targets if b not in KIT}
    assert sideways - SIDEWAYS_KNOWN == set(), "a tool module imports another tool module: share through the kit"
    assert SIDEWAYS_KNOWN <= sideways, f"an exception no longer needed: {SIDEWAYS_KNOWN - sideways}"


def test_the_kit_imports_no_tool_module():
    assert {(a, b) for a in KIT for b in tool_graph()[a] if b not in KIT} == set()


def floors(g: dict[str, set[str]], skip: set[tuple[str, str]] = frozenset()) -> dict[str, int]:
    """Each module's floor: 1 + the highest floor it imports (a module importing nothing is on floor 1)."""
    out: dict[str, int] = {}

    def floor(m: str) -> int:
        if m not in out:
            out[m] = 1 + max((floor(t) for t in g[m] if (m, t) not in skip), default=0)
        return out[m]
    for m in g:
        floor(m)
    return out


def test_tools_docx_has_at_most_four_floors():
    found = floors(tool_graph(), SIDEWAYS_KNOWN)
    assert max(found.values()) <= 4, sorted(found.items(), key=lambda kv: -kv[1])[:5]
    assert max(v for m, v in found.items() if m in KIT) <= 3, "the kit is at most three floors"


def test_the_floor_counter_counts_a_chain():
    assert floors({"a": {"b"}, "b": {"c"}, "c": set()}) == {"a": 3, "b": 2, "c": 1}


def test_every_module_outside_the_kit_is_a_tool_module():
    """No helper module among the tools: what tools share is the kit's or the model's (ooxml/)."""
    helpers = []
    for name in tool_graph():
        source = modules()[name].read_text(encoding="utf-8")
        if name not in KIT and "@tool" not in source and "DELETERS[" not in source:  # docx_delete's kinds
            helpers.append(name)
    assert not helpers, f"modules in tools/docx that register no tool: {helpers}"
