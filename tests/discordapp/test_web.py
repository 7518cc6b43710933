"""/web through SimCord: a player's own link, privately; refused to others; revoke."""

from __future__ import annotations

import re

from bot.web.links import LinkSigner, WebLinks
from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_match

SIGNER = LinkSigner(b"a web secret for the tests, 32+ characters long")


async def test_web_answers_a_players_own_link_privately_and_revokes(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, "damas", seat=0)
    refused = await w.alice.slash(thread, "web")  # the server has the web off
    assert reply(refused).ephemeral and "There is no match" in reply(refused).content
    await w.service.update_guild_settings(w.guild.id, web=True)
    off = await w.alice.slash(thread, "web")  # and this bot has no web secret
    assert reply(off).ephemeral and "not set up" in reply(off).content
    cog = w.bot.get_cog("Comforts")
    cog.web = WebLinks(SIGNER, "https://tablero.example")  # type: ignore[union-attr]
    given = await w.alice.slash(thread, "web")
    assert reply(given).ephemeral
    # in <>, so that Discord shows no preview of the private link
    url = re.search(r"<https://tablero\.example/p/([^\s>]+)>", reply(given).content)
    assert url is not None
    grant = SIGNER.read_player(url.group(1))
    assert grant is not None and (grant.match_id, grant.user_id) == (m.id, w.alice.id)
    nosy = await w.carol.slash(thread, "web")
    assert reply(nosy).ephemeral and "https://" not in reply(nosy).content
    revoked = await w.alice.slash(thread, "web", revoke=True)
    assert reply(revoked).ephemeral and "no longer work" in reply(revoked).content
    assert await w.service.repository.web_epoch(w.alice.id) == grant.epoch + 1
