"""Document sessions as MCP resources: read, templates, completions, subscriptions, ownership, and
resource links in answers, through the SDK client (in-process, stdio, Streamable HTTP)."""
from __future__ import annotations

import base64
import json
import sys
import warnings
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.support.client import DocxClient
from tests.support.http_server import MODES, http_client, http_server
from tools.services import Services

pytestmark = pytest.mark.anyio
REPO = Path(__file__).resolve().parents[3]


async def heading_and_paragraph(docx: DocxClient) -> tuple[str, str]:
    await docx.create()
    heading = (await docx.ok("docx_insert_heading", session_id=docx.session_id, text="Terms", level=1,
                             position="end:document_body")).element_id
    para = (await docx.ok("docx_insert_paragraph", session_id=docx.session_id, text="Pay within 30 days.",
                          position="after:last_insert")).element_id
    return heading, para


async def test_each_session_is_a_resource_whose_text_is_its_markdown(docx):
    await heading_and_paragraph(docx)
    listed = (await docx.client.list_resources()).resources
    uri = f"docx://sessions/{docx.session_id}"
    assert [str(r.uri) for r in listed] == [uri] and listed[0].mime_type == "text/markdown"
    text = (await docx.client.read_resource(uri)).contents[0].text
    assert text.splitlines()[:3] == ["# Terms", "", "Pay within 30 days."]


async def test_templates_name_the_page_image_the_outline_and_one_element(docx):
    templates = {t.name: t.uri_template for t in (await docx.client.list_resource_templates()).resource_templates}
    assert templates["page"] == "docx://sessions/{session_id}/pages/{n}.png"
    assert templates["outline"] == "docx://sessions/{session_id}/outline"
    assert templates["element"] == "docx://sessions/{session_id}/elements/{element_id}"


async def test_the_outline_and_an_element_read_as_markdown(docx):
    heading, para = await heading_and_paragraph(docx)
    outline = (await docx.client.read_resource(f"docx://sessions/{docx.session_id}/outline")).contents[0].text
    element = (await docx.client.read_resource(f"docx://sessions/{docx.session_id}/elements/{para}")).contents[0]
    assert f"H1 Terms ({heading})" in outline
    assert element.text.strip() == "Pay within 30 days." and element.mime_type == "text/markdown"


async def test_an_unknown_session_or_element_is_resource_not_found(docx):
    await heading_and_paragraph(docx)
    for uri in ("docx://sessions/doc_000000000000000000000000", f"docx://sessions/{docx.session_id}/elements/para_0",
                "docx://elsewhere/x"):
        with pytest.raises(MCPError) as e:
            await docx.client.read_resource(uri)
        assert e.value.error.code == -32002, uri


async def test_completions_offer_the_callers_session_ids(docx):
    await docx.create()
    ref = types.ResourceTemplateReference(type="ref/resource", uri="docx://sessions/{session_id}/outline")
    done = await docx.client.complete(ref, {"name": "session_id", "value": "doc_"})
    assert done.completion.values == [docx.session_id]
    pages = await docx.client.complete(types.ResourceTemplateReference(
        type="ref/resource", uri="docx://sessions/{session_id}/pages/{n}.png"), {"name": "n", "value": ""},
        context_arguments={"session_id": docx.session_id})
    assert pages.completion.values == ["1"]  # nothing rendered yet: the first page


async def test_save_and_markdown_export_answers_link_the_file_written(docx, tmp_path):
    await heading_and_paragraph(docx)
    saved = await docx.client.call_tool("docx_save", {"session_id": docx.session_id, "file_path": "out.docx"})
    exported = await docx.client.call_tool("docx_export_markdown", {"session_id": docx.session_id,
                                                                    "file_path": "out.md"})
    links = [c for r in (saved, exported) for c in r.content if c.type == "resource_link"]
    assert [(str(link.uri), link.name) for link in links] == [((tmp_path / "out.docx").as_uri(), "out.docx"),
                                                             ((tmp_path / "out.md").as_uri(), "out.md")]
    assert (tmp_path / "out.md").read_text().startswith("# Terms")


class Heard:
    """notifications/resources/updated a client received."""

    def __init__(self):
        self.uris: list[str] = []
        self.event = anyio.Event()

    async def __call__(self, message) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            self.uris.append(str(message.params.uri))
            self.event.set()

    async def next(self) -> list[str]:
        with anyio.fail_after(10):
            await self.event.wait()
        self.event = anyio.Event()
        return self.uris


async def test_over_stdio_a_2025_subscriber_hears_of_each_change(tmp_path):
    heard = Heard()
    params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(tmp_path)], cwd=str(REPO))
    async with Client(params, cache=None, mode="legacy", message_handler=heard) as client:
        docx = DocxClient(client, [tmp_path])
        await docx.create()
        uri = f"docx://sessions/{docx.session_id}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await client.subscribe_resource(uri)
        await docx.ok("docx_get_structure")  # a read changes nothing: no notification
        await docx.ok("docx_insert_paragraph", text="one", position="end:document_body")
        assert await heard.next() == [uri]
        await docx.ok("docx_insert_paragraph", text="two", position="end:document_body")
        assert await heard.next() == [uri, uri]


