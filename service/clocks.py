"""Clocks: time controls turn by turn, +1 day, claim-win, and never running while
Tablero is away.

**Turns.** ``turn_started`` gives a new turn its deadline: the period of a per-move
control, or the mover's bank; a mover on vacation (``ClockState.away``) starts when his
vacation ends, and that pause is remembered so it is never banked. ``banked`` is a
seat's bank once it moved (``timecontrol.bank_after_move``). Both are pure.

**More time.** ``give_time``: a player not to move gives the players to move one day
more (their deadline moves a day later; a lapsed claim-win clock gets a fresh day from
now). **Claim-win.** In a match with ``ClockState.claim`` the sweep does not end the
game when the deadline passes: it stores the lapse (``ClockState.lapsed``, the deadline
cleared so the sweep leaves it) and tells the waiting players, who may ``claim_win``
(the late player loses on time, as a timeout) or keep waiting; the late player may move
until someone claims.

**Downtime.**
The running bot (or console) stores a heartbeat for each shard it runs. When it resumes
after a gap longer than ``grace`` — the process was down, or it was cut off from Discord —
every active deadline and reminder time of its shards' guilds is moved later by the gap,
in one transaction per shard, before the next sweep can time anybody out, and each such
match gets one ``ClocksExtended`` notice. Other processes' guilds are untouched: their
clocks ran (or their own process extends them when it is back). The extension is a
compare-and-set on the shard's beat, so two processes resuming at once extend once.
Time moves only through the ``Clock`` port, so tests drive it by hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime, timedelta

from locales.i18n import _
from service.core import ServiceCore
from service.early_ends import NO_MOVE_IN_TIME
from service.endings import Endings
from service.errors import NotAllowed
from service.events import ClocksExtended, Event, TimeGiven
from service.outbox import Announce
from service.records import MatchRecord
from service.timecontrol import DAY, reminder_for
from service.turns import calendar_of, downtime
from service.views import Caller, MatchView

DEFAULT_GRACE = timedelta(minutes=5)
"""A gap up to this long is normal running (a sweep interval or a few, a quick restart)."""


class Clocks:
    """``resume``: the heartbeat, and the extension of every clock after a gap;
    ``give_time`` (+1 day) and ``claim_win``."""

    def __init__(self, core: ServiceCore, endings: Endings) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.shards = core.shards
        self._record = core.record
        self._retrying = core.retrying
        self._commit = core.commit
        self._announce = core.announce
        self._view = core.view
        self._require_player = core.require_player
        self._require_active = core.require_active
        self._abort = core.abort
        self._endings = endings

    def _waiting_player(self, rec: MatchRecord, user: int) -> None:
        """Refuse unless ``user`` plays in ``rec``, is still in, and is not to move."""
        self._require_active(rec)
        me = self._require_player(rec, user)
        if me.out:
            raise NotAllowed(_("you are out of this game"))
        if me.seat in rec.to_move:
            raise NotAllowed(
                _("it is your move: only your opponent can give you time or claim on time")
                if rec.seat_count == 2 else
                _("it is your move: only the other players can give you time or claim on "
                  "time"))

    @staticmethod
    def _require_lapsed(rec: MatchRecord) -> None:
        """Refuse a claim (or a choice not to claim) while the clock runs."""
        if not rec.clock.claim:  # nothing to wait for: "you can claim once..." misled
            raise NotAllowed(_("this match has no claim on time: a lapsed clock ends "
                               "it by itself"))
        if rec.clock.lapsed is None:
            raise NotAllowed(
                _("your opponent's time has not run out yet; you can claim once it has")
                if rec.seat_count == 2 else
                _("the time of the player to move has not run out yet; you can claim once "
                  "it has"))

    async def give_time(self, match_id: int, user: int,
                        *, caller: Caller | None = None) -> MatchView:
        """+1 day: ``user`` (a player not to move) gives the players to move a day more.
        A lapsed claim-win clock gets a fresh day from now."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._waiting_player(rec, user)
            now = self.clock.now()
            # a day of running time: with weekends off, a day the late player's clock runs
            calendar = calendar_of(rec, rec.to_move[0] if len(rec.to_move) == 1 else None)
            if rec.clock.lapsed is not None:
                deadline = calendar.advance(now, DAY)
                clock = dataclasses.replace(rec.clock, lapsed=None)
            else:
                assert rec.deadline is not None
                deadline, clock = calendar.advance(rec.deadline, DAY), rec.clock
            after = dataclasses.replace(rec, deadline=deadline, clock=clock,
                                        remind_at=reminder_for(now, deadline, calendar))

            def given(s: MatchRecord) -> list[Event]:
                view = self._view(s)
                return [TimeGiven(view, user, view.to_move)]
            saved, events = await self._commit(rec, after, given, by=user)
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def claim_win(self, match_id: int, user: int,
                        *, caller: Caller | None = None) -> MatchView:
        """Claim the win on time in a claim-win match whose clock has lapsed: the late
        player loses on time (a 4-player game: he is out), as a timeout would."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._waiting_player(rec, user)
            self._require_lapsed(rec)
            late = [s for s in rec.to_move]
            late_user = rec.user_at(late[0]) if len(late) == 1 else None
            if late_user is None:
                ended = await self._abort(rec, NO_MOVE_IN_TIME, by=user)
                return ended.match
            view, _events = await self._endings.leave(rec, late_user, "timeout", by=user)
            return view
        return await self._retrying(match_id, attempt)

    async def keep_waiting(self, match_id: int, user: int,
                           *, caller: Caller | None = None) -> MatchView:
        """The waiting player chose not to claim now (nothing changes; he may claim later
        while the clock stays lapsed). Refused like ``claim_win`` for anyone else."""
        rec = await self._record(match_id)
        self._waiting_player(rec, user)
        self._require_lapsed(rec)
        return self._view(rec)

    async def resume(self, grace: timedelta = DEFAULT_GRACE, now: datetime | None = None
                     ) -> list[ClocksExtended]:
        """Beat the heartbeat of this process's shards; for each shard whose last beat is
        more than ``grace`` ago, first move every active match of its guilds later by the
        gap and tell each match. Each shard counts alone: one process's outage among
        several extends only the clocks of its own guilds.

        Call it at start-up before the first sweep and before every sweep after that;
        don't call it while cut off from Discord (the gap then shows when back)."""
        now = now or self.clock.now()
        count = self.shards.count
        fresh: list[int] = []
        events: list[ClocksExtended] = []
        for shard in self.shards.shard_ids:
            last = await self.repository.heartbeat(shard, count)
            if last is None or now - last <= grace:
                fresh.append(shard)  # also a clock set back: just beat
                continue
            announce: Announce[MatchRecord] = Announce(self._extended(now - last), now)
            changed = await self.repository.extend_clocks(
                downtime(last, now), announce, shard_id=shard, shard_count=count)
            if changed is None:
                continue  # another process resumed this shard first and extended them
            events += [e for e in announce.events if isinstance(e, ClocksExtended)]
        if fresh:
            await self.repository.beat(now, fresh, count)
        await self._announce(events)
        return events

    def _extended(self, gap: timedelta) -> Callable[[MatchRecord], list[Event]]:
        """The notice of each match whose clock moved ``gap`` later."""
        return lambda s: [ClocksExtended(self._view(s), gap)]

    async def beat(self, now: datetime | None = None) -> None:
        """Store the heartbeat of this process's shards without extending anything: the
        clock was moved on on purpose (the console's ``/sweep +DAYS``)."""
        await self.repository.beat(now or self.clock.now(), self.shards.shard_ids,
                                   self.shards.count)
