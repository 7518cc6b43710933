"""A match that never started (a challenge not yet accepted, declined or withdrawn; a lobby
waiting for players), reached through its link (``tablero web link N``; a lobby's player
with a seat has his own, ``/web``): its page says what it is, in the reader's language,
with no board, no steps, no move list, no record and nobody "to move" (it said "Seat 0 to
move"); its board picture and record are not served; the lists of a server's and a
player's games leave it out. Once accepted, the same link shows the match."""

from __future__ import annotations

from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.web.conftest import Site
from tests.web.test_clock_state import words
from tests.web.test_play import player_path


def status_of(html: str) -> str:
    return words(html.split('id="status">', 1)[1].split("</p>", 1)[0])


def nothing_to_play(html: str) -> None:
    """No board, steps, moves, record or turn on a page."""
    for part in ('id="board"', 'class="step"', 'id="moves"', 'class="record"',
                 'id="play-h"', "to move", "Seat 0"):
        assert part not in html, part


async def test_a_challenge_waiting_for_its_opponent_says_so(site: Site) -> None:
    s = site.service
    await s.update_guild_settings(GUILD, web=True)
    m = await s.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    path = site.path(m)
    html = await (await site.client.get(path + "?lang=en-US")).text()
    assert status_of(html) == "Challenge from alice to bob, waiting for bob to accept"
    assert "3 days per move, rated" in html
    assert "The board appears here when the match starts." in html
    assert 'id="waiting"' in html  # the script loads the page again when it changes
    nothing_to_play(html)
    german = await (await site.client.get(path + "?lang=de")).text()
    assert status_of(german) == ("Herausforderung von alice an bob, wartet darauf, dass bob "
                                 "annimmt")
    assert (await site.client.get(path + "/board/0.png")).status == 404
    assert (await site.client.get(path + "/record.wxf")).status == 404
    server = await (await site.client.get(
        f"/s/{site.signer.server(GUILD)}?lang=en-US")).text()
    assert f"Match #{m.id}" not in server  # not among the matches in play

    await s.accept(m.id, BOB)  # the same link now shows the match
    started = await (await site.client.get(path + "?lang=en-US")).text()
    assert 'id="board"' in started and "alice (Red) to move" in started
    assert 'id="waiting"' not in started
    assert (await site.client.get(path + "/board/0.png")).status == 200


async def test_a_declined_or_withdrawn_challenge_never_started(site: Site) -> None:
    s = site.service
    await s.update_guild_settings(GUILD, web=True)
    declined = await s.challenge(GUILD, CHANNEL, ALICE, "damas", opponents=[BOB])
    declined = await s.decline(declined.id, BOB)
    html = await (await site.client.get(site.path(declined) + "?lang=en-US")).text()
    assert status_of(html) == "Challenge from alice to bob: declined"
    assert "This match never started." in html and 'id="waiting"' not in html
    nothing_to_play(html)
    assert (await site.client.get(site.path(declined) + "/record.pdn")).status == 404

    withdrawn = await s.challenge(GUILD, CHANNEL, ALICE, "damas")  # open to anyone
    html = await (await site.client.get(site.path(withdrawn) + "?lang=en-US")).text()
    assert status_of(html) == "Open challenge from alice, waiting for anyone to accept"
    withdrawn = await s.cancel(withdrawn.id, ALICE)
    html = await (await site.client.get(site.path(withdrawn) + "?lang=sv-SE")).text()
    assert status_of(html) == "Öppen utmaning från alice: tillbakadragen"
    nothing_to_play(html)

    # a player's page lists the games he played, not these
    played = await s.challenge(GUILD, CHANNEL, ALICE, "damas", opponents=[BOB], seat=0)
    played = await s.accept(played.id, BOB)
    member = await (await site.client.get(site.path(played) + "/player/0?lang=en-US")).text()
    assert f"Match #{played.id}" in member
    assert f"Match #{declined.id}:" not in member and f"Match #{withdrawn.id}:" not in member


async def test_a_lobby_says_who_is_in_and_what_is_open(site: Site) -> None:
    s = site.service
    await s.update_guild_settings(GUILD, web=True)
    m = await s.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande", opponents=[BOB],
                          options={"players": 4}, seat=0)
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    assert status_of(html) == "Lobby of alice for 4 players, waiting for players"
    assert "<li>alice in</li><li>bob invited</li><li>2 open places</li>" in html
    nothing_to_play(html)
    # its seats exist already (alice chose hers): still no board is drawn
    assert (await site.client.get(site.path(m) + "/board/0.png?seat=0")).status == 404
    # her own link (/web gives one to a player with a seat) shows it too, nothing to play
    mine = await (await site.client.get(await player_path(site, m, ALICE))).text()
    assert status_of(mine) == status_of(html)
    nothing_to_play(mine)
    m = await s.cancel(m.id, ALICE)
    html = await (await site.client.get(site.path(m) + "?lang=zh-CN")).text()
    assert status_of(html) == "alice 的 4 人房间：已取消"
