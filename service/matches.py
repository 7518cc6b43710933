"""Matches as stored: loading a record, compare-and-set saves retried on a lost race, and
the view of a record the service hands out.

Concurrency: no locks. Every write is a compare-and-set on the match's version (and, for
moves, on the ply through UNIQUE(match, ply)); a lost race on an unrelated change (a draw
offer, a sweep) is retried with fresh data, a lost race on the ply is a ``StaleMove``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextvars import ContextVar
from typing import TypeVar

import rules
from locales.i18n import _
from rules import RulesError, Variant
from service.errors import Conflict, MatchNotFound, StaleMove
from service.imported_seats import ImportedNames
from service.ports import Clock, Repository
from service.records import (
    MatchRecord,
    MatchStatus,
    OutboxFn,
    RatingChange,
    RecordEntry,
)
from service.states import public_view
from service.timecontrol import format_time_control
from service.turns import seat_clocks
from service.views import MatchView, ResultView, SeatView

T = TypeVar("T")

RETRIES = 8


def team_of(rec: MatchRecord, seat: int) -> int | None:
    """The team of ``seat`` (RULES §2.1: seats 0+2 against 1+3), None outside teams."""
    teams = rules.variant(rec.game).teams(**rec.options)
    return next((i for i, team in enumerate(teams) if seat in team), None)


def public_text(rec: MatchRecord, v: Variant | None) -> str:
    """The stored position text as anybody may see it (``public_view``). Only the first
    plies can be a setup phase (one submission per seat), so later texts are not parsed."""
    if v is None or rec.ply > rec.seat_count or rec.status.is_waiting:
        return rec.position_text
    try:
        p = v.from_text(rec.position_text)
    except (RulesError, ValueError):
        return rec.position_text
    return public_view(p).to_text() if p.in_setup else rec.position_text


@functools.lru_cache(maxsize=512)
def _starts_in_setup(game: str, start_text: str) -> bool:
    try:
        return bool(rules.variant(game).from_text(start_text).in_setup)
    except (RulesError, ValueError):
        return False


def arranged_plies(rec: MatchRecord) -> int:
    """How many of ``rec``'s plies were set-up arrangements: one per seat, the first
    ones, when the game began in a setup phase (Querni ``choose``); none otherwise."""
    if rec.ply == 0 or not _starts_in_setup(rec.game, rec.start_text):
        return 0
    return min(rec.ply, rec.seat_count)


def moves_played(rec: MatchRecord) -> int:
    """The moves played in ``rec`` as players count them (``MatchView.moves_played``):
    its plies but the set-up arrangements and the special entries."""
    return rec.ply - arranged_plies(rec) - rec.specials


def view_of(rec: MatchRecord, imported: Callable[[int | None], str] | None = None
            ) -> MatchView:
    """What the service hands out about ``rec``: users instead of seats, the game's seat
    names, a hidden setup kept hidden; an imported player's name by ``imported``."""
    try:
        v: Variant | None = rules.variant(rec.game)
    except ValueError:
        v = None
    name = v.name if v is not None else rec.game

    def seat_name(seat: int) -> str:
        return v.seat_name(seat, rec.seat_count) if v is not None else f"Seat {seat}"

    seats: tuple[SeatView, ...] = ()
    if rec.status is not MatchStatus.OPEN or any(s.seat is not None for s in rec.seats):
        by_seat = {s.seat: s for s in rec.seats if s.seat is not None}
        def seat_view(i: int) -> SeatView:
            s = by_seat.get(i)
            if s is None:
                return SeatView(i, None, team_of(rec, i), seat_name(i))
            rating = s.rating
            return SeatView(i, s.user_id, s.team, seat_name(i), s.out,
                            rating.ordinal if rating is not None else None,
                            rating is not None and rating.provisional,
                            imported(s.user_id) if imported is not None else "")
        seats = tuple(seat_view(i) for i in range(rec.seat_count))
    result = None
    if rec.result is not None:
        def users(seats_: Iterable[int]) -> tuple[int, ...]:
            return tuple(u for u in (rec.user_at(s) for s in seats_) if u is not None)
        result = ResultView(users(rec.result.winners),
                            tuple(users(g) for g in rec.result.ranking), rec.result.reason)
    to_move = tuple(u for u in (rec.user_at(s) for s in rec.to_move) if u is not None) \
        if rec.status is MatchStatus.ACTIVE else ()
    return MatchView(
        id=rec.id, guild_id=rec.guild_id, channel_id=rec.channel_id,
        thread_id=rec.thread_id, game=rec.game, game_name=name, options=rec.options,
        status=rec.status, challenger_id=rec.challenger_id, seats=seats,
        invited=tuple(s.user_id for s in rec.seats if not s.accepted),
        joined=tuple(s.user_id for s in rec.seats if s.accepted),
        seat_count=rec.seat_count, ply=rec.ply, to_move=to_move, deadline=rec.deadline,
        days_per_move=rec.days_per_move, rated=rec.rated, result=result,
        position_text=public_text(rec, v),
        last_move=rec.last_move,
        draw_offer_by=rec.draw_offer.by if rec.draw_offer else None, broken=rec.broken,
        last_move_by=rec.last_move_by if rec.last_move else None,
        notify_by_dm=tuple(s.user_id for s in rec.seats if s.notify == "dm"),
        version=rec.version, time_control=format_time_control(rec.control),
        claim_win=rec.clock.claim, lapsed=rec.clock.lapsed, away=rec.clock.away,
        takeback_by=rec.takeback.by if rec.takeback else None,
        own_deadlines=tuple((u, d) for s, (d, _paused) in sorted(seat_clocks(rec).items())
                            if (u := rec.user_at(s)) is not None) if rec.clock.own else (),
        weekends=rec.clock.weekends,
        time_zones=tuple((s.user_id, s.time_zone) for s in rec.seats if s.seat is not None),
        paused=rec.clock.paused,
        pause_offer_by=offer.by if (offer := rec.clock.pause_offer) is not None
        and offer.ply == rec.ply else None,
        pause_offer_days=offer.days if offer is not None and offer.ply == rec.ply else 0,
        on_timeout=rec.clock.on_timeout, stand_ins=rec.clock.stand_ins,
        continued_from=rec.continued_from, skipped=rec.clock.skipped,
        arranged=arranged_plies(rec), specials=rec.specials,
        draw_accepted=rec.draw_offer.accepted if rec.draw_offer else ())


