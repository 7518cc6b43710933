"""The web beside the bot (issue 40): ``tablero run`` with ``TABLERO_WEB_PORT`` serves the
pages in the bot's process, over the bot's own service (a move played on the web is
posted in the match's thread); turn and result posts and /board carry an "Open on the
web" link button once the server turned the web on."""

from __future__ import annotations

import re
import socket
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.discordapp import TableroBot, create_bot
from bot.discordapp.cogs.web import WebPagesCog
from bot.web.links import LinkSigner, PlayerPass, WebLinks
from tests.discordapp.conftest import DELIVERY, SHARDS, SWEEP_SECONDS, DiscordClock, World
from tests.discordapp.helpers import buttons, reply, start_match, words

SIGNER = LinkSigner(b"a web secret for the tests, 32+ characters long")
BASE = "https://tablero.example"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def simcord_bot(tmp_path: Path, repository: Any) -> TableroBot:
    """The bot as ``tablero run`` builds it with the web set up and TABLERO_WEB_PORT."""
    from bot.boards import load_renderer

    return create_bot(repository, DiscordClock(), renderer=load_renderer(),
                      database=tmp_path / "tablero.db", sweep_seconds=SWEEP_SECONDS,
                      shard_count=SHARDS, delivery=DELIVERY, web=WebLinks(SIGNER, BASE),
                      web_address=("127.0.0.1", free_port()))


def web_links_of(message: Any) -> list[tuple[str, str]]:
    """(label, url) of each link button under a posted message or a reply."""
    if not all(isinstance(row, dict) for row in message.components):
        return [(b.label, b.url) for b in buttons(message) if b.url]  # rows or a card
    return [(c.get("label"), c["url"]) for row in message.components
            for c in row["components"] if c.get("url")]


def served(w: World) -> WebPagesCog:
    cog = w.bot.get_cog("WebPages")
    assert isinstance(cog, WebPagesCog) and cog.serving
    return cog


async def test_posts_carry_the_web_link_once_the_server_turned_the_web_on(
        world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, "damas", seat=0)
    assert web_links_of(thread.last_message) == []  # off by default: no link
    board = reply(await w.alice.slash(thread, "board"))
    assert web_links_of(board) == []
    await w.service.update_guild_settings(w.guild.id, web=True)
    await w.alice.slash(thread, "move", move="b3-a4")
    token = SIGNER.spectator(m.id, w.guild.id)
    assert web_links_of(thread.last_message) == [("Open on the web", f"{BASE}/m/{token}")]
    board = reply(await w.bob.slash(thread, "board"))
    assert board.ephemeral and web_links_of(board) == [("Open on the web",
                                                        f"{BASE}/m/{token}")]
    await w.bob.slash(thread, "move", move="a6-b5")
    await w.bob.slash(thread, "resign")
    result = [msg for msg in thread.history() if "resigned" in msg.content]
    assert result and ("Open on the web", f"{BASE}/m/{token}") in web_links_of(result[-1])


async def test_the_bot_serves_the_pages_and_a_move_played_there_is_posted(
        world: World) -> None:
    w = world
    cog = served(w)
    m, thread = await start_match(w, w.alice, w.bob, "damas", seat=0)
    root = f"http://127.0.0.1:{cog.server.port}"
    page = f"{root}/m/{SIGNER.spectator(m.id, w.guild.id)}"
    async with aiohttp.ClientSession() as http:
        async with http.get(page) as r:
            assert r.status == 404  # the server has the web off
        await w.service.update_guild_settings(w.guild.id, web=True)
        async with http.get(page) as r:
            assert r.status == 200 and f"Match #{m.id}" in await r.text()
        epoch = await w.service.web_pass(m.id, w.alice.id)
        token = SIGNER.player(PlayerPass(m.id, w.guild.id, w.alice.id,
                                         int(time.time()) + 600, epoch))
        async with http.get(f"{root}/p/{token}") as r:
            csrf = re.search(r'name="csrf" value="([^"]+)"', await r.text())
        assert csrf is not None
        async with http.post(f"{root}/p/{token}/move", allow_redirects=False,
                             data={"csrf": csrf.group(1), "ply": "0", "move": "b3-a4"}) as r:
            assert r.status == 303
    deliveries: Any = w.bot.get_cog("Deliveries")
    await deliveries.notifier.drain()
    after = await w.service.get_match(m.id)
    assert after.ply == 1 and after.to_move == (w.bob.id,)
    posts = [words(msg) for msg in thread.history()]
    assert any("b3-a4" in p and "played" in p for p in posts), posts
    # stopping the bot stops the pages
    await w.bot.remove_cog("WebPages")
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.ClientConnectionError):
            await http.get(page)
