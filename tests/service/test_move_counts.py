"""Moves as players count them, one notion everywhere (``MatchView.moves_played``,
``GameRecord.moves_at``): a Querni arrangement is no move, nor a four-player game's
resignation, timeout or skip entry. The console's "move N" counted those entries, and
the stepper counted the arrangements once both were in."""

from __future__ import annotations

import pytest

from locales.i18n import render
from service import MatchService, Repository, StaleMove
from service.views import Caller
from tests.service.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    Recorder,
    SetClock,
    play_random,
    start_four,
)


async def _time_out(service: MatchService, clock: SetClock, match_id: int) -> int:
    """The player to move runs out of time; the sweep skips him. Returns him."""
    late = (await service.get_match(match_id)).to_move[0]
    clock.advance(days=1, minutes=1)
    await service.sweep_deadlines()
    return late


async def test_a_skipped_seat_is_no_move_in_any_count(service: MatchService, repo: Repository,
                                                      clock: SetClock) -> None:
    m = await start_four(service, "fast", on_timeout="skip")
    await play_random(service, m.id, 4, seed=3)
    first = await _time_out(service, clock, m.id)
    m = await service.get_match(m.id)
    assert (m.ply, m.moves_played) == (5, 4)  # the skip is the record's fifth entry
    assert m.skipped_since(first) == 5  # he misses the fifth move
    m = await play_random(service, m.id, 3, seed=4)
    assert (m.ply, m.moves_played) == (8, 7)
    second = await _time_out(service, clock, m.id)
    m = await service.get_match(m.id)
    assert (m.ply, m.moves_played) == (9, 7)
    # the eighth move is the first he misses (not "move 9": the first skip is no move)
    assert m.skipped_since(second) == 8 and m.skipped_since(first) == 5
    # read again from storage (no replay kept): the same count
    fresh = await MatchService(repo, Recorder(), SetClock()).get_match(m.id)
    assert fresh.moves_played == 7
    # the stepper counts the same at every ply
    caller = Caller(GUILD, ALICE)
    for ply, moves in ((4, 4), (5, 4), (6, 5), (8, 7), (9, 7)):
        board = await service.board_at(m.id, ply, caller)
        assert (board.moves, board.match.moves_played) == (moves, moves), ply


async def test_the_stepper_counts_no_arrangement_once_both_are_in(
        service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB],
                                options={"setup": "choose"}, seat="blue")
    await service.accept(m.id, BOB)
    numbers = " ".join(map(str, range(1, 17)))
    await service.submit_setup(m.id, ALICE, numbers)
    await service.submit_setup(m.id, BOB, numbers)
    first = (await service.suggest_moves(m.id, ALICE))[0][0]
    moved = await service.move(m.id, ALICE, first)
    assert moved.match.moves_played == 1
    caller = Caller(GUILD, BOB)
    for ply, moves in ((0, 0), (1, 0), (2, 0), (3, 1)):
        board = await service.board_at(m.id, ply, caller)
        assert (board.moves, board.match.moves_played) == (moves, moves), ply


async def test_a_stale_move_counts_moves_and_names_a_leaving(service: MatchService,
                                                            clock: SetClock) -> None:
    """A move sent from a board older than the match said "at move N" counting the
    record's entries: a skip is no move, and a board that is stale only because a seat
    left says so."""
    m = await start_four(service, "fast", on_timeout="skip")
    await play_random(service, m.id, 4, seed=3)
    await _time_out(service, clock, m.id)  # the fifth entry, no move
    m = await service.get_match(m.id)
    p, _ = await service.position(m.id)
    move = p.variant.format_move(p, next(iter(p.legal_moves())))
    with pytest.raises(StaleMove) as seen:  # the board before the skip
        await service.move(m.id, m.to_move[0], move, expected_ply=4)
    assert render(seen.value.text, "en-US") == (
        "the position changed: a player has left the game since (the match is still at "
        "move 4)")
    with pytest.raises(StaleMove) as seen:  # a board of three moves
        await service.move(m.id, m.to_move[0], move, expected_ply=3)
    assert render(seen.value.text, "en-US").startswith(
        "the position changed: the match is at move 4, not 3")
    played = await service.move(m.id, m.to_move[0], move, expected_ply=5)
    assert played.match.moves_played == 5
