"""Weekends off through the service (issue 43), on the virtual clock: each player's
weekend in his own time zone, reminders at a sensible local hour, banks that never bank a
weekend, +1 day of running time, and an outage across a weekend not counted twice; on
memory, SQLite and PostgreSQL, with a restart in the middle."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from service import (
    DeadlineReminder,
    InvalidOption,
    MatchEnded,
    MatchService,
    Repository,
)
from service.events import AutoVacation
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock

DAY, HOUR = timedelta(days=1), timedelta(hours=1)


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


async def _zones(service: MatchService) -> None:
    await service.set_time_zone(ALICE, "asia/tokyo")
    await service.set_time_zone(BOB, "America/New_York")


async def _first_move(service: MatchService, match_id: int) -> None:
    await service.move(match_id, ALICE, "h3-e3")


async def test_each_player_s_weekend_begins_at_his_own_utc_instant(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await _zones(service)
    assert (await service.get_user_prefs(ALICE)).time_zone == "Asia/Tokyo"
    clock.t = at(2026, 1, 2, 20)  # Friday 20:00 UTC: Saturday 05:00 in Tokyo, 15:00 in NY
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=1, weekends_off=True)
    m = await service.accept(m.id, BOB)
    assert m.weekends and dict(m.time_zones) == {ALICE: "Asia/Tokyo", BOB: "America/New_York"}
    # Alice's weekend has begun: her day starts on Monday 00:00 in Tokyo (Sunday 15:00 UTC)
    assert m.deadline == at(2026, 1, 5, 15)
    clock.t = at(2026, 1, 2, 20, 30)
    await _first_move(service, m.id)
    # Bob's Friday afternoon still counts: 8.5 h, then from Monday 00:00 in New York
    after = await service.get_match(m.id)
    assert after.deadline == at(2026, 1, 5, 20, 30)
    # without weekends off the same day would end on Saturday
    plain = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                    seat=0, days=1, weekends_off=False)
    assert (await service.accept(plain.id, BOB)).deadline == clock.t + DAY

    # a restart: a new service over the same storage reads the same clocks and zones
    service = MatchService(repo, recorder, clock, rng=random.Random(2))
    again = await service.get_match(m.id)
    assert again.deadline == after.deadline and again.weekends
    # nobody times out over the weekend, and Bob's reminder waits for his morning:
    # half his day before the deadline is 03:00 in New York; 08:00 is nearer than 21:00
    clock.t = at(2026, 1, 5, 12, 59)
    events = await service.sweep_deadlines()
    assert not [e for e in events if isinstance(e, DeadlineReminder) and e.match.id == m.id]
    clock.t = at(2026, 1, 5, 13, 0)
    reminded = [e for e in await service.sweep_deadlines()
                if isinstance(e, DeadlineReminder) and e.match.id == m.id]
    assert len(reminded) == 1 and reminded[0].users == (BOB,)
    assert reminded[0].remaining == 7 * HOUR + 30 * timedelta(minutes=1)
    clock.t = at(2026, 1, 5, 20, 30)
    ended = [e for e in await service.sweep_deadlines() if isinstance(e, MatchEnded)]
    assert [e.match.id for e in ended] == [m.id]


async def test_an_outage_across_a_weekend_is_not_counted_twice(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await _zones(service)
    clock.t = at(2026, 1, 2, 20)
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=1, weekends_off=True)
    await service.accept(m.id, BOB)
    clock.t = at(2026, 1, 2, 20, 30)
    await _first_move(service, m.id)
    await service.beat()  # the last beat before Tablero goes away: Friday 20:30 UTC
    # away until Monday 08:00 UTC (03:00 in New York): Bob's clock, started as Tablero
    # went, would have run 8.5 h on Friday and 3 h on Monday; the weekend between ran none
    clock.t = at(2026, 1, 5, 8)
    service = MatchService(repo, recorder, clock, rng=random.Random(2))  # restarted
    notices = await service.resume()
    assert [n.match.id for n in notices] == [m.id]
    moved = (await service.get_match(m.id)).deadline
    # the whole day he had at the outage's start, from Monday 08:00 UTC: Tuesday 08:00
    assert moved == at(2026, 1, 6, 8)
    # the gap's wall time (59.5 h) added to the deadline would count the weekend twice
    assert moved < at(2026, 1, 5, 20, 30) + (at(2026, 1, 5, 8) - at(2026, 1, 2, 20, 30))


async def test_a_bank_counts_running_time_and_one_day_more_is_a_running_day(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await service.set_time_zone(ALICE, "Europe/Madrid")
    await service.set_time_zone(BOB, "Europe/Madrid")
    clock.t = at(2026, 1, 8, 11)  # Thursday noon in Madrid
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                clock="2d+1d/5d", weekends_off=True)
    m = await service.accept(m.id, BOB)
    assert m.deadline == at(2026, 1, 12, 11)  # Thursday + Friday, then Monday noon
    clock.t = at(2026, 1, 12, 10)  # he used 1 day 23 hours of running time: 1 h left
    await _first_move(service, m.id)
    clock.t = at(2026, 1, 12, 11)
    bob = await service.get_match(m.id)
    p, _ = await service.position(m.id)
    await service.move(m.id, BOB, p.variant.format_move(p, next(iter(p.legal_moves()))))
    # Alice's bank: the hour left plus a day (not the weekend's 48 hours)
    assert (await service.get_match(m.id)).deadline == at(2026, 1, 13, 12)
    assert bob.deadline is not None
    # +1 day: a day of running time, so a Friday evening deadline moves to Monday evening
    clock.t = at(2026, 1, 15, 19)  # Thursday 20:00 in Madrid
    day = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                  days=1, weekends_off=True)
    assert (await service.accept(day.id, BOB)).deadline == at(2026, 1, 16, 19)
    given = await service.give_time(day.id, BOB)
    assert given.deadline == at(2026, 1, 19, 19)


async def test_time_zones_are_checked_and_can_be_forgotten(service: MatchService) -> None:
    for bad in ("Mars/Olympus", "Madrid", "../../etc/passwd", "Europe/Madrid;DROP", " "):
        with pytest.raises(InvalidOption) as refused:
            await service.set_time_zone(ALICE, bad)
        assert "is not a time zone" in refused.value.message
    assert (await service.get_user_prefs(ALICE)).time_zone is None
    await service.update_user_prefs(ALICE, "dm")
    assert (await service.set_time_zone(ALICE, "UTC")).time_zone == "UTC"
    await service.update_user_prefs(ALICE, "mention")  # other prefs keep the zone
    assert (await service.get_user_prefs(ALICE)).time_zone == "UTC"
    assert (await service.set_time_zone(ALICE, None)).time_zone is None


async def test_the_server_default_and_a_rematch_keep_weekends_off(
        service: MatchService) -> None:
    await service.update_guild_settings(GUILD, weekends_off=True)
    assert (await service.get_guild_settings(GUILD)).weekends_off
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    assert m.weekends
    on = await service.challenge(GUILD, CHANNEL, ALICE, "damas", opponents=[BOB],
                                 weekends_off=False)
    assert not on.weekends
    with pytest.raises(InvalidOption):
        await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                weekends_off="sometimes")  # type: ignore[arg-type]


async def test_a_tournament_s_games_keep_its_weekends_off(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    clock.t = at(2026, 1, 9, 20)  # Friday 20:00 UTC: both players without a zone (UTC)
    t = await service.create_tournament(GUILD, CHANNEL, ALICE, "damas", fmt="rr",
                                        clock="2d+1d/5d", weekends_off=True, vacation=False)
    assert t.weekends_off and not t.vacation
    assert (await service.get_tournament(t.id)).weekends_off  # stored
    await service.join_tournament(t.id, ALICE)
    await service.join_tournament(t.id, BOB)
    await service.start_tournament(t.id, ALICE)
    games = await service.active_matches_of(GUILD, ALICE)
    assert len(games) == 1 and games[0].weekends and games[0].time_control == "2d+1d/5d"
    # 4 hours of Friday, then Monday and most of Tuesday
    assert games[0].deadline == at(2026, 1, 13, 20)


async def test_an_automatic_vacation_day_is_a_running_day_and_never_ends_in_a_weekend(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """A day of automatic vacation moves the deadline a day of the late player's running
    time later, as +1 day does: Friday noon becomes Monday noon in his zone. A wall day
    put it on Saturday noon, in his weekend, with a reminder at midnight: each weekend
    day then cost him another vacation day, or a timeout while his clock stood still."""
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await service.set_time_zone(BOB, "Europe/Berlin")
    await service.update_guild_settings(GUILD, auto_vacation=True)
    clock.t = at(2026, 6, 1, 10)  # Monday; 7 vacation days earned by June
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=1, weekends_off=True)
    await service.accept(m.id, BOB)
    await _first_move(service, m.id)
    p, _ = await service.position(m.id)
    await service.move(m.id, BOB, p.variant.format_move(p, next(iter(p.legal_moves()))))
    clock.t = at(2026, 6, 4, 10)  # Thursday 12:00 in Berlin
    p, _ = await service.position(m.id)
    await service.move(m.id, ALICE, p.variant.format_move(p, next(iter(p.legal_moves()))))
    assert (await service.get_match(m.id)).deadline == at(2026, 6, 5, 10)  # Friday noon
    clock.t = at(2026, 6, 5, 10, 1)
    spent = [e for e in await service.sweep_deadlines() if isinstance(e, AutoVacation)]
    assert [e.days_spent for e in spent] == [1]
    monday_noon = at(2026, 6, 8, 10)
    assert (await service.get_match(m.id)).deadline == monday_noon
    stored = await repo.load_match(m.id)
    assert stored is not None and stored.remind_at is not None
    assert 8 <= stored.remind_at.astimezone(ZoneInfo("Europe/Berlin")).hour < 22
    for hour in range(12, 60, 6):  # the weekend's sweeps spend nothing, time out nobody
        clock.t = at(2026, 6, 5, 10) + hour * HOUR
        assert not [e for e in await service.sweep_deadlines()
                    if isinstance(e, (AutoVacation, MatchEnded))]
    assert (await service.vacation_status(GUILD, BOB)).used == 1
    assert (await service.get_match(m.id)).deadline == monday_noon


async def test_a_player_who_changes_his_time_zone_is_not_timed_out_in_his_new_weekend(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """Bob's deadline, counted in Tokyo, is Monday 01:00 there: Sunday noon in New York.
    He moves there and says so on Friday: the deadline would fall in his new weekend, so
    it moves to that weekend's end (Monday 00:00 in New York), never earlier than it was;
    his reminder, not sent yet, keeps his new zone's waking hours."""
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await service.set_time_zone(BOB, "Asia/Tokyo")
    clock.t = at(2026, 6, 1, 10)
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=2, weekends_off=True)
    await service.accept(m.id, BOB)
    await _first_move(service, m.id)
    p, _ = await service.position(m.id)
    await service.move(m.id, BOB, p.variant.format_move(p, next(iter(p.legal_moves()))))
    clock.t = at(2026, 6, 3, 16)  # Thursday 01:00 in Tokyo
    p, _ = await service.position(m.id)
    await service.move(m.id, ALICE, p.variant.format_move(p, next(iter(p.legal_moves()))))
    assert (await service.get_match(m.id)).deadline == at(2026, 6, 7, 16)  # Mon 01:00 JST
    clock.t = at(2026, 6, 5, 12)  # Friday 08:00 in New York
    await service.set_time_zone(BOB, "America/New_York")
    monday = at(2026, 6, 8, 4)  # Monday 00:00 in New York
    assert (await service.get_match(m.id)).deadline == monday
    stored = await repo.load_match(m.id)
    assert stored is not None and stored.remind_at is not None
    assert 8 <= stored.remind_at.astimezone(ZoneInfo("America/New_York")).hour < 22
    clock.t = at(2026, 6, 7, 16, 1)  # where the Tokyo deadline was: Sunday in New York
    assert not [e for e in await service.sweep_deadlines() if isinstance(e, MatchEnded)]
    # back to a zone whose weekend it is not in: the deadline stays (never earlier)
    await service.set_time_zone(BOB, None)
    assert (await service.get_match(m.id)).deadline == monday
    clock.t = monday
    assert [e.match.id for e in await service.sweep_deadlines()
            if isinstance(e, MatchEnded)] == [m.id]


