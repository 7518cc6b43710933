"""``ServiceCore``: what the use-case parts (``challenges``, ``play``, ``endings``,
``deadlines``, ``queries``...) share. It holds the ports the service was given and the
collaborators built from them, plus the shared steps (load, commit and announce, the
position of a match, the checks every use-case makes), one or a few lines each. It is a
collaborator, not a base class: ``MatchService`` builds one and hands it to each part,
which takes from it the ports and steps it uses. The machinery lives in the collaborators:

* ``matches`` (``matches.py``): load, compare-and-set save, retry, the view of a record
* ``states`` (``states.py``): positions, cached by ``(match, ply)``, replayed on a miss
* ``ratings`` (``ratings.py``): the rating change of a result and its report
* words: ``texts.py`` (names, descriptions, board lines) over ``locales.results``
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from typing import TypeVar

from locales.i18n import Words, _, render
from rules import Outcome, Position, Variant
from rules.core import Point
from service import texts
from service.early_ends import (
    ABORTED_PREFIX,
    DOUBLE_FORFEIT,
    DRAW_AGREED_EARLY,
    early_end,
    left_words,
)
from service.errors import (
    Conflict,
    MatchBroken,
    MatchNotFound,
    MatchNotStarted,
    MatchOver,
    NotAPlayer,
    ServiceError,
    StorageError,
)
from service.events import Event, MatchEnded, PlayerOut
from service.ids import tournament_not_found
from service.imported_seats import ImportedNames, with_imported_names
from service.inputs import check_text
from service.matches import Matches, team_of, view_of
from service.outbox import Announce
from service.ports import BoardRenderer, Clock, MatchRooms, NameResolver, Notifier, Repository
from service.ratings import Ratings
from service.records import (
    MatchRecord,
    MatchStatus,
    RatingChange,
    RecordEntry,
    ResultRecord,
    SeatRecord,
)
from service.settled import settled
from service.shards import ALL_SHARDS, ShardSet
from service.states import (
    MAX_TEXT,
    MatchState,
    MatchStates,
    Recent,
    Replay,
    Replayed,
    Replays,
    StoredRecord,
    carried_forward,
    everyone_moved,
    forced_moves,
    public_view,
    replay,
    variant_of,
)
from service.tournaments import Result
from service.views import BoardState, Caller, GameRecord, GuildSettings, MatchView, SeatView

log = logging.getLogger(__name__)

T = TypeVar("T")

Subscriber = Callable[[Event], Awaitable[None]]
"""A part's reaction to an event the service announces (after the notifier has it)."""
Sweeper = Callable[[datetime], Awaitable[Sequence[Event]]]
"""A part's share of the periodic sweep: what is due at ``now``, and the events it sent."""

MIN_DAYS, MAX_DAYS = 1, 14
CONTINUE_PLIES = 64  # a cache this close behind the row is carried forward, not replayed
RECORD_SOURCES = 256
"""The imported games whose players the continued matches' records name that are kept
(least recently used first out): an imported game never changes, so each is read once."""
UNCHANGING = 0
"""The one version of what is kept of an imported game (it never changes)."""
__all__ = ["MAX_DAYS", "MAX_TEXT", "MIN_DAYS", "ServiceCore"]


def _nothing() -> None:
    return None


