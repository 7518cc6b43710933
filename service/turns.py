"""A turn's clock, pure: the deadline of a new turn (``turn_started``), a seat's bank
once it moved (``banked``), and the clock when that move is taken back (``taken_back``).
See ``service.clocks`` for the rules they serve.

**Seats moving at once.** A turn may have several seats to move together (Querni's
``choose`` set-up: both arrange at the same time). Each such seat runs its own clock: its
own deadline (its bank, from the turn's start or the end of its own vacation) and its own
vacation pause (``ClockState.own``, relative to the match's deadline, which is the
earliest); the downtime extension moves each by the time it ran (``after_downtime``). A
seat that has moved stops its clock (``banked`` counts its bank from its own deadline);
the others go on with theirs (``turn_goes_on``), not a fresh turn. The sweep times out
only the seats whose own deadline passed and reminds only the earliest.
One seat to move: ``own`` is empty and the match's ``deadline``/``paused_until`` are his.

**Weekends off.** Every duration here is running time of the seat's own calendar
(``calendar_of``: the match's weekend rule in its player's time zone), so a deadline
skips his weekends, a bank never banks them, and a clock stopped (a downtime, a vacation)
restarts with the running time it had left (``Calendar.moved``).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

from service.records import ClockState, Downtime, MatchRecord
from service.timecontrol import bank_after_move, reminder_for
from service.weekends import Calendar

SeatClocks = dict[int, tuple[datetime, datetime | None]]
"""Each seat to move: its own deadline and the end of the vacation pause it holds."""


def calendar_of(rec: MatchRecord, seat: int | None) -> Calendar:
    """When ``seat``'s clock runs in ``rec``: always, or not on its player's weekends
    (his time zone; UTC without one, or for no seat)."""
    user = None if seat is None else next((s for s in rec.seats if s.seat == seat), None)
    return Calendar(rec.clock.weekends, user.time_zone if user is not None else None)


def seat_clocks(rec: MatchRecord) -> SeatClocks:
    """The own deadline and pause of each seat of ``rec`` to move (the match's for every
    seat when ``ClockState.own`` is empty: one seat to move, or a record stored before
    seats had their own clocks). Empty without a deadline."""
    if rec.deadline is None:
        return {}
    own = {s: (later, paused) for s, later, paused in rec.clock.own}
    return {s: (rec.deadline + timedelta(seconds=own[s][0]), own[s][1]) if s in own
            else (rec.deadline, rec.clock.paused_until) for s in rec.to_move}


def _with_seat_clocks(rec: MatchRecord, clocks: SeatClocks, remind_at: datetime | None
                      ) -> MatchRecord:
    """``rec`` with these clocks of its seats to move: its deadline is the earliest."""
    first = min(clocks, key=lambda s: (clocks[s][0], s))
    deadline, paused = clocks[first]
    own = () if len(clocks) < 2 else tuple(
        (s, (d - deadline).total_seconds(), p) for s, (d, p) in sorted(clocks.items()))
    return dataclasses.replace(rec, deadline=deadline, remind_at=remind_at,
                               clock=dataclasses.replace(
                                   rec.clock, paused_until=None if own else paused, own=own))


def turn_started(rec: MatchRecord, now: datetime) -> MatchRecord:
    """``rec`` (its ``to_move`` set for the new turn) with the turn's deadline, reminder
    and clock: for each seat to move the period of the control (his bank), from now or
    from the end of his vacation; vacations over by now are forgotten."""
    tc = rec.control
    away = tuple((u, t) for u, t in rec.clock.away if t > now)
    rec = dataclasses.replace(rec, clock=dataclasses.replace(rec.clock, lapsed=None,
                                                             away=away))
    if not rec.to_move:
        calendar = calendar_of(rec, None)
        end = calendar.advance(now, tc.start)
        return _with_seat_clocks(rec, {0: (end, None)}, reminder_for(now, end, calendar))
    clocks: SeatClocks = {}
    starts: dict[int, datetime] = {}
    for seat in rec.to_move:
        bank = rec.clock.bank_of(seat) if tc.is_bank else None
        period = timedelta(seconds=bank) if bank is not None else tc.start
        user = rec.user_at(seat)
        until = next((t for u, t in away if u == user), None)
        start, paused = (until, until) if until is not None and until > now else (now, None)
        clocks[seat] = (calendar_of(rec, seat).advance(start, period), paused)
        starts[seat] = start
    first = min(clocks, key=lambda s: (clocks[s][0], s))
    return _with_seat_clocks(rec, clocks, reminder_for(starts[first], clocks[first][0],
                                                       calendar_of(rec, first)))


def turn_goes_on(rec: MatchRecord, now: datetime) -> MatchRecord:
    """``rec`` after a seat of a turn played by several seats at once moved (its
    ``to_move`` the seats still to move): they go on with their own deadlines, not a new
    turn. The reminder stays unless the earliest deadline changed."""
    clocks = seat_clocks(rec)
    seat = min(clocks, key=lambda s: (clocks[s][0], s))
    first = clocks[seat][0]
    remind = rec.remind_at if first == rec.deadline \
        else reminder_for(now, first, calendar_of(rec, seat))
    return _with_seat_clocks(rec, clocks, remind)


def seat_clock_moved(rec: MatchRecord, seat: int, stopped: datetime, restarts: datetime,
                     paused: datetime | None, start: datetime, now: datetime) -> MatchRecord:
    """``rec`` with the own clock of ``seat`` (to move) stopped at ``stopped`` and
    running again from ``restarts`` (earlier: a stop ended early; ``Calendar.moved``), and
    his pause ``paused`` (a vacation began or ended; the others' clocks stay). The
    reminder follows the earliest deadline: from ``start`` when it is his, else unchanged
    if that deadline is, else from ``now``."""
    clocks = seat_clocks(rec)
    deadline = calendar_of(rec, seat).moved(clocks[seat][0], stopped, restarts)
    clocks[seat] = (deadline, paused)
    first = min(clocks, key=lambda s: (clocks[s][0], s))
    remind: datetime | None
    if first == seat:
        remind = reminder_for(start, deadline, calendar_of(rec, seat))
    elif clocks[first][0] == rec.deadline:
        remind = rec.remind_at
    else:
        remind = reminder_for(now, clocks[first][0], calendar_of(rec, first))
    return _with_seat_clocks(rec, clocks, remind)


def rezoned(rec: MatchRecord, seat: int, now: datetime) -> MatchRecord:
    """``rec`` (read with its player's new time zone) once the player of ``seat``, to
    move, changed his time zone. His deadline stays where it was, never earlier, unless
    with weekends off it falls inside his weekend in the new zone: then it moves to that
    weekend's end (his clock is not running then; counting what was left again in the
    new zone could bring it days earlier, a change he never expected). His reminder, if
    not sent yet, is counted again in his new zone's waking hours."""
    clocks = seat_clocks(rec)
    deadline, paused = clocks[seat]
    calendar = calendar_of(rec, seat)
    clocks[seat] = (calendar.outside(deadline), paused)
    first = min(clocks, key=lambda s: (clocks[s][0], s))
    remind = rec.remind_at
    if remind is not None and remind > now and first == seat:
        remind = reminder_for(max(now, paused or now), clocks[seat][0], calendar)
    return _with_seat_clocks(rec, clocks, remind)


def after_downtime(rec: MatchRecord, since: datetime, now: datetime) -> MatchRecord | None:
    """``rec`` with each running clock moved later by the part of Tablero's downtime
    (``since`` to ``now``) it ran through, and the reminder with the match's deadline;
    None when nothing moves (no deadline, or every seat to move was paused throughout).

    A turn paused by a vacation until ``P`` was not running before ``P``: extending it
    by the whole gap would hand its player time he never lost (and bank it, with a bank
    control), so it gets only ``now - max(since, P)``; the pause end itself stays (the
    vacation ends when it ends). Seats moving at once each get their own share. The
    reminder moves with the deadline and keeps its player's waking hours.
    """
    if rec.deadline is None:
        return None
    clocks = seat_clocks(rec) or {0: (rec.deadline, rec.clock.paused_until)}
    moved: SeatClocks = {}
    for seat, (deadline, paused) in clocks.items():
        stopped = since if paused is None else max(since, paused)
        moved[seat] = (deadline if now <= stopped else calendar_of(
            rec, seat if rec.to_move else None).moved(deadline, stopped, now), paused)
    if moved == clocks:
        return None
    first = min(moved, key=lambda s: (moved[s][0], s))
    shift = moved[first][0] - rec.deadline
    remind = None if rec.remind_at is None else rec.remind_at + shift
    if remind is not None and rec.remind_at is not None and rec.clock.weekends:
        # the reminder keeps its running time before the deadline (not a weekend's
        # wall time more or less)
        paused = clocks[first][1]
        stopped = since if paused is None else max(since, paused)
        if now > stopped:
            remind = calendar_of(rec, first if rec.to_move else None).moved(
                rec.remind_at, stopped, now)
    if remind is not None and remind > now:
        # moved by the outage, it may fall in his night: kept to his waking hours as a
        # turn's reminder is (``Calendar.sensible``)
        remind = calendar_of(rec, first if rec.to_move else None).sensible(
            remind, now, moved[first][0])
    if not rec.to_move:
        return dataclasses.replace(rec, deadline=rec.deadline + shift, remind_at=remind)
    return _with_seat_clocks(rec, moved, remind)


def downtime(since: datetime, now: datetime) -> Downtime:
    """Tablero's downtime from ``since`` to ``now`` with its rule (:func:`after_downtime`),
    for the repository's ``extend_clocks``.

    >>> from datetime import UTC
    >>> gone = downtime(datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 2, tzinfo=UTC))
    >>> gone.gap
    datetime.timedelta(days=1)
    """
    return Downtime(since, now, lambda rec: after_downtime(rec, since, now))


def banked(rec: MatchRecord, seat: int, now: datetime) -> ClockState:
    """``rec``'s clock once ``seat`` moved at ``now``: his bank recomputed from his own
    deadline (bank controls; a lapsed clock left him nothing but the increment)."""
    tc = rec.control
    if not tc.is_bank:
        return rec.clock
    own, paused = seat_clocks(rec).get(seat, (rec.deadline, rec.clock.paused_until))
    deadline = own if rec.clock.lapsed is None else None
    calendar = calendar_of(rec, seat)
    bank = bank_after_move(tc, deadline, paused, now, calendar)
    left = timedelta(0) if deadline is None \
        else calendar.running(max(now, paused or now), deadline)
    banks = dict(rec.clock.banks)
    before = banks.get(seat)
    banks[seat] = bank.total_seconds()
    return dataclasses.replace(rec.clock, banks=tuple(sorted(banks.items())),
                               undo=(rec.ply + 1, seat, before, left.total_seconds()))


def taken_back(rec: MatchRecord, seat: int, now: datetime, per_move_left: timedelta,
               least: timedelta) -> tuple[datetime, ClockState]:
    """The deadline and clock when ``seat``'s last move (``rec``'s last ply) is taken back
    at ``now``: his turn again with the time he had left when he played it, at least
    ``least``. A bank control restores his bank to what it was before the move (and the
    time left then, as ``banked`` kept it); a per-move control gives ``per_move_left``
    (read from the record's times). The undone turn's vacation pause and lapse are
    forgotten; a mover on vacation starts when it ends."""
    clock = dataclasses.replace(rec.clock, paused_until=None, lapsed=None, undo=None, own=(),
                                took_back=tuple(sorted({*rec.clock.took_back, seat})))
    left = per_move_left
    undo = rec.clock.undo
    if rec.control.is_bank and undo is not None and undo[:2] == (rec.ply, seat):
        _ply, _seat, before, had = undo
        banks = dict(clock.banks)
        if before is None:
            banks.pop(seat, None)
        else:
            banks[seat] = before
        clock = dataclasses.replace(clock, banks=tuple(sorted(banks.items())))
        left = timedelta(seconds=had)
    start = now
    user = rec.user_at(seat)
    until = rec.clock.away_until(user) if user is not None else None
    if until is not None and until > now:
        start = until
        clock = dataclasses.replace(clock, paused_until=until)
    return calendar_of(rec, seat).advance(start, max(least, left)), clock
