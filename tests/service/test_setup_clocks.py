"""Querni's ``choose`` set-up with a bank control: both seats arrange at once, each on
his own clock. A seat that has arranged stops his clock (his bank counts his own time);
the other keeps his deadline (not a fresh turn from the first submission); whoever has
not arranged when his own time is out is the one late (the match ends as a first turn
does: aborted, with him as the one who ran out); reminders go to the seat(s) still to
arrange; a vacation moves only its taker's clock. Every repository, so the per-seat
clocks are read back from storage at each step."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service import DeadlineReminder, MatchService, MatchStatus
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock

DAY = timedelta(days=1)
ARRANGEMENT = "3,1,2,9,16,4,15,5,14,6,13,7,12,8,11,10"


async def setup_match(service: MatchService) -> int:
    """Alice (seat 0) and Bob (seat 1), Querni ``choose``, 2 days + 1 a move (cap 5)."""
    m = await service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB], seat=0,
                                options={"setup": "choose"}, clock="2d+1d/5d")
    m = await service.accept(m.id, BOB)
    assert sorted(m.to_move) == [ALICE, BOB]
    return m.id


async def left_by(service: MatchService, match_id: int) -> int | None:
    rec = await service.repository.load_match(match_id)
    assert rec is not None and rec.result is not None
    return rec.result.left_by


async def test_arranging_first_does_not_give_the_other_more_time(
        service: MatchService, clock: SetClock) -> None:
    t0 = clock.now()
    mid = await setup_match(service)
    assert (await service.get_match(mid)).deadline == t0 + 2 * DAY
    clock.advance(days=1)
    await service.submit_setup(mid, ALICE, ARRANGEMENT)
    m = await service.get_match(mid)
    assert m.to_move == (BOB,) and m.deadline == t0 + 2 * DAY  # Bob's own, not reset
    clock.advance(days=1, minutes=1)
    await service.sweep()
    m = await service.get_match(mid)
    assert m.status is MatchStatus.ABORTED  # before every player moved, as first turns
    assert await left_by(service, mid) == BOB  # he, not Alice, ran out


async def test_each_seat_banks_its_own_time(service: MatchService, clock: SetClock) -> None:
    t0 = clock.now()
    mid = await setup_match(service)
    clock.advance(days=1)
    await service.submit_setup(mid, ALICE, ARRANGEMENT)  # 1 day left + 1 = 2 days
    clock.advance(hours=12)
    await service.submit_setup(mid, BOB, ARRANGEMENT)  # half a day left + 1 = 1.5 days
    rec = await service.repository.load_match(mid)
    assert rec is not None
    assert rec.clock.bank_of(0) == (2 * DAY).total_seconds()
    assert rec.clock.bank_of(1) == (DAY * 1.5).total_seconds()
    assert rec.clock.own == ()  # one seat to move: the match's own clock again
    assert t0 + DAY * 1.5 == clock.now()


async def test_the_reminder_goes_to_the_seat_still_to_arrange_on_time(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    t0 = clock.now()
    mid = await setup_match(service)
    clock.advance(hours=12)
    await service.submit_setup(mid, ALICE, ARRANGEMENT)
    clock.t = t0 + DAY + timedelta(minutes=1)  # a day before Bob's own deadline
    await service.sweep()
    [reminder] = [e for e in recorder.of(DeadlineReminder) if e.match.id == mid]
    assert reminder.users == (BOB,)
    assert reminder.remaining == DAY - timedelta(minutes=1)


async def test_a_vacation_moves_only_its_takers_clock(
        service: MatchService, clock: SetClock) -> None:
    clock.t = t0 = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)  # vacation days earned
    mid = await setup_match(service)
    await service.start_vacation(GUILD, ALICE, 2)
    rec = await service.repository.load_match(mid)
    assert rec is not None and rec.deadline == t0 + 2 * DAY  # Bob's clock runs on
    assert dict((s, later) for s, later, _p in rec.clock.own) == \
        {0: (2 * DAY).total_seconds(), 1: 0.0}
    clock.advance(days=1)
    await service.submit_setup(mid, BOB, ARRANGEMENT)
    assert (await service.get_match(mid)).deadline == t0 + 4 * DAY  # Alice's own
    clock.advance(days=2)  # a day after her vacation ended: she banks one day + 1
    await service.submit_setup(mid, ALICE, ARRANGEMENT)
    rec = await service.repository.load_match(mid)
    assert rec is not None and rec.clock.bank_of(0) == (2 * DAY).total_seconds()


async def test_the_seat_on_vacation_is_not_the_one_late(
        service: MatchService, clock: SetClock) -> None:
    clock.t = t0 = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
    mid = await setup_match(service)
    await service.start_vacation(GUILD, ALICE, 2)
    clock.t = t0 + 2 * DAY + timedelta(minutes=1)
    await service.sweep()  # Bob's own time is out, Alice's is not
    assert (await service.get_match(mid)).status is MatchStatus.ABORTED
    assert await left_by(service, mid) == BOB


async def test_claim_win_in_the_setup_ends_it_as_a_first_turn_does(
        service: MatchService, clock: SetClock) -> None:
    """Claim-win applies as for normal turns: before every player has moved a lapsed
    clock does not wait for a claim; the match is aborted with the late seat named."""
    t0 = clock.now()
    m = await service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB], seat=0,
                                options={"setup": "choose"}, clock="2d+1d/5d",
                                claim_win=True)
    mid = (await service.accept(m.id, BOB)).id
    clock.advance(hours=1)
    await service.submit_setup(mid, BOB, ARRANGEMENT)
    clock.t = t0 + 2 * DAY + timedelta(minutes=1)
    await service.sweep()
    assert (await service.get_match(mid)).status is MatchStatus.ABORTED
    assert await left_by(service, mid) == ALICE


def test_the_seats_own_clocks_are_stored_and_older_clocks_read_without_them() -> None:
    import json

    from service.records import ClockState
    from service.timecontrol import parse_time_control
    from storage.sql import clock_json, clock_of

    pause = datetime(2026, 6, 12, 12, 0, tzinfo=UTC)
    state = ClockState(parse_time_control("2d+1d/5d"), own=((0, 172800.0, pause),
                                                            (1, 0.0, None)))
    text = clock_json(state)
    assert text is not None and clock_of(text) == state
    older = json.loads(text)
    del older["own"]  # a clock stored before seats had their own
    assert clock_of(json.dumps(older)) == ClockState(parse_time_control("2d+1d/5d"))


async def test_an_outage_extends_each_seats_own_clock_by_the_time_it_ran(
        service: MatchService, clock: SetClock) -> None:
    clock.t = t0 = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
    await service.resume()
    mid = await setup_match(service)
    await service.start_vacation(GUILD, ALICE, 2)  # her clock waits until t0 + 2 days
    clock.advance(days=3)  # Tablero is down from t0 to t0 + 3 days
    [notice] = await service.resume()
    own = dict(notice.match.own_deadlines)
    assert own == {BOB: t0 + 5 * DAY, ALICE: t0 + 5 * DAY}  # 2 + 3 ran; 4 + the 1 it ran
    assert (await service.get_match(mid)).deadline == t0 + 5 * DAY
