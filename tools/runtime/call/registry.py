"""The tool registry: every tool, built-in or configured, as name + schema + handler.

Built-in tools are plain functions described with ``@tool``; their JSON Schema is derived
from the signature (type hints, defaults) and the ``Args:`` section of the docstring, so the
schema an agent sees and the function that runs cannot drift apart. ``@tool`` registers nothing:
a ``Registry`` is built from an explicit list of tool modules (tools/catalog.py) and held by
``Services`` (``services.registry``).
"""
from __future__ import annotations

import inspect
import itertools
import re
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Literal

from ooxml.xml.errors import OoxmlError
from tools.runtime.call.listed_schema import listed
from tools.runtime.call.toolsets import NAMES as TOOLSETS


class ToolError(OoxmlError):
    """An error answer: raised by tools, rendered by the dispatcher."""


class UnitOfWork:
    """The base of what ``@tool`` opens for a tool declaring a parameter of its type (tools/docx/protocol.py
    ``Edit``): ``Kind(ctx, session_id, operation, late)`` around the call, its ``answer`` the tool's answer.
    Declared here so the registry needs nothing from the tools above it."""

    answer: Any = None

    def __init__(self, ctx: "CallContext", session_id: str | None, operation: str, late: bool = False):
        raise NotImplementedError


@dataclass
class CallContext:
    """What a tool call may reach: the caller (tenant, MCP session) and the shared services."""

    tenant: str | None
    services: Any  # tools.services.Services
    touched: list = field(default_factory=list)  # sessions the call used (see dispatch.run_tool)
    caller: Any = None  # tools.runtime.sessions.sessions.Caller; None: a stdio caller of ``tenant``
    claimed: list = field(default_factory=list)  # sessions whose lock the call holds (lifetime.claim)
    progress: Any = None  # async (done, total, message) -> None when the client wants progress
    connection: dict | None = None  # state kept per client connection (toolsets listed: docx_toolsets)

    def __post_init__(self):
        if self.caller is None:
            from tools.runtime.sessions.sessions import Caller
            self.caller = Caller(tenant=self.tenant)


@dataclass
class Image:
    data: bytes
    mime_type: str = "image/png"


@dataclass
class ToolResult:
    """What a tool returns when its answer carries more than its Answer (e.g. a page image)."""

    answer: Any  # render.answer.Answer
    images: list[Image] = field(default_factory=list)


@dataclass
class Tool:
    name: str
    description: str
    input_schema: dict
    handler: Callable[..., Any]  # (ctx, **arguments) -> Answer | ToolResult, or an awaitable of one
    toolset: str = "core"
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    open_world: bool = False
    tenants: frozenset[str] | None = None  # None: every tenant
    title: str | None = None
    meta: dict = field(default_factory=dict)
    long_running: bool = False  # a sync handler run in a thread with progress heartbeats (docx_open)
    positional_optional: frozenset = frozenset()  # typed "X | None" without a default: None when left out
    answers_context: bool = False  # answers with Document Context: takes a view (render/views.py)
    order: int = 0  # a built-in tool's place in the order tools are defined (tools/list's order)
    kind: str = ""  # built-in tools: edit, read, session or meta (KINDS); what docx_batch may run derives from it

    @cached_property
    def listed_schema(self) -> dict:
        """The schema tools/list shows; arguments are validated against input_schema."""
        return listed(self.input_schema)

    def annotations(self) -> dict:
        return {
            "title": self.title or self.name,
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }

    def visible_to(self, tenant: str | None) -> bool:
        return self.tenants is None or (tenant is not None and tenant in self.tenants)


# edit: changes a session's document through its Edit (tools/docx/protocol.py); read: reads only;
# session: opens, saves, ends or exports a session; meta: history, listing, the batch itself.
KINDS = ("edit", "read", "session", "meta")
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_defined = itertools.count()  # the order tools are defined in: the order tools/list shows


class Registry(Mapping):
    """Tools by name, in the order given: the built-in ones (tools/builtin.py), held by ``Services``."""

    def __init__(self, tools: Iterable[Tool] = ()):
        self._tools: dict[str, Tool] = {}
        for t in tools:
            self.add(t)

    @classmethod
    def of_modules(cls, modules: Iterable) -> "Registry":
        """The tools ``@tool`` described in ``modules`` (each module's own), in the order they were defined."""
        found = [v.tool for m in modules for v in vars(m).values()
                 if isinstance(getattr(v, "tool", None), Tool) and getattr(v, "__module__", None) == m.__name__]
        return cls(sorted(found, key=lambda t: t.order))

    def add(self, t: Tool) -> None:
        if t.name in self._tools:
            raise ValueError(f"duplicate tool name {t.name!r}")
        self._tools[t.name] = t

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def of_kind(self, *kinds: str) -> list[Tool]:
        return [t for t in self._tools.values() if t.kind in kinds]



