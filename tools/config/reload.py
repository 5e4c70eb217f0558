"""A config file installed on a running server: at the start (``--config``) and on SIGHUP, where an
invalid file keeps the last good config."""
from __future__ import annotations

import logging
import os
import sys

from tools.config.loading import load_config
from tools.config.model import Config, ConfigError

log = logging.getLogger("ooxml_mcp")


def apply_config_file(services, path: str | os.PathLike) -> Config:
    """Load, validate and install the config at ``path``; ConfigError lists every problem."""
    config = load_config(path, stdio_tenant=services.stdio_tenant)
    services.live.install(config)
    return config


def reload_config(services, path: str | os.PathLike) -> bool:
    """Reload ``path``: True when installed; an invalid config keeps the last good one."""
    try:
        config = apply_config_file(services, path)
    except ConfigError as e:
        print(f"ooxml-mcp: config {path} not reloaded, keeping the last good one:", file=sys.stderr)
        for finding in e.findings:
            print(f"  {finding}", file=sys.stderr)
        return False
    log.warning("config %s reloaded: %d HTTP tool(s)", path, len(config.http_tools))
    return True
