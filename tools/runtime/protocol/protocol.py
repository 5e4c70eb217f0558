"""The MCP features beside tools, for the SDK's low-level Server: resources (with subscriptions and
completions), prompts, logging, client roots, and what a tool call's result carries besides its text
(resource links, structured output). server.py passes the handlers on and calls the hooks around a call."""
from __future__ import annotations

from pathlib import Path, PurePosixPath

import mcp_types as types

from ooxml.opc.types import CT
from tools.storage.roots import is_object_url
from tools.runtime.protocol import notices, object_resources, prompts, resources, structured
from tools.runtime.call.registry import CallContext

LINKED = {"docx_save": CT.DOCX,
          "docx_export_markdown": "text/markdown", "docx_export": None}  # None: by the file's extension
EXPORTED = {".pdf": "application/pdf", ".odt": "application/vnd.oasis.opendocument.text", ".rtf": "application/rtf",
            ".html": "text/html", ".htm": "text/html", ".txt": "text/plain"}


def handlers(services, caller_of, connection_of) -> dict:
    """``caller_of(services, ctx)`` and ``connection_of(ctx)`` are server.py's: who calls, on which connection."""
    watchers = services.watchers

    def target_of(ctx, uri) -> tuple[object, resources.Target]:
        caller, target = caller_of(services, ctx), resources.parse(str(uri))
        resources.owned(services, caller, target)
        return caller, target

    async def on_list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=resources.listed(services, caller_of(services, ctx)))

    async def on_list_resource_templates(ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=resources.TEMPLATES)

    async def on_read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        if is_object_url(str(params.uri)):  # a saved or exported object's link
            return await object_resources.read(services, caller_of(services, ctx).tenant, str(params.uri))
        caller, target = target_of(ctx, params.uri)
        return await resources.read(CallContext(caller.tenant, services, caller=caller), target)

    async def on_subscribe_resource(ctx, params: types.SubscribeRequestParams) -> types.EmptyResult:
        watchers.subscribe(connection_of(ctx), target_of(ctx, params.uri)[1])
        return types.EmptyResult()

    async def on_unsubscribe_resource(ctx, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        watchers.unsubscribe(connection_of(ctx), resources.parse(str(params.uri)))
        return types.EmptyResult()

    async def on_subscriptions_listen(ctx, params):
        return await watchers.listen(services, caller_of(services, ctx), ctx, params)

    async def on_completion(ctx, params: types.CompleteRequestParams) -> types.CompleteResult:
        return resources.complete(services, caller_of(services, ctx), params)

    async def on_list_prompts(ctx, params) -> types.ListPromptsResult:
        return prompts.listed()

    async def on_get_prompt(ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        return prompts.get(params)

    return dict(on_list_resources=on_list_resources, on_list_resource_templates=on_list_resource_templates,
                on_read_resource=on_read_resource, on_subscribe_resource=on_subscribe_resource,
                on_unsubscribe_resource=on_unsubscribe_resource, on_subscriptions_listen=on_subscriptions_listen,
                on_completion=on_completion, on_list_prompts=on_list_prompts, on_get_prompt=on_get_prompt)


async def after_call(services, tool, call: CallContext, outcome, ctx, notes) -> None:
    """The call's warnings go to the client; a call that may have changed its sessions tells their watchers."""
    if notes:
        await notices.send(ctx, call.connection, notes)
    watchers = getattr(services, "watchers", None)
    if watchers is None or tool is None or tool.read_only or outcome.is_error:
        return
    await watchers.changed(dict.fromkeys(s.id for s in call.touched))


async def tools_changed(services) -> None:
    from mcp.server.subscriptions import ToolsListChanged
    watchers = getattr(services, "watchers", None)
    if watchers is not None:
        await watchers.bus.publish(ToolsListChanged())


def links_of(name: str, outcome) -> list:
    """docx_save, docx_export and docx_export_markdown to a file: a resource_link to the file written."""
    if name not in LINKED or outcome.is_error:
        return []
    written = outcome.answer.head().get("File") if outcome.answer is not None else None
    if not written:
        return []
    if is_object_url(written):  # an object root: the object's own URL
        name_of = written.rpartition("/")[2]
        return [types.ResourceLink(type="resource_link", uri=written, name=name_of,
                                   mime_type=LINKED[name] or EXPORTED.get(PurePosixPath(name_of).suffix.lower()))]
    path = Path(written)
    return [types.ResourceLink(type="resource_link", uri=path.as_uri(), name=path.name,
                               mime_type=LINKED[name] or EXPORTED.get(path.suffix.lower()))]


def attach(server, services, connection_state) -> None:
    """Handlers the SDK marks deprecated at 2026-07-28 (logging, roots): added after construction, so
    2025-11-25 clients get them without a deprecation warning at every start."""
    async def on_set_level(ctx, params: types.SetLevelRequestParams) -> types.EmptyResult:
        notices.set_level(connection_state(services, ctx), params.level)
        return types.EmptyResult()

    async def on_roots_changed(ctx, params) -> None:
        services.client_roots.changed()

    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, on_set_level)
    if getattr(services, "client_roots", None) is not None:
        server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams,
                                        on_roots_changed)


async def before_call(services, ctx, state) -> None:
    roots = getattr(services, "client_roots", None)
    if roots is not None:
        async def warn(text: str) -> None:
            await notices.send(ctx, state, [("warning", text)])
        await roots.refresh(services, ctx, warn)


def listed(services, tool: types.Tool) -> types.Tool:
    if structured.enabled(services) and structured.applies(tool.name):
        tool.output_schema = structured.SCHEMA
    return tool


def result(services, name: str, outcome, content: list, call: CallContext) -> types.CallToolResult:
    out = types.CallToolResult(content=content + links_of(name, outcome), is_error=outcome.is_error)
    if structured.enabled(services) and structured.applies(name):
        out.structured_content = structured.head_of(outcome, call.touched[0].id if call.touched else None)
    return out