async def test_a_reminder_moved_by_an_outage_keeps_the_player_s_waking_hours(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """Tablero away from Friday 21:00 to Monday 10:00 in Berlin: Bob's 38 running hours
    left end on Wednesday 00:00 there, and his reminder, moved with the same running
    time, fell at Tuesday midnight; it keeps his waking hours, as a turn's does."""
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await service.set_time_zone(BOB, "Europe/Berlin")
    clock.t = at(2026, 3, 27, 10)  # Friday 11:00 in Berlin
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=2, weekends_off=True)
    await service.accept(m.id, BOB)
    await _first_move(service, m.id)
    clock.t = at(2026, 3, 27, 20)
    await service.beat()
    clock.t = at(2026, 3, 30, 8)  # Monday 10:00 (summer time since Sunday)
    service = MatchService(repo, recorder, clock, rng=random.Random(2))
    assert [n.match.id for n in await service.resume()] == [m.id]
    deadline = (await service.get_match(m.id)).deadline
    assert deadline == at(2026, 3, 31, 22)  # Wednesday 00:00 in Berlin
    stored = await repo.load_match(m.id)
    assert stored is not None and stored.remind_at is not None
    assert clock.t <= stored.remind_at < deadline
    assert 8 <= stored.remind_at.astimezone(ZoneInfo("Europe/Berlin")).hour < 22


