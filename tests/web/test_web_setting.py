"""The per-server web switch: stored by every repository, kept by a change of the
seasons' schedule, and set from the console."""

from __future__ import annotations

import io

from bot.console import CONSOLE_GUILD, open_console
from service import MatchService
from service.seasons import Schedule
from storage import MemoryRepository
from tests.service.conftest import CHANNEL, GUILD, clock, recorder, repo, service  # noqa: F401


async def test_the_web_switch_is_stored_and_survives_a_seasons_change(
        service: MatchService) -> None:  # noqa: F811
    assert (await service.get_guild_settings(GUILD)).web is False
    await service.update_guild_settings(GUILD, web=True, language="de")
    await service.configure_seasons(GUILD, CHANNEL, Schedule.MONTHLY.value)
    kept = await service.get_guild_settings(GUILD)
    assert kept.web is True and kept.language == "de" and kept.seasons == "monthly"
    await service.update_guild_settings(GUILD, web=False)
    assert (await service.get_guild_settings(GUILD)).web is False


async def test_the_console_turns_the_web_on_and_off() -> None:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out)
    await console.run(io.StringIO("as alice\n/settings web:on\n/settings web:maybe\n"),
                      prompt=False)
    assert (await console.service.get_guild_settings(CONSOLE_GUILD)).web is True
    text = out.getvalue()
    assert "matches on the web: on" in text and "! web must be on or off" in text


async def test_the_console_gives_and_revokes_a_players_link() -> None:
    from bot.web.links import LinkSigner, WebLinks

    out = io.StringIO()
    store = MemoryRepository()
    console = open_console(store, out)
    await console.run(io.StringIO(
        "as alice\n/web\n/settings web:on\n/challenge @bob damas\nas bob\n/accept\n"
        "/web\n"), prompt=False)
    assert "! the web is not set up here (TABLERO_WEB_SECRET)" in out.getvalue()
    signer = LinkSigner(b"a web secret for the tests, 32+ characters long")
    console.web = WebLinks(signer, "https://tablero.example/")
    await console.run(io.StringIO("/web\n/web revoke\nas carol\n/web #1\n"), prompt=False)
    text = out.getvalue()
    url = next(w for w in text.split() if w.startswith("https://tablero.example/p/"))
    grant = signer.read_player(url.rsplit("/", 1)[1])
    assert grant is not None and grant.match_id == 1 and grant.epoch == 0
    assert "your web links no longer work" in text
    assert await store.web_epoch(grant.user_id) == 1  # that link is dead now
    assert text.rstrip().splitlines()[-1].startswith("! ")  # carol plays no part in #1
