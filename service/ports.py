"""The Protocols the service talks through: storage (``Repository``, the union of one
narrow port per aggregate: ``MatchStore``, ``ClockStore``, ``OutboxStore``, ``LadderStore``,
``SettingsStore``, ``ComfortsStore``, ``ExplorerStore``, ``AnalysisStore``,
``ImportedPlayerStore``,
``TournamentRepository``,
``SeasonRepository``;
none wider than 15 operations), notifications
(``Notifier``), where a started match is played (``MatchRooms``), time (``Clock``) and
board images (``BoardRenderer``). Implementations live outside the service
(``storage/``, ``bot/console/``, the Discord adapter, ``render/``) and are built before
it: the service calls down into them, never the other way round."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

from rules import MoveMarks, Position
from service.events import Event
from service.records import (
    ConditionalLine,
    Downtime,
    ExplorerCount,
    ExplorerRow,
    Follow,
    MatchRecord,
    MatchStatus,
    OutboxEntry,
    OutboxFn,
    PostedMessage,
    PuzzlePlayer,
    PuzzleRecord,
    PuzzleTry,
    RatingChange,
    RatingRecord,
    RecordEntry,
    UnkeyedGame,
    VacationRecord,
)
from service.seasons import SeasonRepository
from service.tournament_records import TournamentRepository
from service.views import GuildSettings, MatchAnalysis, MatchView, UserPrefs


class MatchStore(Protocol):
    """Matches and their plies: create, load, compare-and-set save (with the outbox entries the
    change causes), the record, and the look-ups by player, thread and deadline."""

    async def create_match(self, record: MatchRecord, outbox: OutboxFn | None = None,
                           entries: Sequence[RecordEntry] = ()) -> MatchRecord:
        """Store a new match (its ``id`` is ignored); the stored record with its new id.
        ``outbox``: called with the stored record; its entries are stored in the same
        transaction (so are ``save``'s and ``extend_clocks``'); so are ``entries``, the
        record's first moves (a continued imported game's, issue 44). ``Conflict``, and
        nothing stored, when ``record.import_key`` is another match's of its server (the
        same game imported twice)."""
        ...

    async def load_match(self, match_id: int) -> MatchRecord | None: ...

    async def load_entries(self, match_id: int, *, start: int = 0,
                           stop: int | None = None) -> list[RecordEntry]:
        """The record, ordered by ply: the entries with ``start <= ply < stop`` (all from
        ``start`` when ``stop`` is None). Entries are append-only, so the entries below a
        match row's ``ply`` are exactly the ones that row was written with, however
        much later they are read: that is how a reader gets a consistent snapshot."""
        ...

    async def load_texts_of(self, stops: Mapping[int, int]) -> dict[int, list[str]]:
        """Several records' texts in one read (what a fingerprint needs, no more): for
        each match id of ``stops``, the ``text`` of each entry
        ``load_entries(id, stop=stops[id])`` gives (an empty list for a match with no
        entries, or none)."""
        ...

    async def save(self, before: MatchRecord, after: MatchRecord,
                   append: Sequence[RecordEntry] = (),
                   ratings: RatingChange | None = None,
                   outbox: OutboxFn | None = None) -> MatchRecord:
        """Write ``after`` (seats included) if the stored version is still
        ``before.version``, append ``append``, apply ``ratings`` and store the entries of
        ``outbox(stored after)``, all in one transaction. Returns ``after`` with its new
        version."""
        ...

    async def take_back(self, before: MatchRecord, after: MatchRecord,
                        outbox: OutboxFn | None = None) -> MatchRecord:
        """In one transaction, if the match is still at ``before.version`` and
        ``before.ply``: write ``after`` (a lower ply), delete the record's entries from
        ``after.ply`` on and the match's conditional lines, and store the outbox entries;
        else ``Conflict`` and nothing changes."""
        ...

    async def match_in_thread(self, thread_id: int) -> MatchRecord | None: ...

    async def matches_of(self, user_id: int, guild_id: int | None = None,
                         statuses: Sequence[MatchStatus] = ()) -> list[MatchRecord]:
        """Matches where ``user_id`` is a participant (seated or invited), newest first;
        ``statuses`` empty = any."""
        ...

    async def open_challenges(self, guild_id: int) -> list[MatchRecord]:
        """Open challenges and lobbies anybody may take, in that guild."""
        ...

    async def live_matches(self, guild_id: int, limit: int) -> list[MatchRecord]:
        """The guild's matches in play (active), newest first, at most ``limit``."""
        ...

    async def due_matches(self, now: datetime) -> list[MatchRecord]:
        """Active matches whose reminder (``remind_at``) or ``deadline`` is at or before now."""
        ...

    async def match_ids(self) -> list[int]:
        """Every stored match id (for the replay check)."""
        ...


