"""A turn's clock, pure: the deadline of a new turn (``turn_started``), a seat's bank
once it moved (``banked``), and the clock when that move is taken back (``taken_back``).
See ``bot.service.clocks`` for the rules they serve."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

from bot.service.records import ClockState, MatchRecord
from bot.service.timecontrol import bank_after_move, reminder_for


def turn_started(rec: MatchRecord, now: datetime) -> MatchRecord:
    """``rec`` (its ``to_move`` set for the new turn) with the turn's deadline, reminder
    and clock: the period of the control (the smallest bank of the seats to move), from
    now or from the end of a mover's vacation; vacations over by now are forgotten."""
    tc = rec.control
    away = tuple((u, t) for u, t in rec.clock.away if t > now)
    period = tc.start
    if tc.is_bank and rec.to_move:
        period = min(timedelta(seconds=b) if (b := rec.clock.bank_of(s)) is not None
                     else tc.start for s in rec.to_move)
    start, paused = now, None
    for seat in rec.to_move:
        user = rec.user_at(seat)
        until = next((t for u, t in away if u == user), None)
        if until is not None and until > start:
            start, paused = until, until
    deadline = start + period
    return dataclasses.replace(
        rec, deadline=deadline, remind_at=reminder_for(start, deadline),
        clock=dataclasses.replace(rec.clock, paused_until=paused, lapsed=None, away=away))


def banked(rec: MatchRecord, seat: int, now: datetime) -> ClockState:
    """``rec``'s clock once ``seat`` moved at ``now``: his bank recomputed (bank
    controls; a lapsed clock left him nothing but the increment)."""
    tc = rec.control
    if not tc.is_bank:
        return rec.clock
    deadline = rec.deadline if rec.clock.lapsed is None else None
    bank = bank_after_move(tc, deadline, rec.clock.paused_until, now)
    left = timedelta(0) if deadline is None \
        else max(timedelta(0), deadline - max(now, rec.clock.paused_until or now))
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
    clock = dataclasses.replace(rec.clock, paused_until=None, lapsed=None, undo=None)
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
    return start + max(least, left), clock
