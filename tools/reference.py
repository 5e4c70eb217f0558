"""docs/tools.md: the tool reference, written from the registry so it cannot drift from what the
server lists (tests/project/test_tools_reference.py compares them). Run `python3 -m tools.reference`
to rewrite it after changing a tool."""
from __future__ import annotations

import json
import sys
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "docs" / "tools.md"


def reference() -> str:
    from tools.builtin import builtin
    from tools.runtime.protocol import instructions
    from tools.runtime.call import toolsets
    tools = builtin()
    conventions = instructions.text()
    out = ["# Tool reference", "",
           "Generated from the registry by `python3 -m tools.reference`; do not edit by hand.",
           "Every tool answers in Markdown: a head of `**Key**: value` lines, then the view (docs/protocol.md).",
           "", "## Conventions (the server's instructions)", "", conventions, ""]
    for name in toolsets.names():
        members = [t for t in tools.values() if t.toolset == name]
        out += [f"## Toolset `{name}`", ""] + [line for t in members for line in _tool(t)]
    return "\n".join(out).rstrip() + "\n"


def _tool(t) -> list[str]:
    hints = [h for h, on in (("read-only", t.read_only), ("idempotent", t.idempotent),
                             ("destructive", t.destructive)) if on]
    lines = [f"### `{t.name}`", "", " ".join(t.description.split()) + (f" *({', '.join(hints)})*" if hints else ""), ""]
    props, required = t.input_schema["properties"], set(t.input_schema.get("required", []))
    if props:
        lines += ["| argument | type | | description |", "|---|---|---|---|"]
        lines += [f"| `{k}` | {_type(p)} | {_need(k, p, required)} | {_cell(p.get('description', ''))} |" for k, p in props.items()]
        lines.append("")
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _type(prop: dict) -> str:
    if "enum" in prop:
        return " \\| ".join(f"`{v}`" for v in prop["enum"] if v is not None)
    kinds = prop.get("type", "any")
    kinds = [k for k in (kinds if isinstance(kinds, list) else [kinds]) if k != "null"]
    return " \\| ".join(kinds) if kinds else "any"


def _need(name: str, prop: dict, required: set) -> str:
    if name in required:
        return "required"
    return f"default `{json.dumps(prop['default'])}`" if "default" in prop else "optional"


def main() -> int:
    TARGET.write_text(reference(), encoding="utf-8")
    print(f"wrote {TARGET}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