@pytest.mark.parametrize("transport", ["stdio", "inprocess"])
async def test_a_2026_listener_hears_of_changes_to_the_resources_it_names(tmp_path, transport):
    from tests.support.client import open_client
    if transport == "stdio":
        params = StdioServerParameters(command=sys.executable, args=["server.py", "--root", str(tmp_path)],
                                       cwd=str(REPO))
        connect = Client(params, cache=None)
    else:
        connect = None
    async with (connect if connect is not None else open_client([tmp_path])) as c:
        docx = c if isinstance(c, DocxClient) else DocxClient(c, [tmp_path])
        _, para = await heading_and_paragraph(docx)
        outline = f"docx://sessions/{docx.session_id}/outline"
        async with docx.client.listen(resource_subscriptions=[outline]) as sub:
            await docx.ok("docx_update_paragraph_text", element_id=para, new_text="Pay within 60 days.")
            with anyio.fail_after(10):
                event = await sub.__anext__()
    assert event.uri == outline


def tenants_config(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TEST_ACME_TOKEN", "acme-secret-token")
    monkeypatch.setenv("TEST_BETA_TOKEN", "beta-secret-token")
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"tenants": {"acme": {"token_env": "TEST_ACME_TOKEN"},
                                              "beta": {"token_env": "TEST_BETA_TOKEN"}}}))
    return config


@pytest.mark.parametrize("mode", MODES)
async def test_another_client_can_neither_read_nor_watch_a_sessions_resource(tmp_path, monkeypatch, mode):
    from tools.config.reload import apply_config_file
    services = Services(roots=[tmp_path])
    apply_config_file(services, tenants_config(tmp_path, monkeypatch))
    with http_server(services) as url:
        async with http_client(url, mode, [tmp_path], "acme-secret-token") as owner, \
                http_client(url, mode, [tmp_path], "beta-secret-token") as stranger:
            await heading_and_paragraph(owner)
            uri = f"docx://sessions/{owner.session_id}"
            mine = (await owner.client.read_resource(uri)).contents[0].text
            theirs = [str(r.uri) for r in (await stranger.client.list_resources()).resources]
            refused = []
            for attempt in (lambda: stranger.client.read_resource(uri),
                            lambda: stranger.client.read_resource(uri + "/outline"),
                            lambda: watch(stranger.client, uri, mode)):
                with pytest.raises(MCPError) as e:
                    await attempt()
                refused.append(e.value.error.code)
    assert "Pay within 30 days." in mine and theirs == []
    assert refused == [-32002, -32002, -32002]


async def watch(client: Client, uri: str, mode: str) -> None:
    if mode == "legacy":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await client.subscribe_resource(uri)
    else:
        async with client.listen(resource_subscriptions=[uri]):
            pass


@pytest.mark.parametrize("mode", MODES)
async def test_over_http_the_owner_reads_and_hears_of_changes(tmp_path, mode):
    services = Services(roots=[tmp_path])
    heard = Heard()
    with http_server(services) as url:
        async with http_client(url, mode, [tmp_path]) as docx:
            if mode == "legacy":
                docx.client.session._message_handler = heard  # noqa: SLF001 (the SDK client's hook, set late)
            _, para = await heading_and_paragraph(docx)
            uri = f"docx://sessions/{docx.session_id}/elements/{para}"
            assert (await docx.client.read_resource(uri)).contents[0].text.strip() == "Pay within 30 days."
            if mode == "legacy":
                await watch(docx.client, uri, mode)
                await docx.ok("docx_update_paragraph_text", session_id=docx.session_id, element_id=para, new_text="Later.")
                assert await heard.next() == [uri]
            else:
                async with docx.client.listen(resource_subscriptions=[uri]) as sub:
                    await docx.ok("docx_update_paragraph_text", session_id=docx.session_id, element_id=para,
                                  new_text="Later.")
                    with anyio.fail_after(10):
                        assert (await sub.__anext__()).uri == uri
            assert (await docx.client.read_resource(uri)).contents[0].text.strip() == "Later."


@pytest.mark.libreoffice
async def test_a_page_reads_as_a_png_and_completions_then_offer_its_pages(docx):
    from tests.support.libreoffice import require_soffice
    require_soffice()
    await heading_and_paragraph(docx)
    await docx.ok("docx_insert_page_break", position="end:document_body")
    await docx.ok("docx_insert_paragraph", text="Second page", position="end:document_body")
    page = (await docx.client.read_resource(f"docx://sessions/{docx.session_id}/pages/2.png")).contents[0]
    png = base64.b64decode(page.blob)
    assert page.mime_type == "image/png" and png.startswith(b"\x89PNG")
    ref = types.ResourceTemplateReference(type="ref/resource", uri="docx://sessions/{session_id}/pages/{n}.png")
    pages = await docx.client.complete(ref, {"name": "n", "value": ""}, context_arguments={"session_id": docx.session_id})
    assert pages.completion.values == ["1", "2"]
    with pytest.raises(MCPError) as e:
        await docx.client.read_resource(f"docx://sessions/{docx.session_id}/pages/9.png")
    assert "has 2 page" in e.value.error.message


async def test_a_2026_listener_hears_that_the_tool_list_changed(docx):
    async with docx.client.listen(tools_list_changed=True) as sub:
        await docx.ok("docx_toolsets", enable=["tables"])
        with anyio.fail_after(10):
            event = await sub.__anext__()
    assert type(event).__name__ == "ToolsListChanged"