MatchChanged = Callable[[int, int], None]
"""Told ``(match id, its new version)`` when a match's change is committed."""


@runtime_checkable
class MatchChanges(Protocol):
    """A store that says when a match changes, from whichever process changed it
    (PostgreSQL's LISTEN/NOTIFY), so a reader waiting for a move need not poll. Optional:
    stores without it (SQLite, memory) are polled."""

    async def listen_matches(self, changed: MatchChanged) -> Callable[[], Awaitable[None]]:
        """Call ``changed`` after every committed change of a match (``save``, in any
        process on the database) until the returned function is awaited."""
        ...


class ClockStore(Protocol):
    """Leases and clocks: the heartbeat, the shards a process holds, the downtime extension,
    vacations."""

    async def heartbeat(self, shard_id: int = 0, shard_count: int = 1) -> datetime | None:
        """When the guilds of shard ``shard_id`` of ``shard_count`` last had their clocks
        running: the latest beat of that shard, or of a process that counted the shards
        differently (the deployment before a change of SHARD_COUNT spoke for every guild);
        None before the first beat."""
        ...

    async def beat(self, now: datetime, shard_ids: Sequence[int] = (0,),
                   shard_count: int = 1) -> None:
        """Store ``now`` as the beat of each of ``shard_ids`` (of ``shard_count``)."""
        ...

    async def lease_shards(self, shard_ids: Sequence[int], shard_count: int, owner: str,
                           now: datetime, stale: timedelta) -> list[int]:
        """In one transaction: take or renew the lease of every shard of ``shard_ids`` for
        ``owner`` (beat ``now``), unless another owner beat on one of them after
        ``now - stale``, or counts the shards differently (live, ``shard_count`` not
        the same); then nothing is taken and those owners' shards are returned (empty:
        all leased). Two processes leasing at once never both get a shard."""
        ...

    async def release_shards(self, owner: str) -> None:
        """Drop ``owner``'s leases (a clean stop: the shards may start elsewhere at once)."""
        ...

    async def extend_clocks(self, downtime: Downtime, outbox: OutboxFn | None = None, *,
                            shard_id: int = 0, shard_count: int = 1
                            ) -> list[MatchRecord] | None:
        """In one transaction, if the shard's ``heartbeat`` is still ``downtime.since``:
        write ``downtime.moved(match)`` for every active match of the shard's guilds with
        a deadline (the core's rule: each clock later by the part of the downtime it ran,
        ``turns.after_downtime``; None: a match none of whose clocks ran is left as it
        is), store the entries of ``outbox(match)`` for each, and beat
        ``downtime.now`` for the shard; the matches as changed (versions bumped). None when
        the beat is no longer ``since`` (another process resumed first): nothing is
        changed twice."""
        ...

    async def save_vacation(self, vacation: VacationRecord,
                            changes: Sequence[tuple[MatchRecord, MatchRecord, OutboxFn]]
                            ) -> tuple[VacationRecord, list[MatchRecord]]:
        """In one transaction: insert ``vacation`` (``id`` 0) or update it (its ``id``),
        and save each ``(before, after, outbox)`` like ``save`` (compare-and-set: a
        ``Conflict`` on any of them writes nothing at all). The stored vacation (its id)
        and the matches as saved."""
        ...

    async def vacations_of(self, guild_id: int, user_id: int, since: datetime
                           ) -> list[VacationRecord]:
        """``user_id``'s vacations in ``guild_id`` that started at or after ``since`` or
        end after it, oldest first."""
        ...


