"""Periodic passes: the deadline sweep (reminders and timeouts) and ``verify_all``
(replay every match, mark broken ones)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from service.core import ServiceCore
from service.early_ends import NO_MOVE_IN_TIME
from service.endings import Endings
from service.errors import Conflict, MatchBroken, ServiceError, StorageError
from service.events import DeadlineReminder, Event, SeatTakenOver, TimeLapsed
from service.matches import RETRIES, moves_played
from service.records import MatchRecord, MatchStatus
from service.states import replay
from service.turns import calendar_of, seat_clocks, turn_started
from service.vacations import Vacations

log = logging.getLogger(__name__)


class Deadlines:
    """The deadline sweep and the replay check (a timeout leaves the match like a
    resignation, through ``Endings``; an automatic vacation is ``Vacations``')."""

    def __init__(self, core: ServiceCore, endings: Endings, vacations: Vacations) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.shards = core.shards
        self.get_guild_settings = core.get_guild_settings
        self._record = core.record
        self._commit = core.commit
        self._announce = core.announce
        self._view = core.view
        self._entries = core.entries
        self._mark_broken = core.mark_broken
        self._everyone_moved = core.everyone_moved
        self._abort = core.abort
        self._endings = endings
        self._vacations = vacations

    async def sweep_deadlines(self, now: datetime | None = None) -> list[Event]:
        """Send due reminders and apply due timeouts; returns the events sent. Safe to call
        at any time and after any downtime: it acts on what is stored. Only matches of
        this process's guilds (``self.shards``): another process sweeps the others."""
        now = now or self.clock.now()
        events: list[Event] = []
        for rec in await self.repository.due_matches(now):
            if not self.shards.owns(rec.guild_id):
                continue
            try:
                events.extend(await self._sweep_one(rec.id, now))
            except StorageError:
                raise  # the database failed: the whole sweep waits for the next tick
            except ServiceError as e:
                log.warning("sweep skipped match %s: %s", rec.id, e.message)
        return events

    async def _sweep_one(self, match_id: int, now: datetime) -> list[Event]:
        spent: list[Event] = []  # automatic vacation spent on the way
        for _attempt in range(RETRIES):
            rec = await self._record(match_id)
            if rec.status is not MatchStatus.ACTIVE or rec.deadline is None:
                return spent
            try:
                if rec.deadline <= now:
                    if (await self._everyone_moved(rec))[0]:
                        days = await self._vacations.auto_vacation(rec, now)
                        if days is not None:
                            spent += days
                            # the balance fell short of the gap: he times out now (the
                            # next look finds no day left), not one day per sweep
                            continue
                        if rec.clock.claim:
                            return spent + await self._lapse(rec)
                    return spent + await self._timeout(rec, now)
                if rec.remind_at is not None and rec.remind_at <= now:
                    settings = await self.get_guild_settings(rec.guild_id)
                    # seats moving at once: the reminder is for the earliest deadline's
                    # seats (a later one is reminded when they have moved; if they run
                    # out of time, the match is over)
                    due_seats = [s for s, (d, _p) in seat_clocks(rec).items()
                                 if d == rec.deadline]
                    due = tuple(u for s in due_seats if (u := rec.user_at(s)) is not None)
                    # the running time left (with weekends off: not the weekend's)
                    running = calendar_of(rec, min(due_seats, default=None)).running(
                        now, rec.deadline)

                    def reminded(s: MatchRecord, remind: bool = settings.reminders,
                                 left: timedelta = running,
                                 due: tuple[int, ...] = due) -> list[Event]:
                        if not remind:
                            return []
                        view = self._view(s)
                        return [DeadlineReminder(view, due or view.to_move, left)]
                    # the reminder is stored as sent with its outbox entry: never lost
                    _saved, events = await self._commit(
                        rec, dataclasses.replace(rec, remind_at=None), reminded)
                    await self._announce(events)
                    return spent + events
                return spent
            except Conflict:
                continue
        return spent

    async def _lapse(self, rec: MatchRecord) -> list[Event]:
        """A claim-win match's time ran out: stored as lapsed (the sweep then leaves it)
        and the waiting players are asked whether to claim."""
        after = dataclasses.replace(rec, deadline=None, remind_at=None, clock=dataclasses.replace(
            rec.clock, lapsed=rec.deadline))

        def lapsed(s: MatchRecord) -> list[Event]:
            view = self._view(s)
            waiting = tuple(u for u in view.players() if u not in view.to_move
                            and not any(x.user_id == u and x.out for x in view.seats))
            return [TimeLapsed(view, view.to_move, waiting)]
        _saved, events = await self._commit(rec, after, lapsed)
        await self._announce(events)
        return events

    async def _timeout(self, rec: MatchRecord, now: datetime) -> list[Event]:
        # seats moving at once each have their own deadline: only those past it are late
        late = [s for s, (d, _p) in seat_clocks(rec).items() if d <= now] or list(rec.to_move)
        if len(late) != 1 or not (await self._everyone_moved(rec))[0]:
            alone = rec.user_at(late[0]) if len(late) == 1 else None
            return [await self._abort(rec, NO_MOVE_IN_TIME,
                                      leaver=None if alone is None else (alone, "timeout"))]
        user = rec.user_at(late[0])
        if user is None:
            return []
        if rec.clock.on_timeout == "computer" and rec.seat_count > 2:
            return await self._taken_over(rec, user, now)
        # on_timeout:skip: his turns are skipped for the rest of the game (issue 43)
        skip = rec.clock.on_timeout == "skip" and rec.seat_count > 2
        _saved, events = await self._endings.leave(rec, user, "skip" if skip else "timeout")
        return events

    async def _taken_over(self, rec: MatchRecord, user: int, now: datetime) -> list[Event]:
        """``on_timeout:computer``: the computer plays the late seat from now on (a
        seat it plays already, whose search failed, just gets a fresh turn's clock)."""
        since = rec.clock.stand_in_since(user)
        move = since if since is not None else moves_played(rec) + 1
        stand_ins = rec.clock.stand_ins if since is not None \
            else (*rec.clock.stand_ins, (user, move))
        after = turn_started(dataclasses.replace(rec, clock=dataclasses.replace(
            rec.clock, stand_ins=stand_ins)), now)
        level = rec.clock.stand_in_level

        def taken(s: MatchRecord) -> list[Event]:
            return [SeatTakenOver(self._view(s), user, level, move)]
        _saved, events = await self._commit(rec, after, taken if since is None else
                                            lambda s: [])
        await self._announce(events)
        return events

    async def verify_all(self, progress: Callable[[int, int], None] | None = None
                         ) -> list[tuple[int, str]]:
        """Replay every stored match that has a position and compare it with its cached
        text; mismatches are marked broken. Returns ``(match id, problem)`` pairs.
        ``progress(done, total)`` reports how far it got (``tablero db check``)."""
        problems: list[tuple[int, str]] = []
        ids = await self.repository.match_ids()
        for done, match_id in enumerate(ids):
            if progress is not None:
                progress(done, len(ids))
            rec = await self.repository.load_match(match_id)
            if rec is None or rec.status is MatchStatus.BROKEN:
                if rec is not None:
                    problems.append((rec.id, rec.broken or "broken"))
                continue
            entries = await self._entries(rec)
            try:
                replay(rec, entries)
            except MatchBroken as e:
                problems.append((rec.id, e.message))
                await self._mark_broken(rec, e.message)
        if progress is not None:
            progress(len(ids), len(ids))
        return problems