class ServiceCore:
    """The ports, collaborators and shared steps of ``MatchService``'s parts (one
    instance, shared by every part)."""

    repository: Repository
    notifier: Notifier
    clock: Clock
    renderer: BoardRenderer | None
    names: NameResolver | None
    rooms: MatchRooms | None
    rng: random.Random
    matches: Matches
    states: MatchStates
    replays: Replays
    ratings: Ratings

    def __init__(self, repository: Repository, notifier: Notifier, clock: Clock,
                 renderer: BoardRenderer | None = None, rng: random.Random | None = None,
                 *, cache_size: int = 4096, names: NameResolver | None = None,
                 rooms: MatchRooms | None = None, shards: ShardSet = ALL_SHARDS) -> None:
        self.repository = repository
        self.shards = shards  # the sweep acts only on these shards' guilds
        self.notifier = notifier
        self.clock = clock
        self.renderer = renderer
        self.imported = ImportedNames(repository)
        """Imported players' names (issue 44), read with the matches and moves that
        hold them; ``names`` answers for them."""
        self.names = with_imported_names(names, self.imported)
        self.rooms = rooms
        self.rng = rng or random.Random()
        self.matches = Matches(repository, clock, self.imported)
        self.states = MatchStates(cache_size)
        self.replays = Replays()  # replayed records: the board at any ply (issue 42)
        self.record_sources = Recent[int, tuple[tuple[SeatView, ...], int]](RECORD_SOURCES)
        """The seats and plies of each imported game a match continues, by its id
        (:meth:`with_record_players`)."""
        self.ratings = Ratings(repository)
        self.subscribers: Sequence[Subscriber] = ()
        """The parts that react to events, in order, after the notifier (``MatchService``
        lists them: a finished match moves its tournament on, a computer's turn starts
        its search)."""

    # ------------------------------------------------------------------ inputs

    @staticmethod
    def variant(game: str) -> Variant:
        return variant_of(game)

    @staticmethod
    def check_text(text: object, what: Words) -> str:
        """``text`` if it is a short text of valid characters (``inputs.check_text``)."""
        return check_text(text, what)

    # ------------------------------------------------------------------ records

    async def record(self, match_id: int) -> MatchRecord:
        return await self.matches.load(match_id)

    async def check_scope(self, caller: Caller, match_id: int | None,
                           tournament_id: int | None) -> Callable[[], None]:
        """The door's scope check (``ids.checked_ids`` calls it before every operation
        that takes a match or tournament id and a caller): a match outside the caller's
        sight, or a tournament of another server, does not exist for him. The match read
        here is the operation's own first read (``Matches.load_for_scope``); the returned
        function ends that when the operation is over."""
        done: Callable[[], None] = _nothing
        if tournament_id is not None:
            t = await self.repository.load_tournament(tournament_id)
            if t is None or t.guild_id != caller.guild_id:
                raise tournament_not_found(tournament_id)
        if match_id is not None:
            rec, done = await self.matches.load_for_scope(match_id)
            if not caller.may_see(self.view(rec)):
                done()
                raise MatchNotFound(_("there is no match #{match}", match=match_id))
        return done

    async def retrying(self, match_id: int,
                        attempt: Callable[[MatchRecord], Awaitable[T]]) -> T:
        return await self.matches.retrying(match_id, attempt)

    async def save(self, before: MatchRecord, after: MatchRecord,
                    append: Sequence[RecordEntry] = (),
                    ratings: RatingChange | None = None) -> MatchRecord:
        """A change nobody is told about (no outbox entry)."""
        return await self.matches.save(before, after, append, ratings)

    async def commit(self, before: MatchRecord, after: MatchRecord,
                      build: Callable[[MatchRecord], Sequence[Event]],
                      append: Sequence[RecordEntry] = (),
                      ratings: RatingChange | None = None, *, by: int | None = None
                      ) -> tuple[MatchRecord, list[Event]]:
        """Save a change and, in the same transaction, the outbox entries of the events
        ``build`` makes from the stored match, followed by the questions the change
        answered or made moot (``settled``; ``by``: who answered, when someone did). The
        events are returned, to be announced (``_announce``) in that order once
        ``MatchEnded`` ones are ``_completed``."""
        announce = Announce(self.with_settled(before, build, by), self.clock.now())
        saved = await self.matches.save(before, after, append, ratings, announce)
        return saved, announce.events

    def with_settled(self, before: MatchRecord,
                     build: Callable[[MatchRecord], Sequence[Event]], by: int | None = None
                     ) -> Callable[[MatchRecord], list[Event]]:
        """``build``, followed by the questions of ``before`` the stored change answered
        or made moot, a turn that passed closed by its ``TurnStarted`` if it has one
        (``settled.settled``)."""
        def built(stored: MatchRecord) -> list[Event]:
            return settled(before, stored, build(stored), lambda: self.view(stored), by)
        return built

    async def announce(self, events: Iterable[Event]) -> None:
        for event in events:
            await self.notify(event)

    def view(self, rec: MatchRecord) -> MatchView:
        return view_of(rec, self.imported)

    @staticmethod
    def team(rec: MatchRecord, seat: int) -> int | None:
        return team_of(rec, seat)

    async def notify(self, event: Event) -> None:
        """Tell the notifier (the people), then each of :attr:`subscribers` in order."""
        try:
            await self.notifier.notify(event)
        except Exception:  # the change is stored; a failed notification must not undo it
            log.exception("notifier failed on %s", type(event).__name__)
        for subscriber in self.subscribers:
            await subscriber(event)

    # ------------------------------------------------------------------ positions

    async def entries(self, rec: MatchRecord, start: int = 0) -> list[RecordEntry]:
        """The entries ``rec`` was written with (from ``start``): those below its ply.
        Entries are append-only, so this is a consistent snapshot of the match however
        many moves landed since ``rec`` was read. The names of imported players who
        played them are read too (a continued imported game's first moves)."""
        entries = await self.repository.load_entries(rec.id, start=start, stop=rec.ply)
        await self.imported.learn(e.user_id for e in entries)
        return entries

    async def with_record_players(self, rec: MatchRecord, record: GameRecord) -> GameRecord:
        """``record``, ``rec`` replayed; for a match continued from an imported game
        (issue 44) with the record's players, who held the seats for its first plies
        (``GameRecord.seats_at``): read once, and kept (the imported game never changes:
        not at each new version of the match)."""
        source = rec.continued_from
        if source is None:
            return record
        kept = self.record_sources.get(source, UNCHANGING)
        if kept is None:
            imported = await self.record(source)
            kept = self.record_sources.keep(source, UNCHANGING,
                                            (self.view(imported).seats, imported.ply))
        seats, plies = kept
        return dataclasses.replace(record, record_seats=seats, record_plies=plies)

    async def replayed_record(self, rec: MatchRecord, replays: Replays | None = None
                              ) -> GameRecord:
        """``rec``'s record replayed, with its record's players
        (:meth:`with_record_players`), as kept in ``replays`` (the core's own by default)
        for ``rec``'s stored version: another process's move is a new version; a version
        whose record only grew is played on from the last one's (``Replays.replayed``)."""
        return (await self.replayed(rec, replays)).record

    async def replayed(self, rec: MatchRecord, replays: Replays | None = None) -> Replayed:
        """``rec`` replayed (its entries, the replay and its record) as
        :meth:`replayed_record` keeps it. Raises MatchBroken as :func:`replay`."""
        replays = self.replays if replays is None else replays
        kept = replays.kept(rec)
        if kept is None:
            entries = await self.entries(rec)
            done = replays.replayed(rec, entries)
            kept = replays.remember(rec, entries, done, await self.with_record_players(
                rec, done.game_record(self.view(rec), rec)))
        return kept

    async def state(self, rec: MatchRecord) -> MatchState:
        """The current position of ``rec``: cached; or the cached position carried forward
        by the few entries after it (another process moved); else a checked replay."""
        hit = self.states.cached(rec)
        if hit is not None:
            return hit
        if rec.status is MatchStatus.BROKEN:
            raise MatchBroken(rec.broken or _("match #{match} is broken", match=rec.id))
        behind = self.states.behind(rec, CONTINUE_PLIES)
        if behind is not None:
            carried = carried_forward(rec, behind, await self.entries(rec, behind.ply))
            if carried is not None:
                self.states.remember(rec.id, carried)
                return carried
        return self.states.replayed(rec, await self.checked_replay(rec))

    async def read_state(self, match_id: int) -> tuple[MatchRecord, MatchState]:
        """A match and its position, read as one consistent pair (retried on a race)."""
        async def attempt(rec: MatchRecord) -> tuple[MatchRecord, MatchState]:
            return rec, await self.state(rec)
        return await self.retrying(match_id, attempt)

    async def checked_replay(self, rec: MatchRecord) -> Replay:
        """Replay ``rec`` from its snapshot of entries. A mismatch is corruption only when
        the row has not changed since: if a re-read finds a newer version, a writer raced
        this reader and the caller retries (``Conflict``); the match is not broken."""
        try:
            return replay(rec, await self.entries(rec))
        except MatchBroken as e:
            again = await self.repository.load_match(rec.id)
            if again is not None and again.version != rec.version:
                raise Conflict(f"match {rec.id} changed while it was read") from None
            await self.mark_broken(rec, e.message)
            raise

    @staticmethod
    def forced_moves(rec: MatchRecord, p: Position, ply: int, when: datetime
                      ) -> tuple[list[RecordEntry], Position]:
        return forced_moves(rec, p, ply, when)

    async def mark_broken(self, rec: MatchRecord, message: str) -> None:
        after = dataclasses.replace(rec, status=MatchStatus.BROKEN, broken=message,
                                    deadline=None, remind_at=None,
                                    updated_at=self.clock.now())
        announce: Announce[MatchRecord] = Announce(self.with_settled(
            rec, lambda s: [MatchEnded(self.view(s), None, "broken")]), self.clock.now())
        try:
            rec = await self.repository.save(rec, after, outbox=announce)
        except Conflict:
            return
        log.error("%s", message)
        await self.announce(announce.events)

    async def board_of(self, rec: MatchRecord) -> BoardState | None:
        """The board of ``rec`` from the cache (a replay on a miss); None if it does not
        replay (the match is then marked broken)."""
        try:
            state = await self.state(rec)
        except StorageError:
            raise  # the database failed, not the match
        except ServiceError:
            return None
        return BoardState(public_view(state.position), state.last_marks, state.moves)

    @staticmethod
    def ended(view: MatchView, reason: str, board: BoardState | None,
               aborted: bool = False, left_by: int | None = None,
               left_how: str | None = None) -> MatchEnded:
        """The MatchEnded event of a match that has just finished, as stored in the
        outbox: its result and final board (``_completed`` adds the ratings and record)."""
        return MatchEnded(view, None if aborted else view.result, reason, (), left_by,
                          board=board, left_how=left_how)

    async def completed(self, saved: MatchRecord, events: Sequence[Event],
                         ratings: RatingChange | None = None,
                         entries: Sequence[RecordEntry] | None = None) -> list[Event]:
        """``events`` with each ``MatchEnded`` given what is known only once the change is
        stored: each rated player's change and (when moves were played) the stored record
        for a replay, read once here so nobody asks for it again (``entries``: the saved
        record's entries when the caller has them already)."""
        out: list[Event] = []
        for event in events:
            if isinstance(event, MatchEnded):
                record = None
                if saved.ply:
                    try:
                        if entries is None or len(entries) != saved.ply:
                            entries = await self.entries(saved)
                        record = StoredRecord(event.match, saved, tuple(entries))
                    except StorageError as e:  # the outage is the repository's to log
                        log.debug("match %s ended without its replay: %s", saved.id,
                                  e.message)
                    except Exception:  # the result is stored; only the replay is lost
                        log.exception("could not read the record of match %s", saved.id)
                event = dataclasses.replace(
                    event, ratings=await self.ratings.updates(saved, ratings), record=record)
            out.append(event)
        return out

    # ------------------------------------------------------------------ rules of play

    async def vacation_allowed(self, rec: MatchRecord) -> bool:
        """False in a tournament game whose tournament forbids vacation."""
        tid = await self.repository.tournament_of_match(rec.id)
        if tid is None:
            return True
        t = await self.repository.load_tournament(tid)
        return t is None or bool(t.vacation)

    async def away_at_start(self, rec: MatchRecord, now: datetime) -> MatchRecord:
        """A match about to start, with its players on vacation now marked away (unless
        its tournament forbids vacation)."""
        away = []
        for s in rec.seats:
            for v in await self.repository.vacations_of(rec.guild_id, s.user_id, now):
                if v.active(now) and not v.auto:
                    away.append((s.user_id, v.until))
        if not away or not await self.vacation_allowed(rec):
            return rec
        return dataclasses.replace(rec, clock=dataclasses.replace(rec.clock,
                                                                  away=tuple(away)))

    @staticmethod
    def require_player(rec: MatchRecord, user: int) -> SeatRecord:
        seat = rec.seat_of(user)
        if seat is None or seat.seat is None or not seat.accepted:
            raise NotAPlayer(_("you are not playing in match #{match}", match=rec.id))
        return seat

    def require_active(self, rec: MatchRecord) -> None:
        if rec.status is MatchStatus.BROKEN:
            raise MatchBroken(rec.broken or _("match #{match} is broken", match=rec.id))
        if rec.status.is_waiting:
            raise MatchNotStarted(_("match #{match} has not started yet", match=rec.id))
        if rec.status is not MatchStatus.ACTIVE:
            view = self.view(rec)
            raise MatchOver(_("match #{match} is over: {result}", match=rec.id,
                              result=texts.result_words(view, self.seat_names(view))))

    async def everyone_moved(self, rec: MatchRecord) -> tuple[bool, list[RecordEntry]]:
        """Whether every player of ``rec`` has played a move of his own (``everyone_moved``),
        and the entries read to tell (handed on, so the record is read once)."""
        entries = await self.entries(rec)
        return everyone_moved(rec, entries), entries

    async def abort(self, rec: MatchRecord, why: str | None, left_by: int | None = None,
                     leaver: tuple[int, str] | None = None, *, by: int | None = None
                     ) -> MatchEnded:
        """End ``rec`` unrated with no result, as when it ends before every player has
        moved: saved, announced and returned. ``why``: ``early_ends.DRAW_AGREED_EARLY``,
        ``NO_MOVE_IN_TIME``, or None when ``leaver`` left it; the words stored are
        ``early_ends.early_end``'s ("aborted: ..."; in a tournament game what the
        tournament scores: a forfeit, a draw), and the announcement says them (a casual
        or rated game's too: "aborted: draw agreed before every player had moved", not a
        bare "aborted" after "Draw agreed"). ``left_by``: who left, for the announcement;
        ``leaver``: who left and how ("resign" or "timeout"), stored in the result;
        ``by``: who acted (``commit``)."""
        board = await self.board_of(rec) if rec.ply else None  # unchanged by aborting
        tournament = await self.repository.tournament_of_match(rec.id) is not None
        reason = early_end(why, tournament=tournament, **self._early_end_seats(rec, leaver))
        saved, events = await self.commit(rec, dataclasses.replace(
            rec, status=MatchStatus.ABORTED, deadline=None, remind_at=None, to_move=(),
            draw_offer=None, result=ResultRecord(
                (), (), reason, *(leaver or (None, None)))), lambda s: [
            self.ended(self.view(s), reason, board,
                       aborted=True, left_by=left_by,
                       left_how=leaver[1] if leaver is not None else None)], by=by)
        events = await self.completed(saved, events)
        await self.announce(events)
        ended = events[0]
        assert isinstance(ended, MatchEnded)
        return ended

    async def as_scored(self, rec: MatchRecord) -> MatchRecord:
        """``rec`` as its words are shown: a tournament game aborted before every player
        had moved, stored before such games were worded as their tournament scores them
        (``early_ends``: "aborted: bob (Black) resigned before every player had moved"),
        reads as scored ("forfeit: …; alice (Red) wins", the double forfeit, the early
        draw), from the tournament's stored result of the game. Only what is shown
        changes: the stored words stay as they were written (the record of what the
        service said then; no migration rewrites them), and a match the tournament has
        not scored (yet) reads as it is. One read of the tournament, for such a match
        only (an aborted one whose words say "aborted")."""
        r = rec.result
        if rec.status is not MatchStatus.ABORTED or r is None \
                or not r.reason.startswith(ABORTED_PREFIX):
            return rec
        tid = await self.repository.tournament_of_match(rec.id)
        t = await self.repository.load_tournament(tid) if tid is not None else None
        game = next((g for g in t.games if g.match_id == rec.id), None) \
            if t is not None else None
        scored = game.result if game is not None else None
        words: str | None = None
        if game is None or scored is None:
            return rec
        if scored.drawn:
            words = DRAW_AGREED_EARLY
        elif scored is Result.BOTH_FORFEIT:
            words = DOUBLE_FORFEIT
        elif scored in (Result.FIRST_WINS_FORFEIT, Result.SECOND_WINS_FORFEIT):
            leaver = game.second if scored is Result.FIRST_WINS_FORFEIT else game.first
            said = left_words(r.reason)
            how = r.left_how or (said[1] if said is not None else "timeout")
            seats = self._early_end_seats(rec, (leaver, how)) if leaver is not None else {}
            if seats.get("winner"):
                words = early_end(None, tournament=True, **seats)
        return rec if words is None else dataclasses.replace(
            rec, result=dataclasses.replace(r, reason=words))

    def _early_end_seats(self, rec: MatchRecord, leaver: tuple[int, str] | None
                         ) -> dict[str, str | None]:
        """``early_end``'s people: who left and how, and the one other player (who wins
        a tournament game by forfeit), in the record's English words."""
        seat = rec.seat_of(leaver[0]) if leaver is not None else None
        if leaver is None or seat is None or seat.seat is None:
            return {}
        others = [s.seat for s in rec.seats if s.seat is not None and s.seat != seat.seat]
        return {"leaver": render(self.who(rec, (seat.seat,)), "en-US"), "how": leaver[1],
                "winner": render(self.who(rec, others), "en-US") if len(others) == 1
                else None}

    @staticmethod
    def result(outcome: Outcome, reason: str | None = None) -> ResultRecord:
        return ResultRecord(tuple(sorted(outcome.winners)),
                            tuple(tuple(sorted(g)) for g in outcome.ranking),
                            reason or outcome.reason)

    def finish(self, rec: MatchRecord, outcome: Outcome, reason: str | None = None
                ) -> tuple[MatchRecord, RatingChange | None]:
        result = self.result(outcome, reason)
        after = dataclasses.replace(rec, status=MatchStatus.FINISHED, result=result,
                                    to_move=(), deadline=None, remind_at=None,
                                    draw_offer=None)
        return after, self.ratings.change(after, result, self.clock.now())

    def put_out(self, before: MatchRecord, after: MatchRecord, p: Position,
                 captured: Iterable[Point] = ()) -> list[PlayerOut]:
        """A PlayerOut for each seat the game itself put out between ``before`` (position
        ``p``) and ``after`` (``captured``: the points the move took), so nobody is skipped
        without being told why: "no-pieces" when the move took his last stones, else
        "no-moves" (he could not move; in Querni-like slow ends his stones go too)."""
        was_out = {s.user_id for s in before.seats if s.out}
        view = self.view(after)
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
    def sync_out(rec: MatchRecord, p: Position) -> tuple[SeatRecord, ...]:
        """Mark seats the game put out (4 players): a seat that cannot move any more."""
        out_seats = p.out_seats()
        return tuple(dataclasses.replace(s, out=True) if s.seat in out_seats else s
                     for s in rec.seats)

    # ------------------------------------------------------------------ words

    def seat_names(self, match: MatchView) -> list[str] | None:
        """Display names by seat through the injected resolver (None without one)."""
        return texts.seat_names(match, self.names)

    def drawn_names(self, match: MatchView, locale: str) -> list[str] | None:
        """The names a picture drawn in ``locale`` shows (``texts.drawn_names``)."""
        return texts.drawn_names(match, self.names, locale)

    def who(self, rec: MatchRecord, seats: Iterable[int]) -> Words:
        """``'alice (Red)'`` per seat, listed (``texts.who``)."""
        view = self.view(rec)
        return texts.who(view, seats, self.seat_names(view))

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        found = await self.repository.get_guild_settings(guild_id)
        return found if found is not None else GuildSettings(guild_id)