class OutboxStore(Protocol):
    """The outbox: entries waiting for delivery, marked delivered; who keeps his DMs closed."""

    async def pending_outbox(self, match_id: int | None = None, limit: int = 100
                             ) -> list[OutboxEntry]:
        """Undelivered outbox entries (of one match, or all), oldest first."""
        ...

    async def mark_delivered(self, entry_id: int) -> None:
        """The entry reached Discord (or the terminal): remove it from the outbox."""
        ...

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        """Remember that a direct message to ``user_id`` was refused (Discord 50007), or
        that one went through again (which forgets it)."""
        ...

    async def dms_closed_untold(self) -> list[int]:
        """The users whose DMs were refused and who were not yet told so."""
        ...

    async def dms_closed_told(self, user_id: int) -> None:
        """He was told that his DMs are closed (he stays remembered as closed)."""
        ...

    async def remember_post(self, match_id: int, kind: str, post: PostedMessage) -> None:
        """An adapter posted ``match_id``'s question ``kind`` (``OfferSettled.offer``)
        as ``post`` (replacing the one before of that kind)."""
        ...

    async def post_of(self, match_id: int, kind: str) -> PostedMessage | None:
        """The post of ``match_id``'s question ``kind`` still to close, if any."""
        ...

    async def forget_post(self, match_id: int, kind: str) -> None:
        """That post was closed (or is gone): nothing more to do with it."""
        ...


class LadderStore(Protocol):
    """Ratings: the leaderboards, a player's rank and ratings."""

    async def leaderboard(self, guild_id: int, ladder: str, offset: int,
                          limit: int) -> tuple[list[RatingRecord], int]:
        """Ratings by ordinal, best first, and how many the ladder holds."""
        ...

    async def rank_of(self, guild_id: int, ladder: str,
                      user_id: int) -> tuple[int, RatingRecord] | None:
        """The user's 1-based rank on the ladder and his rating, or None if unrated."""
        ...

    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRecord]: ...


class SettingsStore(Protocol):
    """Settings and preferences: a server's settings, a user's preferences and language, his web
    links' generation."""

    async def get_guild_settings(self, guild_id: int) -> GuildSettings | None: ...

    async def save_guild_settings(self, settings: GuildSettings) -> None: ...

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None: ...

    async def save_user_prefs(self, prefs: UserPrefs) -> None:
        """Store ``prefs.notify`` (the stored locale is kept)."""
        ...

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """Store the Discord locale ``user_id`` was last seen with (his prefs are kept)."""
        ...

    async def set_time_zone(self, user_id: int, zone: str | None) -> None:
        """Store ``user_id``'s time zone (an IANA name checked by the core; None: UTC),
        read with the seats of his matches (``SeatRecord.time_zone``); his other prefs
        are kept."""
        ...

    async def web_epoch(self, user_id: int) -> int:
        """The generation of ``user_id``'s web links (0 until he first revokes them)."""
        ...

    async def revoke_web_links(self, user_id: int) -> int:
        """Move ``user_id``'s web link generation on (every older link stops working);
        the new generation."""
        ...


class ComfortsStore(Protocol):
    """Correspondence comforts: conditional moves, notes, follows, rematches."""

    async def add_conditional_lines(self, match_id: int, user_id: int, start_ply: int,
                                    lines: Sequence[Sequence[str]], now: datetime
                                    ) -> list[ConditionalLine]:
        """Store ``lines`` (canonical moves each) as one transaction."""
        ...

    async def conditional_lines(self, match_id: int) -> list[ConditionalLine]:
        """Every stored conditional line of the match (all players), oldest first."""
        ...

    async def delete_conditional_lines(self, match_id: int, user_id: int | None = None,
                                       ids: Sequence[int] | None = None) -> int:
        """Delete the match's lines (of one user, or those ``ids``); how many went."""
        ...

    async def matches_with_conditionals(self) -> list[int]:
        """Matches with a line to act on: an answer may be due (the record is an odd
        number of plies past a line's start) or the match is no longer active."""
        ...

    async def set_note(self, match_id: int, user_id: int, text: str | None,
                       now: datetime) -> None:
        """Store (``None``: delete) ``user_id``'s private note on the match."""
        ...

    async def note_of(self, match_id: int, user_id: int) -> str | None: ...

    async def add_follow(self, follow: Follow) -> bool:
        """Store a follow; False when it was there already."""
        ...

    async def remove_follow(self, follow: Follow) -> bool:
        """Remove a follow; False when there was none."""
        ...

    async def follows_of(self, user_id: int, guild_id: int) -> list[Follow]: ...

    async def create_rematch(self, original_id: int, record: MatchRecord,
                             outbox: OutboxFn | None = None) -> MatchRecord | None:
        """``create_match`` and, in the same transaction, remember it as the rematch of
        ``original_id``; None (nothing written) while an earlier rematch of it is still
        live (waiting or being played)."""
        ...

    async def rematch_of(self, match_id: int) -> int | None:
        """The latest rematch made of ``match_id``, if any."""
        ...

    async def rematch_source(self, rematch_id: int) -> int | None:
        """The match that ``rematch_id`` is the latest rematch of, if any."""
        ...


