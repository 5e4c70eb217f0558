"""Runs one tools/call: find the tool, validate the arguments, run it, answer in Markdown: the tool's
:class:`render.answer.Answer` is rendered here, once (``outcome_of``), and kept beside its text.

Independent of the MCP SDK so tests and benchmarks can drive it directly; server.py only
adapts it to the protocol.
"""
from __future__ import annotations

import functools
import inspect
import logging
from dataclasses import dataclass, field, replace

import anyio

from ooxml.xml import budget, growth
from ooxml.xml.errors import OoxmlError
from render.answer import Answer, cut_answer, error_answer, markdown, operation_title
from tools.runtime.call import history
from tools.runtime.sessions import overrun
from tools.runtime.call.arguments import MAX_DEPTH, too_deep
from tools.runtime.sessions.lifetime import release_all
from tools.runtime.sessions.limits import DEFAULT_RUNTIME_LIMITS
from tools.runtime.call.plain_schema import plainly_valid
from tools.runtime.call.progress import in_thread, worth_a_thread
from tools.runtime.call.registry import CallContext, Image, Tool, ToolResult, unset_arguments

log = logging.getLogger("ooxml_mcp")


@dataclass
class Outcome:
    text: str
    is_error: bool
    error_type: str | None = None
    images: list[Image] = field(default_factory=list)  # extra content after the text (render_page)
    answer: Answer | None = None  # what the text shows, as data (None: an Outcome made outside dispatch)


_validators: dict = {}  # jsonschema is imported on the first call, not before initialize


def validator_for(tool: Tool):
    # Compiled once per schema object; a config reload makes new Tool objects.
    key = id(tool.input_schema)
    v = _validators.get(key)
    if v is None or v.schema is not tool.input_schema:
        import jsonschema.validators

        cls = jsonschema.validators.validator_for(tool.input_schema)
        v = _validators[key] = cls(tool.input_schema)
    return v


def argument_problems(tool: Tool, arguments: dict) -> list[str]:
    if plainly_valid(tool.input_schema, arguments):  # the common case, without jsonschema's cost
        return []
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
    sync = not inspect.iscoroutinefunction(tool.handler)
    invalid = checked(tool, name, operation, arguments, deep_only=sync)  # sync: the rest in its thread
    if invalid is not None:
        return invalid
    limits = getattr(ctx.services, "limits", DEFAULT_RUNTIME_LIMITS)
    try:
        with ctx.services.in_flight.enter(ctx, tool, arguments):
            if not sync:  # HTTP tools, page renders: they await their I/O (their threads see the budget)
                with budget.time_limit(limits.call_timeout_s):
                    outcome = await invoke(tool, name, operation, arguments, ctx)
            else:  # document tools run off the event loop: one long call never stalls other clients
                call = functools.partial(run_sync, tool, name, operation, arguments, ctx, limits.call_timeout_s)
                if tool.long_running and worth_a_thread(ctx, arguments):  # heartbeats while it runs
                    runner = functools.partial(in_thread, ctx, message=operation)
                else:
                    runner = functools.partial(anyio.to_thread.run_sync, abandon_on_cancel=True)
                outcome = await overrun.bounded(ctx, runner, call, limits.call_timeout_s)
                if outcome is None:  # its thread ran on past the deadline (tools/runtime/sessions/overrun.py)
                    return fail(operation, "LimitExceeded", *overrun.late_message(limits.call_timeout_s))
    except OoxmlError as e:  # too many calls at once on one session
        return fail(operation, e.error_type, e.message, e.hint)
    if len(outcome.text) > limits.max_answer_chars:
        outcome.text = cut_answer(outcome.text, limits.max_answer_chars)
        if outcome.answer is not None and outcome.answer.data is not None:  # its fence was cut: the data goes too
            outcome.answer = replace(outcome.answer, data=None)
    return outcome


def run_sync(tool: Tool, name: str, operation: str, arguments: dict, ctx: CallContext, seconds: float) -> Outcome:
    """A document tool in a worker thread, under the call's time budget (ooxml/xml/budget.py)."""
    with budget.time_limit(seconds), growth.per_call():
        ctx.touched.clear()
        try:
            invalid = checked(tool, name, operation, arguments)  # in the budget: 200,000 table cells take seconds
            if invalid is not None:
                return invalid
            budget.check()
            durable = getattr(ctx.services, "state", None)  # --state: journaled (tools/runtime/state/durable.py)
            if durable is not None:
                return outcome_of(durable.run(tool, name, arguments, ctx))
            result = tool.handler(ctx, **arguments)
            history.commit(ctx, tool.name, arguments)
            return outcome_of(result)
        except Exception as e:
            return failed(e, ctx, name, operation)
        finally:
            overrun.finish(ctx)
            release_all(ctx)


def checked(tool: Tool, name: str, operation: str, arguments: dict, deep_only: bool = False) -> Outcome | None:
    """The arguments against the tool's schema (an error answer if they fail), optional ones filled in."""
    deep = too_deep(arguments)
    problems = [f"{deep[:200]}: nested deeper than {MAX_DEPTH} levels"] if deep else \
        [] if deep_only else argument_problems(tool, arguments)
    if problems:
        return fail(operation, "ValidationError", "Invalid arguments: " + "; ".join(problems),
                    f"See the inputSchema of '{name}' in tools/list.")
    if not deep_only:
        unset_arguments(tool, arguments)
    return None


async def invoke(tool: Tool, name: str, operation: str, arguments: dict, ctx: CallContext) -> Outcome:
    ctx.touched.clear()
    try:
        result = tool.handler(ctx, **arguments)
        if inspect.isawaitable(result):
            result = await result
        history.commit(ctx, tool.name, arguments)
        return outcome_of(result)
    except Exception as e:
        return failed(e, ctx, name, operation)
    finally:
        release_all(ctx)


def outcome_of(result: Answer | ToolResult) -> Outcome:
    """The tool's answer rendered: the one place an Answer becomes text."""
    images = []
    if isinstance(result, ToolResult):
        result, images = result.answer, result.images
    if not isinstance(result, Answer):  # text would leave batch, structured output and recovery nothing to read
        raise TypeError(f"a tool returned {type(result).__name__}, not a render.answer.Answer")
    return Outcome(markdown(result), False, images=images, answer=result)


def failed(e: Exception, ctx: CallContext, name: str, operation: str) -> Outcome:
    take_back_ids(ctx)
    if isinstance(e, OoxmlError):
        return fail(operation, e.error_type, e.message, e.hint)
    # The server keeps serving whatever a tool does.
    log.exception("tool %s failed", name, exc_info=e)
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
    answer = error_answer(operation, error_type, message, hint)
    return Outcome(markdown(answer), True, error_type, answer=answer)