VIEW_SCHEMA = {"enum": ["full", "compact", "none", None]}


def tool(*, toolset: str = "core", read_only: bool = False, destructive: bool = False,
         idempotent: bool = False, title: str | None = None, long_running: bool = False,
         context: bool | None = None, operation: str | None = None, open_on_use: bool = False,
         kind: str | None = None):
    """Describe a built-in tool (``fn.tool``); its first parameter is the CallContext.

    ``context``: the tool answers with Document Context (default: every tool that is not read-only),
    so it gets the optional ``view`` argument, handled here for all of them.
    A parameter typed as a ``UnitOfWork`` (``e: Edit``) is no argument: its unit of work is opened
    around the call, titled ``operation`` (default from the name: docx_set_font -> "Set Font"), and
    its answer returned; ``open_on_use``: the session is found when the tool first uses it (after
    the tool's own argument checks), not before the tool runs.
    ``kind`` (KINDS): derived as edit for a tool with an Edit, read for a read-only one; others say it.
    """

    def register(fn: Callable) -> Callable:
        name = fn.__name__
        if not NAME_RE.match(name):
            raise ValueError(f"bad tool name {name!r}")
        if toolset not in TOOLSETS:  # the instructions name them before any tool module is imported
            raise ValueError(f"toolset {toolset!r} of {name} is not declared in tools/runtime/call/toolsets.py NAMES")
        description, arg_docs = split_docstring(fn.__doc__ or "")
        schema = schema_from_signature(fn, arg_docs)
        views = (not read_only) if context is None else context
        adds_view = views and "view" not in schema["properties"]
        if adds_view:
            schema["properties"]["view"] = dict(VIEW_SCHEMA)
        work = unit_of_work(fn)
        runs = fn if work is None else _opening(fn, *work, operation or operation_of(name), open_on_use)
        fn.tool = Tool(
            name=name,
            description=description,
            input_schema=schema,
            handler=_text_checked(runs, views, adds_view),
            answers_context=views,
            toolset=toolset,
            read_only=read_only,
            destructive=destructive,
            idempotent=idempotent,
            title=title,
            long_running=long_running,
            positional_optional=_positional_optional(fn),
            kind=_kind(name, kind, work is not None, read_only),
            order=next(_defined),
        )
        return fn

    return register


def _kind(name: str, declared: str | None, edits: bool, read_only: bool) -> str:
    kind = declared or ("edit" if edits else "read" if read_only else None)
    if kind not in KINDS:
        raise ValueError(f"{name}: say its kind, one of {KINDS} (derived only for an Edit or read_only)")
    return kind


_published: frozenset[str] = frozenset()


def publish_builtin(registry: Registry) -> Registry:
    """The built-in registry's names, for the config's check of HTTP tool names (tools/config/http_tools.py
    reads a config before any Services exists): set once, by tools/builtin.py."""
    global _published
    _published = frozenset(registry)
    return registry


def builtin_names() -> frozenset[str]:
    return _published


def operation_of(name: str) -> str:
    """The answer's operation from the tool's name: docx_insert_toc -> "Insert Toc"."""
    return " ".join(w.capitalize() for w in name.removeprefix("docx_").split("_"))


def unit_of_work(fn: Callable) -> tuple[str, type] | None:
    """The parameter ``@tool`` fills with an opened unit of work (name, kind), if ``fn`` declares one."""
    hints = typing.get_type_hints(fn)
    for p in list(inspect.signature(fn).parameters.values())[1:]:
        hint = hints.get(p.name)
        if isinstance(hint, type) and issubclass(hint, UnitOfWork):
            return p.name, hint
    return None


def _opening(fn: Callable, param: str, kind: type, operation: str, late: bool) -> Callable:
    """``fn`` run inside its unit of work; the answer is the unit's (an error leaves it unfinished)."""
    def run(ctx, **arguments):
        with kind(ctx, arguments.get("session_id"), operation, late) as unit:
            if fn(ctx, **arguments, **{param: unit}) is not None:
                raise AssertionError(f"{fn.__name__} answers through its {kind.__name__}, not by returning")
        return unit.answer

    run.__name__, run.__wrapped__ = fn.__name__, fn
    return run


