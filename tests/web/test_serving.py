"""Where the pages are served: ``tablero web`` in a process of its own, or ``tablero run``
beside the bot when ``TABLERO_WEB_PORT`` is set (the bot's own wiring is tested through
SimCord in tests/discordapp/test_web_pages.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from bot.__main__ import discord_main, serve_web, web_address
from bot.discordapp.cogs.web import WebPagesCog
from bot.settings import load_settings
from bot.web.links import WebLinks
from tests.web.conftest import SECRET, Site


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TABLERO_WEB_PORT", "TABLERO_WEB_HOST", "TABLERO_WEB_SECRET"):
        monkeypatch.delenv(name, raising=False)


def test_the_bot_serves_the_pages_only_with_a_port_and_a_secret(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A port without a usable secret is a setting to fix: tablero run stops before it
    starts, in one line, exit status 2 (it said so and ran on without the pages, exit
    status 0 at its end, so a service manager saw nothing wrong)."""
    from bot.discordapp import cli

    ran: list[object] = []
    monkeypatch.setattr(cli, "run", lambda *args, **kwargs: ran.append(kwargs) or 0)
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    assert web_address(load_settings(None)) is None  # no port: not served
    monkeypatch.setenv("TABLERO_WEB_PORT", "8090")
    for secret in ("", "short"):
        monkeypatch.setenv("TABLERO_WEB_SECRET", secret)
        assert discord_main(load_settings(None)) == 2
        assert capsys.readouterr().err.splitlines() == [
            "tablero run: TABLERO_WEB_PORT is set but TABLERO_WEB_SECRET is not a random "
            "text of at least 32 characters: set it (the same in every web process), or "
            "unset TABLERO_WEB_PORT"]
    assert ran == []
    monkeypatch.setenv("TABLERO_WEB_SECRET", SECRET.decode())
    monkeypatch.setenv("TABLERO_WEB_HOST", "0.0.0.0")
    assert web_address(load_settings(None)) == ("0.0.0.0", 8090)
    assert discord_main(load_settings(None)) == 0
    assert ran[0]["web_address"] == ("0.0.0.0", 8090)  # type: ignore[index]


async def test_a_taken_port_is_said_in_one_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = await serve_web(tmp_path / "t.db", SECRET.decode(), "127.0.0.1", port)
    assert code == 1
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err


async def test_a_taken_web_port_stops_the_bot_as_it_starts(site: Site) -> None:
    """``TABLERO_WEB_PORT`` taken: the bot stops as it starts, saying so in one line (exit
    status 1, as for a taken metrics port, and systemd tries again in 5 s: the port of a
    process still stopping is soon free). It ran on without the pages, logging an error
    once, so a restart that met the old process' port served no page until the next one,
    and /readyz said ready."""
    from bot.discordapp.cli import web_pages_refused
    from bot.discordapp.cogs.web import WebPagesUnavailable

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        cog = WebPagesCog(site.service, WebLinks(site.signer, "http://x"), "127.0.0.1", port)
        with pytest.raises(WebPagesUnavailable) as refused:
            await cog.cog_load()
    assert not cog.serving
    said = web_pages_refused(refused.value)  # what tablero run exits with
    assert said.startswith(f"tablero run: cannot serve the web pages on 127.0.0.1:{port} (")
    assert said.endswith("): free the port, or set TABLERO_WEB_PORT to another one")
    await cog.cog_unload()
