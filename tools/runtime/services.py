"""What tool calls share: roots, sessions, configured tools, audit log."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.runtime.registry import BUILTIN, Tool
from tools.runtime.sessions import SessionStore


@dataclass
class Services:
    roots: list[Path]
    sessions: SessionStore = field(default_factory=SessionStore)
    config: Any = None  # tools.http.config.Config when --config is given
    stdio_tenant: str | None = None
    audit: Any = None  # tools.runtime.audit.AuditLog when configured
    author: str | None = None  # --author: default author of tracked changes and comments

    def all_tools(self) -> dict[str, Tool]:
        tools = dict(BUILTIN)
        for t in getattr(self.config, "tools", []) or []:
            tools[t.name] = t
        return tools

    def tools_for(self, tenant: str | None) -> list[Tool]:
        """Tools the tenant may list and call, in a stable order."""
        toolsets = getattr(self.config, "toolsets", None)
        return [t for t in self.all_tools().values()
                if t.visible_to(tenant) and (not toolsets or t.toolset in toolsets)]
