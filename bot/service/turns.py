"""A turn's clock, pure: the deadline of a new turn (``turn_started``) and a seat's bank
once it moved (``banked``). See ``bot.service.clocks`` for the rules they serve."""

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
    banks = dict(rec.clock.banks)
    banks[seat] = bank.total_seconds()
    return dataclasses.replace(rec.clock, banks=tuple(sorted(banks.items())))
