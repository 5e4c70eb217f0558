"""What tool calls share: roots, sessions, configured tools, audit log, limits."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.runtime.lifetime import InFlight
from tools.runtime.limits import DEFAULT_RUNTIME_LIMITS, RuntimeLimits
from tools.runtime.registry import Tool, builtin
from tools.runtime.sessions import SessionStore


@dataclass
class Services:
    roots: list[Path]
    sessions: SessionStore = field(default_factory=SessionStore)
    config: Any = None  # tools.http.config.Config when --config is given
    stdio_tenant: str | None = None
    audit: Any = None  # tools.runtime.audit.AuditLog when configured
    author: str | None = None  # --author: default author of tracked changes and comments
    office: Any = None  # tools.runtime.office.Office, started by the first page render
    limit_overrides: dict = field(default_factory=dict)  # from the command line; beat the config
    recovered: dict = field(default_factory=dict)  # original path -> (recovery path, why) this run
    in_flight: InFlight = field(default_factory=InFlight)  # calls under way per session
    state: Any = None  # tools.runtime.durable.Durable with --state: sessions kept in a shared store
    worker_id: str | None = None  # with --state: this worker's name (audit log, leases)
    toolsets: list[str] | None = None  # --toolsets: listed at the start (tools/runtime/toolsets.py)
    stdio_connection: dict = field(default_factory=dict)  # what docx_toolsets keeps for the stdio client

    @property
    def limits(self) -> RuntimeLimits:
        base = getattr(self.config, "runtime_limits", None) or DEFAULT_RUNTIME_LIMITS
        return base.with_overrides(self.limit_overrides) if self.limit_overrides else base

    def all_tools(self) -> dict[str, Tool]:
        tools = dict(builtin())
        for t in getattr(self.config, "tools", []) or []:
            tools[t.name] = t
        return tools

    def tool_named(self, name: str) -> Tool | None:
        """``all_tools().get(name)`` without building the table (once or twice per call)."""
        for t in getattr(self.config, "tools", None) or ():
            if t.name == name:
                return t
        return builtin().get(name)

    def tool_for(self, tenant: str | None, name: str) -> Tool | None:
        """The tool ``name`` if the tenant may call it, else None: listed or not (SPEC §11)."""
        tool = self.tool_named(name)
        return tool if tool is not None and tool.visible_to(tenant) else None

    def tools_for(self, tenant: str | None, toolsets: frozenset[str] | None = None) -> list[Tool]:
        """Tools the tenant may call, in a stable order; with ``toolsets``, only theirs (what is listed)."""
        return [t for t in self.all_tools().values()
                if t.visible_to(tenant) and (toolsets is None or t.toolset in toolsets)]
