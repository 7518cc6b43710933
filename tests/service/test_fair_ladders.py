"""Issue 21, defect 3: ladders mean skill. A match that ends before every player has moved
(an agreed draw, a resignation, a timeout) is aborted and unrated; a set-up submission or
a move the rules played for someone is not a move; players are provisional (``?``, ranked
after the established) until ``PROVISIONAL_GAMES`` rated games; a player already out of a
four-player game does not share a later draw of the others."""

from __future__ import annotations

import pytest

from service import MatchEnded, MatchService, MatchStatus
from service.records import PROVISIONAL_GAMES
from service.views import RATING_MEANING
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
    play_random,
    start_match,
)


async def test_an_agreed_draw_at_move_one_is_aborted_and_unrated(
        service: MatchService, recorder: Recorder) -> None:
    for _ in range(3):  # the farming of the issue: draws agreed at once
        m = await start_match(service)
        await service.move(m.id, ALICE, "h3-e3")  # one player moved, the other did not
        await service.offer_draw(m.id, ALICE)
        m = await service.accept_draw(m.id, BOB)
        assert m.status is MatchStatus.ABORTED and m.result is not None
        assert m.result.reason.startswith("aborted: draw agreed before every player")
        ended = recorder.of(MatchEnded)[-1]
        assert isinstance(ended, MatchEnded) and ended.ratings == () and ended.result is None
    assert (await service.leaderboard(GUILD, "xiangqi")).total == 0


async def test_a_resignation_before_every_player_moved_is_aborted(
        service: MatchService) -> None:
    m = await start_match(service)
    m = await service.resign(m.id, ALICE)  # nobody moved
    assert m.status is MatchStatus.ABORTED
    m = await start_match(service)
    await service.move(m.id, ALICE, "h3-e3")
    m = await service.resign(m.id, BOB)  # Bob never moved
    assert m.status is MatchStatus.ABORTED
    assert m.result is not None and "resigned before every player had moved" in m.result.reason
    assert (await service.leaderboard(GUILD, "xiangqi")).total == 0
    m = await start_match(service)
    await play_random(service, m.id, 2)
    m = await service.resign(m.id, BOB)  # both moved: a real, rated result
    assert m.status is MatchStatus.FINISHED
    assert (await service.leaderboard(GUILD, "xiangqi")).total == 2


async def test_a_timeout_before_every_player_moved_is_aborted(
        service: MatchService, clock: SetClock) -> None:
    m = await start_match(service, days=1)
    await play_random(service, m.id, 3)  # Alice moved twice, Bob once: a timeout counts
    clock.advance(days=2)
    await service.sweep()
    assert (await service.get_match(m.id)).status is MatchStatus.FINISHED
    lobby = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                    options={"players": 4, "mode": "slow"}, seat=0, days=1)
    for u in (BOB, CAROL, DAVE):
        lobby = await service.join(lobby.id, u)
    await play_random(service, lobby.id, 3)  # the fourth player never moves
    clock.advance(days=2)
    await service.sweep()
    assert (await service.get_match(lobby.id)).status is MatchStatus.ABORTED


async def test_setup_submissions_are_not_moves(service: MatchService) -> None:
    m = await start_match(service, "querni", options={"setup": "choose"})
    await service.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    await service.submit_setup(m.id, BOB, " ".join(str(n) for n in range(16, 0, -1)))
    m = await service.get_match(m.id)
    await play_random(service, m.id, 1)
    m = await service.resign(m.id, m.to_move[0])
    assert m.status is MatchStatus.ABORTED


async def test_provisional_players_rank_after_established_ones(
        service: MatchService) -> None:
    # Alice and Bob play PROVISIONAL_GAMES rated games (Alice loses most of them)...
    for i in range(PROVISIONAL_GAMES):
        m = await start_match(service)
        await play_random(service, m.id, 2, seed=i)
        await service.resign(m.id, ALICE if i else BOB)
    # ...then Carol wins her first game against Eve, with a higher number than Alice.
    m = await service.challenge(GUILD, CHANNEL, CAROL, "xiangqi", opponents=[EVE], seat=0)
    await service.accept(m.id, EVE)
    await play_random(service, m.id, 2)
    await service.resign(m.id, EVE)
    board = await service.leaderboard(GUILD, "xiangqi")
    by_user = {e.user_id: e for e in board.entries}
    assert by_user[CAROL].ordinal > by_user[ALICE].ordinal
    assert [e.user_id for e in board.entries][:2] == [BOB, ALICE]  # established first
    assert [e.provisional for e in board.entries] == [False, False, True, True]
    assert by_user[CAROL].shown.render("en-US").endswith("?")
    assert not by_user[ALICE].shown.render("en-US").endswith("?")
    carol = await service.rank_of(GUILD, "xiangqi", CAROL)
    assert carol is not None and carol.rank == 3
    meaning = RATING_MEANING.render("en-US")
    assert "μ − 3σ" in meaning and str(PROVISIONAL_GAMES) in meaning


async def test_a_player_already_out_does_not_share_a_later_draw(
        service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4, "mode": "slow"}, seat=0)
    for u in (BOB, CAROL, DAVE):
        m = await service.join(m.id, u)
    m = await play_random(service, m.id, 4)
    quitter = m.to_move[0]
    m = await service.resign(m.id, quitter)
    assert m.status is MatchStatus.ACTIVE
    offerer = m.to_move[0]
    m = await service.offer_draw(m.id, offerer)
    for u in m.players():
        if u not in (offerer, quitter):
            m = await service.accept_draw(m.id, u)
    assert m.status is MatchStatus.FINISHED and m.result is not None
    assert quitter not in m.result.ranking[0] and m.result.ranking[-1] == (quitter,)
    board = await service.leaderboard(GUILD, "alquerque-grande-4")
    by_user = {e.user_id: e for e in board.entries}
    assert (by_user[quitter].draws, by_user[quitter].losses) == (0, 1)
    assert all(by_user[u].draws == 1 for u in m.players() if u != quitter)
    assert all(by_user[quitter].ordinal < by_user[u].ordinal
               for u in m.players() if u != quitter)


@pytest.mark.parametrize("game", ["alquerque", "damas"])
async def test_a_quick_real_game_still_counts(service: MatchService, game: str) -> None:
    m = await start_match(service, game)
    await play_random(service, m.id, 2)
    await service.offer_draw(m.id, ALICE)
    m = await service.accept_draw(m.id, BOB)
    assert m.status is MatchStatus.FINISHED
    assert {e.draws for e in (await service.leaderboard(GUILD, game)).entries} == {1}
