"""The MCP Inspector CLI (npm @modelcontextprotocol/inspector, installed into $OOXML_MCP_CACHE) reads our
resource templates and prompts over stdio: another client's view of what the SDK tests check."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sdk_validator import cache_dir

REPO = Path(__file__).resolve().parents[3]
PACKAGE = "@modelcontextprotocol/inspector@0.15"


@pytest.fixture(scope="module")
def inspector() -> Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node/npm not installed (apt-get install nodejs npm)")
    target = cache_dir() / "inspector"
    cli = target / "node_modules" / "@modelcontextprotocol" / "inspector" / "cli" / "build" / "cli.js"
    if not cli.exists():
        target.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(target), PACKAGE],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
    return cli


def run(inspector: Path, tmp_path: Path, *args: str) -> tuple[int, str]:
    done = subprocess.run(["node", str(inspector), "--cli", sys.executable, str(REPO / "server.py"),
                           "--root", str(tmp_path), *args], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    return done.returncode, done.stdout + done.stderr


def test_the_inspector_lists_the_resource_templates(inspector, tmp_path):
    code, out = run(inspector, tmp_path, "--method", "resources/templates/list")
    assert code == 0, out
    templates = {t["name"]: t["uriTemplate"] for t in json.loads(out)["resourceTemplates"]}
    assert templates["page"] == "docx://sessions/{session_id}/pages/{n}.png" and len(templates) == 4


def test_the_inspector_reads_a_missing_session_as_not_found(inspector, tmp_path):
    code, out = run(inspector, tmp_path, "--method", "resources/read", "--uri",
                    "docx://sessions/doc_000000000000000000000000")
    assert code != 0 and "not found" in out.lower(), out


def test_the_inspector_lists_and_gets_prompts(inspector, tmp_path):
    code, listed = run(inspector, tmp_path, "--method", "prompts/list")
    assert code == 0, listed
    code, got = run(inspector, tmp_path, "--method", "prompts/get", "--prompt-name", "redline_versions",
                    "--prompt-args", "original_path=v1.docx", "revised_path=v2.docx")
    assert code == 0, got
    assert len(json.loads(listed)["prompts"]) == 4
    assert "docx_compare original_path=v1.docx revised_path=v2.docx" in json.loads(got)["messages"][0]["content"]["text"]
