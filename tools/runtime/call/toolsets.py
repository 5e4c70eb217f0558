"""Which toolsets tools/list offers (SPEC §11).

``core`` by default (with the operator's own HTTP tools, which a config declares to be listed);
``--toolsets`` or the config's ``toolsets`` choose the start, ``all`` lists everything, and
docx_toolsets changes the list for one connection (per MCP session over HTTP, per process over
stdio). Listing is all it changes: a call to a tool that is not listed still runs.
"""
from __future__ import annotations

ALL = "all"
# Every built-in toolset, declared (registry.tool refuses others): named in the server's instructions
# before the tool modules are imported (tools/builtin.py).
NAMES = ("core", "content", "format", "forms", "layout", "privacy", "review", "styles", "tables")
DEFAULT = ("core", "http")
KEY = "ooxml_mcp_toolsets"  # in the connection's state: the toolsets docx_toolsets chose
CHANGED = "ooxml_mcp_tools_changed"  # in the connection's state: tell the client (list_changed)


def names() -> list[str]:
    """The toolsets of the built-in tools, sorted, core first."""
    return ["core", *sorted(set(NAMES) - {"core"})]


def at_start(services) -> frozenset[str] | None:
    """The start set: --toolsets, else the config's toolsets, else DEFAULT; None: every toolset."""
    chosen = getattr(services, "toolsets", None) or getattr(services.config, "toolsets", None) or DEFAULT
    return None if ALL in chosen else frozenset(chosen)


def listed(services, connection: dict | None) -> frozenset[str] | None:
    """The toolsets listed to this connection; None: every toolset."""
    if connection is not None and KEY in connection:
        return connection[KEY]
    return at_start(services)
