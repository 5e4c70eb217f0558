"""Services (tools/services.py): built once at start-up, never reassigned; what changes while the
server runs goes through its holders (roots, the live config)."""
from __future__ import annotations

import pytest

import server
from tools.config.loading import parse_config
from tools.services import Services


def test_services_are_fixed_and_a_new_config_goes_through_the_live_holder(tmp_path):
    services = Services(roots=[tmp_path])
    with pytest.raises(AttributeError, match="fixed at start-up"):
        services.config = parse_config({"author": "Ann"}, base_dir=tmp_path)
    with pytest.raises(AttributeError, match="fixed at start-up"):
        services.office = None
    services.live.install(parse_config({"author": "Ann"}, base_dir=tmp_path))
    assert services.config.author == "Ann"


def test_the_server_builds_its_services_whole_from_the_command_line(tmp_path):
    config = tmp_path / "server.yaml"
    config.write_text("author: Ann\n", encoding="utf-8")
    args = server.parse_args(["--root", str(tmp_path), "--roots-from-client", "--config", str(config),
                              "--call-timeout", "7"])
    services = server.make_services(args)
    assert services.config.author == "Ann" and services.config.source == config.resolve()
    assert services.client_roots is not None and list(services.roots) == [tmp_path.resolve()]
    assert services.limits.call_timeout_s == 7


def test_client_roots_replace_the_sandbox_in_its_holder(tmp_path):
    services = Services(roots=[tmp_path])
    inner = tmp_path / "inner"
    services.roots.replace([inner])
    assert list(services.roots) == [inner] and services.roots[0] == inner
