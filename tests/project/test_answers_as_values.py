"""Answers are values (docs/architecture.md): a tool returns a ``render.answer.Answer``, dispatch renders
it once, and the server's other readers (batch, resources, structured output, resource links, durable
recovery) read its fields. No module outside render/ reads an answer's text back: none imports a head
parser or holds a pattern of the answer's markup (a regex of its head, a section heading, a JSON fence)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What only a reader of answer text needs: the head's bold keys as a regex, the headings, the title, a fence.
MARKUP = ("\\*\\*", "📄 Document Context", "🔄 Changes", "📋 Content", "操作结果", "```json")
TEXT_NAMES = {"parse_head", "with_head_line", "CHANGES_HEADING", "CONTEXT_HEADING", "CONTENT_HEADING", "SEPARATOR", "head_line"}


def outside_render() -> list[Path]:
    return [ROOT / "server.py"] + sorted(p for top in ("ooxml", "tools") for p in (ROOT / top).rglob("*.py"))


def readings(path: Path) -> list[str]:
    """Where ``path`` reads answer text back: markup in a string, a text-reading name imported or defined."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [f"line {node.lineno}: {m!r}" for m in MARKUP if m in node.value]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("render"):
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names
                      if a.name in TEXT_NAMES or node.module == "render.head"]
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names if a.name == "render.head"]
        elif isinstance(node, ast.FunctionDef) and node.name == "parse_head":
            found.append(f"line {node.lineno}: defines parse_head")
    return found


def test_no_module_outside_render_reads_an_answers_text():
    found = {str(p.relative_to(ROOT)): r for p in outside_render() if (r := readings(p))}
    assert not found, f"read the Answer's fields instead (render/answer.py): {found}"


def test_the_check_sees_a_head_regex_and_a_heading(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('import re\nfrom render.head import parse_head\nHEAD = re.compile(r"^\\*\\*Page\\*\\*: (.*)")\n'
                      'def section(text):\n    return text.find("## 🔄 Changes")\n')
    assert len(readings(sample)) == 3


def test_render_head_is_gone():
    assert not (ROOT / "render" / "head.py").exists()
