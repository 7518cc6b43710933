"""Clocks never run while Tablero is away (issue 12): after an outage every active
deadline and reminder moves later by the outage, each match is told once, nobody is timed
out for the bot's absence, and two processes resuming together extend once."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from service import (
    ClocksExtended,
    DeadlineReminder,
    MatchEnded,
    MatchService,
    MatchStatus,
    Repository,
)
from storage import SqliteRepository
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
    start_match,
)

DAY = timedelta(days=1)


async def test_a_three_day_outage_times_nobody_out(repo: Repository, clock: SetClock,
                                                   recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    assert await service.resume() == []  # the first start: just a heartbeat
    a = await start_match(service, days=2)
    b = await play_random(service, (await start_match(service, days=3)).id, 3)
    lobby = await service.challenge(10, 20, 101, "xiangqi", opponents=[202])  # no clock yet
    clock.advance(minutes=1)
    assert await service.resume() == []  # a sweep a minute later: normal running
    before = {m.id: (await service.get_match(m.id)).deadline for m in (a, b)}

    clock.advance(days=3)  # the bot is down for three days: both deadlines pass unseen
    notices = await service.resume()
    assert sorted(e.match.id for e in notices) == [a.id, b.id]  # one notice per match
    assert all(isinstance(e, ClocksExtended) and e.gap == timedelta(days=3)
               for e in notices)
    assert recorder.of(ClocksExtended) == notices
    for m in (a, b):
        now = await service.get_match(m.id)
        old = before[m.id]
        assert old is not None and now.deadline == old + timedelta(days=3)
    assert (await service.get_match(lobby.id)).deadline is None
    assert await service.sweep() == []  # nobody times out, no reminder is due yet
    assert recorder.of(MatchEnded) == []
    assert await service.resume() == []  # resuming again extends nothing

    # the clocks run again once the bot is back (running all along: it kept beating)
    clock.advance(days=1, hours=1)
    await service.beat()
    reminders = [e for e in await service.sweep() if isinstance(e, DeadlineReminder)]
    assert {e.match.id for e in reminders} == {a.id}
    clock.advance(days=1)
    await service.beat()
    assert await service.resume() == []
    ended = [e for e in await service.sweep() if isinstance(e, MatchEnded)]
    assert [e.match.id for e in ended] == [a.id]  # a's own two days ran out after all


async def test_short_gaps_and_a_clock_set_back_extend_nothing(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    m = await start_match(service, days=2)
    await service.resume()
    deadline = (await service.get_match(m.id)).deadline
    for _ in range(10):  # sweeps a minute apart: normal running
        clock.advance(minutes=1)
        assert await service.resume() == []
    clock.advance(minutes=-30)
    assert await service.resume() == []
    assert (await service.get_match(m.id)).deadline == deadline
    # the console's /sweep +DAYS moves time on purpose: a beat, never an extension
    clock.advance(days=5)
    await service.beat()
    assert await service.resume() == []
    assert [e.match.id for e in await service.sweep() if isinstance(e, MatchEnded)] == [m.id]


async def test_two_processes_resuming_together_extend_once(tmp_path: Path) -> None:
    clock = SetClock()
    first = await SqliteRepository.open(tmp_path / "t.db")
    second = await SqliteRepository.open(tmp_path / "t.db")
    a = MatchService(first, Recorder(), clock, rng=random.Random(1))
    b = MatchService(second, Recorder(), clock)
    m = await start_match(a, days=3)
    await a.resume()
    deadline = (await a.get_match(m.id)).deadline
    assert deadline is not None
    clock.advance(days=2)
    got = await asyncio.gather(a.resume(), b.resume())
    assert sorted(len(x) for x in got) == [0, 1]
    after = await b.get_match(m.id)
    assert after.deadline == deadline + timedelta(days=2)
    assert after.status is MatchStatus.ACTIVE
    await first.close()
    await second.close()


async def test_the_heartbeat_and_extension_survive_a_restart(tmp_path: Path) -> None:
    clock = SetClock()
    repo = await SqliteRepository.open(tmp_path / "r.db")
    service = MatchService(repo, Recorder(), clock, rng=random.Random(1))
    m = await start_match(service, days=1)
    await service.resume()
    await repo.close()
    clock.advance(days=4)  # closed for four days, well past the one-day deadline
    repo = await SqliteRepository.open(tmp_path / "r.db")
    service = MatchService(repo, Recorder(), clock)
    assert [e.match.id for e in await service.resume()] == [m.id]
    assert [e for e in await service.sweep() if isinstance(e, MatchEnded)] == []
    assert (await service.get_match(m.id)).status is MatchStatus.ACTIVE
    await repo.close()


async def test_an_outage_extends_a_vacation_pause_only_by_the_time_its_clock_ran(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """The clock of a turn paused by a vacation was not running before the pause ended,
    so an outage extends it only from then (else its player would gain the overlap, and
    bank it with a bank control); a turn paused through the whole outage does not move
    and is not told; a plain turn moves by the whole outage."""
    clock.t = t0 = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)  # vacation days earned
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await service.resume()
    paused = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                     seat=0, clock="3d+1d/5d")
    paused = await service.accept(paused.id, BOB)
    through = await service.challenge(GUILD, CHANNEL, CAROL, "xiangqi", opponents=[DAVE],
                                      seat=0, days=3)
    through = await service.accept(through.id, DAVE)
    await service.start_vacation(GUILD, ALICE, 2)  # her clock waits until t0 + 2 days
    await service.start_vacation(GUILD, CAROL, 5)  # hers until t0 + 5 days
    plain = await start_match(service, "damas", seat=1, days=3)  # Bob to move, no pause
    assert (await service.get_match(paused.id)).deadline == t0 + 5 * DAY
    assert (await service.get_match(through.id)).deadline == t0 + 8 * DAY

    clock.advance(days=3)  # down from t0 to t0 + 3 days
    notices = await service.resume()
    assert sorted(e.match.id for e in notices) == sorted([paused.id, plain.id])
    assert (await service.get_match(paused.id)).deadline == t0 + 6 * DAY  # ran 1 day of 3
    assert (await service.get_match(plain.id)).deadline == t0 + 6 * DAY  # ran all 3
    assert (await service.get_match(through.id)).deadline == t0 + 8 * DAY  # never ran
    rec = await repo.load_match(paused.id)
    assert rec is not None and rec.clock.paused_until == t0 + 2 * DAY  # the pause ends as booked
    await service.move(paused.id, ALICE, "h3-e3")  # at once: 3 days left + 1, capped at 5
    rec = await repo.load_match(paused.id)
    assert rec is not None and rec.clock.bank_of(0) == (4 * DAY).total_seconds()


async def test_a_reminder_moved_by_an_outage_keeps_a_plain_clock_s_player_awake(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """A plain days-per-move clock (no weekends off, nothing paused): Bob's reminder in
    Berlin falls on Monday 21:00 there; four hours away move it to 01:00, his night, and
    it keeps his waking hours (21:00 again) on every repository, as a clock with
    weekends off does (SQL moved these by the gap in one statement)."""
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await service.set_time_zone(BOB, "Europe/Berlin")
    clock.t = datetime(2026, 1, 12, 12, tzinfo=UTC)  # Monday 13:00 in Berlin
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=1)
    await service.accept(m.id, BOB)
    await service.move(m.id, ALICE, "h3-e3")
    stored = await repo.load_match(m.id)
    assert stored is not None and stored.remind_at == datetime(2026, 1, 12, 20, tzinfo=UTC)
    clock.t += timedelta(hours=1)
    await service.beat()
    clock.t += timedelta(hours=4)
    service = MatchService(repo, recorder, clock, rng=random.Random(2))
    assert [n.match.id for n in await service.resume()] == [m.id]
    moved = await repo.load_match(m.id)
    assert moved is not None and moved.deadline == datetime(2026, 1, 13, 16, tzinfo=UTC)
    assert moved.remind_at == datetime(2026, 1, 12, 20, tzinfo=UTC)  # 21:00 in Berlin
