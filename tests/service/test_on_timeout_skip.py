"""``on_timeout:skip`` (issue 43): a four-player game goes on after a seat's time runs
out; his turns are skipped for the rest of the game (the rules' ``skip_seat``), his stones
stay, he ranks last and is rated so. The skip is an entry of the record (``#skip 2``), so
the match replays exactly, across a restart."""

from __future__ import annotations

import random

import pytest

from service import (
    InvalidOption,
    MatchEnded,
    MatchService,
    MatchStatus,
    PlayerOut,
    Repository,
)
from service.outbox import event_of
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    Recorder,
    SetClock,
    play_random,
    start_four,
)

PLAYERS = (ALICE, BOB, CAROL, DAVE)


async def _four(service: MatchService, mode: str, seed: int = 3) -> int:
    m = await start_four(service, mode, on_timeout="skip")
    assert m.on_timeout == "skip"
    await play_random(service, m.id, 4, seed=seed)  # everyone has moved once
    return m.id


async def _time_out(service: MatchService, clock: SetClock, match_id: int) -> int:
    """Let the player to move run out of time; the sweep skips him. Returns him."""
    late = (await service.get_match(match_id)).to_move[0]
    clock.advance(days=1, minutes=1)
    await service.sweep_deadlines()
    return late


async def test_fast_goes_on_without_the_late_seat_and_ranks_him_last(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    match_id = await _four(service, "fast")
    before = await service.get_match(match_id)
    late = await _time_out(service, clock, match_id)
    outs = [e for e in recorder.events if isinstance(e, PlayerOut)]
    assert [(e.user_id, e.reason) for e in outs] == [(late, "skipped")]
    assert not [e for e in recorder.events if isinstance(e, MatchEnded)]
    m = await service.get_match(match_id)
    assert m.status is MatchStatus.ACTIVE and m.ply == before.ply + 1
    assert m.skipped_since(late) == before.ply + 1 and m.to_move and late not in m.to_move
    assert any(s.user_id == late and s.out for s in m.seats)
    p, _ = await service.position(match_id)
    seat = before.seat_of(late)
    assert seat is not None and p.skipped_seats() == {seat}
    assert seat in {x.seat for x in p.pieces().values()}  # his stones stay
    history = await service.history(match_id)
    assert history.entries[-1][2] == f"#skip {seat}"
    # the others play on; his turn never comes again
    for n in range(12):
        m = await play_random(service, match_id, 1, seed=n)
        assert late not in m.to_move
    # another player resigns: fast ends at once, ranked on captures, the skipped seat last
    leaver = next(u for u in PLAYERS if u != late and u in m.to_move)
    await service.resign(match_id, leaver)
    ended = [e for e in recorder.events if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].result is not None
    assert ended[0].result.ranking[-1] == (late,)
    rated = {r.user_id: r for r in ended[0].ratings}
    assert set(rated) == set(PLAYERS)  # he is rated, as the last
    assert rated[late].outcome == "loss" and rated[late].mu_after < rated[late].mu_before
    assert await service.verify_all() == []
    # a rematch keeps the lobby's choice with the rest of its terms
    again = await service.rematch(match_id, ALICE)
    assert again.on_timeout == "skip"


async def test_slow_keeps_his_stones_and_a_restart_in_the_middle_goes_on(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(5))
    match_id = await _four(service, "slow")
    first = await _time_out(service, clock, match_id)
    # the outbox entry reads back as it was told: the skipped seat in its match view
    (told,) = [e for e in await repo.pending_outbox(limit=1000) if e.kind == "player-out"]
    read = event_of(told)
    assert isinstance(read, PlayerOut) and read.reason == "skipped"
    assert read.match.skipped_since(first) is not None
    # a restart: a new service over the same storage replays the record with the skip
    service = MatchService(repo, recorder, clock, rng=random.Random(6))
    m = await service.get_match(match_id)
    assert m.status is MatchStatus.ACTIVE and m.skipped_since(first) is not None
    p, _ = await service.position(match_id)
    seat = m.seat_of(first)
    assert seat is not None and p.skipped_seats() == {seat}
    assert seat in {x.seat for x in p.pieces().values()}  # slow keeps a skipped seat's stones
    assert p.to_text() == m.position_text
    m = await play_random(service, match_id, 3, seed=9)
    assert first not in m.to_move
    second = await _time_out(service, clock, match_id)
    third = await _time_out(service, clock, match_id)
    assert len({first, second, third}) == 3
    ended = [e for e in recorder.events if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].result is not None
    (winner,) = set(PLAYERS) - {first, second, third}
    assert ended[0].result.winners == (winner,)
    assert ended[0].result.ranking == ((winner,), tuple(sorted((first, second, third),
                                                                key=m.seat_of)))
    assert ended[0].result.reason == "last-player"
    assert [e.reason for e in recorder.events if isinstance(e, PlayerOut)] == ["skipped"] * 2
    assert await service.verify_all() == []
    record = await service.record(match_id)
    shown = [x.display for x in record.plies if x.canonical.startswith("#skip")]
    assert len(shown) == 3 and all(d.endswith(" is skipped") for d in shown)


async def test_teams_keep_their_rules_the_partner_plays_on(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    match_id = await _four(service, "teams")
    late = await _time_out(service, clock, match_id)
    m = await service.get_match(match_id)
    assert m.status is MatchStatus.ACTIVE and m.skipped_since(late) is not None
    (partner,) = m.team_mates(late)
    for n in range(8):  # the partner's turns still come; the late seat's never
        m = await play_random(service, match_id, 1, seed=n)
        assert late not in m.to_move
        if partner in m.to_move:
            break
    assert partner in m.to_move
    # the partner is late too: his team is out, the other team wins
    await _time_out(service, clock, match_id)
    ended = [e for e in recorder.events if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].result is not None
    assert set(ended[0].result.ranking[-1]) == {late, partner}
    assert ended[0].result.reason == "timeout"


async def test_skip_is_for_games_that_can_go_on_without_a_seat(service: MatchService) -> None:
    with pytest.raises(InvalidOption, match="end, skip or computer"):
        await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4}, on_timeout="skipped")
    with pytest.raises(InvalidOption, match="four-player games"):
        await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                on_timeout="skip")
    with pytest.raises(InvalidOption, match="four-player games"):
        await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                opponents=[BOB], options={"players": 2}, on_timeout="skip")
    teams = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                    options={"players": 4, "mode": "teams"},
                                    on_timeout=" SKIP ")
    assert teams.on_timeout == "skip"
