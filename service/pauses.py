"""Pause by agreement (issue 43): either player of a two-player match proposes to pause
it for some days (with a reason, if he likes); the other accepts or declines. While
paused nobody moves and no clock runs; either player may resume early.

Decisions:

* **Two-player games only**, as takebacks: in a game of four every other player would
  have to agree before anybody moved.
* **A lapsed clock cannot be escaped**: a pause is neither proposed nor accepted while
  the player to move is past his deadline (or, with claim win, waiting for the claim).
* **Rated games** allow ``GuildSettings.pauses_rated`` pauses per match (default 2, 0-10);
  casual games any number. A pause lasts 1 to ``MAX_PAUSE_DAYS`` whole days.
* **The clocks**: each running clock stops when the pause begins and runs again when it
  ends with the running time it had left (``Calendar.moved``: weekends off compose); the
  pause is held as the seat's vacation-style pause (never banked; a downtime inside it
  extends nothing). Resuming early gives back what the rest of the pause had added.
* **An offer lapses** when a move is played (it is about the position it was made in),
  and a new one replaces an older one of the same player. A pause that runs its course
  needs no message: the turn's clock simply runs again (its reminder follows it).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from locales.i18n import _, _n, command, moment
from service.core import ServiceCore
from service.errors import InvalidOption, NotAllowed
from service.events import Event, PauseDeclined, PauseEnded, PauseOffered, PauseStarted
from service.records import MatchRecord, PauseOffer
from service.timecontrol import DAY, MAX_PAUSE_DAYS
from service.turns import seat_clock_moved, seat_clocks
from service.views import Caller, MatchView

MAX_REASON = 200
"""The longest reason a pause may give, in characters."""


class Pauses:
    """``propose_pause``, ``accept_pause``, ``decline_pause``, ``resume_pause``; the
    move's check that the match is not paused is ``refuse_while_paused``."""

    def __init__(self, core: ServiceCore) -> None:
        self.clock = core.clock
        self._retrying = core.retrying
        self._commit = core.commit
        self._announce = core.announce
        self._view = core.view
        self._require_player = core.require_player
        self._require_active = core.require_active
        self._check_text = core.check_text
        self._settings = core.get_guild_settings

    def _player(self, rec: MatchRecord, user: int) -> None:
        self._require_active(rec)
        self._require_player(rec, user)
        if rec.seat_count != 2:
            raise NotAllowed(_("a pause by agreement is for two-player games"))

    @staticmethod
    def refuse_while_paused(rec: MatchRecord, now: datetime) -> None:
        """Nobody moves while the players' agreed pause runs."""
        until = rec.clock.pause_ends(now)
        if until is not None:
            # in each reader's own time (Discord's timestamp; elsewhere UTC, saying so)
            raise NotAllowed(_("match #{match} is paused until {until} ({resume} ends "
                               "the pause)", match=str(rec.id), until=moment(until),
                               resume=command("pause", action="resume")))

    @staticmethod
    def _lapsed(rec: MatchRecord, now: datetime) -> bool:
        """Whether the player to move is out of time (a pause must not save him)."""
        if rec.clock.lapsed is not None:
            return True
        return any(deadline <= now for deadline, _p in seat_clocks(rec).values())

    async def _may_pause(self, rec: MatchRecord, now: datetime) -> None:
        if rec.clock.pause_ends(now) is not None:
            raise NotAllowed(_("match #{match} is paused already", match=str(rec.id)))
        if self._lapsed(rec, now):
            raise NotAllowed(_("the time to move in match #{match} has run out: a pause "
                               "cannot stop a clock that is out", match=str(rec.id)))
        if rec.rated:
            allowed = (await self._settings(rec.guild_id)).pauses_rated
            if rec.clock.pauses >= allowed:
                raise NotAllowed(_n(
                    "this server allows {count} pause in a rated match, and it was taken",
                    "this server allows {count} pauses in a rated match, and they were "
                    "taken", allowed) if allowed else
                    _("this server allows no pauses in rated matches"))

    async def propose_pause(self, match_id: int, user: int, days: int,
                            reason: str | None = None, *, caller: Caller | None = None
                            ) -> MatchView:
        """``user`` proposes to pause ``match_id`` for ``days`` whole days."""
        if isinstance(days, bool) or not isinstance(days, int) \
                or not 1 <= days <= MAX_PAUSE_DAYS:
            raise InvalidOption(_("a pause lasts whole days, from 1 to {high}",
                                  high=MAX_PAUSE_DAYS))
        why = None
        if reason is not None:
            why = self._check_text(reason, _("reason")).strip() or None
            if why is not None and len(why) > MAX_REASON:
                raise InvalidOption(_("a reason has at most {high} characters",
                                      high=MAX_REASON))

        async def attempt(rec: MatchRecord) -> MatchView:
            self._player(rec, user)
            await self._may_pause(rec, self.clock.now())
            offer = PauseOffer(user, days, rec.ply, why)
            after = dataclasses.replace(rec, clock=dataclasses.replace(
                rec.clock, pause_offer=offer))

            def offered(s: MatchRecord) -> list[Event]:
                return [PauseOffered(self._view(s), user, days, why)]
            saved, events = await self._commit(rec, after, offered)
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    def _pending(self, rec: MatchRecord, user: int) -> PauseOffer:
        offer = rec.clock.pause_offer
        if offer is None or offer.ply != rec.ply:
            raise NotAllowed(_("nobody has proposed a pause in match #{match} (or a move "
                               "was played since)", match=str(rec.id)))
        if offer.by == user:
            raise NotAllowed(_("you proposed this pause: your opponent answers it"))
        return offer

    async def accept_pause(self, match_id: int, user: int, *, caller: Caller | None = None
                           ) -> MatchView:
        """The other player agrees: from now until ``days`` later nobody moves and no
        clock runs."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._player(rec, user)
            offer = self._pending(rec, user)
            now = self.clock.now()
            await self._may_pause(rec, now)
            until = now + offer.days * DAY
            after = dataclasses.replace(rec, clock=dataclasses.replace(
                rec.clock, pause_offer=None, paused=(now, until), pauses=rec.clock.pauses + 1))
            for seat, (_deadline, paused) in seat_clocks(rec).items():
                after = seat_clock_moved(after, seat, now, until,
                                         max(until, paused or until), until, now)

            def started(s: MatchRecord) -> list[Event]:
                return [PauseStarted(self._view(s), offer.by, user, until, offer.reason)]
            saved, events = await self._commit(rec, after, started, by=user)
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def decline_pause(self, match_id: int, user: int, *, caller: Caller | None = None
                            ) -> MatchView:
        async def attempt(rec: MatchRecord) -> MatchView:
            self._player(rec, user)
            self._pending(rec, user)
            after = dataclasses.replace(rec, clock=dataclasses.replace(
                rec.clock, pause_offer=None))

            def declined(s: MatchRecord) -> list[Event]:
                return [PauseDeclined(self._view(s), user)]
            saved, events = await self._commit(rec, after, declined, by=user)
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def resume_pause(self, match_id: int, user: int, *, caller: Caller | None = None
                           ) -> MatchView:
        """Either player ends the pause now: the clocks run again, each deadline earlier
        by the part of the pause not taken."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._player(rec, user)
            now = self.clock.now()
            until = rec.clock.pause_ends(now)
            if until is None or rec.clock.paused is None:
                raise NotAllowed(_("match #{match} is not paused", match=str(rec.id)))
            after = dataclasses.replace(rec, clock=dataclasses.replace(
                rec.clock, paused=(rec.clock.paused[0], now)))
            for seat, (_deadline, paused) in seat_clocks(rec).items():
                after = seat_clock_moved(after, seat, until, now,
                                         now if paused == until else paused, now, now)

            def ended(s: MatchRecord) -> list[Event]:
                return [PauseEnded(self._view(s), user)]
            saved, events = await self._commit(rec, after, ended)
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)
