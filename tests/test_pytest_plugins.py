"""The suite's own pytest set-up: SimCord's plugin, which imports discord.py and aiohttp
(0.4 s of CPU a process, measured), is loaded only by a process that collects the
Discord tests (tests/discordapp/conftest.py registers it), not by every test process
through its entry point (pyproject's addopts: ``-p no:simcord``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

DISCORD_TESTS = Path(__file__).resolve().parent / "discordapp"


def test_simcords_plugin_is_loaded_only_with_the_discord_tests(
        pytestconfig: pytest.Config) -> None:
    manager = pytestconfig.pluginmanager
    assert manager.is_blocked("simcord"), "its entry point loads it in every process"
    plugin = sys.modules.get("simcord.pytest_plugin")
    if plugin is None:
        return  # this process collected no Discord test: nor did it import the plugin
    assert manager.is_registered(plugin)
    assert any(Path(str(getattr(p, "__file__", ""))).parent == DISCORD_TESTS
               for p in manager.get_plugins()), "loaded without the Discord tests"
