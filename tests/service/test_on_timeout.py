"""Four players and a missing one (issue 43): a lobby chooses ``on_timeout``; with
``computer`` the computer plays the late seat on (unrated for it) and the game goes on,
across a restart; with ``end`` (the default) the mode's rules put him out as ever."""

from __future__ import annotations

import asyncio
import io
import random

import pytest

from bot.computer import InlineMovePicker
from bot.console.printer import ConsolePrinter
from service import (
    InvalidOption,
    MatchEnded,
    MatchService,
    MatchStatus,
    PlayerOut,
    Repository,
    SeatTakenOver,
)
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


async def _four(service: MatchService, mode: str, **kw: object) -> int:
    m = await start_four(service, mode, **kw)
    await play_random(service, m.id, 4, seed=3)  # everyone has moved once
    return m.id


async def test_the_computer_takes_the_late_seat_and_the_game_goes_on(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    picker = InlineMovePicker(nodes=50)
    service = MatchService(repo, recorder, clock, rng=random.Random(5), picker=picker)
    match_id = await _four(service, "fast", on_timeout="computer", stand_in_level=2)
    before = await service.get_match(match_id)
    assert before.on_timeout == "computer" and before.ply == 4
    late = before.to_move[0]
    clock.advance(days=1, minutes=1)
    service = MatchService(repo, recorder, clock, rng=random.Random(6), picker=picker)
    events = await service.sweep_deadlines()
    taken = [e for e in events if isinstance(e, SeatTakenOver)]
    assert [(e.user, e.level, e.move) for e in taken] == [(late, 2, 5)]
    assert not [e for e in events if isinstance(e, MatchEnded | PlayerOut)]
    # said naming the computer as its seats are named (``computer_seats``), the late
    # player without a gender
    printer = ConsolePrinter(io.StringIO())
    printer.names[late] = "zoe"
    await ConsolePrinter.handlers.handle(printer, taken[0])
    assert printer.out.getvalue() == f"* #{match_id}: zoe's time ran out; Tablero level 2 " \
        "plays their seat from move 5 on (unrated for them)\n"
    now = await service.get_match(match_id)
    assert now.status is MatchStatus.ACTIVE and now.stand_in_since(late) == 5
    after = now
    for _ in range(200):  # the computer's turn starts by itself (announced, scheduled)
        await asyncio.sleep(0.02)
        after = await service.get_match(match_id)
        if after.ply > 4:
            break
    assert after.ply > 4 and late not in after.to_move and after.status.is_live
    # the others play on; the stand-in seat keeps being played by the computer
    other = after.to_move[0]
    p, _ = await service.position(match_id)
    legal = [m for m in p.legal_moves() if p.play(m).outcome() is None]
    assert legal
    await service.move(match_id, other, p.variant.format_move(p, legal[0]))
    # the game ends (a resignation ends a fast game): unrated for the stand-in's player
    still = await service.get_match(match_id)
    if still.status.is_live:
        leaver = next(u for u in (ALICE, BOB, CAROL, DAVE) if u != late)
        await service.resign(match_id, leaver)
    ended = [e for e in recorder.events if isinstance(e, MatchEnded)]
    assert len(ended) == 1
    rated = {r.user_id for r in ended[0].ratings}
    assert late not in rated and rated == {ALICE, BOB, CAROL, DAVE} - {late}
    assert await repo.ratings_of(GUILD, late) == []


async def test_by_default_a_late_seat_is_out_as_ever(service: MatchService,
                                                     clock: SetClock,
                                                     recorder: Recorder) -> None:
    match_id = await _four(service, "slow")
    late = (await service.get_match(match_id)).to_move[0]
    clock.advance(days=1, minutes=1)
    await service.sweep_deadlines()
    assert [e.user_id for e in recorder.events if isinstance(e, PlayerOut)] == [late]
    assert not [e for e in recorder.events if isinstance(e, SeatTakenOver)]
    m = await service.get_match(match_id)
    assert m.on_timeout == "end" and m.stand_ins == ()
    assert any(s.user_id == late and s.out for s in m.seats)


async def test_on_timeout_is_checked(service: MatchService) -> None:
    with pytest.raises(InvalidOption, match="end, skip or computer"):
        await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4}, on_timeout="skip-me")
    with pytest.raises(InvalidOption, match="four-player games without teams"):
        await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                on_timeout="computer")
    with pytest.raises(InvalidOption, match="four-player games without teams"):
        await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4, "mode": "teams"},
                                on_timeout="computer")
    with pytest.raises(InvalidOption, match="levels 1"):
        await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4, "mode": "fast"},
                                on_timeout="computer", stand_in_level=9)
    ok = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                 options={"players": 4, "mode": "slow"},
                                 on_timeout=" Computer ")
    assert ok.on_timeout == "computer"
