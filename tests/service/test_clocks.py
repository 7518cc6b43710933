"""Issue 16, clocks: bank + increment time controls, +1 day, claim-win on time, vacation
(allowance, pausing and resuming several matches, automatic vacation instead of a
timeout, tournaments that forbid it), /games by least time left. All on the virtual
clock, on every repository; each use-case also survives a restart in its middle."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from service import (
    InvalidOption,
    MatchEnded,
    MatchService,
    MatchStatus,
    NotAllowed,
    NotAPlayer,
    Repository,
)
from service.events import AutoVacation, TimeGiven, TimeLapsed, VacationEnded, VacationStarted
from service.timecontrol import (
    TimeControlError,
    format_time_control,
    parse_time_control,
    vacation_days_charged,
    vacation_earned,
)
from tests.conftest import open_repository_of
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Recorder,
    SetClock,
    start_four,
)

DAY = timedelta(days=1)
JUNE = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)  # 7 of 14 yearly days earned by then


async def first_move(service: MatchService, match_id: int, user: int) -> None:
    """Play the first legal move for ``user`` (who must be to move)."""
    p, _ = await service.position(match_id)
    mv = next(iter(p.legal_moves()))
    await service.move(match_id, user, p.variant.format_move(p, mv))


async def banked_match(service: MatchService, clock: str = "3d+1d/10d",
                       **kw: object) -> int:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                clock=clock, **kw)  # type: ignore[arg-type]
    return (await service.accept(m.id, BOB)).id


# ---------------------------------------------------------------------- time controls

def test_time_control_text_round_trips_and_refuses_with_the_input() -> None:
    for text in ("3", "14d", "3d+1d/10d", "36h+12h/5d", "2d+0d/2d"):
        tc = parse_time_control(text)
        assert parse_time_control(format_time_control(tc)) == tc
    for bad in ("0", "15", "2.5", "3d+1d/2d", "3d+15d/20d", "61d+1d", "x", "3+1/10+1", "",
                "３", "3²", "9" * 41):
        with pytest.raises(TimeControlError) as e:
            parse_time_control(bad)
        assert e.value.text == bad[:40]  # the input, cut like any echoed text
    assert parse_time_control("3+1").cap == timedelta(days=3)  # no cap: the start


async def test_bank_and_increment_count_exact_time_up_to_the_cap(
        service: MatchService, clock: SetClock) -> None:
    start = clock.t
    mid = await banked_match(service)
    m = await service.get_match(mid)
    assert m.time_control == "3d+1d/10d" and m.deadline == start + 3 * DAY
    clock.advance(days=1, hours=6)
    await first_move(service, mid, ALICE)  # 1d18h left + 1d: Alice banks 2d18h
    m = await service.get_match(mid)
    assert m.deadline == clock.t + 3 * DAY  # Bob's first turn: his starting bank
    clock.advance(hours=2)
    await first_move(service, mid, BOB)  # Bob banks 2d22h + 1d = 3d22h
    m = await service.get_match(mid)
    assert m.deadline == clock.t + timedelta(days=2, hours=18)  # Alice's bank, exactly
    for _ in range(8):  # quick moves: each adds 1d minus an hour, until the cap
        clock.advance(hours=1)
        await first_move(service, mid, ALICE)
        clock.advance(hours=1)
        await first_move(service, mid, BOB)
    m = await service.get_match(mid)
    assert m.deadline == clock.t + 10 * DAY  # at most 10 days banked
    rec = await service.repository.load_match(mid)
    assert rec is not None and rec.clock.bank_of(1) == (10 * DAY).total_seconds()


async def test_days_per_move_stays_as_it_was(service: MatchService, clock: SetClock) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], days=2)
    m = await service.accept(m.id, BOB)
    assert m.time_control == "2d" and m.deadline == clock.t + 2 * DAY
    rec = await service.repository.load_match(m.id)
    assert rec is not None and rec.clock.control is None  # stored as before
    with pytest.raises(InvalidOption):
        await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", days=2, clock="3")


async def test_server_default_control_and_claim_win(service: MatchService) -> None:
    s = await service.update_guild_settings(GUILD, default_clock="2d+12h/4d", claim_win=True)
    assert s.default_clock == "2d+12h/4d" and s.claim_win
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    assert m.time_control == "2d+12h/4d" and m.claim_win
    s = await service.update_guild_settings(GUILD, default_clock="5")
    assert s.default_clock is None and s.default_days == 5
    with pytest.raises(InvalidOption):
        await service.update_guild_settings(GUILD, default_clock="3d+1d/1d")
    assert (await service.get_guild_settings(GUILD)).default_days == 5


# ---------------------------------------------------------------------- +1 day

async def test_the_player_not_to_move_gives_one_day(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    mid = await banked_match(service, "2")
    before = await service.get_match(mid)
    with pytest.raises(NotAllowed):
        await service.give_time(mid, ALICE)  # the mover
    with pytest.raises(NotAPlayer):
        await service.give_time(mid, CAROL)
    assert (await service.get_match(mid)).version == before.version  # nothing changed
    m = await service.give_time(mid, BOB)
    assert before.deadline is not None and m.deadline == before.deadline + DAY
    given = recorder.of(TimeGiven)
    assert len(given) == 1 and given[0].by == BOB and given[0].to == (ALICE,)  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- claim-win

async def test_claim_win_waits_for_the_claim_and_the_mover_may_still_move(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    mid = await banked_match(service, "1", claim_win=True)
    await first_move(service, mid, ALICE)
    await first_move(service, mid, BOB)
    with pytest.raises(NotAllowed):
        await service.claim_win(mid, BOB)  # before the lapse
    clock.advance(days=1, minutes=1)
    events = await service.sweep()
    assert [type(e) for e in events] == [TimeLapsed]
    m = await service.get_match(mid)
    assert m.status is MatchStatus.ACTIVE and m.lapsed is not None and m.deadline is None
    assert events[0].waiting == (BOB,) and events[0].late == (ALICE,)  # type: ignore[union-attr]
    assert await service.sweep() == []  # asked once
    await first_move(service, mid, ALICE)  # not claimed yet: Alice may still move
    m = await service.get_match(mid)
    assert m.lapsed is None and m.deadline == clock.t + DAY and m.to_move == (BOB,)
    clock.advance(days=2)
    await service.sweep()
    with pytest.raises(NotAllowed):
        await service.claim_win(mid, BOB)  # the late one cannot claim
    with pytest.raises(NotAPlayer):
        await service.claim_win(mid, CAROL)
    await service.keep_waiting(mid, ALICE)  # nothing changes
    m = await service.claim_win(mid, ALICE)
    assert m.status is MatchStatus.FINISHED and m.result is not None
    assert m.result.winners == (ALICE,) and m.result.reason == "timeout"
    assert recorder.of(MatchEnded)[-1].left_by == BOB  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- vacation

def test_allowance_is_earned_monthly_and_charged_in_whole_days() -> None:
    assert [vacation_earned(14, m) for m in range(1, 13)] == \
        [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 14]
    assert vacation_earned(0, 12) == 0 and vacation_earned(30, 6) == 15
    t = JUNE
    assert vacation_days_charged(t, t + timedelta(days=2, hours=1)) == 3


async def test_vacation_pauses_and_resumes_every_match_of_that_server(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    clock.t = JUNE
    a = await banked_match(service, "3")  # Alice to move
    b = await banked_match(service, "3d+1d/10d")  # Alice to move
    c = await banked_match(service, "3")
    await first_move(service, c, ALICE)  # Bob to move
    elsewhere = await service.challenge(GUILD + 1, CHANNEL, ALICE, "xiangqi",
                                        opponents=[BOB], days=3)
    elsewhere = await service.accept(elsewhere.id, BOB)
    before = {m: (await service.get_match(m)).deadline for m in (a, b, c, elsewhere.id)}
    with pytest.raises(NotAllowed):
        await service.start_vacation(GUILD, ALICE, 8)  # 7 earned by June
    assert recorder.of(VacationStarted) == []
    v = await service.start_vacation(GUILD, ALICE, 5)
    assert v.balance == 2 and v.until == clock.t + 5 * DAY and sorted(v.paused) == [a, b, c]
    for m in (a, b):
        old = before[m]
        assert old is not None
        assert (await service.get_match(m)).deadline == old + 5 * DAY
    assert (await service.get_match(c)).deadline == before[c]  # Bob's clock runs
    assert (await service.get_match(elsewhere.id)).deadline == before[elsewhere.id]
    assert (await service.get_match(c)).away_until(ALICE, clock.t) == v.until
    told = recorder.of(VacationStarted)
    assert sorted(e.match.id for e in told) == [a, b, c]
    with pytest.raises(NotAllowed):
        await service.start_vacation(GUILD, ALICE, 1)  # already on one
    clock.advance(days=1)
    await first_move(service, c, BOB)  # Alice's turn starts when her vacation ends
    assert v.until is not None
    assert (await service.get_match(c)).deadline == v.until + 3 * DAY
    clock.advance(days=1, hours=1)  # ended early, in its third day: 3 days charged
    back = await service.end_vacation(GUILD, ALICE)
    assert back.until is None and back.used == 3 and back.balance == 4
    for m in (a, b):  # what was left of the vacation is taken back off the deadlines
        old = before[m]
        assert old is not None
        assert (await service.get_match(m)).deadline == old + timedelta(days=2, hours=1)
    assert (await service.get_match(c)).deadline == clock.t + 3 * DAY
    assert sorted(e.match.id for e in recorder.of(VacationEnded)) == [a, b, c]
    with pytest.raises(NotAllowed):
        await service.end_vacation(GUILD, ALICE)
    # a bank does not keep the vacation: moving later counts from its end
    clock.advance(hours=5)
    await first_move(service, b, ALICE)
    rec = await service.repository.load_match(b)
    assert rec is not None
    # 3 days, none used before the vacation, 5 hours after it, + 1 day
    assert rec.clock.bank_of(0) == (3 * DAY - timedelta(hours=5) + DAY).total_seconds()


async def test_a_vacation_does_not_pause_a_match_whose_time_has_run_out(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    """Issue 38, item 4: after Alice's clock ran out in a claim-win match (or her
    deadline passed before the sweep saw it), a vacation does not pause that match nor
    tell anyone it is paused: the answer names it, Bob may still claim; her other
    matches are paused as ever."""
    clock.t = JUNE
    lapsed = await banked_match(service, "1", claim_win=True)
    past = await banked_match(service, "1")
    running = await banked_match(service, "3")
    for m in (lapsed, past):
        await first_move(service, m, ALICE)
        await first_move(service, m, BOB)
    clock.advance(days=1, minutes=1)
    await service._deadlines._sweep_one(lapsed, clock.t)  # the sweep has seen one of the two
    assert (await service.get_match(lapsed)).lapsed is not None
    before = await service.get_match(past)
    v = await service.start_vacation(GUILD, ALICE, 3)
    assert sorted(v.late) == sorted([lapsed, past]) and v.paused == (running,)
    assert [e.match.id for e in recorder.of(VacationStarted)] == [running]
    assert (await service.get_match(past)).deadline == before.deadline
    assert (await service.get_match(lapsed)).away_until(ALICE, clock.t) is None
    m = await service.claim_win(lapsed, BOB)
    assert m.status is MatchStatus.FINISHED


async def test_allowance_resets_each_year(service: MatchService, clock: SetClock) -> None:
    clock.t = datetime(2026, 12, 20, tzinfo=UTC)
    await service.start_vacation(GUILD, ALICE, 14)
    assert (await service.vacation_status(GUILD, ALICE)).balance == 0
    clock.t = datetime(2027, 1, 5, tzinfo=UTC)  # a new year: one month's share
    s = await service.vacation_status(GUILD, ALICE)
    assert (s.earned, s.used, s.balance) == (1, 0, 1)
    await service.update_guild_settings(GUILD, vacation_days=24)
    assert (await service.vacation_status(GUILD, ALICE)).balance == 2


async def test_automatic_vacation_spends_days_instead_of_a_timeout(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    clock.t = datetime(2026, 2, 3, tzinfo=UTC)  # 2 days earned
    await service.update_guild_settings(GUILD, auto_vacation=True)
    mid = await banked_match(service, "1")
    other = await banked_match(service, "1")
    for m in (mid, other):
        await first_move(service, m, ALICE)
        await first_move(service, m, BOB)
    deadline = (await service.get_match(mid)).deadline
    assert deadline is not None
    clock.advance(days=1, minutes=1)
    spent = await service.sweep()
    assert [type(e) for e in spent] == [AutoVacation, AutoVacation]
    assert (await service.vacation_status(GUILD, ALICE)).used == 1  # one day for both
    m = await service.get_match(mid)
    assert m.status is MatchStatus.ACTIVE and m.deadline == deadline + DAY
    clock.advance(days=1)
    await service.sweep()  # the second (last) day
    assert (await service.vacation_status(GUILD, ALICE)).balance == 0
    clock.advance(days=1)
    ended = [e for e in await service.sweep() if isinstance(e, MatchEnded)]
    assert sorted(e.match.id for e in ended) == sorted([mid, other])  # none left
    assert all(e.match.result is not None and e.match.result.winners == (BOB,)
               for e in ended)


async def test_automatic_vacation_after_a_long_gap_spends_the_days_at_once(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    """Issue 38, item 9: a sweep long after the deadline spends the days the gap covers
    in one go (the deadline lands after now), not one day per sweep; when the balance
    falls short the days are spent and the match times out in that same sweep."""
    clock.t = JUNE  # 7 days earned
    await service.update_guild_settings(GUILD, auto_vacation=True)
    mid = await banked_match(service, "1")
    short = await banked_match(service, "1")
    for m in (mid, short):
        await first_move(service, m, ALICE)
        await first_move(service, m, BOB)
    deadline = (await service.get_match(mid)).deadline
    assert deadline is not None
    clock.t = deadline + timedelta(days=4, hours=3)  # four days and more behind
    spent = await service.sweep()
    assert [type(e) for e in spent] == [AutoVacation, AutoVacation]
    auto = [e for e in spent if isinstance(e, AutoVacation)]
    assert [e.days_spent for e in auto] == [5, 1]  # the second match shares them
    m = await service.get_match(mid)
    assert m.status is MatchStatus.ACTIVE and m.deadline == deadline + 5 * DAY > clock.t
    assert (await service.vacation_status(GUILD, ALICE)).used == 5  # shared by both
    for _ in range(3):  # later sweeps (every console command) spend nothing more
        assert await service.sweep() == []
    assert (await service.vacation_status(GUILD, ALICE)).used == 5
    clock.t = deadline + timedelta(days=20)  # 2 days left: spent, then the timeout
    events = await service.sweep()
    kinds = [type(e) for e in events]
    assert kinds.count(AutoVacation) == 1 and kinds.count(MatchEnded) == 2
    assert [e.days_spent for e in events if isinstance(e, AutoVacation)] == [2]
    assert (await service.vacation_status(GUILD, ALICE)).used == 7  # all of June's
    for m in (mid, short):
        done = await service.get_match(m)
        assert done.status is MatchStatus.FINISHED and done.result is not None
        assert done.result.winners == (BOB,)


async def test_a_tournament_without_vacation_is_not_paused(
        service: MatchService, clock: SetClock) -> None:
    clock.t = JUNE
    await service.update_guild_settings(GUILD, auto_vacation=True)
    t = await service.create_tournament(GUILD, CHANNEL, CAROL, "xiangqi", fmt="round robin",
                                        days=1, vacation=False)
    for p in (ALICE, BOB):
        t = await service.join_tournament(t.id, p)
    t = await service.start_tournament(t.id, CAROL)
    game = t.games_of_round(t.round)[0]
    assert game.match_id is not None
    free = await banked_match(service, "3")
    m = await service.get_match(game.match_id)
    mover = m.to_move[0]
    v = await service.start_vacation(GUILD, mover, 3)
    assert v.forbidden == (game.match_id,)
    assert (await service.get_match(game.match_id)).deadline == m.deadline  # not paused
    if mover == ALICE:
        assert v.paused == (free,)
    await service.end_vacation(GUILD, mover)
    p, _ = await service.position(game.match_id)
    await service.move(game.match_id, mover, p.variant.format_move(p, next(iter(p.legal_moves()))))
    other = next(u for u in (ALICE, BOB) if u != mover)
    await first_move(service, game.match_id, other)
    clock.advance(days=1, minutes=1)
    ended = [e for e in await service.sweep() if isinstance(e, MatchEnded)]
    assert [e.match.id for e in ended] == [game.match_id]  # no automatic vacation there


# ---------------------------------------------------------------------- /games

async def test_games_sort_by_least_time_left_and_next_game_cycles(
        service: MatchService, clock: SetClock) -> None:
    slow = await banked_match(service, "5")
    quick = await banked_match(service, "1")
    waiting = await banked_match(service, "2")
    await first_move(service, waiting, ALICE)  # Bob to move there
    games = [m.id for m in await service.games_of(GUILD, ALICE)]
    assert games == [quick, slow, waiting]
    assert (await service.next_game(GUILD, ALICE)).id == quick  # type: ignore[union-attr]
    assert (await service.next_game(GUILD, ALICE, quick)).id == slow  # type: ignore[union-attr]
    assert (await service.next_game(GUILD, ALICE, slow)).id == quick  # type: ignore[union-attr]
    assert await service.next_game(GUILD, CAROL) is None


# ---------------------------------------------------------------------- restarts

@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_clocks_vacation_and_claims_survive_a_restart(
        kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    clock, recorder = SetClock(), Recorder()
    clock.t = JUNE
    repo: Repository = await open_repository_of(kind, tmp_path, request)
    service = MatchService(repo, recorder, clock, rng=random.Random(3))
    bank = await banked_match(service)
    claim = await banked_match(service, "1", claim_win=True)
    clock.advance(hours=10)
    await first_move(service, bank, ALICE)
    for who in (ALICE, BOB):
        await first_move(service, claim, who)
    await service.start_vacation(GUILD, BOB, 2)  # pauses Bob's turn in `bank`
    await repo.close()

    repo = await open_repository_of(kind, tmp_path, request)  # a restart mid-vacation
    service = MatchService(repo, recorder, clock, rng=random.Random(3))
    m = await service.get_match(bank)
    assert m.away_until(BOB, clock.t) == clock.t + 2 * DAY
    assert m.deadline == clock.t + 5 * DAY  # his 3-day bank after 2 days away
    assert (await service.vacation_status(GUILD, BOB)).balance == 5
    clock.advance(days=1, minutes=1)
    assert [type(e) for e in await service.sweep()] == [TimeLapsed]  # Alice lapsed in `claim`
    await service.end_vacation(GUILD, BOB)
    await repo.close()

    repo = await open_repository_of(kind, tmp_path, request)  # a restart mid-lapse
    service = MatchService(repo, recorder, clock, rng=random.Random(3))
    assert (await service.get_match(bank)).deadline == clock.t + 3 * DAY
    assert (await service.get_match(claim)).lapsed is not None
    rec = await repo.load_match(bank)
    assert rec is not None and rec.clock.bank_of(0) == \
        (3 * DAY - timedelta(hours=10) + DAY).total_seconds()
    ended = await service.claim_win(claim, BOB)
    assert ended.result is not None and ended.result.winners == (BOB,)
    await repo.close()


async def test_a_match_starting_during_a_vacation_waits_for_its_end(
        service: MatchService, clock: SetClock) -> None:
    clock.t = JUNE
    v = await service.start_vacation(GUILD, ALICE, 2)
    assert v.until is not None and v.paused == ()
    mid = await banked_match(service, "3d+1d/10d")  # Alice (Red) to move at once
    m = await service.get_match(mid)
    assert m.away_until(ALICE, clock.t) == v.until and m.deadline == v.until + 3 * DAY
    clock.advance(hours=1)
    await first_move(service, mid, ALICE)  # moved on vacation: her whole bank is kept
    rec = await service.repository.load_match(mid)
    assert rec is not None and rec.clock.bank_of(0) == (4 * DAY).total_seconds()


async def test_four_players_are_told_of_the_other_players_not_an_opponent(
        service: MatchService, clock: SetClock) -> None:
    """+1 day and a claim in a game of four speak of the other players and the player to
    move (with two: "your opponent")."""
    m = await start_four(service, claim_win=True)
    mover = m.to_move[0]
    waiting = next(s.user_id for s in m.seats if s.user_id not in m.to_move)
    with pytest.raises(NotAllowed) as refused:
        await service.give_time(m.id, mover)
    assert refused.value.message == ("it is your move: only the other players can give you "
                                     "time or claim on time")
    for ask in (service.claim_win, service.keep_waiting):
        with pytest.raises(NotAllowed) as refused:
            await ask(m.id, waiting)
        assert refused.value.message == ("the time of the player to move has not run out "
                                         "yet; you can claim once it has")
    two = await banked_match(service, "1", claim_win=True)
    with pytest.raises(NotAllowed) as refused:
        await service.give_time(two, ALICE)
    assert refused.value.message == ("it is your move: only your opponent can give you time "
                                     "or claim on time")
    with pytest.raises(NotAllowed) as refused:
        await service.claim_win(two, BOB)
    assert refused.value.message == ("your opponent's time has not run out yet; you can "
                                     "claim once it has")
