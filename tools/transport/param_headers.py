"""Which tool schemas the SDK must check ``Mcp-Param-*`` headers against (2026-07-28 tools/call).

The SDK walks the called tool's whole input schema twice a call (every schema position, in
Python generators) to find ``x-mcp-header`` annotations; an HTTP editing call paid that and the
trivial call (no arguments) did not. No built-in tool declares such a header, so the walk is done
once per schema here, and a schema that declares none is not handed to the SDK: with no annotated
property there is nothing a header could contradict (``validate_mcp_param_headers`` checks only
annotated properties).
"""
from __future__ import annotations

from mcp.shared.inbound import x_mcp_header_map

_declares: dict[int, tuple[dict, bool]] = {}  # id(schema) -> (schema, declares a header)


def schema_to_check(schema: dict | None) -> dict | None:
    """``schema`` if it declares an ``Mcp-Param-*`` header, else None (the SDK then skips the check)."""
    if schema is None:
        return None
    known = _declares.get(id(schema))
    if known is None or known[0] is not schema:  # a config reload makes new schema objects
        known = _declares[id(schema)] = (schema, bool(x_mcp_header_map(schema)))
    return schema if known[1] else None
