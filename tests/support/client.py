"""A test client for the server: calls tools, parses the answer head, validates every answer."""
from __future__ import annotations

import re
import zipfile
from contextlib import asynccontextmanager
import base64
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree
from mcp import Client

from tests.support.answer_validator import errors, parse_head

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = {"w": W, "oxm": "urn:ooxml-mcp:ids:2026"}


@dataclass
class Answer:
    text: str
    is_error: bool
    images: list[tuple[str, bytes]] = field(default_factory=list)  # (mime type, bytes) after the text

    @property
    def head(self) -> dict[str, str]:
        return parse_head(self.text)

    @property
    def element_id(self) -> str | None:
        return self.head.get("Element ID")

    @property
    def error_type(self) -> str | None:
        return self.head.get("Error Type")

    def section(self, name: str) -> str:
        """The text of one ``## …`` section (by a word of its heading)."""
        m = re.search(rf"^## [^\n]*{name}[^\n]*\n(.*?)(?=^---$|\Z)", self.text, re.S | re.M)
        return m.group(1) if m else ""

    @property
    def cursor_line(self) -> str | None:
        lines = [line for line in self.text.splitlines() if line.startswith("Cursor: ")]
        return lines[-1] if lines else None


class DocxClient:
    def __init__(self, client: Client, roots: list[Path], services=None):
        self.client = client
        self.roots = roots
        self.services = services  # the in-process server's Services (None over other transports)
        self.session_id: str | None = None

    async def call(self, name: str, /, **arguments) -> Answer:  # positional: tools take a "name" too
        result = await self.client.call_tool(name, arguments)
        text = result.content[0].text
        problems = errors(text)
        assert not problems, f"answer of {name} fails the validator: {problems}\n{text}"
        images = [(c.mime_type, base64.b64decode(c.data)) for c in result.content[1:] if c.type == "image"]
        return Answer(text, bool(result.is_error), images)

    async def ok(self, name: str, /, **arguments) -> Answer:
        answer = await self.call(name, **arguments)
        assert not answer.is_error, answer.text
        return answer

    async def create(self) -> Answer:
        answer = await self.ok("docx_create")
        self.session_id = answer.head["Session ID"]
        return answer

    async def open(self, path: str | Path) -> Answer:
        answer = await self.ok("docx_open", file_path=str(path))
        self.session_id = answer.head["Session ID"]
        return answer

    async def save(self, path: str | Path, **kw) -> etree._Element:
        await self.ok("docx_save", session_id=self.session_id, file_path=str(path), **kw)
        return read_body(path)


def read_part(path: str | Path, name: str = "word/document.xml") -> bytes:
    with zipfile.ZipFile(path) as z:
        return z.read(name)


def read_body(path: str | Path) -> etree._Element:
    """The saved document's w:body, parsed independently of the product."""
    return etree.fromstring(read_part(path)).find(f"{{{W}}}body")


def by_id(body: etree._Element, element_id: str) -> etree._Element:
    found = body.xpath("//*[@oxm:id=$i]", namespaces=NS, i=element_id)
    assert found, f"{element_id} not in saved XML"
    return found[0]


def texts(el: etree._Element) -> str:
    return "".join(el.xpath(".//w:t/text()", namespaces=NS))


@asynccontextmanager
async def open_client(roots: list[Path], **services_options):
    """``services_options``: what Services takes besides the roots (``office=`` a stand-in ...)."""
    import server
    from tools.services import Services

    services = Services(roots=[Path(r) for r in roots], **services_options)
    srv = server.build_server(services)
    try:
        async with Client(srv, cache=None) as client:
            yield DocxClient(client, list(roots), services)
    finally:
        services.office.close()  # a render started LibreOffice: stop it with this server


class DirectClient(DocxClient):
    """The same calls, dispatched in-process without the MCP transport (``run_tool``: argument
    validation, worker thread, undo commit, error answers), for sweeps of thousands of calls; the
    answers' format is checked by the other tests (``check_answers`` turns it on here too)."""

    def __init__(self, services, roots: list[Path], check_answers: bool = False):
        super().__init__(None, roots, services)
        self.check_answers = check_answers

    async def call(self, name: str, /, **arguments) -> Answer:
        from tools.runtime.call.dispatch import run_tool
        from tools.runtime.call.registry import CallContext
        tool = self.services.tool_for(None, name)
        outcome = await run_tool(tool, name, arguments, CallContext(None, self.services))
        if self.check_answers:
            problems = errors(outcome.text)
            assert not problems, f"answer of {name} fails the validator: {problems}\n{outcome.text}"
        return Answer(outcome.text, outcome.is_error, [(i.mime_type, i.data) for i in outcome.images])


@asynccontextmanager
async def open_direct(roots: list[Path], check_answers: bool = False):
    """A :class:`DirectClient` on a fresh in-process server's services."""
    from tools import catalog  # noqa: F401  (registers every tool)
    from tools.services import Services

    services = Services(roots=[Path(r) for r in roots])
    try:
        yield DirectClient(services, list(roots), check_answers)
    finally:
        services.office.close()
