"""Start-up: a worker answers initialize without importing its tool modules; they load just after
(or on the first tools/list or call), and the tool list is the same whichever comes first."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tools.runtime.call import toolsets
from tools.builtin import builtin

ROOT = Path(__file__).resolve().parents[3]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
PROBE = """
import json, sys
sys.argv = ["server.py", "--root", sys.argv[1]]
import server
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("tools.docx", "tools.catalog")))))
"""


def test_importing_the_server_imports_no_tool_module(tmp_path):
    out = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True)
    assert json.loads(out.stdout) == []


def lines_until(p: subprocess.Popen, request_id: int) -> dict:
    while True:
        line = p.stdout.readline()
        assert line, "the server closed stdout"
        message = json.loads(line)
        if message.get("id") == request_id:
            return message


def test_stdio_answers_initialize_then_lists_every_tool_it_would_list_loaded(tmp_path):
    p = subprocess.Popen([sys.executable, "server.py", "--root", str(tmp_path), "--toolsets", "all"], cwd=ROOT,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        p.stdin.write(json.dumps(INIT) + "\n")
        p.stdin.flush()
        assert "result" in lines_until(p, 1)
        p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        listed, params, request_id = [], {}, 2
        while True:  # tools/list is paged (100 a page): follow the cursors
            p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/list", "params": params}) + "\n")
            p.stdin.flush()
            result = lines_until(p, request_id)["result"]
            listed += [t["name"] for t in result["tools"]]
            if not result.get("nextCursor"):
                break
            params, request_id = {"cursor": result["nextCursor"]}, request_id + 1
    finally:
        p.kill()
        p.wait()
    assert listed == list(builtin())


def test_every_declared_toolset_has_tools_and_every_tool_a_declared_toolset():
    assert {t.toolset for t in builtin().values()} == set(toolsets.NAMES)
    assert toolsets.names() == ["core", *sorted({t.toolset for t in builtin().values()} - {"core"})]


def test_a_config_whose_http_tool_takes_a_built_in_name_is_still_refused_at_start(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"http_tools": [{"name": "docx_open", "endpoint": "https://api.example.com/u/{id}",
                                                  "params": [{"name": "id", "position": "path"}]}]}))
    out = subprocess.run([sys.executable, "server.py", "--root", str(tmp_path), "--config", str(config)], cwd=ROOT,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "'docx_open' clashes with the built-in tool of that name" in out.stderr
