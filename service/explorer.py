"""The opening explorer (issue 44): the tree of a server's finished games, move by move.

Every finished match between people is counted once, when it ends (``MatchService``'s
subscriber) or by the backfill (``tablero explorer backfill``): for each of its first
:data:`EXPLORER_PLIES` moves, the position it was played from (a 64-bit key), the move,
how the game ended for the seat that played it and that player's rating. A query is one
read of one key: how often each move was played from there, its score and the average
rating of those who played it.

A position's key is the hash of its text, so two move orders reaching the same position
(a transposition) meet. A game whose start is not fixed (Querni: the deal, or the secret
arrangements, differ from game to game) has no common positions: its key is the hash of
the line of moves played since the start instead.

Games against the computer are left out (the explorer shows what people play), and so
are aborted and broken matches. Imported games are counted apart (``imported``): a query
reads played games, imported games or both.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from locales.i18n import _
from locales.rules_words import refusal_words
from rules import MoveMarks, Position, RulesError, Variant
from rules.core import squash
from service.background import Writes
from service.computer_seats import is_computer
from service.errors import InvalidOption, StorageError
from service.events import Event, MatchEnded
from service.imported_seats import is_imported
from service.inputs import check_characters, check_text
from service.ports import Clock, ExplorerStore, LadderStore, MatchStore
from service.records import (
    ExplorerCount,
    ExplorerRow,
    MatchRecord,
    MatchStatus,
    RecordEntry,
)
from service.states import replay, variant_of

log = logging.getLogger(__name__)

EXPLORER_PLIES = 40
"""How many moves of each game the explorer counts: the opening, not the whole game (a
game's later positions are its own; counting them would only grow the index)."""

CATCH_UP = 200
"""How many uncounted finished matches a sweep counts at most (:meth:`Explorer.
sweep_explorer`): a count a stop or a crash cut short is made at the next start; a backlog
(an upgrade from before the explorer: ``tablero db explorer``) is taken a bounded bite per
sweep, off the moves' way."""

PLACE_KEPT = timedelta(days=30)
"""How long a place kept by mark (:meth:`Explorer.explorer_token`) is kept unused: the
sweep removes one that no answer showed for this long (an answer shows it when it is
posted or when a click moves it there), and a button that still names it answers privately
to run ``/explorer`` again. Explorer answers are private, and Discord forgets those when
the reader's app reloads: 30 days outlive any answer still in front of someone."""

PRUNE_EVERY = timedelta(hours=1)
"""How often a process's sweep removes the places unused for :data:`PLACE_KEPT`."""

PRUNE_BATCH = 1000
"""How many places one sweep removes at most (one short write transaction); a full batch
removed, the next sweep goes on at once."""

MAX_LINE = 30 * EXPLORER_PLIES
"""The longest line of moves read (the explorer holds the first EXPLORER_PLIES moves)."""

SOURCES = ("all", "played", "imported")
"""Which games a query reads: both, the server's own, or the imported ones."""

_MOVE_NUMBER = re.compile(r"^\d+\.+$")  # "1." or "12..." in a pasted line

_SOURCE_LETTERS = {"all": "a", "played": "p", "imported": "i"}
MARK = "#"
"""The first character of a place's mark (:meth:`Explorer.explorer_token`)."""
MARK_LENGTH = 17
"""A mark's length: :data:`MARK` and 16 characters of a hash of the server and place."""


def place_words(config: str, source: str, line: Sequence[str]) -> str | None:
    """A place of the explorer written in few characters: the games read (a letter),
    the configuration, ``;`` and the line's moves separated by commas; None when a move
    or the configuration holds those separators (such a place is only kept by mark).

    >>> place_words("xiangqi", "all", ["h3-e3", "h10-g8"])
    'axiangqi;h3-e3,h10-g8'
    >>> read_place_words(place_words("querni", "played", ["a1-b2 r1-3"]) or "")
    ('querni', 'played', ('a1-b2 r1-3',))
    >>> place_words("xiangqi", "all", ["a,b"]) is None
    True
    """
    letter = _SOURCE_LETTERS.get(source)
    if letter is None or ";" in config or any(not m or "," in m or ";" in m for m in line):
        return None
    return f"{letter}{config};{','.join(line)}"


def read_place_words(text: str) -> tuple[str, str, tuple[str, ...]] | None:
    """The (configuration, games read, line) :func:`place_words` wrote; None when
    ``text`` is not such a place."""
    source = next((s for s, letter in _SOURCE_LETTERS.items() if text[:1] == letter), None)
    config, sep, moves = text[1:].partition(";")
    if source is None or not sep or not config:
        return None
    return config, source, tuple(moves.split(",")) if moves else ()


def _int64(digest: bytes) -> int:
    """The first 8 bytes of ``digest`` as a signed 64-bit integer (a database INTEGER)."""
    return int.from_bytes(digest[:8], "big", signed=True)


def position_key(text: str) -> int:
    """The explorer's key of a position, from its text.

    >>> position_key("W:W1:B32") == position_key("W:W1:B32") != position_key("B:W1:B32")
    True
    """
    return _int64(hashlib.blake2b(b"p" + text.encode(), digest_size=8).digest())


def line_key(moves: Sequence[str]) -> int:
    """The explorer's key of a line of moves from a start that is not fixed.

    >>> line_key(()) != line_key(("a1-b2",)) != line_key(("a1-b2", "pass"))
    True
    """
    return _int64(hashlib.blake2b(b"l" + "\x1f".join(moves).encode(),
                                  digest_size=8).digest())


def keyed_by_line(v: Variant) -> bool:
    """Whether games of ``v`` start from positions of their own (an option with free
    values, such as Querni's seed): their explorer follows lines, not positions."""
    return any(not values for values in v.options.values())


def explorer_config(v: Variant, options: Mapping[str, object]) -> str:
    """The name of the configuration a game with ``options`` is counted under: the game's
    key, then the options of its menu set (:meth:`rules.Variant.option_sets`) when it is
    not the first one. Free options (a seed) are no part of it.

    >>> import rules
    >>> explorer_config(rules.variant("xiangqi"), {})
    'xiangqi'
    >>> g = rules.variant("alquerque-grande")
    >>> explorer_config(g, {"players": 2, "rules": "grande"})
    'alquerque-grande players=2 rules=grande'
    >>> explorer_config(g, {"players": 4, "mode": "teams"})
    'alquerque-grande'
    >>> explorer_config(rules.variant("querni"), {"setup": "random", "seed": 7})
    'querni'
    """
    filled = v.check_options({k: o for k, o in options.items() if k in v.options})
    sets = v.option_sets()
    for i, chosen in enumerate(sets):
        if all(filled.get(k) == o for k, o in chosen.items()):
            return v.key if i == 0 else " ".join(
                [v.key, *(f"{k}={o}" for k, o in chosen.items())])
    return v.key  # a game whose options are all free


def explorer_configs() -> list[tuple[str, Variant, dict[str, object]]]:
    """Every configuration the explorer knows, with its game and start options, in the
    order of the games' menus."""
    import rules  # the registry (a game registers itself once)

    found = []
    for v in rules.VARIANTS.values():
        for chosen in v.option_sets():
            found.append((explorer_config(v, chosen), v, dict(chosen)))
    return found


def read_config(text: str) -> tuple[str, Variant, dict[str, object]]:
    """The configuration named by ``text``: a game's key, then options as ``name=value``
    (or ``name:value``) in any order; options left out are those of the game's first
    configuration that has the options given. ``InvalidOption`` names the choices.

    >>> read_config("Alquerque-Grande players:2")[0]
    'alquerque-grande players=2 rules=alquerque'
    >>> read_config("alquerque-grande:players=4,mode=fast")[0]
    'alquerque-grande players=4 mode=fast'
    """
    words = check_text(text, _("game")).strip().lower().replace(",", " ").split()
    if words and ":" in words[0]:  # the form of the game menus: xiangqi, key:name=value
        key, _sep, first = words[0].partition(":")
        words[:1] = [key, first] if first else [key]
    if not words:
        raise InvalidOption(_("which game? name one of: {games}",
                              games=", ".join(c for c, _v, _o in explorer_configs())))
    v = variant_of(words[0])
    given: dict[str, str] = {}
    for word in words[1:]:
        name, sep, value = word.replace(":", "=").partition("=")
        if not sep or not name or not value:
            raise InvalidOption(_("{word} is not an option: write name=value", word=word))
        given[name] = value
    for config, game, chosen in explorer_configs():
        if game is v and all(k in chosen and str(chosen[k]).lower() == o
                             for k, o in given.items()):
            return config, v, chosen
    choices = ", ".join(c for c, game, _o in explorer_configs() if game is v)
    raise InvalidOption(_("the explorer has no {game} with those options (it has: {choices})",
                          game=v.key, choices=choices))


def game_rows(rec: MatchRecord, plies: Sequence[tuple[Position, int | None, str, object]],
              ratings: Mapping[int, float]) -> list[ExplorerRow]:
    """The explorer's rows of a finished game: ``plies`` are (the position before, the
    seat, the canonical text, the move object or None for a special entry) in order;
    ``ratings`` the players' ratings by seat (rated games only)."""
    if rec.result is None:
        return []
    v = variant_of(rec.game)
    by_line = keyed_by_line(v)
    rows: list[ExplorerRow] = []
    line: list[str] = []
    for before, seat, canonical, move in plies:
        if len(line) >= EXPLORER_PLIES:
            break
        if move is None or seat is None or before.in_setup:
            continue  # a resignation, an agreed draw, a (secret) arrangement
        key = line_key(line) if by_line else position_key(before.to_text())
        rows.append(ExplorerRow(key, canonical, rec.result.outcome_of(seat),
                                ratings.get(seat)))
        line.append(canonical)
    return rows


@dataclass(frozen=True, slots=True)
class ExplorerMove:
    """One next move in the explorer: its canonical and display texts, the games it was
    played in and how they ended for its player, the average rating of its rated players
    (None: none was rated) and where it goes on the board (None where the explorer
    follows lines)."""

    move: str
    display: str
    games: int
    wins: int
    draws: int
    losses: int
    rating: float | None
    marks: MoveMarks | None = None

    @property
    def score(self) -> float:
        """The share of the points its player made: a win 1, a draw 1/2 (0..1)."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class ExplorerView:
    """The explorer at one node: the configuration, the line that led there (canonical
    moves), the position (None where the explorer follows lines), which games were read
    (``source``: one of :data:`SOURCES`) and the next moves, most played first."""

    config: str
    variant: Variant
    line: tuple[str, ...]
    position: Position | None
    source: str
    moves: tuple[ExplorerMove, ...]

    @property
    def games(self) -> int:
        """Games that went on from here (each played one of the moves)."""
        return sum(m.games for m in self.moves)


@dataclass(frozen=True, slots=True)
class ExplorerPlace:
    """A place of the explorer: the configuration, the games read (one of
    :data:`SOURCES`) and the line of (canonical) moves from the start."""

    config: str
    source: str
    line: tuple[str, ...]


def split_line(text: str) -> list[str]:
    """The moves written in ``text``: separated by commas when it has any, else by
    spaces; move numbers (``1.``) are left out.

    >>> split_line("1. h3-e3 h10-g8 2. h1-g3"), split_line("a1-b2 r1-3, pass")
    (['h3-e3', 'h10-g8', 'h1-g3'], ['a1-b2 r1-3', 'pass'])
    >>> split_line("h3-e3 (C2.5) h10-g8 (H8 + 7)")
    ['h3-e3 (C2.5)', 'h10-g8 (H8 + 7)']
    """
    parts = text.split(",") if "," in text else text.split()
    moves: list[str] = []
    for part in (p.strip() for p in parts):
        if not part or _MOVE_NUMBER.match(part):
            continue
        if moves and (part.startswith("(") or moves[-1].count("(") > moves[-1].count(")")):
            moves[-1] += " " + part  # a move's note copied with it: "h3-e3 (C2.5)"
        else:
            moves.append(part)
    return moves


class ExplorerSource(MatchStore, LadderStore, ExplorerStore, Protocol):
    """What the explorer reads and writes: matches and their records, ladders (the
    players' ratings) and the explorer's own counts."""


class Explorer:
    """The opening explorer's use-cases: count a finished match (as it ends: a subscriber,
    :meth:`follows`), backfill, explore."""

    def __init__(self, repository: ExplorerSource, clock: Clock) -> None:
        self.repository = repository
        self.clock = clock
        self._prune_at: datetime | None = None  # the next removal of unused places
        self._counting = Writes()
        self._catch_up_after = 0  # the catch-up's last match id (sweep_explorer)
        self._caught_up = False  # this process counted what earlier runs left uncounted
        self._stopped = False

    # ------------------------------------------------------------------ as games end

    async def follows(self, event: Event) -> None:
        """A finished match is counted as it ends, in the background (off the move's
        reply and its transaction; the backfill catches up on a count a restart cut
        short)."""
        if isinstance(event, MatchEnded) and event.result is not None:
            self._counting.start(self._count_ended(event))

    async def _count_ended(self, event: MatchEnded) -> None:
        try:
            if event.record is None:
                await self.index_match(event.match.id)
            else:  # what the event holds: no read
                ratings = {r.user_id: r.ordinal_after for r in event.ratings}
                await self.index_record(event.record.rec, event.record.entries, ratings)
        except Exception:  # the result is stored; the backfill counts it later
            log.exception("the explorer could not count match %s", event.match.id)

    async def explorer_idle(self) -> None:
        """Wait until every finished match announced so far is counted (tests, the
        console, shutdown)."""
        await self._counting.idle()

    def counting(self) -> set[asyncio.Task[None]]:
        """The counts of ended matches under way (what a stop waits for:
        ``MatchService.stop_background``)."""
        return self._counting.under_way()

    async def stop_counting(self) -> None:
        """A stop: no catch-up nor removal starts any more (:meth:`sweep_explorer`)."""
        self._stopped = True

    async def sweep_explorer(self, now: datetime | None = None) -> list[Event]:
        """A sweeper: count what earlier runs left uncounted (a count a stop or a crash
        cut short, or one that failed), :data:`CATCH_UP` matches per sweep at most, from
        where the last sweep of this process stopped (a match that does not replay is
        tried once per process, never counted), until a sweep finds fewer: then never
        again in this process. When nothing is missing, the first sweep's one query finds
        nothing and that is all. Then, every :data:`PRUNE_EVERY`, it removes the places
        kept by mark that were unused for :data:`PLACE_KEPT` (:data:`PRUNE_BATCH` at
        most: a full batch, and the next sweep goes on). No events."""
        if self._stopped:
            return []
        now = now or self.clock.now()
        if not self._caught_up:
            await self._catch_up()
        if self._prune_at is None or now >= self._prune_at:
            removed = await self.repository.prune_explorer_places(now - PLACE_KEPT, now,
                                                                  PRUNE_BATCH)
            self._prune_at = now if removed >= PRUNE_BATCH else now + PRUNE_EVERY
            if removed:
                log.info("the explorer removed %d place%s unused for %d days", removed,
                         "" if removed == 1 else "s", PLACE_KEPT.days)
        return []

    async def _catch_up(self) -> None:
        counted, seen, self._catch_up_after = await self._backfill(
            self._catch_up_after, CATCH_UP, CATCH_UP)
        if seen < CATCH_UP:
            self._caught_up = True
        if counted:
            log.info("the explorer counted %d finished match%s an earlier run left "
                     "uncounted%s", counted, "" if counted == 1 else "es",
                     "" if self._caught_up else " (more at the next sweep)")

    # ------------------------------------------------------------------ counting

    async def index_match(self, match_id: int, *, imported: bool = False) -> bool:
        """Count finished match ``match_id`` in the explorer (as imported when
        ``imported`` or when its players are imported ones); False when it is not to be
        counted (not finished, against the computer) or was counted before."""
        rec = await self.repository.load_match(match_id)
        if rec is None or rec.status is not MatchStatus.FINISHED or rec.result is None:
            return False
        ratings: dict[int, float] = {}
        if rec.rated and not self._skipped(rec):
            for s in rec.seats:
                for r in await self.repository.ratings_of(rec.guild_id, s.user_id):
                    if r.ladder == rec.ladder:
                        ratings[s.user_id] = r.ordinal
        entries = await self.repository.load_entries(rec.id, stop=rec.ply)
        return await self.index_record(rec, entries, ratings, imported=imported)

    @staticmethod
    def _skipped(rec: MatchRecord) -> bool:
        """A game against the computer, or one that continued an imported game (it did
        not start at the start: its first moves are another game's): marked counted,
        with no rows."""
        return any(is_computer(s.user_id) for s in rec.seats) or rec.continued_from is not None

    async def index_record(self, rec: MatchRecord, entries: Sequence[RecordEntry],
                           ratings: Mapping[int, float], *, imported: bool = False) -> bool:
        """Count the finished match ``rec`` with its ``entries`` (what ``MatchEnded``
        hands over: no read), its players' ratings by user (rated games); see
        :meth:`index_match`."""
        if rec.status is not MatchStatus.FINISHED or rec.result is None:
            return False
        imported = imported or any(is_imported(s.user_id) for s in rec.seats)
        if self._skipped(rec):
            return await self.repository.index_game(rec.id, rec.guild_id,
                                                    self._config(rec), imported, ())
        done = replay(rec, entries)
        plies: list[tuple[Position, int | None, str, object]] = []
        before = done.start
        for ply in done.plies:
            plies.append((before, ply.seat, ply.canonical, ply.move))
            before = ply.position
        by_seat = {s.seat: ratings[s.user_id] for s in rec.seats
                   if s.seat is not None and s.user_id in ratings}
        return await self.repository.index_game(rec.id, rec.guild_id, self._config(rec),
                                                imported, game_rows(rec, plies, by_seat))

    @staticmethod
    def _config(rec: MatchRecord) -> str:
        v = variant_of(rec.game)
        return explorer_config(v, {k: tuple(o) if isinstance(o, list) else o
                                   for k, o in rec.options.items()})

    async def backfill_explorer(self, batch: int = 200,
                       progress: Callable[[int], Awaitable[None] | None] | None = None
                       ) -> int:
        """Count every finished match not counted yet, ``batch`` at a time; how many were
        counted. A match that does not replay is skipped (and logged), never counted."""
        counted, _seen, _after = await self._backfill(0, batch, None, progress)
        return counted

    async def _backfill(self, after: int, batch: int, limit: int | None,
                        progress: Callable[[int], Awaitable[None] | None] | None = None
                        ) -> tuple[int, int, int]:
        """Count the finished matches not counted yet above id ``after``, ``batch`` per
        read, ``limit`` read at most (None: all); (how many were counted, how many read,
        the last id read)."""
        counted = seen = 0
        while limit is None or seen < limit:
            size = batch if limit is None else min(batch, limit - seen)
            ids = await self.repository.unindexed_games(after, size)
            if not ids:
                break
            for match_id in ids:
                try:
                    counted += await self.index_match(match_id)
                except StorageError:  # an outage: the next backfill goes on from here
                    raise
                except Exception:
                    log.exception("the explorer could not count match %s", match_id)
            seen += len(ids)
            after = ids[-1]
            if progress is not None:
                shown = progress(counted)
                if shown is not None:
                    await shown
            if len(ids) < size:
                break
        return counted, seen, after

    # ------------------------------------------------------------------ places

    async def explorer_token(self, guild_id: int, view: ExplorerView, room: int) -> str:
        """A name of the place ``view`` shows in at most ``room`` characters (a button's
        id keeps it, so the button works after a restart with nothing in the message):
        the place itself (:func:`place_words`) when it fits, else a mark of
        :data:`MARK_LENGTH` characters under which the place is kept in the store (a
        long line of moves), dated now: the sweep removes it once no answer showed it
        for :data:`PLACE_KEPT`."""
        words = place_words(view.config, view.source, view.line)
        if words is not None and len(words) <= room:
            return words
        place = json.dumps([view.config, view.source, list(view.line)], ensure_ascii=False)
        digest = hashlib.blake2b(f"{guild_id}\x1f{place}".encode(), digest_size=10).digest()
        mark = MARK + base64.b32encode(digest).decode().lower()
        await self.repository.keep_explorer_place(mark, guild_id, place, self.clock.now())
        return mark

    async def explorer_named(self, guild_id: int, token: str) -> ExplorerPlace | None:
        """The place :meth:`explorer_token` named ``token``; None when ``token`` names
        none of this server's places."""
        found = _kept_place(await self.repository.explorer_place(token, guild_id)) \
            if token.startswith(MARK) else read_place_words(token)
        return ExplorerPlace(*found) if found is not None else None

    # ------------------------------------------------------------------ reading

    async def explorer(self, guild_id: int, game: str, line: str = "",
                      source: str = "all") -> ExplorerView:
        """The explorer of ``guild_id`` for configuration ``game`` after ``line`` (moves
        from the start, see :func:`split_line`), reading ``source`` games."""
        config, v, options = read_config(game)
        if not isinstance(line, str):
            raise InvalidOption(_("the {what} must be text", what=_("line of moves")))
        if len(line) > MAX_LINE:
            raise InvalidOption(_("that line is too long"))
        text = check_characters(line, _("line of moves"))
        if source not in SOURCES:
            raise InvalidOption(_("the games are one of: {choices}",
                                  choices=", ".join(SOURCES)))
        imported = None if source == "all" else source == "imported"
        typed = split_line(text)
        if keyed_by_line(v):
            return await self._explore_line(guild_id, config, v, typed, source, imported)
        position: Position[Any] = v.start(**options)
        canonical: list[str] = []
        for n, said in enumerate(typed, start=1):
            try:
                move = v.parse_noted_move(position, said)
            except RulesError as e:
                raise InvalidOption(_("move {n} of the line ({move}) cannot be played: "
                                      "{error}", n=n, move=said,
                                      error=refusal_words(e))) from None
            canonical.append(v.format_move(position, move))
            position = position.play(move)
        counts = await self.repository.explorer_counts(
            guild_id, config, position_key(position.to_text()), imported)
        moves = []
        for c in counts:
            marks = None
            display = c.move
            try:
                move = v.parse_move(position, c.move)
                marks = v.move_marks(position, move)
                display = v.display_move(position, move)
            except RulesError:
                pass  # a key's collision or an older rule: shown as counted, without marks
            moves.append(_move_of(c, display, marks))
        return ExplorerView(config, v, tuple(canonical), position, source, tuple(moves))

    async def _explore_line(self, guild_id: int, config: str, v: Variant, typed: list[str],
                            source: str, imported: bool | None) -> ExplorerView:
        """A game explored by lines: each typed move must be one the server's games
        played there (nothing else tells what a move means without a common start)."""
        line: list[str] = []
        counts = await self.repository.explorer_counts(guild_id, config, line_key(line),
                                                       imported)
        words = typed
        i = 0
        while i < len(words):
            # a move of two words (Querni's "a1-b2 r1-3") may be written with a space
            found = None
            for size in (2, 1):
                said = " ".join(words[i:i + size])
                found = next((c.move for c in counts if squash(c.move) == squash(said)), None)
                if found is not None:
                    i += min(size, len(words) - i)
                    break
            if found is None:
                raise InvalidOption(_("move {n} of the line ({move}) was never played there "
                                      "in this server's games", n=len(line) + 1,
                                      move=words[i]))
            line.append(found)
            counts = await self.repository.explorer_counts(guild_id, config, line_key(line),
                                                           imported)
        moves = tuple(_move_of(c, c.move, None) for c in counts)
        return ExplorerView(config, v, tuple(line), None, source, moves)


def _kept_place(kept: str | None) -> tuple[str, str, tuple[str, ...]] | None:
    """The (configuration, games read, line) kept as JSON; None: nothing (readable)."""
    if kept is None:
        return None
    try:
        config, source, line = json.loads(kept)
        return str(config), str(source), tuple(str(m) for m in line)
    except (ValueError, TypeError):
        return None


def _move_of(c: ExplorerCount, display: str, marks: MoveMarks | None) -> ExplorerMove:
    rating = c.rating_sum / c.rated if c.rated else None
    return ExplorerMove(c.move, display, c.games, c.wins, c.draws, c.losses, rating, marks)
