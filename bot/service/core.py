"""The core of the match service: the state machinery every use-case shares (the position
cache, replays, compare-and-set saves and retries, views, ratings updates).

Concurrency: no locks. Every write is a compare-and-set on the match's version (and, for
moves, on the ply through UNIQUE(match, ply)); a lost race on an unrelated change (a draw
offer, a sweep) is retried with fresh data, a lost race on the ply is a ``StaleMove``.

Positions: the stored position text is a cache of the record, but some games keep their
repetition history outside the text (RULES §7), so the service keeps the position
*object* in memory, keyed by ``(match, ply)`` and checked against the stored text. A
miss (a restart, another process moved) replays the record once from the start options:
that is also where a corrupted record is caught and the match marked broken. A move
therefore costs one parse and one play, never a replay.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TypeVar

import rules
from bot.service.errors import (
    Conflict,
    InvalidOption,
    MatchBroken,
    MatchNotFound,
    MatchNotStarted,
    MatchOver,
    NotAPlayer,
    StaleMove,
)
from bot.service.events import Event, MatchEnded, PlayerOut
from bot.service.ports import BoardRenderer, Clock, NameResolver, Notifier, Repository
from bot.service.ratings import DEFAULT_MU, DEFAULT_SIGMA, rate_groups
from bot.service.records import (
    SPECIAL_PREFIX,
    MatchRecord,
    MatchStatus,
    RatingChange,
    RecordEntry,
    ResultRecord,
    SeatRecord,
)
from bot.service.views import GuildSettings, MatchView, PlyView, RatingUpdate, ResultView, SeatView
from rules import MoveMarks, Outcome, Position, RulesError, Variant
from rules.core import Point, reason_text

log = logging.getLogger(__name__)

T = TypeVar("T")

MIN_DAYS, MAX_DAYS = 1, 14
MAX_TEXT = 300  # longer command arguments are refused before any parsing
RETRIES = 8
CONTINUE_PLIES = 64  # a cache this close behind the row is carried forward, not replayed


@dataclasses.dataclass(frozen=True, slots=True)
class _Cached:
    ply: int
    text: str
    position: Position
    last_marks: MoveMarks | None


@dataclasses.dataclass(frozen=True, slots=True)
class _Step:
    """One record entry applied: the position after it (unchanged when it ended the game),
    how it reads, the move object (None for special entries), its marks and the outcome
    when the entry ended the game."""

    position: Position
    canonical: str
    display: str
    move: object
    marks: MoveMarks | None
    ended: Outcome | None
    keeps_marks: bool = False  # a draw entry leaves the last move's marks as they were


@dataclasses.dataclass(frozen=True, slots=True)
class _Replay:
    position: Position
    entries: tuple[tuple[int, int | None, str, str], ...]  # ply, user, canonical, display
    last_marks: MoveMarks | None
    ended: Outcome | None  # a special entry that ended the game
    start: Position
    plies: tuple[PlyView, ...]


class _RateCapture:
    """The rating function handed to the repository; it remembers what it was given and
    what it returned (inside the repository's transaction), so the service can report
    each player's change without reading the ratings again."""

    def __init__(self, teams: Sequence[Sequence[int]], ranks: Sequence[int]) -> None:
        self.teams = teams
        self.ranks = ranks
        self.current: Mapping[int, tuple[float, float] | None] = {}
        self.new: Mapping[int, tuple[float, float]] = {}

    def __call__(self, current: Mapping[int, tuple[float, float] | None]
                 ) -> Mapping[int, tuple[float, float]]:
        self.current = dict(current)
        self.new = rate_groups(current, self.teams, self.ranks)
        return self.new


SETUP_HIDDEN = "setup (hidden until both players have submitted)"


def _parse(v: Variant, p: Position, seat: int | None, text: str) -> object:
    """``v.parse_move``, except while several seats are to move in a setup phase: then the
    text is ``seat``'s arrangement."""
    if p.in_setup and len(p.to_move) > 1 and seat is not None:
        return v.parse_arrangement(p, seat, text)
    return v.parse_move(p, text)


def _start_ready(value: object) -> object:
    """Options come back from storage as JSON; games take tuples for sequences."""
    if isinstance(value, list):
        return tuple(_start_ready(v) for v in value)
    return value


class ServiceCore:
    """The shared state and machinery of ``MatchService``; the use-case mixins build on it."""

    def __init__(self, repository: Repository, notifier: Notifier, clock: Clock,
                 renderer: BoardRenderer | None = None, rng: random.Random | None = None,
                 *, cache_size: int = 4096, names: NameResolver | None = None) -> None:
        self.repository = repository
        self.notifier = notifier
        self.clock = clock
        self.renderer = renderer
        self.names = names
        self.rng = rng or random.Random()
        self._cache: OrderedDict[int, _Cached] = OrderedDict()
        self._cache_size = cache_size

    @staticmethod
    def _variant(game: str) -> Variant:
        if not isinstance(game, str) or len(game) > MAX_TEXT:
            raise InvalidOption("that is not a game name")
        try:
            return rules.variant(game)
        except ValueError:
            known = ", ".join(rules.VARIANTS) or "none yet"
            raise InvalidOption(f"there is no game called {game.strip()!r} "
                                f"(games: {known})") from None

    @staticmethod
    def _check_text(text: object, what: str) -> str:
        if not isinstance(text, str):
            raise InvalidOption(f"the {what} must be text")
        if len(text) > MAX_TEXT:
            raise InvalidOption(f"that {what} is too long ({len(text)} characters)")
        return text

    async def _record(self, match_id: int) -> MatchRecord:
        if not isinstance(match_id, int) or isinstance(match_id, bool):
            raise MatchNotFound("that is not a match number")
        rec = await self.repository.load_match(match_id)
        if rec is None:
            raise MatchNotFound(f"there is no match #{match_id}")
        return rec

    async def _notify(self, event: Event) -> None:
        try:
            await self.notifier.notify(event)
        except Exception:  # the change is stored; a failed notification must not undo it
            log.exception("notifier failed on %s", type(event).__name__)

    async def _retrying(self, match_id: int,
                        attempt: Callable[[MatchRecord], Awaitable[T]]) -> T:
        """Run ``attempt`` on fresh data until its compare-and-set save lands."""
        for _ in range(RETRIES):
            rec = await self._record(match_id)
            try:
                return await attempt(rec)
            except Conflict:
                await asyncio.sleep(0)
        raise StaleMove("the match is changing too fast right now; try again")

    def _remember(self, match_id: int, cached: _Cached) -> None:
        self._cache[match_id] = cached
        self._cache.move_to_end(match_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def _replay(self, rec: MatchRecord, entries: Sequence[RecordEntry]) -> _Replay:
        """Replay the record; raises MatchBroken saying where it fails."""
        v = self._variant(rec.game)
        try:
            # the rules the match was recorded under (RULES §2.5: stored matches keep them)
            p = v.start_recorded(rec.rules_version,
                                 **{k: _start_ready(o) for k, o in rec.options.items()})
        except (RulesError, ValueError, TypeError) as err:
            raise MatchBroken(f"match #{rec.id} is broken: its options no longer start a "
                              f"game ({err})") from None
        if p.to_text() != rec.start_text:
            raise MatchBroken(f"match #{rec.id} is broken: its options start a different "
                              "position than the stored one")
        start = p
        shown: list[tuple[int, int | None, str, str]] = []
        plies: list[PlyView] = []
        marks: MoveMarks | None = None
        ended: Outcome | None = None
        for i, e in enumerate(entries):
            if e.ply != i or ended is not None:
                raise MatchBroken(f"match #{rec.id} is broken: entry {i + 1} ({e.text!r}) "
                                  "is out of place in the record")
            step = self._step(rec, v, p, e)
            shown.append((e.ply, e.user_id, step.canonical, step.display))
            plies.append(PlyView(e.ply, e.seat, e.user_id, step.canonical, step.display,
                                 step.move, step.position if step.ended is None else p))
            if not step.keeps_marks:
                marks = step.marks
            if step.ended is not None:
                ended = step.ended
            else:
                p = step.position
        if p.to_text() != rec.position_text:
            raise MatchBroken(f"match #{rec.id} is broken: replaying its {len(entries)} "
                              "entries does not give the stored position")
        return _Replay(p, tuple(shown), marks, ended, start, tuple(plies))

    def _step(self, rec: MatchRecord, v: Variant, p: Position, e: RecordEntry) -> _Step:
        """One record entry applied to ``p`` (the position before it); raises MatchBroken
        saying which entry does not replay."""
        where = f"match #{rec.id} is broken: entry {e.ply + 1} ({e.text!r})"
        try:
            if e.text.startswith(SPECIAL_PREFIX):
                word, _, arg = e.text[1:].partition(" ")
                if word == "draw":
                    return _Step(p, e.text, "draw agreed", None, None,
                                 Outcome.draw(seats=p.seat_count, reason="agreement"),
                                 keeps_marks=True)
                if word not in ("resign", "timeout"):
                    raise ValueError(f"unknown entry {word!r}")
                seat = int(arg)
                r = v.resign(p, seat)
                name = v.seat_name(seat, p.seat_count)
                said = f"{name} {'resigns' if word == 'resign' else 'ran out of time'}"
                if isinstance(r, Outcome):
                    return _Step(p, e.text, said, None, None, r)
                return _Step(r, e.text, said, None, None, None)
            move = _parse(v, p, e.seat, e.text)
            return _Step(p.play(move), v.format_move(p, move), v.display_move(p, move), move,
                         v.move_marks(p, move), None)
        except (RulesError, ValueError) as err:
            raise MatchBroken(f"{where} does not replay: {err}") from None

    def _continue(self, rec: MatchRecord, hit: _Cached,
                  entries: Sequence[RecordEntry]) -> _Cached | None:
        """``hit`` carried forward by the entries after it to ``rec``'s ply, or None when
        they do not lead to ``rec``'s stored position (a full replay then decides)."""
        v = self._variant(rec.game)
        p, marks = hit.position, hit.last_marks
        try:
            for want, e in enumerate(entries, start=hit.ply):
                if e.ply != want or p.outcome() is not None:
                    return None
                step = self._step(rec, v, p, e)
                if step.ended is not None:
                    return None  # the game ended by agreement or resignation: replay it
                p = step.position
                if not step.keeps_marks:
                    marks = step.marks
        except MatchBroken:
            return None
        if p.to_text() != rec.position_text:
            return None
        return _Cached(rec.ply, rec.position_text, p, marks)
    @staticmethod
    def _forced_moves(rec: MatchRecord, p: Position, ply: int, when: datetime
                      ) -> tuple[list[RecordEntry], Position]:
        """The moves the rules make for players who have no choice (Querni's forced pass,
        RULES §5), played at once after ``p``: their record entries from ``ply`` on (each
        in the name of the seat's user) and the position after them."""
        entries: list[RecordEntry] = []
        v = p.variant
        while p.outcome() is None and (forced := p.forced_move()) is not None:
            seat = p.mover
            entries.append(RecordEntry(ply + len(entries), seat, v.format_move(p, forced),
                                       rec.user_at(seat), when))
            p = p.play(forced)
        return entries, p

    async def _mark_broken(self, rec: MatchRecord, message: str) -> None:
        after = dataclasses.replace(rec, status=MatchStatus.BROKEN, broken=message,
                                    deadline=None, remind_at=None,
                                    updated_at=self.clock.now())
        try:
            rec = await self.repository.save(rec, after)
        except Conflict:
            return
        log.error("%s", message)
        await self._notify(MatchEnded(self._view(rec), None, "broken"))

    async def _entries(self, rec: MatchRecord, start: int = 0) -> list[RecordEntry]:
        """The entries ``rec`` was written with (from ``start``): those below its ply.
        Entries are append-only, so this is a consistent snapshot of the match however
        many moves landed since ``rec`` was read."""
        return await self.repository.load_entries(rec.id, start=start, stop=rec.ply)

    async def _state(self, rec: MatchRecord) -> _Cached:
        """The current position of ``rec``: cached; or the cached position carried forward
        by the few entries after it (another process moved); else a checked replay."""
        hit = self._cache.get(rec.id)
        if hit is not None and hit.ply == rec.ply and hit.text == rec.position_text:
            self._cache.move_to_end(rec.id)
            return hit
        if rec.status is MatchStatus.BROKEN:
            raise MatchBroken(rec.broken or f"match #{rec.id} is broken")
        if hit is not None and hit.ply < rec.ply <= hit.ply + CONTINUE_PLIES:
            carried = self._continue(rec, hit, await self._entries(rec, hit.ply))
            if carried is not None:
                self._remember(rec.id, carried)
                return carried
        replay = await self._checked_replay(rec)
        cached = _Cached(rec.ply, rec.position_text, replay.position, replay.last_marks)
        self._remember(rec.id, cached)
        return cached

    async def _read_state(self, match_id: int) -> tuple[MatchRecord, _Cached]:
        """A match and its position, read as one consistent pair (retried on a race)."""
        async def attempt(rec: MatchRecord) -> tuple[MatchRecord, _Cached]:
            return rec, await self._state(rec)
        return await self._retrying(match_id, attempt)

    async def _checked_replay(self, rec: MatchRecord) -> _Replay:
        """Replay ``rec`` from its snapshot of entries. A mismatch is corruption only when
        the row has not changed since: if a re-read finds a newer version, a writer raced
        this reader and the caller retries (``Conflict``); the match is not broken."""
        try:
            return self._replay(rec, await self._entries(rec))
        except MatchBroken as e:
            again = await self.repository.load_match(rec.id)
            if again is not None and again.version != rec.version:
                raise Conflict(f"match {rec.id} changed while it was read") from None
            await self._mark_broken(rec, e.message)
            raise

    def _view(self, rec: MatchRecord) -> MatchView:
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
            seats = tuple(
                SeatView(i, by_seat[i].user_id if i in by_seat else None,
                         by_seat[i].team if i in by_seat else self._team(rec, i),
                         seat_name(i), by_seat[i].out if i in by_seat else False)
                for i in range(rec.seat_count))
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
            position_text=SETUP_HIDDEN if len(rec.to_move) > 1 else rec.position_text,
            last_move=rec.last_move,
            draw_offer_by=rec.draw_offer.by if rec.draw_offer else None, broken=rec.broken,
            last_move_by=rec.last_move_by if rec.last_move else None)

    @staticmethod
    def _team(rec: MatchRecord, seat: int) -> int | None:
        """Teams face each other (RULES §2.1: seats 0+2 against 1+3)."""
        teams = rules.variant(rec.game).teams(**rec.options)
        return next((i for i, team in enumerate(teams) if seat in team), None)

    def _deadline(self, now: datetime, days: int) -> tuple[datetime, datetime]:
        """The deadline and its reminder time: a day before, or half the time if shorter."""
        period = timedelta(days=days)
        return now + period, now + period - min(timedelta(days=1), period / 2)

    @staticmethod
    def _require_player(rec: MatchRecord, user: int) -> SeatRecord:
        seat = rec.seat_of(user)
        if seat is None or seat.seat is None or not seat.accepted:
            raise NotAPlayer(f"you are not playing in match #{rec.id}")
        return seat

    def _require_active(self, rec: MatchRecord) -> None:
        if rec.status is MatchStatus.BROKEN:
            raise MatchBroken(rec.broken or f"match #{rec.id} is broken")
        if rec.status.is_waiting:
            raise MatchNotStarted(f"match #{rec.id} has not started yet")
        if rec.status is not MatchStatus.ACTIVE:
            raise MatchOver(f"match #{rec.id} is over: "
                            f"{self._result_line(rec, self._seat_names(rec))}")

    async def _save(self, before: MatchRecord, after: MatchRecord,
                    append: Sequence[RecordEntry] = (),
                    ratings: RatingChange | None = None) -> MatchRecord:
        return await self.repository.save(
            before, dataclasses.replace(after, updated_at=self.clock.now()), append, ratings)

    def _rating_change(self, rec: MatchRecord, result: ResultRecord) -> RatingChange | None:
        if not rec.rated:
            return None
        users_by_seat = {s.seat: s.user_id for s in rec.seats if s.seat is not None}
        rank_of_seat = {seat: i for i, group in enumerate(result.ranking) for seat in group}
        groups: dict[object, list[int]] = {}
        for seat in sorted(users_by_seat):
            team = self._team(rec, seat)
            groups.setdefault(("team", team) if team is not None else ("seat", seat),
                              []).append(seat)
        teams = [[users_by_seat[s] for s in seats] for seats in groups.values()]
        ranks = [min(rank_of_seat.get(s, len(result.ranking)) for s in seats) + 1
                 for seats in groups.values()]
        outcomes: dict[int, str] = {}
        for seat, user in users_by_seat.items():
            if not result.winners:
                outcomes[user] = "draw"
            else:
                outcomes[user] = "win" if seat in result.winners else "loss"

        return RatingChange(rec.guild_id, rec.ladder, outcomes, _RateCapture(teams, ranks))

    async def _rating_updates(self, rec: MatchRecord, change: RatingChange | None
                              ) -> tuple[RatingUpdate, ...]:
        """Each rated player's change after ``change`` was saved, in seat order."""
        if change is None or not isinstance(change.rate, _RateCapture):
            return ()
        capture = change.rate
        out = []
        for s in sorted((s for s in rec.seats if s.seat is not None),
                        key=lambda s: s.seat or 0):
            new = capture.new.get(s.user_id)
            if new is None or s.user_id not in change.results:
                continue
            old = capture.current.get(s.user_id)
            mu0, sigma0 = old if old is not None else (DEFAULT_MU, DEFAULT_SIGMA)
            try:
                found = await self.repository.rank_of(change.guild_id, change.ladder,
                                                      s.user_id)
            except Exception:  # the result is stored; a failed rank read only hides it
                log.exception("rank read failed for match %s", rec.id)
                found = None
            out.append(RatingUpdate(
                s.user_id, change.ladder, mu0 - 3 * sigma0, new[0] - 3 * new[1], mu0, new[0],
                found[0] if found is not None else None, change.results[s.user_id],
                first=old is None))
        return tuple(out)

    @staticmethod
    def _result(outcome: Outcome, reason: str | None = None) -> ResultRecord:
        return ResultRecord(tuple(sorted(outcome.winners)),
                            tuple(tuple(sorted(g)) for g in outcome.ranking),
                            reason or outcome.reason)

    def _finish(self, rec: MatchRecord, outcome: Outcome, reason: str | None = None
                ) -> tuple[MatchRecord, RatingChange | None]:
        result = self._result(outcome, reason)
        after = dataclasses.replace(rec, status=MatchStatus.FINISHED, result=result,
                                    to_move=(), deadline=None, remind_at=None,
                                    draw_offer=None)
        return after, self._rating_change(after, result)

    def _put_out(self, before: MatchRecord, after: MatchRecord, p: Position,
                 captured: Iterable[Point] = ()) -> list[PlayerOut]:
        """A PlayerOut for each seat the game itself put out between ``before`` (position
        ``p``) and ``after`` (``captured``: the points the move took), so nobody is skipped
        without being told why: "no-pieces" when the move took his last stones, else
        "no-moves" (he could not move; in Querni-like slow ends his stones go too)."""
        was_out = {s.user_id for s in before.seats if s.out}
        view = self._view(after)
        taken = set(captured)
        out = []
        for s in sorted(after.seats, key=lambda s: s.seat or 0):
            if not s.out or s.user_id in was_out:
                continue
            had = {pt for pt, pc in p.pieces().items() if pc.seat == s.seat}
            out.append(PlayerOut(view, s.user_id,
                                 "no-pieces" if had and had <= taken else "no-moves"))
        return out

    @staticmethod
    def _sync_out(rec: MatchRecord, p: Position) -> tuple[SeatRecord, ...]:
        """Mark seats the game put out (4 players): a seat that cannot move any more."""
        out_seats = p.out_seats()
        return tuple(dataclasses.replace(s, out=True) if s.seat in out_seats else s
                     for s in rec.seats)

    def _result_line(self, rec: MatchRecord, names: Sequence[str] | None) -> str:
        """How an over match ended, for its board image: ``'Black (bob) wins: opponent
        resigned'``, ``'Draw: agreed'``, ``'Aborted: no move in time'``."""
        v = self._variant(rec.game)

        def label(seats: Iterable[int]) -> str:
            out = []
            for seat in sorted(seats):
                colour = v.seat_name(seat, rec.seat_count)
                name = names[seat] if names and seat < len(names) else colour
                out.append(f"{colour} ({name})" if name and name != colour else colour)
            return " and ".join(out)
        r = rec.result
        if r is None:
            return rec.status.value.capitalize()
        said = reason_text(r.reason)
        if r.winners:
            return f"{label(r.winners)} win{'s' if len(r.winners) == 1 else ''}: {said}"
        if len(r.ranking) > 1:
            return f"No single winner, first: {label(r.ranking[0])}: {said}"
        if r.ranking:
            return f"Draw: {said}"
        return said[:1].upper() + said[1:]

    def _seat_names(self, rec: MatchRecord) -> list[str] | None:
        """Display names by seat through the injected resolver (None without one)."""
        if self.names is None:
            return None
        out: list[str] = []
        v = self._variant(rec.game)
        for seat in range(rec.seat_count):
            user = rec.user_at(seat)
            name = v.seat_name(seat, rec.seat_count)
            if user is not None:
                try:
                    name = self.names(rec.guild_id, user) or name
                except Exception:  # a name is decoration: never fail a board for it
                    log.exception("name lookup failed for user %s", user)
            out.append(name)
        return out

    def _who(self, rec: MatchRecord | MatchView, seats: Iterable[int]) -> str:
        """``'alice (Red)'`` per seat (the seat name alone without a name resolver),
        joined with "and": who a message is about, as people know them."""
        v = self._variant(rec.game)
        users = {s.seat: s.user_id for s in rec.seats if s.seat is not None}
        out = []
        for seat in sorted(seats):
            colour = v.seat_name(seat, rec.seat_count)
            user = users.get(seat)
            name = ""
            if self.names is not None and user is not None:
                try:
                    name = self.names(rec.guild_id, user) or ""
                except Exception:  # a name is decoration: never fail a message for it
                    log.exception("name lookup failed for user %s", user)
            out.append(f"{name} ({colour})" if name and name != colour else colour)
        return " and ".join(out)

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        found = await self.repository.get_guild_settings(guild_id)
        return found if found is not None else GuildSettings(guild_id)