class BlockStore(Protocol):
    """Whom each person blocks (``service.blocks``): for every server, as a user id is."""

    async def add_block(self, user_id: int, blocked_id: int, now: datetime) -> bool:
        """``user_id`` blocks ``blocked_id`` from ``now``; in the same transaction the
        blocked user's follows of the blocker (as a player, in any server) are dropped.
        False: he blocked him already (nothing changes)."""
        ...

    async def remove_block(self, user_id: int, blocked_id: int) -> bool:
        """``user_id`` no longer blocks ``blocked_id``; False: he did not."""
        ...

    async def blocked_by(self, user_id: int) -> list[int]:
        """Whom ``user_id`` blocks, the oldest block first."""
        ...

    async def blockers_of(self, blocked_id: int, among: Collection[int]) -> list[int]:
        """Those of ``among`` who block ``blocked_id``, by id."""
        ...


class DigestStore(Protocol):
    """The daily digests of games at a glance (issue 42): who asked for one, where, and
    when the next is due."""

    async def set_digest(self, user_id: int, guild_id: int,
                         next_at: datetime | None) -> None:
        """Send ``user_id`` his daily digest of games in ``guild_id``, the next one at
        ``next_at`` (None: no more digests)."""
        ...

    async def digest_of(self, user_id: int, guild_id: int) -> datetime | None:
        """When his next digest in that server is due (None: he asked for none)."""
        ...

    async def due_digests(self, now: datetime, limit: int = 100
                          ) -> list[tuple[int, int, datetime]]:
        """``(user, guild, next_at)`` of the digests due at ``now``, the oldest first."""
        ...

    async def advance_digest(self, user_id: int, guild_id: int, was: datetime,
                             next_at: datetime, entries: Sequence[OutboxEntry]) -> bool:
        """Move a digest due at ``was`` on to ``next_at`` and store ``entries`` in the
        outbox, in one transaction; False (nothing stored) when it is no longer due at
        ``was`` (another process sent it, or it was turned off)."""
        ...


class ExplorerStore(Protocol):
    """The opening explorer (issue 44): per server, game configuration and position key,
    how often each move was played in finished games and how those games ended."""

    async def index_game(self, match_id: int, guild_id: int, config: str, imported: bool,
                         rows: Sequence[ExplorerRow]) -> bool:
        """In one transaction: remember that match ``match_id`` is in the explorer and
        add ``rows`` (each counts once) to the counts of ``guild_id``'s ``config`` (kept
        apart when ``imported``). False, and nothing changes, when the match was indexed
        already: a game is never counted twice."""
        ...

    async def explorer_counts(self, guild_id: int, config: str, position: int,
                              imported: bool | None = None) -> list[ExplorerCount]:
        """The moves played from ``position``, most played first (then by move text);
        ``imported`` None: played and imported games together, else only those."""
        ...

    async def unindexed_games(self, after: int, limit: int) -> list[int]:
        """Finished matches with an id above ``after`` not yet in the explorer, lowest
        id first, at most ``limit`` of them (for the backfill)."""
        ...

    async def keep_explorer_place(self, mark: str, guild_id: int, place: str,
                                  used_at: datetime) -> None:
        """Keep ``place`` (a place of ``guild_id``'s explorer, as text) under its short
        ``mark`` (an answer's buttons name it, and work after a restart), last used at
        ``used_at``; the same mark again only dates its use anew."""
        ...

    async def prune_explorer_places(self, unused_since: datetime, now: datetime,
                                    limit: int) -> int:
        """Remove at most ``limit`` places last used before ``unused_since``; how many
        were removed. The places kept before their use was dated (a database upgraded
        from before migration 30) are first dated ``now``."""
        ...

    async def explorer_place(self, mark: str, guild_id: int) -> str | None:
        """The place kept under ``mark`` for ``guild_id``; None: none (or another
        server's)."""
        ...


