"""Games at a glance (issue 42, ``MatchService.glance``): the reader's own live games
first (those waiting on him first), then the matches he follows, then the games of the
players he follows; each once, live only, of this server only, at most nine; each with
its board as anybody may see it and the players' names."""

from __future__ import annotations

import random

from bot.boards import glance_status
from locales.i18n import render
from service import MatchService, Repository
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    EVE,
    GUILD,
    Recorder,
    SetClock,
)


async def duel(service: MatchService, a: int, b: int, guild: int = GUILD) -> int:
    m = await service.challenge(guild, CHANNEL, a, "xiangqi", opponents=[b], seat=0)
    await service.accept(m.id, b)
    return m.id


async def test_own_games_then_followed_matches_then_followed_players(repo: Repository) -> None:
    names = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave", EVE: "eve"}
    service = MatchService(repo, Recorder(), SetClock(), rng=random.Random(1),
                           names=lambda _g, u: names.get(u, ""))
    waits_on_bob = await duel(service, ALICE, BOB)
    await service.move(waits_on_bob, ALICE, "h3-e3")
    waits_on_alice = await duel(service, ALICE, CAROL)
    followed = await duel(service, DAVE, EVE)
    by_player = await duel(service, BOB, CAROL)
    over = await duel(service, BOB, DAVE)
    await service.move(over, BOB, "h3-e3")
    await service.move(over, DAVE, "h8-e8")
    elsewhere = await duel(service, BOB, EVE, guild=GUILD + 1)
    await service.follow(GUILD, ALICE, match_id=followed)
    await service.follow(GUILD, ALICE, player=BOB)
    await service.resign(over, DAVE)
    assert elsewhere

    shown = await service.glance(GUILD, ALICE)
    assert [b.match.id for b in shown] == [waits_on_alice, waits_on_bob, followed, by_player]
    first = shown[0]
    assert ALICE in first.match.to_move and first.names == ("alice", "carol")
    moved = shown[1]
    assert moved.board.last_marks is not None and moved.board.moves == 1
    assert moved.board.position.to_text() == (await service.position(waits_on_bob))[0].to_text()
    assert [b.match.id for b in await service.glance(GUILD, ALICE, limit=2)] == \
        [waits_on_alice, waits_on_bob]
    assert await service.glance(GUILD + 1, ALICE) == []


async def test_at_most_nine_boards(service: MatchService) -> None:
    for _ in range(11):
        await duel(service, ALICE, BOB)
    shown = await service.glance(GUILD, BOB)
    assert len(shown) == 9 and len({b.match.id for b in shown}) == 9


async def test_whose_move_a_glance_says_without_names_is_a_colour_never_an_id(
        service: MatchService) -> None:
    await duel(service, ALICE, BOB)
    [board] = await service.glance(GUILD, BOB)
    said, mine = glance_status(board.match, BOB, None, SetClock().now())
    assert not mine and render(said, "de").startswith("Rot am Zug")
