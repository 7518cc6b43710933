"""Ending a match by agreement or by leaving: resign and draw offers (offer, accept,
decline)."""

from __future__ import annotations

import dataclasses

from locales.i18n import _
from rules import Outcome
from rules.records import LEAVING_REASONS, seat_leaves
from service.core import ServiceCore
from service.early_ends import DRAW_AGREED_EARLY
from service.errors import NotAllowed
from service.events import (
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    Event,
    PlayerOut,
    TurnStarted,
)
from service.matches import moves_played
from service.records import SPECIAL_PREFIX, DrawOffer, MatchRecord, RecordEntry
from service.states import MatchState
from service.turns import turn_started
from service.views import BoardState, Caller, MatchView


class Endings:
    """Resigning and draw offers."""

    def __init__(self, core: ServiceCore) -> None:
        self.clock = core.clock
        self.states = core.states
        self._retrying = core.retrying
        self._commit = core.commit
        self._announce = core.announce
        self._view = core.view
        self._state = core.state
        self._board_of = core.board_of
        self._ended = core.ended
        self._completed = core.completed
        self._require_player = core.require_player
        self._require_active = core.require_active
        self._everyone_moved = core.everyone_moved
        self._abort = core.abort
        self._finish = core.finish
        self._put_out = core.put_out
        self._sync_out = core.sync_out

    async def resign(self, match_id: int, user: int, *, caller: Caller | None = None) -> MatchView:
        """Resign. Two players: the opponent wins. Four: the game's rules decide (the seat
        is out and play goes on, or the game ends)."""
        async def attempt(rec: MatchRecord) -> MatchView:
            view, _events = await self.leave(rec, user, "resign")
            return view
        return await self._retrying(match_id, attempt)

    async def leave(self, rec: MatchRecord, user: int, how: str, *, by: int | None = None
                     ) -> tuple[MatchView, list[Event]]:
        """``user`` leaves: ``how`` is ``"resign"``, ``"timeout"`` (the rules' ``resign``)
        or ``"skip"`` (his time ran out in a game that skips him: the rules'
        ``skip_seat``, issue 43), recorded as the entry ``#how seat``. ``by``: who made
        him leave, when another did (a claim on time: ``commit``)."""
        self._require_active(rec)
        me = self._require_player(rec, user)
        assert me.seat is not None
        if me.out:
            raise NotAllowed(_("you are already out of this game"))
        moved, entries = await self._everyone_moved(rec)
        if not moved:
            # nothing was played for: no result, no rating (a resignation, or a timeout);
            # in a tournament game, a forfeit (``early_ends``)
            aborted = await self._abort(
                rec, None, left_by=user,
                leaver=(user, "resign" if how == "resign" else "timeout"), by=by)
            return aborted.match, [aborted]
        state = await self._state(rec)
        p = state.position
        v = p.variant
        now = self.clock.now()
        new, outcome = seat_leaves(v, p, me.seat, how)
        entry = RecordEntry(rec.ply, me.seat, f"{SPECIAL_PREFIX}{how} {me.seat}", user, now)
        reason = LEAVING_REASONS[how]
        seats = tuple(dataclasses.replace(s, out=True) if s.user_id == user else s
                      for s in rec.seats)
        clock = rec.clock if how != "skip" else dataclasses.replace(
            rec.clock, skipped=(*rec.clock.skipped, (user, moves_played(rec) + 1)))
        after = dataclasses.replace(rec, ply=rec.ply + 1, seats=seats, draw_offer=None,
                                    last_move=None, last_move_by=None, clock=clock)
        ratings = None
        if new is not None:
            after = dataclasses.replace(after, position_text=new.to_text(),
                                        to_move=tuple(sorted(new.to_move)),
                                        seats=self._sync_out(after, new))
        if outcome is not None:
            # its reason as ``seat_leaves`` says it: never "opponent resigned" about a
            # leaver the game's own ranking may put first (RULES §2.4)
            after, ratings = self._finish(after, outcome)
        else:
            after = turn_started(after, now)
        board = BoardState(new if new is not None else p, None, state.moves)

        def announced(s: MatchRecord) -> list[Event]:
            view = self._view(s)
            if outcome is not None:
                return [self._ended(view, view.result.reason if view.result else reason,
                                    board, left_by=user, left_how=how)]
            events: list[Event] = [PlayerOut(view, user,
                                             "skipped" if how == "skip" else reason)]
            if new is not None:
                events += self._put_out(dataclasses.replace(rec, seats=seats), s, p)
            events.append(TurnStarted(view, view.to_move, None, board=board))
            return events
        saved, events = await self._commit(rec, after, announced, (entry,), ratings,
                                           by=by)
        self.states.remember(rec.id, MatchState(saved.ply, saved.position_text,
                                                board.position, None, state.moves))
        events = await self._completed(saved, events, ratings, (*entries, entry))
        await self._announce(events)
        return self._view(saved), events

    def _opponents_left(self, rec: MatchRecord, user: int) -> set[int]:
        return {s.user_id for s in rec.seats
                if s.seat is not None and not s.out and s.user_id != user}

    async def offer_draw(self, match_id: int, user: int,
                         *, caller: Caller | None = None) -> MatchView:
        """Offer a draw; if an opponent's offer is pending, this accepts it. The offer lapses
        when an opponent moves."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._require_active(rec)
            me = self._require_player(rec, user)
            if me.out:
                raise NotAllowed(_("you are out of this game"))
            if rec.draw_offer is not None:
                if rec.draw_offer.by == user:
                    raise NotAllowed(_("you have already offered a draw"))
                return await self._accept_draw(rec, user)
            saved, events = await self._commit(rec, dataclasses.replace(
                rec, draw_offer=DrawOffer(user)), lambda s: [DrawOffered(self._view(s), user)])
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def accept_draw(self, match_id: int, user: int,
                          *, caller: Caller | None = None) -> MatchView:
        """Agree to the pending offer; the match is drawn once every remaining opponent of
        the offerer agreed."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._require_active(rec)
            me = self._require_player(rec, user)
            if me.out:
                raise NotAllowed(_("you are out of this game"))
            return await self._accept_draw(rec, user)
        return await self._retrying(match_id, attempt)

    async def _accept_draw(self, rec: MatchRecord, user: int) -> MatchView:
        offer = rec.draw_offer
        if offer is None:
            raise NotAllowed(_("there is no draw offer to accept"))
        if offer.by == user:
            raise NotAllowed(_("you cannot accept your own draw offer"))
        agreed = tuple(sorted({*offer.accepted, user}))
        opponents = self._opponents_left(rec, offer.by)
        if set(agreed) < opponents:
            # told to everyone: the others learn who agreed and whom the draw waits for
            waiting = tuple(s.user_id for s in sorted(rec.seats, key=lambda s: s.seat or 0)
                            if s.user_id in opponents and s.user_id not in agreed)
            saved, events = await self._commit(rec, dataclasses.replace(
                rec, draw_offer=DrawOffer(offer.by, agreed)),
                lambda s: [DrawAccepted(self._view(s), user, waiting)], by=user)
            await self._announce(events)
            return self._view(saved)
        moved, entries = await self._everyone_moved(rec)
        if not moved:
            return (await self._abort(rec, DRAW_AGREED_EARLY, by=user)).match
        now = self.clock.now()
        outcome = self._agreed_draw(rec)
        after = dataclasses.replace(rec, ply=rec.ply + 1)
        after, ratings = self._finish(after, outcome)
        entry = RecordEntry(rec.ply, None, f"{SPECIAL_PREFIX}draw", user, now)
        board = await self._board_of(rec)  # an agreed draw leaves the position as it is
        saved, events = await self._commit(
            rec, after, lambda s: [self._ended(self._view(s), "agreement", board)], (entry,),
            ratings, by=user)
        self.states.moved_on(rec.id, rec.ply, saved.ply)
        await self._announce(await self._completed(saved, events, ratings,
                                                   (*entries, entry)))
        return self._view(saved)

    @staticmethod
    def _agreed_draw(rec: MatchRecord) -> Outcome:
        """The players still in share first place; whoever resigned or was put out earlier
        does not share in the draw: they share the last place."""
        out = frozenset(s.seat for s in rec.seats if s.seat is not None and s.out)
        if not out:
            return Outcome.draw(seats=rec.seat_count, reason="agreement")
        still_in = frozenset(range(rec.seat_count)) - out
        return Outcome(winners=frozenset(), ranking=(still_in, out), reason="agreement")

    async def decline_draw(self, match_id: int, user: int,
                           *, caller: Caller | None = None) -> MatchView:
        """Turn down the pending offer (the offerer may withdraw it the same way)."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._require_active(rec)
            self._require_player(rec, user)
            if rec.draw_offer is None:
                raise NotAllowed(_("there is no draw offer to decline"))
            withdrawn = rec.draw_offer.by == user
            saved, events = await self._commit(rec, dataclasses.replace(
                rec, draw_offer=None),
                lambda s: [DrawDeclined(self._view(s), user, withdrawn)], by=user)
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)