class AnalysisStore(Protocol):
    """The analyses ``/analysis`` made of finished matches (issue 40: the web page's
    evaluation graph; issue 42: the result picture), one per match: a newer one replaces
    it."""

    async def save_analysis(self, analysis: MatchAnalysis) -> None:
        """Keep ``analysis`` as its match's (replacing an earlier one)."""
        ...

    async def analysis_of(self, match_id: int) -> MatchAnalysis | None:
        """The analysis stored for ``match_id``; None when none was made."""
        ...


class ImportedPlayerStore(Protocol):
    """Imported players' names and imported games (issue 44): the players of an imported
    record are not members of the server; each has an id of his own (``imported_seats``)
    and the name the record gave him, kept for every later view of the game. An imported
    game is a match with a fingerprint (``MatchRecord.import_key``), one per server; a
    game played in the server has one too once it ended (``game_key``, not unique: two
    matches may play the same game), so that its export is not imported there again."""

    async def name_imported_players(self, names: Mapping[int, str]) -> None:
        """Remember each imported player's name by his id; a name stored before stays
        (an id is made from the name: the first spelling seen is kept)."""
        ...

    async def imported_player_names(self, user_ids: Collection[int]) -> dict[int, str]:
        """The stored names of those of ``user_ids`` that have one."""
        ...

    async def imported_match(self, guild_id: int, import_key: str) -> int | None:
        """The id of ``guild_id``'s match imported with fingerprint ``import_key``, if
        any (another server's import of the same game is not it)."""
        ...

    async def unkeyed_imports(self, guild_id: int) -> list[MatchRecord]:
        """``guild_id``'s imports stored before fingerprints (``import_key``
        ``match:<id>``, migration 26), oldest first."""
        ...

    async def set_import_key(self, match_id: int, was: str, key: str) -> bool:
        """Change match ``match_id``'s fingerprint from ``was`` to ``key``; False, and
        nothing changes, when another match of its server holds ``key`` (or its own is
        no longer ``was``)."""
        ...

    async def game_match(self, guild_id: int, key: str) -> tuple[int, bool] | None:
        """The first (lowest id) of ``guild_id``'s matches whose game has fingerprint
        ``key``: an import (``import_key``; True) or a game played in the server
        (``game_key``, :meth:`set_game_keys`; False); None when there is none. One
        indexed query."""
        ...

    async def unkeyed_games(self, guild_id: int, limit: int) -> list[UnkeyedGame]:
        """``guild_id``'s played matches (not imports) that ended, finished or aborted,
        with a move played, and have no fingerprint yet (ended before fingerprints, or
        the write after the end was lost), oldest first, at most ``limit``: the columns
        a fingerprint needs alone, not whole matches."""
        ...

    async def unkeyed_game_counts(self) -> dict[int, int]:
        """How many :meth:`unkeyed_games` each server holds, by server (those with none
        left out): ``tablero db fingerprints``'s work, read from the same index."""
        ...

    async def set_game_keys(self, keys: Mapping[int, str]) -> None:
        """Store each played match's fingerprint (its game, once ended) by match id, in
        one transaction; one stored already stays (an ended match's game does not
        change)."""
        ...

    async def unfinished_imports(self, guild_id: int, limit: int) -> list[MatchRecord]:
        """``guild_id``'s imported games that their record leaves unfinished (``aborted``:
        the ones ``/continue`` may take up), newest first, at most ``limit``; never
        another server's."""
        ...


