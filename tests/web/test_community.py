"""A server's page (leaderboards, tournaments with standings and pairings, matches in
play) and a player's page (his ratings and newest games there), linked from the match
page, under the same rules: signed links, nothing for a server with the web off, names
and never user ids."""

from __future__ import annotations

from bot.web.links import LinkSigner
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.web.conftest import Site, web_match
from tests.web.test_never_started import status_of


async def test_the_server_page_lists_ladders_tournaments_and_matches_in_play(
        site: Site) -> None:
    done = await web_match(site.service, "damas")
    for user, move in ((ALICE, "b3-a4"), (BOB, "a6-b5")):
        await site.service.move(done.id, user, move)
    await site.service.resign(done.id, BOB)  # a rated win for alice
    live = await web_match(site.service, "xiangqi")
    t = await site.service.create_tournament(GUILD, CHANNEL, ALICE, "damas", fmt="rr",
                                             name="Winter Cup")
    for user in (ALICE, BOB):
        await site.service.join_tournament(t.id, user)
    await site.service.start_tournament(t.id, ALICE)
    match_page = await (await site.client.get(site.path(done))).text()
    server = site.signer.server(GUILD)
    assert f'href="/s/{server}?lang=en-US"' in match_page  # the match page links its server's
    r = await site.client.get(f"/s/{server}")
    assert r.status == 200
    html = await r.text()
    assert "Spanish draughts · all time" in html and "<td>alice</td>" in html
    assert f'href="{site.path(live)}?lang=en-US"' in html and f"Match #{live.id}: Xiangqi" in html
    assert "Winter Cup" in html and "Round 1" in html and "alice – bob" in html
    german = await (await site.client.get(f"/s/{server}?lang=de")).text()
    assert "Ranglisten" in german
    forged = LinkSigner(b"another secret of thirty-two characters!").server(GUILD)
    for path in (f"/s/{forged}", f"/s/{site.signer.server(GUILD + 1)}", "/s/x"):
        assert (await site.client.get(path)).status == 404, path
    await site.service.update_guild_settings(GUILD, web=False)
    assert (await site.client.get(f"/s/{server}")).status == 404


async def test_a_players_page_shows_his_ratings_and_games_in_that_server(site: Site) -> None:
    done = await web_match(site.service, "damas")
    for user, move in ((ALICE, "b3-a4"), (BOB, "a6-b5")):
        await site.service.move(done.id, user, move)
    await site.service.resign(done.id, BOB)
    later = await web_match(site.service, "xiangqi")
    page = await (await site.client.get(site.path(later))).text()
    assert f'href="{site.path(later)}/player/0?lang=en-US"' in page  # alice's name links her page
    r = await site.client.get(f"{site.path(later)}/player/0")
    assert r.status == 200
    html = await r.text()
    assert "<h1>alice</h1>" in html and "Spanish draughts" in html and "1W 0L 0D" in html
    assert f'href="{site.path(done)}?lang=en-US"' in html
    assert f'href="{site.path(later)}?lang=en-US"' in html
    for bad in ("5", "x", "01"):
        assert (await site.client.get(f"{site.path(later)}/player/{bad}")).status == 404
    await site.service.update_guild_settings(GUILD, web=False)
    assert (await site.client.get(f"{site.path(later)}/player/0")).status == 404


async def test_a_player_nobody_knows_is_named_in_words_never_by_id_nor_question_mark(
        site: Site) -> None:
    """Carol's name is known to nobody here: her leaderboard row says "A player" (in
    the reader's language), the pairings "Player 2" as the standings do (her place in
    the tournament's list), a challenge she sent "a player"; never "?" nor her id."""
    s = site.service
    won = await s.challenge(GUILD, CHANNEL, CAROL, "damas", opponents=[ALICE], seat=0)
    won = await s.accept(won.id, ALICE)
    await s.update_guild_settings(GUILD, web=True)
    for user, move in ((CAROL, "b3-a4"), (ALICE, "a6-b5")):
        await s.move(won.id, user, move)
    await s.resign(won.id, ALICE)  # a rated win for carol
    t = await s.create_tournament(GUILD, CHANNEL, ALICE, "damas", fmt="rr", name="Cup")
    for user in (ALICE, CAROL):
        await s.join_tournament(t.id, user)
    await s.start_tournament(t.id, ALICE)
    server = site.signer.server(GUILD)
    html = await (await site.client.get(f"/s/{server}?lang=en-US")).text()
    assert "<td>A player</td>" in html and "<li>alice – Player 2 <a " in html
    assert "<td>Player 2</td>" in html  # the standings' own word, the same number
    german = await (await site.client.get(f"/s/{server}?lang=de")).text()
    assert "<td>Ein Spieler</td>" in german and "alice – Spieler 2" in german
    her_page = await (await site.client.get(f"{site.path(won)}/player/0")).text()
    assert "<h1>White</h1>" in her_page  # her page: her seat in the match linking it
    sent = await s.challenge(GUILD, CHANNEL, CAROL, "xiangqi", opponents=[BOB], seat=0)
    page = await (await site.client.get(site.path(sent) + "?lang=en-US")).text()
    assert status_of(page) == "Challenge from a player to bob, waiting for bob to accept"
    for shown in (html, german, her_page, page):
        assert "<td>?</td>" not in shown and "– ?" not in shown and "from ?" not in shown
        assert str(CAROL) not in shown
