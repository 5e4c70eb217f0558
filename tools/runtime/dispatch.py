"""Runs one tools/call: find the tool, validate the arguments, run it, answer in Markdown.

Independent of the MCP SDK so tests and benchmarks can drive it directly; server.py only
adapts it to the protocol.
"""
from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass

import jsonschema

from ooxml.errors import OoxmlError
from render.answer import error_answer, operation_title
from tools.runtime import history
from tools.runtime.registry import ALWAYS_OPTIONAL, CallContext, Tool

log = logging.getLogger("ooxml_mcp")


@dataclass
class Outcome:
    text: str
    is_error: bool
    error_type: str | None = None


_validators: dict[int, jsonschema.protocols.Validator] = {}


def validator_for(tool: Tool):
    # Compiled once per schema object; a config reload makes new Tool objects.
    key = id(tool.input_schema)
    v = _validators.get(key)
    if v is None or v.schema is not tool.input_schema:
        cls = jsonschema.validators.validator_for(tool.input_schema)
        v = _validators[key] = cls(tool.input_schema)
    return v


def argument_problems(tool: Tool, arguments: dict) -> list[str]:
    problems = []
    for err in sorted(validator_for(tool).iter_errors(arguments), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in err.absolute_path) or "arguments"
        problems.append(f"{where}: {err.message}")
    return problems


async def run_tool(tool: Tool | None, name: str, arguments: dict | None, ctx: CallContext,
                   known_names: list[str] | None = None) -> Outcome:
    operation = operation_title(name)
    if tool is None:
        close = [n for n in (known_names or []) if name.removeprefix("docx_") in n][:5]
        hint = f"Did you mean: {', '.join(close)}?" if close else "Call tools/list for the tools you may use."
        return fail(operation, "ToolNotFound", f"No tool named '{name}' is available.", hint)
    arguments = dict(arguments or {})
    problems = argument_problems(tool, arguments)
    if problems:
        return fail(operation, "ValidationError", "Invalid arguments: " + "; ".join(problems),
                    f"See the inputSchema of '{name}' in tools/list.")
    for name in ALWAYS_OPTIONAL:  # optional in the schema, positional in the function
        if name in tool.input_schema.get("properties", {}) and name not in arguments:
            arguments[name] = None
    ctx.touched.clear()
    try:
        result = tool.handler(ctx, **arguments)
        if inspect.isawaitable(result):
            result = await result
        history.commit(ctx, tool.name, arguments)
        return Outcome(result, False)
    except OoxmlError as e:
        take_back_ids(ctx)
        return fail(operation, e.error_type, e.message, e.hint)
    except Exception as e:  # the server keeps serving whatever a tool does
        take_back_ids(ctx)
        log.exception("tool %s failed", name)
        return fail(operation, "InternalError", f"{type(e).__name__}: {e}",
                    "This is a bug in the server: check the document with docx_get_context before going on.")


def take_back_ids(ctx: CallContext) -> None:
    """IDs given while a call failed (e.g. to name an element in an error) are removed, and
    anything else it changed is put back."""
    history.abandon(ctx)
    for session in ctx.touched:
        session.doc.ids.rollback()
    ctx.touched.clear()


def fail(operation: str, error_type: str, message: str, hint: str | None = None) -> Outcome:
    return Outcome(error_answer(operation, error_type, message, hint), True, error_type)

