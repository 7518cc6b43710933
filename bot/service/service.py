"""The match service: every use-case of a match, over the Protocols in ``ports``.

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
import json
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
    NotAllowed,
    NotAPlayer,
    NotYourTurn,
    ServiceError,
    StaleMove,
)
from bot.service.events import (
    ChallengeClosed,
    ChallengeReceived,
    DeadlineReminder,
    DrawDeclined,
    DrawOffered,
    Event,
    LobbyChanged,
    MatchEnded,
    PlayerOut,
    SetupSubmitted,
    TurnStarted,
)
from bot.service.exports import export_record
from bot.service.ports import BoardRenderer, Clock, NameResolver, Notifier, Repository
from bot.service.ratings import DEFAULT_MU, DEFAULT_SIGMA, ladder_key, rate_groups
from bot.service.records import (
    LIVE_STATUSES,
    SPECIAL_PREFIX,
    DrawOffer,
    MatchRecord,
    MatchStatus,
    RatingChange,
    RatingRecord,
    RecordEntry,
    ResultRecord,
    SeatRecord,
)
from bot.service.views import (
    BoardImage,
    GameRecord,
    GuildSettings,
    HistoryView,
    LeaderboardEntry,
    LeaderboardPage,
    MatchView,
    MoveResult,
    PlayerStats,
    PlyView,
    RatingUpdate,
    ResultView,
    SeatView,
    UserPrefs,
)
from rules import MoveMarks, NotationError, Outcome, Position, RulesError, Variant
from rules.core import Point, reason_text
from rules.notation import normalize

log = logging.getLogger(__name__)

T = TypeVar("T")

MIN_DAYS, MAX_DAYS = 1, 14
MAX_TEXT = 300  # longer command arguments are refused before any parsing
RETRIES = 8
NOTIFY_CHOICES = ("mention", "dm")


@dataclasses.dataclass(frozen=True, slots=True)
class _Cached:
    ply: int
    text: str
    position: Position
    last_marks: MoveMarks | None


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


_NOTE_START = "("


def _note_heads(text: str) -> list[str]:
    """Shorter readings of a typed move that may carry a copied note: the text before its
    first ``(``, then the text with trailing words dropped one at a time.

    >>> _note_heads("b7-a8 (28-32) crowned"), _note_heads("b7-a8 crowned")
    (['b7-a8'], ['b7-a8'])
    """
    heads: list[str] = []
    stripped = text.strip()
    if _NOTE_START in stripped:
        head = stripped.split(_NOTE_START, 1)[0].strip()
        if head:
            heads.append(head)
    words = stripped.split()
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n])
        if head not in heads and _NOTE_START not in head:
            heads.append(head)
    return heads


def _squash(text: str) -> str:
    return "".join(text.lower().split())


SETUP_HIDDEN = "setup (hidden until both players have submitted)"


def _in_setup(p: Position) -> bool:
    """A setup phase (Querni ``choose``): moves are arrangements, submitted per seat."""
    return callable(getattr(p, "has_submitted", None))


def _parse(v: Variant, p: Position, seat: int | None, text: str) -> object:
    """``v.parse_move``, except while several seats are to move in a setup phase: then the
    text is ``seat``'s arrangement (Querni's ``parse_arrangement``)."""
    parse_arrangement = getattr(v, "parse_arrangement", None)
    if len(p.to_move) > 1 and seat is not None and callable(parse_arrangement):
        return parse_arrangement(p, seat, text)
    return v.parse_move(p, text)


def _json_ready(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_json_ready(v) for v in value]
    return value


def _start_ready(value: object) -> object:
    """Options come back from storage as JSON; games take tuples for sequences."""
    if isinstance(value, list):
        return tuple(_start_ready(v) for v in value)
    return value


class MatchService:
    """Every use-case of a match. See the package docstring for the list."""

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

    # ------------------------------------------------------------------ helpers

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
            p = v.start(**{k: _start_ready(o) for k, o in rec.options.items()})
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
            where = f"match #{rec.id} is broken: entry {i + 1} ({e.text!r})"
            if e.ply != i or ended is not None:
                raise MatchBroken(f"{where} is out of place in the record")
            try:
                if e.text.startswith(SPECIAL_PREFIX):
                    word, _, arg = e.text[1:].partition(" ")
                    if word == "draw":
                        ended = Outcome.draw(seats=p.seat_count, reason="agreement")
                        shown.append((e.ply, e.user_id, e.text, "draw agreed"))
                        plies.append(PlyView(e.ply, e.seat, e.user_id, e.text,
                                             "draw agreed", None, p))
                        continue
                    if word not in ("resign", "timeout"):
                        raise ValueError(f"unknown entry {word!r}")
                    seat = int(arg)
                    r = v.resign(p, seat)
                    name = v.seat_name(seat, p.seat_count)
                    said = f"{name} {'resigns' if word == 'resign' else 'ran out of time'}"
                    shown.append((e.ply, e.user_id, e.text, said))
                    marks = None
                    if isinstance(r, Outcome):
                        ended = r
                    else:
                        p = r
                    plies.append(PlyView(e.ply, e.seat, e.user_id, e.text, said, None, p))
                    continue
                move = _parse(v, p, e.seat, e.text)
                canonical = v.format_move(p, move)
                display = v.display_move(p, move)
                marks = v.move_marks(p, move)
                p = p.play(move)
            except (RulesError, ValueError) as err:
                raise MatchBroken(f"{where} does not replay: {err}") from None
            shown.append((e.ply, e.user_id, canonical, display))
            plies.append(PlyView(e.ply, e.seat, e.user_id, canonical, display, move, p))
        if p.to_text() != rec.position_text:
            raise MatchBroken(f"match #{rec.id} is broken: replaying its {len(entries)} "
                              "entries does not give the stored position")
        return _Replay(p, tuple(shown), marks, ended, start, tuple(plies))

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

    async def _state(self, rec: MatchRecord) -> _Cached:
        """The current position of ``rec`` (cached; else a checked replay)."""
        hit = self._cache.get(rec.id)
        if hit is not None and hit.ply == rec.ply and hit.text == rec.position_text:
            self._cache.move_to_end(rec.id)
            return hit
        if rec.status is MatchStatus.BROKEN:
            raise MatchBroken(rec.broken or f"match #{rec.id} is broken")
        entries = await self.repository.load_entries(rec.id)
        try:
            replay = self._replay(rec, entries)
        except MatchBroken as e:
            await self._mark_broken(rec, e.message)
            raise
        cached = _Cached(rec.ply, rec.position_text, replay.position, replay.last_marks)
        self._remember(rec.id, cached)
        return cached

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
        return seat % 2 if rec.options.get("mode") == "teams" else None

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

    def _coerce_options(self, v: Variant, given: Mapping[str, object] | None
                        ) -> dict[str, object]:
        chosen: dict[str, object] = {}
        for raw_name, raw_value in (given or {}).items():
            name = self._check_text(raw_name, "option name").strip().lower()
            if name not in v.options:
                allowed = ", ".join(v.options) or "none"
                raise InvalidOption(f"{v.name} has no option {name!r} (options: {allowed})")
            allowed_values = v.options[name]
            if allowed_values:
                wanted = str(raw_value).strip().lower()
                match = [a for a in allowed_values if str(a).lower() == wanted]
                if not match:
                    choices = ", ".join(str(a) for a in allowed_values)
                    raise InvalidOption(f"{name} cannot be {str(raw_value)[:40]!r} "
                                        f"(choose from {choices})")
                chosen[name] = match[0]
            elif isinstance(raw_value, str):
                text = self._check_text(raw_value, name).strip()
                if name == "arrangement":
                    raise InvalidOption("an arrangement is submitted with /setup")
                chosen[name] = int(text) if text.lstrip("-").isdigit() and len(text) < 12 \
                    else text
            else:
                chosen[name] = raw_value
        # A random deal must replay: draw its seed now and store it with the options.
        if "seed" in v.options and "seed" not in chosen and "arrangement" not in chosen \
                and chosen.get("setup", "random") == "random":
            chosen["seed"] = self.rng.randrange(2**31)
        try:
            return v.check_options(chosen)
        except ValueError as e:
            raise InvalidOption(str(e)) from None

    @staticmethod
    def _seat_choice(v: Variant, seat_count: int, seat: int | str | None) -> int | None:
        if seat is None:
            return None
        if isinstance(seat, str):
            text = seat.strip().lower()
            if text in ("", "random", "any"):
                return None
            names = {v.seat_name(i, seat_count).lower(): i for i in range(seat_count)}
            if text in names:
                return names[text]
            if text.isdigit() and len(text) < 3:
                seat = int(text)
            else:
                raise InvalidOption(f"there is no seat {seat[:30]!r} "
                                    f"(seats: {', '.join(names)}, or random)")
        if isinstance(seat, bool) or not isinstance(seat, int) or \
                not 0 <= seat < seat_count:
            raise InvalidOption(f"there is no seat {seat!r} in this game")
        return seat

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

    # ------------------------------------------------------------------ challenges

    async def challenge(self, guild_id: int, channel_id: int, challenger: int, game: str, *,
                        opponents: Sequence[int] = (),
                        options: Mapping[str, object] | None = None,
                        days: int | None = None, rated: bool = True,
                        seat: int | str | None = None) -> MatchView:
        """Create a challenge (2 players: direct or open) or a lobby (4 players)."""
        v = self._variant(game)
        opts = self._coerce_options(v, options)
        try:
            start = v.start(**opts)
        except (RulesError, ValueError, TypeError) as e:
            raise InvalidOption(f"{v.name} cannot start with those options: {e}") from None
        seat_count = start.seat_count
        invited: list[int] = []
        for o in opponents:
            if isinstance(o, bool) or not isinstance(o, int):
                raise InvalidOption("opponents must be users")
            if o == challenger:
                raise InvalidOption("you cannot challenge yourself")
            if o not in invited:
                invited.append(o)
        if len(invited) > seat_count - 1:
            raise InvalidOption(f"{v.name} seats {seat_count}: invite at most "
                                f"{seat_count - 1} opponents")
        settings = await self.get_guild_settings(guild_id)
        if days is None:
            days = settings.default_days
        if isinstance(days, bool) or not isinstance(days, int) or \
                not MIN_DAYS <= days <= MAX_DAYS:
            raise InvalidOption(f"days per move must be a whole number from {MIN_DAYS} "
                                f"to {MAX_DAYS}")
        pref = self._seat_choice(v, seat_count, seat)
        now = self.clock.now()
        status = MatchStatus.OPEN if seat_count == 2 else MatchStatus.LOBBY
        seats = [SeatRecord(challenger, seat=pref if seat_count > 2 else None,
                            team=None, accepted=True)]
        seats += [SeatRecord(u, accepted=False) for u in invited]
        rec = MatchRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, thread_id=None, game=v.key,
            ladder=ladder_key(v.key, seat_count),
            rules_version=str(getattr(v, "rules_version", "1")),
            options={k: _json_ready(o) for k, o in opts.items()}, start_text=start.to_text(),
            seat_count=seat_count, status=status, challenger_id=challenger,
            seats=tuple(seats), seat_pref=pref,
            seating="chosen" if pref is not None else "random", ply=0,
            position_text=start.to_text(), to_move=tuple(sorted(start.to_move)),
            last_move=None, days_per_move=days, rated=bool(rated), deadline=None,
            remind_at=None, draw_offer=None, result=None, broken=None, created_at=now,
            updated_at=now)
        rec = await self.repository.create_match(rec)
        view = self._view(rec)
        await self._notify(ChallengeReceived(view, challenger, tuple(invited)))
        return view

    def _seated(self, rec: MatchRecord) -> tuple[SeatRecord, ...]:
        """Give every accepted participant a seat (challenge/lobby full)."""
        taken = {s.seat for s in rec.seats if s.seat is not None}
        free = [i for i in range(rec.seat_count) if i not in taken]
        if rec.seat_count == 2:
            users = [s.user_id for s in rec.seats if s.accepted]
            challenger_seat = rec.seat_pref if rec.seat_pref is not None \
                else self.rng.randrange(2)
            other = next(u for u in users if u != rec.challenger_id)
            return (SeatRecord(rec.challenger_id, challenger_seat),
                    SeatRecord(other, 1 - challenger_seat))
        if rec.seating == "random":
            order = [s.user_id for s in rec.seats]
            self.rng.shuffle(order)
            return tuple(SeatRecord(u, i, self._team(rec, i)) for i, u in enumerate(order))
        self.rng.shuffle(free)
        out = []
        for s in rec.seats:
            seat = s.seat if s.seat is not None else free.pop()
            out.append(SeatRecord(s.user_id, seat, self._team(rec, seat)))
        return tuple(sorted(out, key=lambda s: s.seat or 0))

    async def _start(self, rec: MatchRecord) -> MatchRecord:
        now = self.clock.now()
        deadline, remind = self._deadline(now, rec.days_per_move)
        return dataclasses.replace(rec, status=MatchStatus.ACTIVE, seats=self._seated(rec),
                                   deadline=deadline, remind_at=remind)

    async def accept(self, match_id: int, user: int, seat: int | str | None = None
                     ) -> MatchView:
        """Accept a challenge (or join a lobby). The challenger cannot accept his own."""
        return await self._retrying(match_id, lambda rec: self._accept(rec, user, seat))

    async def join(self, match_id: int, user: int, seat: int | str | None = None
                   ) -> MatchView:
        """Join a lobby (or an open 2-player challenge); ``seat`` when seats are chosen."""
        return await self._retrying(match_id, lambda rec: self._accept(rec, user, seat))

    async def _accept(self, rec: MatchRecord, user: int, seat: int | str | None
                      ) -> MatchView:
        if not rec.status.is_waiting:
            if rec.status is MatchStatus.ACTIVE:
                raise NotAllowed(f"match #{rec.id} has already started")
            raise MatchOver(f"match #{rec.id} is over ({rec.status.value})")
        if user == rec.challenger_id:
            raise NotAllowed("you cannot accept your own challenge")
        current = rec.seat_of(user)
        if current is not None and current.accepted:
            raise NotAllowed(f"you are already in match #{rec.id}")
        invited = [s for s in rec.seats if not s.accepted]
        accepted = [s for s in rec.seats if s.accepted]
        free_places = rec.seat_count - len(accepted) - len(invited)
        if current is None and free_places <= 0:
            raise NotAllowed(f"match #{rec.id} is for invited players only")
        v = self._variant(rec.game)
        choice = self._seat_choice(v, rec.seat_count, seat)
        if choice is not None:
            if rec.seat_count == 2 or rec.seating == "random":
                raise NotAllowed("seats in this match are drawn at random")
            if any(s.seat == choice for s in rec.seats):
                raise NotAllowed(f"the {v.seat_name(choice, rec.seat_count)} seat is taken")
        me = SeatRecord(user, choice if rec.seat_count > 2 else None, None, True)
        seats = tuple(me if s.user_id == user else s for s in rec.seats)
        if current is None:
            seats += (me,)
        after = dataclasses.replace(rec, seats=seats)
        full = sum(1 for s in seats if s.accepted) == rec.seat_count
        if full:
            after = await self._start(after)
        saved = await self._save(rec, after)
        view = self._view(saved)
        if full:
            await self._notify(TurnStarted(view, view.to_move, None))
        else:
            await self._notify(LobbyChanged(view, user, True))
        return view

    async def decline(self, match_id: int, user: int) -> MatchView:
        """An invited user says no: a 2-player challenge ends; a lobby frees his place."""
        async def attempt(rec: MatchRecord) -> MatchView:
            if not rec.status.is_waiting:
                raise NotAllowed(f"match #{rec.id} is not waiting for an answer")
            mine = rec.seat_of(user)
            if mine is None or mine.accepted:
                if user == rec.challenger_id:
                    raise NotAllowed("that is your own challenge: use cancel")
                raise NotAPlayer(f"you are not invited to match #{rec.id}")
            if rec.seat_count == 2:
                after = dataclasses.replace(rec, status=MatchStatus.DECLINED)
                saved = await self._save(rec, after)
                await self._notify(ChallengeClosed(self._view(saved), user, "declined"))
            else:
                after = dataclasses.replace(
                    rec, seats=tuple(s for s in rec.seats if s.user_id != user))
                saved = await self._save(rec, after)
                await self._notify(LobbyChanged(self._view(saved), user, False))
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def cancel(self, match_id: int, user: int) -> MatchView:
        """The challenger withdraws a challenge or lobby; a lobby member leaves it."""
        async def attempt(rec: MatchRecord) -> MatchView:
            if not rec.status.is_waiting:
                raise NotAllowed(f"match #{rec.id} has started or ended; resign instead")
            if user == rec.challenger_id:
                saved = await self._save(rec, dataclasses.replace(
                    rec, status=MatchStatus.CANCELLED))
                await self._notify(ChallengeClosed(self._view(saved), user, "cancelled"))
                return self._view(saved)
            mine = rec.seat_of(user)
            if mine is None:
                raise NotAPlayer(f"you are not in match #{rec.id}")
            if not mine.accepted:
                raise NotAllowed("you were invited: decline instead")
            saved = await self._save(rec, dataclasses.replace(
                rec, seats=tuple(s for s in rec.seats if s.user_id != user)))
            await self._notify(LobbyChanged(self._view(saved), user, False))
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def attach_thread(self, match_id: int, thread_id: int | None,
                            channel_id: int | None = None) -> MatchView:
        """Remember where the adapter posts about this match."""
        async def attempt(rec: MatchRecord) -> MatchView:
            after = dataclasses.replace(
                rec, thread_id=thread_id,
                channel_id=channel_id if channel_id is not None else rec.channel_id)
            return self._view(await self._save(rec, after))
        return await self._retrying(match_id, attempt)

    # ------------------------------------------------------------------ play

    async def move(self, match_id: int, user: int, text: str,
                   expected_ply: int | None = None) -> MoveResult:
        """Play ``text`` for ``user``. ``expected_ply``: the ply the user saw (a button, an
        old board); if the match has moved on since, StaleMove."""
        text = self._check_text(text, "move")
        return await self._retrying(
            match_id, lambda rec: self._move(rec, user, text, expected_ply, setup=False))

    async def submit_setup(self, match_id: int, user: int, text: str) -> MoveResult:
        """Submit a Querni ``choose`` arrangement (16 numbers in cell order). The display
        hides it until both have submitted."""
        text = self._check_text(text, "arrangement")
        return await self._retrying(
            match_id, lambda rec: self._move(rec, user, text, None, setup=True))

    async def _move(self, rec: MatchRecord, user: int, text: str,
                    expected_ply: int | None, *, setup: bool) -> MoveResult:
        self._require_active(rec)
        me = self._require_player(rec, user)
        assert me.seat is not None
        if expected_ply is not None and expected_ply != rec.ply:
            raise StaleMove(f"the position changed: the match is at move {rec.ply}, "
                            f"not {expected_ply}" + (f" (last: {rec.last_move})"
                                                      if rec.last_move else ""))
        if me.out:
            raise NotAllowed("you are out of this game")
        state = await self._state(rec)
        p = state.position
        v = p.variant
        in_setup = _in_setup(p)
        if in_setup and me.seat not in p.to_move:
            raise NotAllowed("you have already submitted your arrangement; the board "
                             "appears when the other player has submitted too")
        if me.seat not in p.to_move:
            if p.to_move:
                raise NotYourTurn(f"it is not your turn: {self._who(rec, p.to_move)} to "
                                  "move")
            raise NotYourTurn("nobody is to move")
        if setup and not in_setup:
            raise NotAllowed("this match is not in its setup phase: play moves with /move")
        if in_setup and not setup:
            raise NotAllowed("the match is in its setup phase: submit your arrangement with "
                             "/setup (your 16 numbers in start-cell order)")
        move = _parse(v, p, me.seat, text) if in_setup else self._parse_typed(v, p, text)
        canonical = v.format_move(p, move)
        display = "setup submitted" if in_setup else v.display_move(p, move)
        marks = None if in_setup else v.move_marks(p, move)
        new = p.play(move)
        now = self.clock.now()
        outcome = new.outcome()
        after = dataclasses.replace(
            rec, ply=rec.ply + 1, position_text=new.to_text(),
            to_move=tuple(sorted(new.to_move)), last_move=display, last_move_by=user,
            draw_offer=rec.draw_offer if rec.draw_offer and rec.draw_offer.by == user
            else None)
        ratings = None
        if outcome is not None:
            after, ratings = self._finish(after, outcome)
        else:
            deadline, remind = self._deadline(now, rec.days_per_move)
            after = dataclasses.replace(after, deadline=deadline, remind_at=remind,
                                        seats=self._sync_out(after, new))
        entry = RecordEntry(rec.ply, me.seat, canonical, user, now)
        try:
            saved = await self._save(rec, after, (entry,), ratings)
        except Conflict:
            fresh = await self.repository.load_match(rec.id)
            if fresh is not None and fresh.ply != rec.ply:
                raise StaleMove(
                    "the position changed: another move landed first"
                    + (f" ({fresh.last_move})" if fresh.last_move else "")
                    + "; look at the board again") from None
            raise
        self._remember(rec.id, _Cached(saved.ply, saved.position_text, new, marks))
        view = self._view(saved)
        result = view.result
        if outcome is not None:
            await self._notify(MatchEnded(view, result, outcome.reason,
                                          await self._rating_updates(saved, ratings)))
        elif in_setup:
            await self._notify(SetupSubmitted(view, user))
            if not _in_setup(new):
                await self._notify(TurnStarted(view, view.to_move, None))
        else:
            lapsed = rec.draw_offer.by if rec.draw_offer and rec.draw_offer.by != user \
                else None
            await self._notify(TurnStarted(view, view.to_move, display, user, lapsed))
            taken = (*marks.captured, *marks.removed) if marks else ()
            for event in self._put_out(rec, saved, p, taken):
                await self._notify(event)
        return MoveResult(view, canonical if not in_setup else "setup", display,
                          outcome is not None, result)

    @staticmethod
    def _parse_typed(v: Variant, p: Position, text: str) -> object:
        """``v.parse_move``, also accepting the display form people copy from the bot's
        posts (``h3-e3 (C2.5)``, ``b7-a8 (28-32) crowned``): when the whole text is not a
        move, the part before its trailing note is read, and the note must be the one the
        game shows for that move."""
        try:
            return v.parse_move(p, text)
        except NotationError as whole:
            first_error: RulesError = whole
        for head in _note_heads(text):
            try:
                move = v.parse_move(p, head)
            except NotationError:
                continue
            display = v.display_move(p, move)
            note = text.strip()[len(head):].strip()
            canonical = v.format_move(p, move)
            shown_note = display[len(canonical):] if display.startswith(canonical) else None
            if _squash(display) == _squash(text) or (
                    shown_note is not None and _squash(shown_note) == _squash(note)):
                return move
            written = display if display != canonical else f"{canonical}, with no note"
            raise NotationError(f"{text.strip()!r} is not one move: {canonical} is, but "
                                f"{note!r} after it is not its note: it is written "
                                f"{written}", text=text)
        raise first_error

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
        out_seats = getattr(p, "out", None)
        if not isinstance(out_seats, frozenset | set | tuple):
            return rec.seats
        return tuple(dataclasses.replace(s, out=True) if s.seat in out_seats else s
                     for s in rec.seats)

    async def suggest_moves(self, match_id: int, user: int, prefix: str = "",
                            limit: int = 25) -> list[tuple[str, str]]:
        """Legal moves for autocomplete: ``(canonical, display)``, at most ``limit``.

        Only moves whose canonical string starts with the typed prefix (case, spaces and
        ``:``/``x``/``-`` separators forgiven; a prefix matching nothing that way falls back
        to "contains"). Most useful first: more pieces captured or removed, then moves whose
        display marks a check (``+``), then alphabetical. Empty when the user cannot move
        (autocomplete must not fail)."""
        try:
            rec = await self._record(match_id)
            self._require_active(rec)
            me = self._require_player(rec, user)
            state = await self._state(rec)
        except ServiceError:
            return []
        p = state.position
        if me.seat not in p.to_move or _in_setup(p) or me.out:
            return []
        v = p.variant
        if not isinstance(prefix, str):
            return []
        try:
            wanted = normalize(prefix[:MAX_TEXT])
        except RulesError:
            return []
        wanted_key = self._suggest_key(wanted)
        scored: list[tuple[int, int, int, str, str]] = []
        for m in p.legal_moves():
            canonical = v.format_move(p, m)
            key = self._suggest_key(canonical)
            if key.startswith(wanted_key):
                closeness = 0
            elif wanted_key and wanted_key in key:
                closeness = 1
            else:
                continue
            display = v.display_move(p, m)
            marks = v.move_marks(p, m)
            taken = len(marks.captured) + len(marks.removed)
            check = 0 if "+" in display else 1
            scored.append((closeness, -taken, check, canonical, display))
        scored.sort()
        n = max(0, min(int(limit), 25))
        return [(c, d) for _, _, _, c, d in scored[:n]]

    @staticmethod
    def _suggest_key(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch not in " -x:")

    async def resign(self, match_id: int, user: int) -> MatchView:
        """Resign. Two players: the opponent wins. Four: the game's rules decide (the seat
        is out and play goes on, or the game ends)."""
        async def attempt(rec: MatchRecord) -> MatchView:
            view, _ = await self._leave(rec, user, "resign")
            return view
        return await self._retrying(match_id, attempt)

    async def _leave(self, rec: MatchRecord, user: int, how: str
                     ) -> tuple[MatchView, list[Event]]:
        self._require_active(rec)
        me = self._require_player(rec, user)
        assert me.seat is not None
        if me.out:
            raise NotAllowed("you are already out of this game")
        state = await self._state(rec)
        p = state.position
        v = p.variant
        now = self.clock.now()
        r = v.resign(p, me.seat)
        entry = RecordEntry(rec.ply, me.seat, f"{SPECIAL_PREFIX}{how} {me.seat}", user, now)
        reason = "resignation" if how == "resign" else "timeout"
        seats = tuple(dataclasses.replace(s, out=True) if s.user_id == user else s
                      for s in rec.seats)
        after = dataclasses.replace(rec, ply=rec.ply + 1, seats=seats, draw_offer=None,
                                    last_move=None, last_move_by=None)
        ratings = None
        new: Position | None = None
        outcome: Outcome | None = None
        if isinstance(r, Outcome):
            outcome = r
            after, ratings = self._finish(after, r, reason)
        else:
            new = r
            outcome = new.outcome()
            after = dataclasses.replace(after, position_text=new.to_text(),
                                        to_move=tuple(sorted(new.to_move)),
                                        seats=self._sync_out(after, new))
            if outcome is not None:
                # The game calls any leaving "resignation"; a timeout stays a timeout.
                after, ratings = self._finish(
                    after, outcome, reason if outcome.reason == "resignation" else None)
            else:
                deadline, remind = self._deadline(now, rec.days_per_move)
                after = dataclasses.replace(after, deadline=deadline, remind_at=remind)
        saved = await self._save(rec, after, (entry,), ratings)
        self._remember(rec.id, _Cached(saved.ply, saved.position_text,
                                       new if new is not None else p, None))
        view = self._view(saved)
        events: list[Event] = []
        if outcome is not None:
            events.append(MatchEnded(view, view.result,
                                     view.result.reason if view.result else reason,
                                     await self._rating_updates(saved, ratings)))
        else:
            events.append(PlayerOut(view, user, reason))
            if new is not None:
                events += self._put_out(dataclasses.replace(rec, seats=seats), saved, p)
            events.append(TurnStarted(view, view.to_move, None))
        for event in events:
            await self._notify(event)
        return view, events

    # ------------------------------------------------------------------ draws

    def _opponents_left(self, rec: MatchRecord, user: int) -> set[int]:
        return {s.user_id for s in rec.seats
                if s.seat is not None and not s.out and s.user_id != user}

    async def offer_draw(self, match_id: int, user: int) -> MatchView:
        """Offer a draw; if an opponent's offer is pending, this accepts it. The offer lapses
        when an opponent moves."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._require_active(rec)
            me = self._require_player(rec, user)
            if me.out:
                raise NotAllowed("you are out of this game")
            if rec.draw_offer is not None:
                if rec.draw_offer.by == user:
                    raise NotAllowed("you have already offered a draw")
                return await self._accept_draw(rec, user)
            saved = await self._save(rec, dataclasses.replace(
                rec, draw_offer=DrawOffer(user)))
            view = self._view(saved)
            await self._notify(DrawOffered(view, user))
            return view
        return await self._retrying(match_id, attempt)

    async def accept_draw(self, match_id: int, user: int) -> MatchView:
        """Agree to the pending offer; the match is drawn once every remaining opponent of
        the offerer agreed."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._require_active(rec)
            me = self._require_player(rec, user)
            if me.out:
                raise NotAllowed("you are out of this game")
            return await self._accept_draw(rec, user)
        return await self._retrying(match_id, attempt)

    async def _accept_draw(self, rec: MatchRecord, user: int) -> MatchView:
        offer = rec.draw_offer
        if offer is None:
            raise NotAllowed("there is no draw offer to accept")
        if offer.by == user:
            raise NotAllowed("you cannot accept your own draw offer")
        agreed = tuple(sorted({*offer.accepted, user}))
        if set(agreed) < self._opponents_left(rec, offer.by):
            saved = await self._save(rec, dataclasses.replace(
                rec, draw_offer=DrawOffer(offer.by, agreed)))
            return self._view(saved)
        now = self.clock.now()
        outcome = Outcome.draw(seats=rec.seat_count, reason="agreement")
        after = dataclasses.replace(rec, ply=rec.ply + 1)
        after, ratings = self._finish(after, outcome)
        entry = RecordEntry(rec.ply, None, f"{SPECIAL_PREFIX}draw", user, now)
        saved = await self._save(rec, after, (entry,), ratings)
        hit = self._cache.get(rec.id)
        if hit is not None and hit.ply == rec.ply:
            self._remember(rec.id, dataclasses.replace(hit, ply=saved.ply))
        view = self._view(saved)
        await self._notify(MatchEnded(view, view.result, "agreement",
                                      await self._rating_updates(saved, ratings)))
        return view

    async def decline_draw(self, match_id: int, user: int) -> MatchView:
        """Turn down the pending offer (the offerer may withdraw it the same way)."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._require_active(rec)
            self._require_player(rec, user)
            if rec.draw_offer is None:
                raise NotAllowed("there is no draw offer to decline")
            saved = await self._save(rec, dataclasses.replace(rec, draw_offer=None))
            view = self._view(saved)
            await self._notify(DrawDeclined(view, user))
            return view
        return await self._retrying(match_id, attempt)

    # ------------------------------------------------------------------ reading

    async def get_match(self, match_id: int) -> MatchView:
        return self._view(await self._record(match_id))

    async def match_in_thread(self, thread_id: int) -> MatchView | None:
        rec = await self.repository.match_in_thread(thread_id)
        return self._view(rec) if rec is not None else None

    async def position(self, match_id: int) -> tuple[Position, MoveMarks | None]:
        """The current position and the last move's marks (for boards)."""
        rec = await self._record(match_id)
        state = await self._state(rec)
        return state.position, state.last_marks

    async def board_image(self, match_id: int, perspective: int | None = None
                          ) -> BoardImage | None:
        """A PNG of the board through the injected renderer (None without one)."""
        if self.renderer is None:
            return None
        rec = await self._record(match_id)
        state = await self._state(rec)
        renderer = self.renderer
        names = self._seat_names(rec)
        extra = {}
        if not rec.status.is_live:
            extra["result"] = self._result_line(rec, names)
        drawn = await asyncio.to_thread(renderer.render, state.position,
                                        last_move=state.last_marks, perspective=perspective,
                                        names=names, **extra)
        alt = str(getattr(drawn, "alt_text", "") or "") or self.describe(rec, state.position)
        return BoardImage(bytes(drawn.png), alt)

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

    def describe(self, rec: MatchRecord | MatchView, p: Position) -> str:
        """A one-line description of the position (alt text): whose move it is (with the
        players' names when known), or how the match ended, even when the rules did not
        end it (a resignation, a timeout, an agreed draw)."""
        v = p.variant
        movers = self._who(rec, p.to_move) if p.to_move else ""
        state = f"{movers} to move" if movers else "game over"
        if not rec.status.is_live:
            state = "game over" + (f" ({rec.result.reason_text})"
                                   if isinstance(rec.result, ResultView)
                                   else f" ({reason_text(rec.result.reason)})"
                                   if rec.result is not None else f" ({rec.status.value})")
        last = f"; last move {rec.last_move}" if rec.last_move else ""
        moves = f"{rec.ply} move{'' if rec.ply == 1 else 's'}"
        return f"{v.name}, match #{rec.id}, after {moves}: {state}{last}"

    async def games_of(self, guild_id: int | None, user: int) -> list[MatchView]:
        """The user's live matches (challenges, lobbies, games): the ones waiting on him
        first (his move, or an invitation to answer), then by deadline."""
        recs = await self.repository.matches_of(user, guild_id, LIVE_STATUSES)
        views = [self._view(r) for r in recs]
        far = datetime.max.replace(tzinfo=self.clock.now().tzinfo)

        def key(m: MatchView) -> tuple[int, datetime, int]:
            waiting = user in m.to_move or user in m.invited
            return (0 if waiting else 1, m.deadline or far, -m.id)
        return sorted(views, key=key)

    async def active_matches_of(self, guild_id: int | None, user: int) -> list[MatchView]:
        """The user's matches in play (for autocomplete of a match)."""
        recs = await self.repository.matches_of(user, guild_id, (MatchStatus.ACTIVE,))
        return [self._view(r) for r in recs]

    async def open_challenges(self, guild_id: int) -> list[MatchView]:
        return [self._view(r) for r in await self.repository.open_challenges(guild_id)]

    async def history(self, match_id: int) -> HistoryView:
        """The record and an export text."""
        rec = await self._record(match_id)
        entries = await self.repository.load_entries(rec.id)
        try:
            replay = self._replay(rec, entries)
        except MatchBroken:
            shown = tuple((e.ply, e.user_id, e.text, e.text) for e in entries)
            return HistoryView(self._view(rec), shown, "tablero",
                               self._tablero_export(rec, [(e.text, False)
                                                          for e in entries]))
        fmt, export = "tablero", ""
        try:
            found = export_record(rec, entries, self._seat_names(rec))
        except Exception:  # an exporter bug must not hide the record
            log.exception("export failed for match %s", rec.id)
            found = None
        if found is not None:
            fmt, export = found
        shown_entries = replay.entries
        if _in_setup(replay.position):  # a submitted arrangement stays secret until both are in
            shown_entries = tuple((ply, user, "setup", "setup submitted")
                                  for ply, user, _, _ in shown_entries)
        if not export:
            export = self._tablero_export(
                rec, [(d, True) if c.startswith(SPECIAL_PREFIX) else (c, False)
                      for _, _, c, d in shown_entries])
        return HistoryView(self._view(rec), shown_entries, fmt, export)

    async def record(self, match_id: int) -> GameRecord:
        """The record of a match replayed ply by ply (for replays): the variant, options,
        start text and position, and each ply's move object and resulting position. A
        Querni arrangement stays hidden (``move`` None) until both are in. Raises
        ``MatchBroken`` when the record does not replay."""
        rec = await self._record(match_id)
        entries = await self.repository.load_entries(rec.id)
        replay = self._replay(rec, entries)
        plies = replay.plies
        if _in_setup(replay.position):
            plies = tuple(dataclasses.replace(x, canonical="setup", display="setup submitted",
                                              move=None, position=replay.start)
                          for x in plies)
        return GameRecord(self._view(rec), replay.start.variant, rec.options, rec.start_text,
                          replay.start, plies)

    def _tablero_export(self, rec: MatchRecord, moves: Sequence[tuple[str, bool]]) -> str:
        """Tablero's own record: headers (the players by seat, the result in words), then
        the plies; what is not a move (a resignation, a timeout, an agreed draw) is a
        ``{comment}``."""
        head = [f'[Game "{rec.game}"]', f'[Rules "{rec.rules_version}"]',
                f"[Options '{json.dumps(dict(rec.options), sort_keys=True)}']",
                f'[Start "{rec.start_text}"]', f'[Match "{rec.id}"]']
        try:
            v: Variant | None = self._variant(rec.game)
        except InvalidOption:
            v = None
        names = self._seat_names(rec) if v is not None else None
        for seat in range(rec.seat_count):
            user = rec.user_at(seat)
            if v is None or user is None:
                continue
            colour = v.seat_name(seat, rec.seat_count)
            name = names[seat] if names and names[seat] != colour else f"user {user}"
            head.append(f'[{colour} "{name.replace(chr(34), chr(39))}"]')
        if rec.result is not None:
            if v is not None and rec.result.winners:
                who = " and ".join(v.seat_name(s, rec.seat_count)
                                   for s in rec.result.winners)
                said = f"{who} won: {reason_text(rec.result.reason)}"
            elif rec.result.ranking:
                said = f"draw: {reason_text(rec.result.reason)}"
            else:
                said = reason_text(rec.result.reason)
            head.append(f'[Result "{said}"]')
        body = " ".join(f"{i + 1}. {{{text}}}" if comment else f"{i + 1}. {text}"
                        for i, (text, comment) in enumerate(moves))
        return "\n".join(head) + "\n\n" + body + "\n"

    # ------------------------------------------------------------------ ratings

    def _ladder(self, game: str) -> str:
        text = self._check_text(game, "game").strip().lower()
        if text in rules.VARIANTS:
            return text
        base, _, n = text.rpartition("-")
        if base in rules.VARIANTS and n == "4":
            return text
        self._variant(text)  # raises with the list of games
        return text

    async def leaderboard(self, guild_id: int, game: str, page: int = 1,
                          per_page: int = 10) -> LeaderboardPage:
        ladder = self._ladder(game)
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise InvalidOption("the page must be 1 or more")
        per_page = max(1, min(int(per_page), 50))
        offset = (page - 1) * per_page
        rows, total = await self.repository.leaderboard(guild_id, ladder, offset, per_page)
        entries = tuple(self._entry(offset + i + 1, r) for i, r in enumerate(rows))
        return LeaderboardPage(guild_id, ladder, page, per_page, total, entries)

    @staticmethod
    def _entry(rank: int, r: RatingRecord) -> LeaderboardEntry:
        return LeaderboardEntry(rank, r.user_id, r.ordinal, r.mu, r.sigma, r.wins,
                                r.losses, r.draws)

    async def rank_of(self, guild_id: int, game: str, user: int) -> LeaderboardEntry | None:
        found = await self.repository.rank_of(guild_id, self._ladder(game), user)
        return None if found is None else self._entry(*found)

    async def stats(self, guild_id: int, user: int) -> PlayerStats:
        ratings = await self.repository.ratings_of(guild_id, user)
        entries: list[LeaderboardEntry] = []
        for r in ratings:
            found = await self.repository.rank_of(guild_id, r.ladder, user)
            entries.append(self._entry(found[0] if found else 0, r))
        active = await self.repository.matches_of(user, guild_id, (MatchStatus.ACTIVE,))
        return PlayerStats(guild_id, user, tuple(entries), tuple(r.ladder for r in ratings),
                           len(active))

    # ------------------------------------------------------------------ settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        found = await self.repository.get_guild_settings(guild_id)
        return found if found is not None else GuildSettings(guild_id)

    async def update_guild_settings(self, guild_id: int, *, default_days: int | None = None,
                                    use_threads: bool | None = None,
                                    games_channel_id: int | str | None = "keep",
                                    reminders: bool | None = None) -> GuildSettings:
        """Change some settings (``games_channel_id=None`` clears the channel)."""
        s = await self.get_guild_settings(guild_id)
        if default_days is not None:
            if isinstance(default_days, bool) or not isinstance(default_days, int) or \
                    not MIN_DAYS <= default_days <= MAX_DAYS:
                raise InvalidOption(f"days per move must be from {MIN_DAYS} to {MAX_DAYS}")
            s = dataclasses.replace(s, default_days=default_days)
        if use_threads is not None:
            s = dataclasses.replace(s, use_threads=bool(use_threads))
        if reminders is not None:
            s = dataclasses.replace(s, reminders=bool(reminders))
        if games_channel_id != "keep":
            if games_channel_id is not None and not isinstance(games_channel_id, int):
                raise InvalidOption("that is not a channel")
            s = dataclasses.replace(s, games_channel_id=games_channel_id)
        await self.repository.save_guild_settings(s)
        return s

    async def get_user_prefs(self, user: int) -> UserPrefs:
        found = await self.repository.get_user_prefs(user)
        return found if found is not None else UserPrefs(user)

    async def update_user_prefs(self, user: int, notify: str) -> UserPrefs:
        text = self._check_text(notify, "choice").strip().lower()
        if text not in NOTIFY_CHOICES:
            raise InvalidOption(f"notify must be one of: {', '.join(NOTIFY_CHOICES)}")
        prefs = UserPrefs(user, text)
        await self.repository.save_user_prefs(prefs)
        return prefs

    # ------------------------------------------------------------------ deadlines

    async def sweep(self, now: datetime | None = None) -> list[Event]:
        """Send due reminders and apply due timeouts; returns the events sent. Safe to call
        at any time and after any downtime: it acts on what is stored."""
        now = now or self.clock.now()
        events: list[Event] = []
        for rec in await self.repository.due_matches(now):
            try:
                events.extend(await self._sweep_one(rec.id, now))
            except ServiceError as e:
                log.warning("sweep skipped match %s: %s", rec.id, e.message)
        return events

    async def _sweep_one(self, match_id: int, now: datetime) -> list[Event]:
        for _ in range(RETRIES):
            rec = await self._record(match_id)
            if rec.status is not MatchStatus.ACTIVE or rec.deadline is None:
                return []
            try:
                if rec.deadline <= now:
                    return await self._timeout(rec, now)
                if rec.remind_at is not None and rec.remind_at <= now:
                    saved = await self._save(rec, dataclasses.replace(rec, remind_at=None))
                    settings = await self.get_guild_settings(rec.guild_id)
                    if not settings.reminders:
                        return []
                    view = self._view(saved)
                    event = DeadlineReminder(view, view.to_move, rec.deadline - now)
                    await self._notify(event)
                    return [event]
                return []
            except Conflict:
                continue
        return []

    async def _timeout(self, rec: MatchRecord, now: datetime) -> list[Event]:
        entries = await self.repository.load_entries(rec.id)
        moves = sum(1 for e in entries if not e.text.startswith(SPECIAL_PREFIX))
        late = [s for s in rec.to_move]
        if moves < 2 or len(late) != 1:
            saved = await self._save(rec, dataclasses.replace(
                rec, status=MatchStatus.ABORTED, deadline=None, remind_at=None,
                to_move=(), draw_offer=None,
                result=ResultRecord((), (), "aborted: no move in time")))
            view = self._view(saved)
            event = MatchEnded(view, None, "aborted")
            await self._notify(event)
            return [event]
        user = rec.user_at(late[0])
        if user is None:
            return []
        _, events = await self._leave(rec, user, "timeout")
        return events

    # ------------------------------------------------------------------ checks

    async def verify_all(self) -> list[tuple[int, str]]:
        """Replay every stored match that has a position and compare it with its cached
        text; mismatches are marked broken. Returns ``(match id, problem)`` pairs."""
        problems: list[tuple[int, str]] = []
        for match_id in await self.repository.match_ids():
            rec = await self.repository.load_match(match_id)
            if rec is None or rec.status is MatchStatus.BROKEN:
                if rec is not None:
                    problems.append((rec.id, rec.broken or "broken"))
                continue
            entries = await self.repository.load_entries(rec.id)
            try:
                self._replay(rec, entries)
            except MatchBroken as e:
                problems.append((rec.id, e.message))
                await self._mark_broken(rec, e.message)
        return problems