async def test_a_clock_with_no_time_left_restarting_in_a_weekend_waits_for_its_end(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """Bob's automatic vacation day ends on Friday noon, his deadline with it: no running
    time is left after it. Tablero is away from Thursday to Sunday: his clock, stopped
    with nothing left, starts again on Sunday, in his weekend, where it does not run. It
    ran out the moment his weekend ends (Monday 00:00), not on Sunday (a timeout, or one
    more vacation day spent, in the weekend the server keeps free)."""
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await service.update_guild_settings(GUILD, auto_vacation=True)
    clock.t = at(2026, 6, 1, 12)  # Monday
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=1, weekends_off=True)
    await service.accept(m.id, BOB)
    await _first_move(service, m.id)
    p, _ = await service.position(m.id)
    await service.move(m.id, BOB, p.variant.format_move(p, next(iter(p.legal_moves()))))
    clock.t = at(2026, 6, 3, 12)  # Wednesday noon
    p, _ = await service.position(m.id)
    await service.move(m.id, ALICE, p.variant.format_move(p, next(iter(p.legal_moves()))))
    clock.t = at(2026, 6, 4, 12, 1)  # Thursday: his time ran out, a day of vacation spent
    assert [e.days_spent for e in await service.sweep_deadlines()
            if isinstance(e, AutoVacation)] == [1]
    assert (await service.get_match(m.id)).deadline == at(2026, 6, 5, 12)  # Friday noon
    await service.beat()
    clock.t = at(2026, 6, 7, 10)  # Sunday: Tablero is back
    service = MatchService(repo, recorder, clock, rng=random.Random(2))
    await service.resume()
    assert (await service.get_match(m.id)).deadline == at(2026, 6, 8)  # Monday 00:00
    for hour in (0, 6, 12):
        clock.t = at(2026, 6, 7, 10 + hour)
        assert not [e for e in await service.sweep_deadlines()
                    if isinstance(e, (AutoVacation, MatchEnded))]
    assert (await service.vacation_status(GUILD, BOB)).used == 1
