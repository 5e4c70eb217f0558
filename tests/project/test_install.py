"""Installation without a clone: the sdist and wheel build, the wheel installs into a fresh venv, and
the installed ``ooxml-mcp`` command serves MCP over stdio from another folder (select: -m install).

The venv's dependencies come from PyPI once and are cached under ``$OOXML_MCP_CACHE/install-venv``
by a hash of pyproject.toml; our wheel is reinstalled into it on every run.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.support.answer_validator import errors, parse_head
from tests.support.sdk_validator import cache_dir

pytestmark = [pytest.mark.install, pytest.mark.anyio]
REPO = Path(__file__).resolve().parents[2]
NOT_SOURCE = shutil.ignore_patterns(".git", "__pycache__", "build", "dist", "*.egg-info", ".pytest_cache",
                                    ".hypothesis", "out", "node_modules", "*.mcpb")


def run(*command, cwd=None, timeout=600) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    """sdist, then the wheel built FROM the sdist (python -m build's default): the sdist must be complete."""
    source = tmp_path_factory.mktemp("source") / "ooxml-mcp"
    shutil.copytree(REPO, source, ignore=NOT_SOURCE)
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", out, source)
    return {"sdist": next(out.glob("*.tar.gz")), "wheel": next(out.glob("*.whl"))}


@pytest.fixture(scope="module")
def venv(dists) -> Path:
    """A fresh venv (no system site-packages) with the wheel installed; dependencies cached by pyproject."""
    key = hashlib.sha256((REPO / "pyproject.toml").read_bytes()).hexdigest()[:16]
    home = cache_dir() / "install-venv" / key
    python = home / "bin" / "python"
    if not (home / "ready").exists():
        shutil.rmtree(home, ignore_errors=True)
        run(sys.executable, "-m", "venv", home)
        run(python, "-m", "pip", "install", "-q", "--disable-pip-version-check", dists["wheel"])
        (home / "ready").write_text(key)
    run(python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps", "--force-reinstall",
        dists["wheel"])
    return home


def test_the_wheel_holds_the_server_and_its_packages(dists):
    names = zipfile.ZipFile(dists["wheel"]).namelist()
    assert "server.py" in names and "tools/office/worker.py" in names
    assert {"ooxml/model/document.py", "render/answer.py", "tools/docx/batch.py"} <= set(names)
    assert not [n for n in names if n.startswith("tests/")]
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "ooxml-mcp = server:main" in zipfile.ZipFile(dists["wheel"]).read(entry).decode()


def test_the_venv_is_isolated_from_the_checkout(venv, tmp_path):
    cfg = (venv / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = false" in cfg
    where = run(venv / "bin" / "python", "-c", "import server, ooxml; print(server.__file__); print(ooxml.__file__)",
                cwd=tmp_path).stdout.split()
    assert all(Path(w).is_relative_to(venv) for w in where), where


async def test_the_installed_command_serves_an_edit_over_stdio(venv, tmp_path):
    documents, elsewhere = tmp_path / "documents", tmp_path / "elsewhere"
    documents.mkdir()
    elsewhere.mkdir()
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    params = StdioServerParameters(command=str(venv / "bin" / "ooxml-mcp"), args=["--root", str(documents)],
                                   cwd=str(elsewhere), env=env)
    async with Client(params, cache=None) as client:
        assert "docx_create" in {t.name for t in (await client.list_tools()).tools}

        async def call(name, **arguments):
            result = await client.call_tool(name, arguments)
            text = result.content[0].text
            assert not result.is_error and not errors(text), text
            return parse_head(text)

        sid = (await call("docx_create"))["Session ID"]
        await call("docx_insert_paragraph", session_id=sid, text="Installed from a wheel",
                   position="end:document_body")
        await call("docx_save", session_id=sid, file_path="installed.docx")
    saved = zipfile.ZipFile(documents / "installed.docx").read("word/document.xml").decode()
    assert "Installed from a wheel" in saved


def project() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def test_the_registry_entry_names_the_package_and_its_version():
    entry = json.loads((REPO / "server.json").read_text())
    assert entry["$schema"].startswith("https://static.modelcontextprotocol.io/schemas/")
    assert entry["version"] == project()["version"]
    package = entry["packages"][0]
    assert (package["registryType"], package["identifier"], package["version"]) == \
        ("pypi", project()["name"], project()["version"])
    assert package["transport"] == {"type": "stdio"}
    # PyPI ownership: the README (the package's long description) names the server.
    assert f"mcp-name: {entry['name']}" in (REPO / "README.md").read_text()


def mcpb_cli() -> list[str]:
    """npm @anthropic-ai/mcpb installed into the cache (once), as tests/support/sdk_validator.py does."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node/npm not installed (apt-get install nodejs npm)")
    target = cache_dir() / "mcpb"
    cli = target / "node_modules" / "@anthropic-ai" / "mcpb" / "dist" / "cli" / "cli.js"
    if not cli.exists():
        target.mkdir(parents=True, exist_ok=True)
        run("npm", "install", "--no-audit", "--no-fund", "--prefix", target, "@anthropic-ai/mcpb@2")
    return ["node", str(cli)]


def test_the_desktop_extension_validates_and_packs(tmp_path):
    manifest = json.loads((REPO / "manifest.json").read_text())
    assert manifest["version"] == project()["version"]
    done = run(*mcpb_cli(), "validate", REPO / "manifest.json")
    assert "validation passes" in done.stdout, done.stdout
    source = tmp_path / "ooxml-mcp"
    shutil.copytree(REPO, source, ignore=NOT_SOURCE)
    run(*mcpb_cli(), "pack", source, tmp_path / "ooxml-mcp.mcpb", timeout=300)
    names = set(zipfile.ZipFile(tmp_path / "ooxml-mcp.mcpb").namelist())
    assert {"manifest.json", "pyproject.toml", "server.py", "ooxml/model/document.py", "tools/catalog.py"} <= names
    assert not [n for n in names if n.startswith(("tests/", ".git/"))], sorted(names)[:20]