class PuzzleStore(Protocol):
    """Puzzles mined from finished games (issue 44): the puzzles, which matches were mined
    (each once), the players' puzzle ratings, streaks and tries, and each server's daily
    puzzle post."""

    async def unmined_matches(self, after: int, limit: int) -> list[int]:
        """Finished matches with an id above ``after`` not mined yet, lowest id first, at
        most ``limit`` of them."""
        ...

    async def mined_since(self, since: datetime) -> int:
        """How many matches were mined at ``since`` or later (the bound per hour)."""
        ...

    async def store_puzzles(self, match_id: int, guild_id: int,
                            puzzles: Sequence[PuzzleRecord], now: datetime
                            ) -> list[PuzzleRecord] | None:
        """In one transaction: mark match ``match_id`` mined at ``now`` and store its
        ``puzzles`` (their ids given here); None, and nothing changes, when it was mined
        already: a match is mined once."""
        ...

    async def load_puzzle(self, puzzle_id: int) -> PuzzleRecord | None: ...

    async def puzzle_count(self, guild_id: int) -> int:
        """How many puzzles the server has."""
        ...

    async def puzzle_candidates(self, guild_id: int, user_id: int, mu: float,
                                limit: int) -> list[PuzzleRecord]:
        """At most ``limit`` puzzles of ``guild_id`` that ``user_id`` never tried, mined
        from matches he did not play in, the rating closest to ``mu`` first (then the
        lowest id)."""
        ...

    async def tried_puzzle(self, user_id: int, puzzle_id: int) -> bool:
        """Whether ``user_id`` finished a try at ``puzzle_id`` before."""
        ...

    async def puzzle_player(self, guild_id: int, user_id: int) -> PuzzlePlayer | None: ...

    async def save_puzzle_player(self, before: PuzzlePlayer | None, after: PuzzlePlayer,
                                 tried: PuzzleTry | None = None,
                                 rating: tuple[float, float] | None = None) -> bool:
        """In one transaction, compare-and-set on ``before`` (its ``version``; None: he
        has no row yet): store ``after`` (with the next version), the finished try
        ``tried`` (a player's first try at a puzzle is the one kept) and the puzzle's new
        ``rating`` (``mu``, ``sigma``) of ``tried.puzzle_id``. False, and nothing changes,
        when ``before`` is no longer what is stored."""
        ...

    async def puzzle_leaderboard(self, guild_id: int, limit: int) -> list[PuzzlePlayer]:
        """The server's players with a rated try, best puzzle rating (``mu - 3 sigma``)
        first, at most ``limit``."""
        ...


class DailyPuzzleStore(Protocol):
    """Each server's daily puzzle post (issue 44): where, and when the next is due."""

    async def set_daily_puzzle(self, guild_id: int, channel_id: int | None,
                               next_at: datetime | None) -> None:
        """Post the server's daily puzzle in ``channel_id``, the next at ``next_at``
        (``channel_id`` None: no more daily puzzles)."""
        ...

    async def daily_puzzle(self, guild_id: int) -> tuple[int, datetime] | None:
        """The channel and the time of the server's next daily puzzle (None: off)."""
        ...

    async def due_daily_puzzles(self, now: datetime, limit: int = 100
                                ) -> list[tuple[int, int, datetime]]:
        """``(guild, channel, next_at)`` of the daily puzzles due at ``now``, oldest first."""
        ...

    async def daily_candidates(self, guild_id: int, limit: int) -> list[PuzzleRecord]:
        """The server's puzzles never posted as its daily puzzle, newest first, at most
        ``limit``."""
        ...

    async def advance_daily_puzzle(self, guild_id: int, was: datetime, next_at: datetime,
                                   puzzle_id: int | None,
                                   entries: Sequence[OutboxEntry]) -> bool:
        """In one transaction: move the daily puzzle due at ``was`` on to ``next_at``, mark
        ``puzzle_id`` posted (at ``was``) and store ``entries`` in the outbox; False
        (nothing stored) when it is no longer due at ``was`` (another process posted it,
        or it was turned off)."""
        ...


@dataclass(frozen=True, slots=True)
class FoundPuzzle:
    """What the engine found in one position (``PuzzleMiner``): the solution's canonical
    moves (the puzzle side's, with the other seats' best replies between them, ending on
    the puzzle side's), the goal (one of ``records.PUZZLE_GOALS``), a difficulty (1 to 5)
    and by how much the best move beats the best other one (centipawns)."""

    line: tuple[str, ...]
    goal: str
    difficulty: int
    gap: int


class PuzzleMiner(Protocol):
    async def find_puzzles(self, positions: Sequence[Position]) -> list[FoundPuzzle | None]:
        """For each position, the puzzle it holds for the seat to move (one move clearly
        best, confirmed by a deeper search), or None. Must not block the event loop (the
        adapter searches in the computer player's process pool)."""
        ...


