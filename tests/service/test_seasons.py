"""Leaderboard seasons through the service, on every repository (memory, SQLite,
PostgreSQL), with the virtual clock: month and quarter boundaries, a match that straddles
one, catching up after downtime, one announcement however many sweeps run, manual resets,
and season ratings from a fresh prior beside the all-time ones."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import pytest

from service import InvalidOption, MatchService, NotAllowed, Repository
from service.events import SeasonEnded
from service.outbox import event_of
from service.ratings import rate_groups
from service.seasons import Schedule, SeasonRecord, period_of, season_for
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Recorder,
    SetClock,
    play_random,
)

GAMES_CHANNEL = 77


async def rated_win(service: MatchService, winner: int, loser: int,
                    game: str = "xiangqi") -> int:
    """A rated game ``winner`` wins: each side moves once, then ``loser`` resigns."""
    m = await service.challenge(GUILD, CHANNEL, winner, game, opponents=[loser], seat=0)
    m = await service.accept(m.id, loser)
    await play_random(service, m.id, 2)
    await service.resign(m.id, loser)
    return m.id


def season_events(recorder: Recorder) -> list[SeasonEnded]:
    return [e for e in recorder.of(SeasonEnded) if isinstance(e, SeasonEnded)]


def board(page: object) -> list[tuple[int, int, int, int]]:
    """(user, wins, losses, draws) in rank order."""
    return [(e.user_id, e.wins, e.losses, e.draws) for e in page.entries]  # type: ignore[attr-defined]


async def test_a_monthly_season_ends_at_the_month_boundary_announced_once(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    change = await service.configure_seasons(GUILD, CHANNEL, "monthly")
    started = change.season
    assert change.began and started is not None and started.number == 1
    assert started.starts_at == clock.now()  # from now to the month's end, in UTC
    assert started.ends_at == datetime(2026, 2, 1, tzinfo=UTC)
    await rated_win(service, ALICE, BOB)
    await rated_win(service, ALICE, CAROL)
    now = await service.leaderboard(GUILD, "xiangqi", season=1)
    assert board(now) == [(ALICE, 2, 0, 0), (BOB, 0, 1, 0), (CAROL, 0, 1, 0)] or \
        board(now) == [(ALICE, 2, 0, 0), (CAROL, 0, 1, 0), (BOB, 0, 1, 0)]

    clock.t = datetime(2026, 1, 31, 23, 59, tzinfo=UTC)
    assert await service.sweep() == [] and season_events(recorder) == []
    clock.t = datetime(2026, 2, 1, 0, 0, 30, tzinfo=UTC)  # the boundary passed
    await service.sweep()
    await service.sweep()  # a second sweep announces nothing again
    [ended] = season_events(recorder)
    assert (ended.season, ended.schedule) == (1, "monthly")
    assert ended.ends_at == datetime(2026, 2, 1, tzinfo=UTC)
    assert ended.match.channel_id == CHANNEL and ended.match.guild_id == GUILD
    [xq] = ended.boards
    assert xq.ladder == "xiangqi" and xq.total == 3 and xq.entries[0].user_id == ALICE
    stored = [e for e in await service.repository.pending_outbox(limit=100)
              if e.kind == "season-ended"]
    assert [event_of(e) for e in stored] == [ended]  # announced through the outbox
    assert stored[0].match_id == -GUILD and stored[0].version == 1

    # season 2 starts fresh; season 1 is archived as it ended; the all-time board goes on
    seasons = await service.seasons(GUILD)
    assert [s.number for s in seasons] == [2, 1]
    assert seasons[0].starts_at == datetime(2026, 2, 1, tzinfo=UTC)
    assert seasons[0].ends_at == datetime(2026, 3, 1, tzinfo=UTC)
    assert seasons[1].closed_at is not None
    await rated_win(service, BOB, ALICE)
    assert board(await service.leaderboard(GUILD, "xiangqi", season=2)) == \
        [(BOB, 1, 0, 0), (ALICE, 0, 1, 0)]
    assert board(await service.leaderboard(GUILD, "xiangqi", season=1)) == board(now)
    alltime = {e.user_id: (e.wins, e.losses) for e in
               (await service.leaderboard(GUILD, "xiangqi")).entries}
    assert alltime == {ALICE: (2, 1), BOB: (1, 1), CAROL: (0, 1)}


async def test_a_match_that_straddles_the_boundary_counts_in_the_season_it_ends_in(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    await service.configure_seasons(GUILD, CHANNEL, "monthly")
    await rated_win(service, ALICE, CAROL)  # January
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await service.accept(m.id, BOB)
    await play_random(service, m.id, 2)  # begun in January...
    clock.t = datetime(2026, 2, 1, 0, 0, 1, tzinfo=UTC)
    await service.resign(m.id, ALICE)  # ...ended in February, before any sweep ran
    assert [s.number for s in await service.seasons(GUILD)] == [2, 1]
    assert board(await service.leaderboard(GUILD, "xiangqi", season=2)) == \
        [(BOB, 1, 0, 0), (ALICE, 0, 1, 0)]
    await service.sweep()
    [ended] = season_events(recorder)
    assert [(e.user_id, e.wins, e.losses) for e in ended.boards[0].entries] == \
        [(ALICE, 1, 0), (CAROL, 0, 1)]


async def test_after_downtime_the_sweep_closes_the_season_once_and_opens_the_present(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    await service.configure_seasons(GUILD, CHANNEL, "monthly")
    await rated_win(service, ALICE, BOB)
    clock.t = datetime(2026, 3, 15, 9, 0, tzinfo=UTC)  # down from January to mid-March
    await service.sweep()
    [ended] = season_events(recorder)
    assert ended.season == 1 and ended.ends_at == datetime(2026, 2, 1, tzinfo=UTC)
    current, first = await service.seasons(GUILD)
    # February passed while nobody could play: not a season
    assert current.number == 2 and current.starts_at == datetime(2026, 3, 1, tzinfo=UTC)
    assert current.ends_at == datetime(2026, 4, 1, tzinfo=UTC) and current.closed_at is None
    assert first.closed_at == clock.now()
    await service.sweep()
    assert len(season_events(recorder)) == 1


async def test_two_processes_sweeping_at_once_announce_a_season_once(
        repo: Repository, clock: SetClock) -> None:
    one, two = Recorder(), Recorder()
    first = MatchService(repo, one, clock, rng=random.Random(1))
    second = MatchService(repo, two, clock, rng=random.Random(2))
    await first.configure_seasons(GUILD, CHANNEL, "quarterly")
    await rated_win(first, ALICE, BOB)
    clock.t = datetime(2026, 4, 1, 0, 1, tzinfo=UTC)
    await asyncio.gather(first.sweep(), second.sweep(), first.sweep(), second.sweep())
    assert len(season_events(one)) + len(season_events(two)) == 1
    stored = [e for e in await repo.pending_outbox(limit=100) if e.kind == "season-ended"]
    assert len(stored) == 1
    assert [s.number for s in await first.seasons(GUILD)] == [2, 1]


async def test_manual_seasons_end_when_reset_and_are_announced_at_once(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    await service.update_guild_settings(GUILD, games_channel_id=GAMES_CHANNEL)
    s1 = (await service.configure_seasons(GUILD, CHANNEL, "manual")).season
    assert s1 is not None and s1.ends_at is None and s1.channel_id == GAMES_CHANNEL
    await rated_win(service, ALICE, BOB)
    clock.advance(days=400)  # a manual season has no calendar
    assert await service.sweep() == []
    s2 = await service.reset_season(GUILD, CHANNEL)
    assert s2.number == 2 and s2.starts_at == clock.now() and s2.ends_at is None
    [ended] = season_events(recorder)
    assert ended.season == 1 and ended.ends_at == clock.now()
    assert ended.match.channel_id == GAMES_CHANNEL  # the server's games channel
    assert (await service.leaderboard(GUILD, "xiangqi", season=2)).total == 0
    assert board(await service.leaderboard(GUILD, "xiangqi", season=1)) == \
        [(ALICE, 1, 0, 0), (BOB, 0, 1, 0)]


async def test_turning_seasons_off_ends_the_season_and_later_games_count_all_time_only(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    await service.configure_seasons(GUILD, CHANNEL, "monthly")
    await rated_win(service, ALICE, BOB)
    assert (await service.configure_seasons(GUILD, CHANNEL, "off")).season is None
    assert [e.season for e in season_events(recorder)] == [1]
    await rated_win(service, BOB, ALICE)
    assert (await service.leaderboard(GUILD, "xiangqi", season=1)).total == 2
    assert board(await service.leaderboard(GUILD, "xiangqi", season=1))[0] == \
        (ALICE, 1, 0, 0)
    clock.t = datetime(2026, 3, 2, tzinfo=UTC)
    await service.sweep()
    assert [s.number for s in await service.seasons(GUILD)] == [1]  # none opened
    with pytest.raises(NotAllowed, match="no seasons"):
        await service.reset_season(GUILD, CHANNEL)
    with pytest.raises(NotAllowed, match="no seasons"):
        await service.configure_seasons(GUILD, CHANNEL, "off")
    # on again: a new season, numbered on
    change = await service.configure_seasons(GUILD, CHANNEL, "quarterly")
    again = change.season
    assert change.began and again is not None and again.number == 2
    assert again.ends_at == datetime(2026, 4, 1, tzinfo=UTC)


async def test_a_season_rating_starts_from_a_fresh_prior(service: MatchService) -> None:
    for _ in range(3):  # history before seasons: all-time ratings move away from the prior
        await rated_win(service, ALICE, BOB)
    await service.configure_seasons(GUILD, CHANNEL, "monthly")
    await rated_win(service, ALICE, BOB)
    [a, b] = (await service.leaderboard(GUILD, "xiangqi", season=1)).entries
    fresh = rate_groups({ALICE: None, BOB: None}, [[ALICE], [BOB]], [1, 2])
    assert (a.user_id, round(a.mu, 9), round(a.sigma, 9)) == \
        (ALICE, round(fresh[ALICE][0], 9), round(fresh[ALICE][1], 9))
    assert (b.user_id, round(b.mu, 9)) == (BOB, round(fresh[BOB][0], 9))
    alltime = await service.rank_of(GUILD, "xiangqi", ALICE)
    assert alltime is not None and alltime.wins == 4 and alltime.mu > a.mu


async def test_season_choices_and_refusals(service: MatchService) -> None:
    with pytest.raises(InvalidOption, match="no seasons yet"):
        await service.leaderboard(GUILD, "xiangqi", season=1)
    with pytest.raises(InvalidOption, match="monthly, quarterly, manual or off"):
        await service.configure_seasons(GUILD, CHANNEL, "weekly")
    await service.configure_seasons(GUILD, CHANNEL, "monthly")
    with pytest.raises(NotAllowed, match="already monthly"):
        await service.configure_seasons(GUILD, CHANNEL, "Monthly")
    with pytest.raises(InvalidOption, match="no season 7: seasons go from 1 to 1"):
        await service.leaderboard(GUILD, "xiangqi", season=7)
    with pytest.raises(InvalidOption, match="by its number"):
        await service.leaderboard(GUILD, "xiangqi", season="1")  # type: ignore[arg-type]
    assert (await service.get_guild_settings(GUILD)).seasons == "monthly"
    [s] = await service.seasons(GUILD)
    assert s.name().render("en-US") == "Season 1 (2026-01-01 to 2026-02-01)"


def test_periods_are_calendar_months_and_quarters_in_utc() -> None:
    from datetime import timedelta, timezone
    late = datetime(2026, 12, 31, 23, 30, tzinfo=timezone(timedelta(hours=-5)))  # 04:30 UTC
    assert period_of(Schedule.MONTHLY, late) == (datetime(2027, 1, 1, tzinfo=UTC),
                                                 datetime(2027, 2, 1, tzinfo=UTC))
    assert [period_of(Schedule.QUARTERLY, datetime(2026, m, 15, tzinfo=UTC))[0].month
            for m in range(1, 13)] == [1, 1, 1, 4, 4, 4, 7, 7, 7, 10, 10, 10]
    assert period_of(Schedule.QUARTERLY, datetime(2026, 11, 1, tzinfo=UTC))[1] == \
        datetime(2027, 1, 1, tzinfo=UTC)
    s = SeasonRecord(1, 4, Schedule.MONTHLY, datetime(2026, 5, 3, tzinfo=UTC),
                     datetime(2026, 6, 1, tzinfo=UTC), 9)
    assert season_for(s, Schedule.MONTHLY, datetime(2026, 6, 1, tzinfo=UTC))[0] != s
    assert season_for(s, Schedule.OFF, datetime(2026, 6, 1, tzinfo=UTC)) == (None, None)
    assert season_for(s, Schedule.MONTHLY, datetime(2026, 5, 2, tzinfo=UTC)) == (None, None)


async def test_changing_the_schedule_keeps_the_running_season(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    """Issue 38: monthly, quarterly and manual each used to close the running season
    (three empty same-day seasons); now the season goes on, its end moved."""
    first = await service.configure_seasons(GUILD, CHANNEL, "monthly")
    await rated_win(service, ALICE, BOB)
    clock.advance(days=3)
    quarterly = await service.configure_seasons(GUILD, CHANNEL, "quarterly")
    manual = await service.configure_seasons(GUILD, CHANNEL, "manual")
    monthly = await service.configure_seasons(GUILD, CHANNEL, "monthly")
    assert season_events(recorder) == []  # nothing ended
    assert not (quarterly.began or manual.began or monthly.began)
    assert first.season is not None and quarterly.season is not None
    assert quarterly.season.number == manual.season.number == 1  # type: ignore[union-attr]
    assert quarterly.season.ends_at == datetime(2026, 4, 1, tzinfo=UTC)
    assert manual.season is not None and manual.season.ends_at is None
    assert monthly.season is not None and monthly.season.ends_at == \
        datetime(2026, 2, 1, tzinfo=UTC)
    assert monthly.season.starts_at == first.season.starts_at
    assert quarterly.words().render("en-US") == (
        "Season 1 (2026-01-01 to 2026-04-01) goes on under the new schedule; only a reset "
        "(or turning seasons off) ends it early.")
    [kept] = await service.seasons(GUILD)
    assert (kept.number, kept.schedule, kept.ends_at) == \
        (1, Schedule.MONTHLY, datetime(2026, 2, 1, tzinfo=UTC))
    assert board(await service.leaderboard(GUILD, "xiangqi", season=1)) == \
        [(ALICE, 1, 0, 0), (BOB, 0, 1, 0)]  # its games still count
    clock.t = datetime(2026, 2, 1, 0, 1, tzinfo=UTC)
    await service.sweep()
    [ended] = season_events(recorder)
    assert (ended.season, ended.schedule) == (1, "monthly")  # it ends on its new schedule
    off = await service.configure_seasons(GUILD, CHANNEL, "off")
    assert off.season is None and [e.season for e in season_events(recorder)] == [1, 2]
