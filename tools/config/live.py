"""The config in force: one holder the server's Services own, read by every call and replaced whole
by a reload (SIGHUP), together with the audit log the config asks for."""
from __future__ import annotations

import threading

from tools.config.model import Config
from tools.runtime.call.audit import AuditLog


class LiveConfig:
    """``config`` and ``audit`` as they are now; ``install`` swaps both (a reload, or the start)."""

    def __init__(self, config: Config | None = None, audit: AuditLog | None = None):
        self._lock = threading.Lock()
        self.config: Config | None = None
        self.audit = audit  # given without a config: a test's own log
        if config is not None:
            self.install(config)

    def install(self, config: Config) -> None:
        """Make ``config`` the live one: tools, tenants, audit log; drop templates that changed."""
        with self._lock:
            if self.config is not None:
                forget_changed_templates(self.config, config)
            self.config = config
            self.audit = audit_for(config, self.audit)


def audit_for(config: Config, current: AuditLog | None) -> AuditLog | None:
    """The log ``config`` asks for: the current one kept when its spec is unchanged."""
    spec = config.audit
    if current is not None and (spec is None or current.spec != spec):
        current.close()
        current = None
    if spec is not None and current is None:
        current = AuditLog(spec.path, max_bytes=spec.max_bytes, backups=spec.backups, fsync=spec.fsync)
        current.spec = spec
    if current is not None:
        current.secrets = config.secrets
    return current


def forget_changed_templates(old: Config, new: Config) -> None:
    from render import gotemplate
    kept = {(s.name, s.response_template, s.strict_template): s for s in new.http_tools}
    for spec in old.http_tools:
        if spec.response_template and kept.get((spec.name, spec.response_template, spec.strict_template)) != spec:
            gotemplate.forget(spec.response_template)
