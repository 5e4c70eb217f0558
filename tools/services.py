"""What tool calls share: roots, sessions, the config in force, audit log, LibreOffice, limits.

Built once, at start-up (tools.command_line.make_services; tests build their own), and never reassigned: what
changes while the server runs lives in holders made for it (``Roots``: the client's roots;
``LiveConfig``: config and audit log on a reload; ``Office``: LibreOffice started on first use;
the session store, durable state and watchers keep their own state).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tools.config.live import LiveConfig
from tools.config.model import Config
from tools.office.service import Office
from tools.runtime.call.audit import AuditLog
from tools.runtime.sessions.lifetime import InFlight
from tools.runtime.sessions.limits import DEFAULT_RUNTIME_LIMITS, RuntimeLimits
from tools.builtin import builtin
from tools.runtime.call.registry import Registry, Tool
from tools.runtime.sessions.roots import ClientRoots, Roots
from tools.runtime.sessions.sessions import SessionStore
from tools.runtime.protocol.subscriptions import Watchers
from tools.runtime.protocol.tasks import Tasks

if TYPE_CHECKING:  # only with --state: not imported at start-up
    from tools.runtime.state.durable import Durable


class Services:
    __slots__ = ("roots", "sessions", "live", "office", "state", "worker_id", "stdio_tenant", "author", "toolsets",
                 "limit_overrides", "client_roots", "recovered", "recovering", "in_flight", "stdio_connection", "watchers", "tasks")

    def __init__(self, roots: list[Path], *, sessions: SessionStore | None = None, config: Config | None = None,
                 audit: AuditLog | None = None, office: Office | None = None, state: Durable | None = None,
                 worker_id: str | None = None, stdio_tenant: str | None = None, author: str | None = None,
                 toolsets: list[str] | None = None, limit_overrides: dict | None = None,
                 client_roots: ClientRoots | None = None, objects=(), objects_first: bool = False):
        fix = object.__setattr__
        fix(self, "roots", Roots(roots, objects, objects_first))  # replaced only through Roots.replace (client roots)
        fix(self, "sessions", sessions if sessions is not None else SessionStore())
        fix(self, "live", LiveConfig(config, audit))
        fix(self, "office", office if office is not None else Office())
        fix(self, "state", state)  # with --state: sessions kept in a shared store (its sessions are ``sessions``)
        fix(self, "worker_id", worker_id)  # with --state: this worker's name (audit log, leases)
        fix(self, "stdio_tenant", stdio_tenant)
        fix(self, "author", author)  # --author: default author of tracked changes and comments
        fix(self, "toolsets", toolsets)  # --toolsets: listed at the start (tools/runtime/call/toolsets.py)
        fix(self, "limit_overrides", dict(limit_overrides or {}))  # from the command line; beat the config
        fix(self, "client_roots", client_roots)  # --roots-from-client (stdio)
        fix(self, "recovered", {})  # original path -> (recovery path, why) this run
        fix(self, "recovering", {})  # original path -> Event set once its recovery file is written
        fix(self, "in_flight", InFlight())  # calls under way per session
        fix(self, "stdio_connection", {})  # what docx_toolsets keeps for the stdio client
        fix(self, "watchers", Watchers())  # resource subscriptions (tools/runtime/protocol/protocol.py)
        fix(self, "tasks", Tasks())  # MCP tasks of long calls (tools/runtime/protocol/tasks.py)

    def __setattr__(self, name, value):
        raise AttributeError(f"Services.{name} is fixed at start-up; what changes lives in a holder "
                             "(roots.replace, live.install)")

    @property
    def config(self) -> Config | None:
        return self.live.config

    @property
    def audit(self) -> AuditLog | None:
        return self.live.audit

    @property
    def limits(self) -> RuntimeLimits:
        base = getattr(self.config, "runtime_limits", None) or DEFAULT_RUNTIME_LIMITS
        return base.with_overrides(self.limit_overrides) if self.limit_overrides else base

    @property
    def registry(self) -> Registry:
        """The built-in tools (loaded on first need: tools/builtin.py)."""
        return builtin()

    def all_tools(self) -> dict[str, Tool]:
        tools = dict(self.registry)
        for t in getattr(self.config, "tools", []) or []:
            tools[t.name] = t
        return tools

    def tool_named(self, name: str) -> Tool | None:
        """``all_tools().get(name)`` without building the table (once or twice per call)."""
        for t in getattr(self.config, "tools", None) or ():
            if t.name == name:
                return t
        return self.registry.get(name)

    def tool_for(self, tenant: str | None, name: str) -> Tool | None:
        """The tool ``name`` if the tenant may call it, else None: listed or not (SPEC §11)."""
        tool = self.tool_named(name)
        return tool if tool is not None and tool.visible_to(tenant) else None

    def tools_for(self, tenant: str | None, toolsets: frozenset[str] | None = None) -> list[Tool]:
        """Tools the tenant may call, in a stable order; with ``toolsets``, only theirs (what is listed)."""
        return [t for t in self.all_tools().values()
                if t.visible_to(tenant) and (toolsets is None or t.toolset in toolsets)]