class Repository(MatchStore, ClockStore, OutboxStore, LadderStore, SettingsStore, ComfortsStore,
                 BlockStore, DigestStore, ExplorerStore, AnalysisStore, ImportedPlayerStore,
                 PuzzleStore, DailyPuzzleStore, TournamentRepository, SeasonRepository,
                 Protocol):
    """Async persistence. Every write is one transaction; ``save`` is compare-and-set on
    ``before.version`` and on the plies of ``append`` (UNIQUE(match, ply)): when another
    writer got there first it raises ``service.errors.Conflict`` and writes nothing.

    Every method that returns match records reads each participant's notification
    preference (``SeatRecord.notify``, from ``save_user_prefs``) in the same query, so
    telling people about a change needs no read of its own."""

    async def close(self) -> None: ...


class Notifier(Protocol):
    async def notify(self, event: Event) -> None:
        """Deliver an event. Failures are the notifier's business: the service logs and
        ignores exceptions raised here (the change is already stored)."""
        ...


class MatchRooms(Protocol):
    async def open_room(self, match: MatchView) -> int | None:
        """Open the place where a match that has just started is played (Discord: a
        thread under its channel) and return its id, or None when it stays in its channel
        (no permission, a failure). Called by the service once per match, after the start
        is stored and before it is announced; the service stores the id."""
        ...


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class DrawnBoard(Protocol):
    """What a ``BoardRenderer`` returns (``render.RenderedBoard`` fits)."""

    @property
    def png(self) -> bytes: ...

    @property
    def alt_text(self) -> str: ...


class BoardRenderer(Protocol):
    def render(self, position: Position, *, last_move: MoveMarks | None = None,
               perspective: int | None = None,
               names: Sequence[str] | None = None, result: str | None = None,
               locale: str = "en-US") -> DrawnBoard:
        """A PNG of ``position`` seen from seat ``perspective`` (None: the seat to move),
        with ``last_move`` highlighted, and its alt text. ``names``: display names by seat
        (None: the game's seat names). ``result``: how the match ended, in words, when it
        is over (it replaces the "to move" status: a resigned position has a side to
        move). ``locale``: the language of the words drawn and of the alt text."""
        ...


@dataclass(frozen=True, slots=True)
class MoveWeighing:
    """The engine's judgement of a played move beside the best move there, for its
    mover: ``best`` and ``played`` in centipawns (meaningful where no forced end is
    seen), ``best_move`` the best move's canonical text, and the forced ends seen after
    the best and after the played move, in moves of the side that ends it: > 0 a forced
    win in that many of the mover's moves, < 0 a forced loss in that many of the
    opponents' moves, None where none is seen."""

    best: int
    played: int
    best_move: str
    best_end: int | None = None
    played_end: int | None = None


@runtime_checkable
class WeighingBudget(Protocol):
    """A ``MovePicker`` that tells the node budget of each of its weighing searches (kept
    with a stored analysis: ``MatchAnalysis.nodes``; None: it cannot tell)."""

    @property
    def weigh_nodes(self) -> int | None: ...


class MovePicker(Protocol):
    async def pick(self, position: Position, seat: int, level: int, *, seed: int) -> str:
        """The canonical text of the move (or, in a set-up phase, the arrangement) the
        computer at ``level`` (1-8) plays for ``seat`` in ``position`` (the seat's own
        view: another seat's secret is hidden). The same ``seed`` and position give the
        same move at the node-bounded levels. Must not block the event loop (the adapter
        runs the engine in a process pool) and must return within the time budget it
        was configured with."""
        ...

    async def weigh(self, moves: Sequence[tuple[Position, str]]) -> list[MoveWeighing | None]:
        """For each (position, canonical move text) of a finished game, the engine's
        judgement of the move played beside its best move there (short searches on a node
        budget); None where the move is no single seat's move (an arrangement). For
        ``analysis``."""
        ...


class NameResolver(Protocol):
    def __call__(self, guild_id: int, user_id: int) -> str:
        """The name people know ``user_id`` by in that guild (for board images). Must be
        cheap and must not fail: a cache lookup with the id as fallback."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class NullNotifier:
    """Drops every event (tests, benchmarks)."""

    async def notify(self, event: Event) -> None:
        return None
