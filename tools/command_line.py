"""The server's command line: its arguments, and the Services they build (once, at start-up).

Problems with an argument are reported on stderr by name and the process exits 2: a server that
starts with a wrong sandbox or an unknown toolset would fail later, further from the cause."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tools import builtin
from tools.runtime.call import toolsets
from tools.services import Services
from tools.storage.roots import is_object_url

DESCRIPTION = "ooxml-mcp: the MCP server (stdio and Streamable HTTP) over the tool registry."


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="ooxml-mcp", description=DESCRIPTION)
    p.add_argument("--transport", choices=["stdio", "streamable-http"], default="stdio")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--root", action="append", default=None,
                   help="folder or s3://bucket[/prefix] tools may read and write (repeatable; env OOXML_MCP_ROOTS)")
    p.add_argument("--roots-from-client", action="store_true",
                   help="stdio: the folders the client declares (roots/list) become the sandbox, within --root "
                        "when given")
    p.add_argument("--config", default=os.environ.get("OOXML_MCP_CONFIG"),
                   help="YAML or JSON config with HTTP tools, tenants, audit log")
    p.add_argument("--tenant", default=None, help="tenant for stdio connections")
    p.add_argument("--toolsets", default=None, type=lambda v: [t.strip() for t in v.split(",") if t.strip()],
                   help="toolsets tools/list offers at the start, e.g. core,tables or all (default core; "
                        "config 'toolsets')")
    p.add_argument("--author", default=None, help="default author of tracked changes and comments "
                   "(else the config's 'author', else 'ooxml-mcp')")
    p.add_argument("--idle-timeout", type=positive, default=None, metavar="SECONDS",
                   help="Streamable HTTP: end document sessions unused this long (default 1800; "
                        "config limits.session_idle_timeout_s)")
    p.add_argument("--call-timeout", type=positive, default=None, metavar="SECONDS",
                   help="time limit of one tool call (default 60; config limits.call_timeout_s)")
    p.add_argument("--state", default=None, metavar="URL",
                   help="redis://host:port/db: run as one worker of many; document sessions are journaled "
                        "there and survive this process (docs/scale-out.md)")
    p.add_argument("--worker-id", default=None, help="this worker's name with --state (default host:port)")
    p.add_argument("--lease-ms", type=int, default=1000,
                   help="with --state: how long a session's lease lasts unrenewed (default 1000)")
    return p.parse_args(argv)


def positive(text: str) -> float:
    value = float(text)
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def roots_from(args: argparse.Namespace) -> list[Path]:
    return [Path(r).resolve() for r in raw_roots(args) if not is_object_url(r)]


def raw_roots(args: argparse.Namespace) -> list[str]:
    return args.root or [r for r in os.environ.get("OOXML_MCP_ROOTS", "").split(os.pathsep) if r] or [os.getcwd()]


def object_roots_from(args: argparse.Namespace) -> tuple[list, bool]:
    """--root s3://bucket[/prefix] roots, and whether the first root given is one (relative paths go there)."""
    from tools.storage.roots import ObjectRoot
    raw = raw_roots(args)
    try:
        return [ObjectRoot.parse(r) for r in raw if is_object_url(r)], is_object_url(raw[0])
    except Exception as e:
        print(f"ooxml-mcp: --root: {e}", file=sys.stderr)
        sys.exit(2)


def make_services(args: argparse.Namespace) -> Services:
    """The server's Services, built here once: nothing is attached to them afterwards."""
    check_toolsets(args.toolsets)
    roots, client_roots = roots_from(args), None
    if args.roots_from_client and args.transport == "stdio":
        from tools.runtime.sessions.roots import ClientRoots
        explicit = args.root or os.environ.get("OOXML_MCP_ROOTS")
        client_roots = ClientRoots(roots if explicit else None)
    durable = durable_of(args)
    objects, objects_first = object_roots_from(args)
    services = Services(roots, stdio_tenant=args.tenant, author=args.author, toolsets=args.toolsets,
                        config=config_of(args), client_roots=client_roots, objects=objects,
                        objects_first=objects_first,
                        limit_overrides={"session_idle_timeout_s": args.idle_timeout,
                                         "call_timeout_s": args.call_timeout},
                        state=durable, sessions=durable.store() if durable else None,
                        worker_id=durable.worker_id if durable else None)
    if durable is not None:
        durable.attach(services)
        durable.start()
    return services


def config_of(args: argparse.Namespace):
    """--config, loaded and validated (every problem reported, then exit 2), or None."""
    if not args.config:
        return None
    from tools.config.loading import load_config
    from tools.config.model import ConfigError
    builtin.builtin()  # HTTP tools may not take a built-in tool's name: the registry must be full
    try:
        return load_config(args.config, stdio_tenant=args.tenant)
    except ConfigError as e:
        print(f"ooxml-mcp: the config {args.config} has {len(e.findings)} problem(s):", file=sys.stderr)
        for finding in e.findings:
            print(f"  {finding}", file=sys.stderr)
        sys.exit(2)


def check_toolsets(names: list[str] | None) -> None:
    if not names:
        return
    from tools.config.model import SPEC_TOOLSETS
    unknown = [n for n in names or [] if n not in SPEC_TOOLSETS | set(toolsets.names())]
    if unknown:
        print(f"ooxml-mcp: --toolsets: unknown toolset(s) {', '.join(unknown)} "
              f"(known: {', '.join(toolsets.names())}, all)", file=sys.stderr)
        sys.exit(2)


def durable_of(args: argparse.Namespace):
    """--state: this process is one worker of many (tools/runtime/state/durable.py); else None."""
    if not args.state:
        return None
    import socket
    from tools.runtime.call.audit import AuditLog
    from tools.runtime.state.durable import Durable
    from tools.runtime.state.statestore import RedisState
    if not args.state.startswith(("redis://", "rediss://", "unix://")):
        print(f"ooxml-mcp: --state {args.state!r}: only redis://host:port/db is supported", file=sys.stderr)
        sys.exit(2)
    worker_id = args.worker_id or f"{socket.gethostname()}:{args.port}"
    AuditLog.worker = worker_id
    return Durable(RedisState(args.state), worker_id, lease_ms=args.lease_ms)
