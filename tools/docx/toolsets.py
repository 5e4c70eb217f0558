"""docx_toolsets (SPEC §11): which toolsets tools/list offers this connection."""
from __future__ import annotations

from ooxml.xml.errors import ValidationError
from render.answer import success_answer
from tools.runtime.call import toolsets as T
from tools.runtime.call.registry import CallContext, tool


@tool(idempotent=True, context=False, title="List more or fewer tools", kind="meta")
def docx_toolsets(ctx: CallContext, enable: list[str] | None = None, disable: list[str] | None = None) -> str:
    """List or change the toolsets this connection's tools/list offers ('all': every one)."""
    known = T.names()
    every = frozenset(known) | {"http"}
    for name in [*(enable or []), *(disable or [])]:
        if name != T.ALL and name not in every:
            raise ValidationError(f"Unknown toolset '{name}'.", hint=f"Toolsets: {', '.join(known)}, or all.")
    before = T.listed(ctx.services, ctx.connection)
    now = set(every if before is None else before)
    now |= every if T.ALL in (enable or []) else set(enable or [])
    now -= every if T.ALL in (disable or []) else set(disable or [])
    if (enable or disable) and ctx.connection is None:
        raise ValidationError("This connection keeps no state, so its tool list cannot change.",
                              hint="Call the tools you need by name (unlisted tools run), or start the server "
                                   "with --toolsets (config: toolsets).")
    if enable or disable:
        chosen = None if now >= every else frozenset(now)
        if chosen != before:
            ctx.connection[T.KEY] = chosen
            ctx.connection[T.CHANGED] = True
    listed = [n for n in known if n in now]
    return success_answer("Toolsets", fields={"Listed": ", ".join(listed) or "none",
                                              "Not Listed": ", ".join(n for n in known if n not in now) or "none"})
