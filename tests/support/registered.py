"""The registered tools the coverage tests hold their own lists against (tests/tools/docx/test_tool_protocol.py's
RECIPES, tests/corpus/test_validity_corpus.py's SCRIPT): one derivation, so both see the same new tool."""
from __future__ import annotations


def tool_names() -> set[str]:
    from tools import catalog  # noqa: F401  (registers every tool)
    from tools.builtin import builtin
    return set(builtin())


def editing_tools() -> set[str]:
    """Every registered docx tool that is not read-only."""
    from tools import catalog  # noqa: F401  (registers every tool)
    from tools.builtin import builtin
    return {name for name, t in builtin().items() if name.startswith("docx_") and not t.read_only}