def _text_checked(fn: Callable, views: bool = False, adds_view: bool = False) -> Callable:
    """``fn`` refusing text a .docx cannot hold (tools/runtime/call/arguments.py) before it runs, with the
    call's answer view chosen (render/views.py): its ``view`` argument is taken here when ``fn`` has none."""
    from render.blocks import checking
    from render.views import Choice, choosing
    from tools.runtime.call.arguments import check_text_arguments
    from tools.runtime.sessions.limits import check_drawn

    def choice(ctx, arguments) -> Choice:
        asked = arguments.pop("view", None) if adds_view else arguments.get("view")
        server = getattr(getattr(ctx.services, "config", None), "answers_view", None)
        return Choice(asked=asked, server=server, applies=views)

    if inspect.iscoroutinefunction(fn):  # stays a coroutine function: dispatch awaits it on the loop
        async def handler(ctx, **arguments):
            check_text_arguments(arguments)
            with choosing(choice(ctx, arguments)), checking(check_drawn()):
                return await fn(ctx, **arguments)
    else:
        def handler(ctx, **arguments):
            check_text_arguments(arguments)
            with choosing(choice(ctx, arguments)), checking(check_drawn()):
                return fn(ctx, **arguments)

    handler.__wrapped__ = fn
    return handler


def split_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Return the description (text before ``Args:``) and the per-argument descriptions."""
    doc = inspect.cleandoc(doc)
    head, _, args = doc.partition("\nArgs:\n")
    arg_docs: dict[str, str] = {}
    current = None
    for line in args.splitlines():
        m = re.match(r"^\s{0,8}(\w+):\s*(.*)$", line)
        if m and (current is None or len(line) - len(line.lstrip()) <= 4):
            current = m.group(1)
            arg_docs[current] = m.group(2).strip()
        elif current and line.strip():
            arg_docs[current] += " " + line.strip()
    return " ".join(head.split()), arg_docs  # one line: a docstring's wrapping is no news to an agent


def schema_from_signature(fn: Callable, arg_docs: dict[str, str]) -> dict:
    hints = typing.get_type_hints(fn)
    properties: dict[str, dict] = {}
    required: list[str] = []
    for p in _arguments(fn, hints):
        prop = json_type(hints.get(p.name, str))
        if p.name in arg_docs:
            prop["description"] = arg_docs[p.name]
        if p.default is not inspect.Parameter.empty and p.default is not None:
            prop["default"] = p.default
        properties[p.name] = prop
        if p.default is inspect.Parameter.empty and not may_be_none(hints.get(p.name, str)):
            required.append(p.name)
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def may_be_none(hint: Any) -> bool:
    """``str | None``: the argument may be left out (SPEC §2: session_id, when one session is open)."""
    return typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in typing.get_args(hint)


def unset_arguments(tool: "Tool", arguments: dict) -> None:
    """Optional arguments with no Python default (they come before required ones) left out: None."""
    for name in tool.positional_optional:
        arguments.setdefault(name, None)


def _positional_optional(fn: Callable) -> frozenset[str]:
    hints = typing.get_type_hints(fn)
    return frozenset(p.name for p in _arguments(fn, hints)
                     if p.default is inspect.Parameter.empty and may_be_none(hints.get(p.name, str)))


def _arguments(fn: Callable, hints: dict) -> list[inspect.Parameter]:
    """The parameters a caller passes: not ctx, not an injected unit of work."""
    return [p for p in list(inspect.signature(fn).parameters.values())[1:]
            if not (isinstance(hints.get(p.name), type) and issubclass(hints[p.name], UnitOfWork))]


def json_type(hint: Any) -> dict:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        non_null = [json_type(a) for a in args if a is not type(None)]
        if len(non_null) == 1:
            inner = non_null[0]
        elif all(set(t) == {"type"} and isinstance(t["type"], str) for t in non_null):
            inner = {"type": [t["type"] for t in non_null]}  # a simple union: one type list
        else:
            inner = {"anyOf": non_null}
        if type(None) in args:
            if "type" in inner:
                kinds = inner["type"] if isinstance(inner["type"], list) else [inner["type"]]
                inner = {**inner, "type": [*kinds, "null"]}
                if "enum" in inner:
                    inner["enum"] = [*inner["enum"], None]
            else:
                inner = {"anyOf": [inner, {"type": "null"}]}
        return inner
    if origin is Literal:
        kinds = {type(a) for a in args}
        base = json_type(kinds.pop()) if len(kinds) == 1 else {}
        return {**base, "enum": list(args)}
    if origin in (list, tuple) or hint in (list, tuple):
        return {"type": "array", "items": json_type(args[0])} if args else {"type": "array"}
    if origin is dict or hint is dict:
        return {"type": "object"}
    return {str: {"type": "string"}, int: {"type": "integer"}, float: {"type": "number"},
            bool: {"type": "boolean"}}.get(hint, {})