_SCOPE_READ: ContextVar[tuple[object, MatchRecord] | None] = ContextVar("scope_read",
                                                                         default=None)
"""The record the service's door has just read to check a caller's scope, with the task
that read it: that operation's first load of the match takes it instead of reading it
again (one read, not two); a task it starts reads for itself."""


class Matches:
    """Loads and saves match records through the repository."""

    def __init__(self, repository: Repository, clock: Clock,
                 imported: ImportedNames | None = None) -> None:
        self.repository = repository
        self.clock = clock
        self.imported = imported
        """Where the names of a loaded match's imported players are read (views name
        them without waiting)."""

    async def load_for_scope(self, match_id: int) -> tuple[MatchRecord, Callable[[], None]]:
        """The match, read for the door's scope check and kept for the operation that
        follows (its first ``load`` of it); call the returned function when it is over."""
        rec = await self.load(match_id)
        token = _SCOPE_READ.set((asyncio.current_task(), rec))
        return rec, lambda: _SCOPE_READ.reset(token)

    async def load(self, match_id: int) -> MatchRecord:
        if not isinstance(match_id, int) or isinstance(match_id, bool):
            raise MatchNotFound(_("that is not a match number"))
        kept = _SCOPE_READ.get()
        if kept is not None and kept[1].id == match_id and kept[0] is asyncio.current_task():
            _SCOPE_READ.set(None)  # once: a retry reads fresh data
            return kept[1]
        rec = await self.repository.load_match(match_id)
        if rec is None:
            raise MatchNotFound(_("there is no match #{match}", match=match_id))
        if self.imported is not None:
            await self.imported.learn(s.user_id for s in rec.seats)
        return rec

    async def save(self, before: MatchRecord, after: MatchRecord,
                   append: Sequence[RecordEntry] = (),
                   ratings: RatingChange | None = None,
                   outbox: OutboxFn | None = None) -> MatchRecord:
        """Compare-and-set ``before`` -> ``after`` (stamped now), with the entries of
        ``outbox``; ``Conflict`` if the match changed meanwhile."""
        return await self.repository.save(
            before, dataclasses.replace(after, updated_at=self.clock.now()), append, ratings,
            outbox)

    async def retrying(self, match_id: int,
                       attempt: Callable[[MatchRecord], Awaitable[T]]) -> T:
        """Run ``attempt`` on fresh data until its compare-and-set save lands."""
        for _attempt in range(RETRIES):
            rec = await self.load(match_id)
            try:
                return await attempt(rec)
            except Conflict:
                await asyncio.sleep(0)
        raise StaleMove(_("the match is changing too fast right now; try again"))
