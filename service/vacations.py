"""Vacation: a yearly allowance per player and server that pauses his clocks.

* **Allowance.** ``GuildSettings.vacation_days`` a year (default 14), earned a twelfth at
  the start of each calendar month (UTC), rounded down cumulatively
  (``timecontrol.vacation_earned``: 14 days give 1 in January, 7 by June, 14 by
  December); unused days lapse at the end of the year. The balance is what was earned
  this year minus the days charged to vacations that started this year.
* **Start / end.** ``start_vacation(guild, user, days)`` books whole days (at most the
  balance; default all of it) from now: in one transaction, the vacation and each of his
  active matches in that server, where he is marked away until its end (his turn's
  deadline moves later by the vacation; a turn that starts during it starts at its end)
  and his opponents are told; a match where his time has already run out (a claim-win
  match waiting for the claim, or a deadline past) is not paused, and the answer says
  so. ``end_vacation`` ends it early: the days not begun are
  given back, his paused deadlines move back by what is left. Matches started while he
  is away are marked away at their start.
* **Tournaments** whose ``vacation`` is False forbid it: those matches are not paused
  (the answer lists them) and automatic vacation does not apply in them.
* **Automatic vacation** (``GuildSettings.auto_vacation``, a server setting): when a
  player's time runs out and he has a day left, the sweep spends vacation (his deadline
  moves a day of his running time later for each day, as +1 day does: with weekends off
  his weekend is not spent) instead of a timeout: as many days as the time since
  the deadline covers, at once, at most his balance; when that falls short he times out
  (issue 38). Matches of his lapsing during a day already spent that way share it: a
  day is charged once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from locales.i18n import _, _n, command
from service.core import ServiceCore
from service.errors import Conflict, InvalidOption, NotAllowed, StaleMove
from service.events import AutoVacation, Event, VacationEnded, VacationStarted
from service.matches import RETRIES
from service.outbox import Announce
from service.records import MatchRecord, MatchStatus, VacationRecord
from service.timecontrol import (
    DAY,
    MAX_VACATION_DAYS,
    reminder_for,
    vacation_days_charged,
    vacation_earned,
)
from service.turns import calendar_of, seat_clock_moved, seat_clocks
from service.views import VacationView

Change = tuple[MatchRecord, MatchRecord, Announce[MatchRecord]]
"""A match before and after a vacation change, with the announcement of it."""


def _year_start(now: datetime) -> datetime:
    return datetime(now.year, 1, 1, tzinfo=UTC)


class Vacations:
    """``vacation_status``, ``start_vacation``, ``end_vacation`` and the automatic
    vacation the sweep spends (``_auto_vacation``)."""

    def __init__(self, core: ServiceCore) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.get_guild_settings = core.get_guild_settings
        self._announce = core.announce
        self._view = core.view
        self._vacation_allowed = core.vacation_allowed

    async def _balance(self, guild_id: int, user: int, now: datetime
                       ) -> tuple[int, int, int, list[VacationRecord]]:
        """(earned this year, used this year, yearly allowance, vacations since Jan 1)."""
        settings = await self.get_guild_settings(guild_id)
        vacations = await self.repository.vacations_of(guild_id, user, _year_start(now))
        used = sum(v.days for v in vacations if v.started_at.year == now.year)
        return vacation_earned(settings.vacation_days, now.month), used, \
            settings.vacation_days, vacations

    async def vacation_status(self, guild_id: int, user: int) -> VacationView:
        now = self.clock.now()
        earned, used, yearly, vacations = await self._balance(guild_id, user, now)
        current = next((v for v in vacations if v.active(now) and not v.auto), None)
        settings = await self.get_guild_settings(guild_id)
        return VacationView(user, guild_id, yearly, earned, used, max(0, earned - used),
                            current.until if current else None, settings.auto_vacation)

    async def start_vacation(self, guild_id: int, user: int, days: int | None = None
                             ) -> VacationView:
        """Go on vacation for ``days`` whole days from now (default: the whole balance)."""
        if days is not None and (isinstance(days, bool) or not isinstance(days, int)
                                 or not 1 <= days <= MAX_VACATION_DAYS):
            raise InvalidOption(_("vacation is booked in whole days, from 1 to {high}",
                                  high=MAX_VACATION_DAYS))
        for _attempt in range(RETRIES):
            now = self.clock.now()
            earned, used, _yearly, vacations = await self._balance(guild_id, user, now)
            if any(v.active(now) and not v.auto for v in vacations):
                raise NotAllowed(_("you are already on vacation; {end} ends it",
                                   end=command("vacation end")))
            balance = max(0, earned - used)
            wanted = balance if days is None else days
            if wanted > balance or wanted < 1:
                raise NotAllowed(_n("you have {count} day of vacation left this year",
                                    "you have {count} days of vacation left this year",
                                    balance))
            until = now + wanted * DAY
            vacation = VacationRecord(guild_id, user, now, until, wanted)
            changes: list[Change] = []
            forbidden: list[int] = []
            late: list[int] = []
            for rec in await self.repository.matches_of(user, guild_id,
                                                        (MatchStatus.ACTIVE,)):
                if not await self._vacation_allowed(rec):
                    forbidden.append(rec.id)
                    continue
                if self._time_ran_out(rec, user, now):
                    late.append(rec.id)
                    continue
                changes.append(self._paused(rec, user, now, until))
            try:
                _stored, saved = await self.repository.save_vacation(vacation, changes)
            except Conflict:
                continue
            await self._announce_all(changes)
            return dataclasses.replace(
                await self.vacation_status(guild_id, user),
                paused=tuple(s.id for s in saved), forbidden=tuple(forbidden),
                late=tuple(late))
        raise StaleMove(_("your matches are changing too fast right now; try again"))

    @staticmethod
    def _time_ran_out(rec: MatchRecord, user: int, now: datetime) -> bool:
        """Whether ``user``'s time in ``rec`` has already run out: lapsed and waiting
        for a claim, or past his deadline before the sweep saw it. A vacation does not
        pause such a match (issue 38: a pause the opponent's claim ends at once would
        tell him the match is safe when it is not)."""
        me = rec.seat_of(user)
        if me is None or me.seat not in rec.to_move:
            return False
        if rec.clock.lapsed is not None:
            return True
        own = seat_clocks(rec).get(me.seat)
        return own is not None and own[0] <= now

    def _paused(self, rec: MatchRecord, user: int, now: datetime, until: datetime
                ) -> Change:
        """``rec`` with ``user`` away until ``until``; his running turn paused."""
        away = tuple((u, t) for u, t in rec.clock.away if u != user and t > now)
        clock = dataclasses.replace(rec.clock, away=(*away, (user, until)))
        after = dataclasses.replace(rec, clock=clock)
        me = rec.seat_of(user)
        if me is not None and me.seat in rec.to_move and rec.deadline is not None:
            # his own clock (seats moving at once keep theirs: ``turns``)
            paused = seat_clocks(rec)[me.seat][1]
            after = seat_clock_moved(after, me.seat, now, until,
                                     max(until, paused or until), until, now)

        def told(s: MatchRecord) -> list[Event]:
            return [VacationStarted(self._view(s), user, until)]
        return rec, after, self._announcer(told)

    def _announcer(self, build: Callable[[MatchRecord], Sequence[Event]]
                   ) -> Announce[MatchRecord]:
        return Announce(build, self.clock.now())

    async def _announce_all(self, changes: Sequence[Change]) -> None:
        for _before, _after, outbox in changes:
            await self._announce(outbox.events)

    async def end_vacation(self, guild_id: int, user: int) -> VacationView:
        """End the vacation now: the days not begun go back to the balance, and each
        paused deadline moves back by the time the vacation had left."""
        for _attempt in range(RETRIES):
            now = self.clock.now()
            _earned, _used, _yearly, vacations = await self._balance(guild_id, user, now)
            current = next((v for v in vacations if v.active(now) and not v.auto), None)
            if current is None:
                raise NotAllowed(_("you are not on vacation in this server"))
            ended = dataclasses.replace(current, ended_at=now,
                                        days=vacation_days_charged(current.started_at, now))
            changes: list[Change] = []
            for rec in await self.repository.matches_of(user, guild_id,
                                                        (MatchStatus.ACTIVE,)):
                if rec.clock.away_until(user) is not None:
                    changes.append(self._resumed(rec, user, now))
            try:
                await self.repository.save_vacation(ended, changes)
            except Conflict:
                continue
            await self._announce_all(changes)
            return await self.vacation_status(guild_id, user)
        raise StaleMove(_("your matches are changing too fast right now; try again"))

    def _resumed(self, rec: MatchRecord, user: int, now: datetime
                 ) -> Change:
        until = rec.clock.away_until(user)
        assert until is not None
        clock = dataclasses.replace(rec.clock, away=tuple(
            (u, t) for u, t in rec.clock.away if u != user))
        after = dataclasses.replace(rec, clock=clock)
        me = rec.seat_of(user)
        if me is not None and me.seat in rec.to_move and rec.deadline is not None \
                and until > now:
            after = seat_clock_moved(after, me.seat, until, now, now, now, now)

        def told(s: MatchRecord) -> list[Event]:
            return [VacationEnded(self._view(s), user)]
        return rec, after, self._announcer(told)

    async def auto_vacation(self, rec: MatchRecord, now: datetime) -> list[Event] | None:
        """At ``rec``'s lapsed deadline: spend the late player's vacation instead of a
        timeout, if the server does that, the match allows vacation and he has days left
        (or a day already spent that way still runs). None when it does not apply.

        The days the gap since the deadline covers are spent at once (a sweep after a
        long gap, or the console's ``/sweep +20``, spends them in one go, never one per
        sweep): as many as bring the deadline past ``now``, at most his balance. When the
        balance falls short the deadline stays in the past and the caller's next look at
        the match times it out (or asks for the claim)."""
        settings = await self.get_guild_settings(rec.guild_id)
        if not settings.auto_vacation or len(rec.to_move) != 1 or rec.deadline is None:
            return None
        user = rec.user_at(rec.to_move[0])
        if user is None or not await self._vacation_allowed(rec):
            return None
        # the balance when the days are spent: from the deadline on (a gap across New
        # Year spends the old year's days, which lapse with it)
        earned, used, _yearly, vacations = await self._balance(rec.guild_id, user,
                                                               rec.deadline)
        left = max(0, earned - used)
        # a day spent is a day of his running time, as +1 day is: with weekends off,
        # a Friday noon deadline moves to Monday noon in his zone (a wall day put it in
        # his weekend, where each sweep spent another day or timed him out)
        calendar = calendar_of(rec, rec.to_move[0])
        running = next((v for v in vacations if v.auto and v.until > rec.deadline
                        and v.started_at <= rec.deadline and v.ended_at is None), None)
        if running is not None:
            # a day already spent that way covers this match too; the days since its
            # end up to now are added to it
            more = 0 if running.until > now \
                else min(left, calendar.running(running.until, now) // DAY + 1)
            vacation = dataclasses.replace(
                running, until=calendar.advance(running.until, more * DAY),
                days=running.days + more)
        elif left >= 1:
            more = min(left, calendar.running(rec.deadline, now) // DAY + 1)
            vacation = VacationRecord(rec.guild_id, user, rec.deadline,
                                      calendar.advance(rec.deadline, more * DAY), more,
                                      auto=True)
        else:
            return None
        # (a day spent in another match of his may end in this one's weekend: his clock
        # here runs again when that weekend ends)
        until = calendar.resumes(vacation.until)
        if more == 0 and until <= now:
            return None  # nothing left to spend: the timeout
        after = dataclasses.replace(
            rec, deadline=until,
            remind_at=reminder_for(now, until, calendar) if until > now else None,
            clock=dataclasses.replace(rec.clock, paused_until=until))

        def told(s: MatchRecord) -> list[Event]:
            return [AutoVacation(self._view(s), user, until, left - more, max(1, more))]
        outbox = self._announcer(told)
        await self.repository.save_vacation(vacation, [(rec, after, outbox)])
        await self._announce(outbox.events)
        return list(outbox.events)
