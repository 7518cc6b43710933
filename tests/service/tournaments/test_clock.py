"""A tournament's time control: any control a challenge accepts (a bank with increment,
claim-win), read with the challenge's parser and messages; every game is made with it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from service import InvalidOption, MatchService
from service.timecontrol import parse_time_control
from service.tournament_records import TournamentRecord, describe_clock
from tests.service.conftest import CHANNEL, GUILD, SetClock

ORGANISER = 900


async def started(service: MatchService, **kw: object) -> TournamentRecord:
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        **kw)  # type: ignore[arg-type]
    for p in (1, 2):
        t = await service.join_tournament(t.id, p)
    return await service.start_tournament(t.id, ORGANISER)


async def test_a_bank_control_makes_every_game_with_that_bank(
        service: MatchService, clock: SetClock) -> None:
    t = await started(service, clock="2d+1d/5d", claim_win=True)
    assert t.bank == parse_time_control("2d+1d/5d") and t.claim_win
    assert describe_clock(t).render("en-US") == \
        "2 days + 1 day per move, at most 5 days banked, claim win on time"
    [g] = t.games_of_round(1)
    assert g.match_id is not None
    m = await service.get_match(g.match_id)
    assert m.time_control == "2d+1d/5d" and m.claim_win
    assert m.deadline == clock.now() + timedelta(days=2)  # the starting bank
    table = await service.tournament_table(t.id)
    assert "2 days + 1 day per move, at most 5 days banked" in \
        table.shown("en-US").subtitle


async def test_days_per_move_is_unchanged(service: MatchService, clock: SetClock) -> None:
    t = await started(service, days=4)
    assert t.bank is None and not t.claim_win and t.days_per_move == 4
    assert describe_clock(t).render("en-US") == "4 days per move"
    [g] = t.games_of_round(1)
    m = await service.get_match(g.match_id or 0)
    assert m.time_control == "4d" and m.days_per_move == 4 and not m.claim_win
    assert m.deadline == clock.now() + timedelta(days=4)


async def test_a_per_move_clock_text_is_days_per_move(service: MatchService) -> None:
    t = await started(service, clock="5")
    assert t.bank is None and t.days_per_move == 5


@pytest.mark.parametrize(("clock", "message"), [
    ("3d+1d/2d", "the cap (2 days) must be at least the starting bank (3 days)"),
    ("fast", "“fast” is not a time control: write days per move (3) or a bank with "
             "increment (3d+1d/10d)"),
    ("30", "days per move must be a whole number from 1 to 14"),
    ("90d+1d", "the starting bank must be from 1 hour to 60 days"),
    ("x" * 50, "a time control is short text like 3 or 3d+1d/10d"),
])
async def test_a_bad_clock_is_refused_with_the_challenge_message(
        service: MatchService, clock: str, message: str) -> None:
    with pytest.raises(InvalidOption) as refused:
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        clock=clock)
    assert refused.value.message == message
    assert await service.tournaments(GUILD) == []


async def test_days_and_clock_together_are_refused(service: MatchService) -> None:
    with pytest.raises(InvalidOption, match="either days per move or a time control"):
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        days=3, clock="3d+1d")
    with pytest.raises(InvalidOption, match="claim win must be yes or no"):
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        claim_win="maybe")  # type: ignore[arg-type]


async def test_without_days_or_clock_the_servers_default_control(
        service: MatchService) -> None:
    await service.update_guild_settings(GUILD, default_clock="2d+12h/4d", claim_win=True)
    t = await started(service)
    assert t.bank == parse_time_control("2d+12h/4d")
    assert not t.claim_win  # claim-win only when the organiser asks: rounds wait on it
    [g] = t.games_of_round(1)
    m = await service.get_match(g.match_id or 0)
    assert m.time_control == "2d+12h/4d" and not m.claim_win
