"""Importing game records (issue 44): ``/import`` of a WXF or ICCS Xiangqi record, a PDN
Spanish draughts game, or any game in Tablero's own record (what ``/history`` exports).

The file is checked before anything is stored: its size (at most :data:`MAX_RECORD_BYTES`),
its encoding (UTF-8; a byte order mark is allowed), its characters, its tags, and every
move, played by the rules (``rules.records``): the first that cannot be played is named.
A refused file changes nothing.

An imported game becomes a match of the server like any other, finished as the record
says (or left unfinished: ``aborted``, with no result, when the record does not end it),
never rated: ``/history``, the replay and ``/analysis`` work on it by its number. Its
players are not members of the server: each seat is an imported player, an id of their
own range (:data:`IMPORTED_IDS`, below the computer players'), the same for the same name
across imports; the names are the record's tags, stored with the ids
(``ImportedPlayerStore``) so that every later view names them. It is counted in the
opening explorer as imported, apart from the server's own games.

A game is imported once in a server: the same game imported again is refused, naming the
match it is (:class:`AlreadyImported`), so that it is never two matches nor counted twice
in the explorer. "The same game" is decided by a fingerprint of what is played
(:func:`record_key`): the game, its configuration (the options with the defaults filled
in), the start position, the moves in canonical notation and where seats left; not the
file's text, so another format (WXF or ICCS, PDN or Tablero's own), other spacing, move
numbers, comments, variations, tags (event, players' names, result) do not make it
another game. Two games played the same move for move are one game to the server: a
record is the moves. Another server may import it too (each server's explorer counts its
own). The store holds one match per fingerprint and server (``MatchRecord.import_key``;
``Conflict`` when two imports of it race), so the check holds across processes. The
imports stored before fingerprints get theirs, worked out from their stored record
(:func:`stored_key`), at their server's first import after the upgrade.

A game played in the server is in it too: the ``/history`` export of one of its matches,
imported there, is refused the same way, naming the played match (it would be the game
twice, and counted twice in the explorer, once as played and once as imported). A played
match's game is fingerprinted once it has ended with a move played, finished or aborted
(:meth:`Importer.game_follows`, as it ends; ``game_key``, not unique: two matches may
play the same game); a match still being played is not (its game is not what it will be:
a snapshot of it may be imported, to study or to go on from elsewhere). The matches that
ended before this, or whose fingerprint was not written as they ended, get theirs at
their server's next import (:meth:`Importer._key_played_games`). The check itself is one
indexed query (``game_match``), whatever the number of matches the server holds.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from locales.i18n import _, command
from locales.rules_words import refusal_words
from rules import Position, RulesError, Variant
from rules.records import ImportedGame, read_any_record, seat_leaves
from service.background import Writes
from service.errors import Conflict, InvalidOption, NotAllowed, ServiceError
from service.events import Event, MatchEnded
from service.explorer import Explorer
from service.imported_seats import ImportedNames, imported_name
from service.inputs import check_characters
from service.ports import Clock, ImportedPlayerStore, MatchStore
from service.ratings import ladder_key
from service.records import (
    SPECIAL_PREFIX,
    ClockState,
    MatchRecord,
    MatchStatus,
    RecordEntry,
    ResultRecord,
    SeatRecord,
    UnkeyedGame,
)
from service.states import variant_of
from service.timecontrol import TimeControlError, parse_time_control
from service.views import MatchView

log = logging.getLogger(__name__)

MAX_RECORD_BYTES = 64 * 1024
"""The largest record file read (a 300-move Xiangqi game in WXF is about 5 KB)."""

class ImportRefused(InvalidOption):
    """A record that cannot be imported: too large, not UTF-8 text, unreadable, or a move
    that cannot be played. Nothing was stored."""


KEY_VERSION = 2
"""The version of the fingerprints (their prefix, ``r2:``). Version 1 hashed the start
position's text, so a change to a game's position text format would have made the same
game another; version 2 hashes the start as a value no text format enters (see
:func:`_start_value`). A change to what is hashed bumps the version and comes with a
migration that marks the older keys to be worked out again (migration 27 marked version
1's ``match:<id>``; the importer then works out each one's anew from its stored record)."""

KEY_BATCH = 200
"""How many played matches the importer fingerprints per read when it catches up."""

UNREADABLE = "unreadable:"
"""The fingerprint of a played match whose record does not read (``unreadable:<id>``):
no game's, so never matched, and no longer among the matches to fingerprint."""


class AlreadyImported(NotAllowed):
    """The game of a record is in this server already: ``match_id`` is it, an import or
    (``played``) a match played in the server. Nothing was stored."""

    def __init__(self, match_id: int, *, played: bool = False) -> None:
        history = command("history", match=match_id)
        super().__init__(
            _("this game was played in this server, as match {match}: see it with "
              "{history}", match=match_id, history=history) if played else
            _("this game is imported in this server already, as match {match}: see it "
              "with {history}", match=match_id, history=history))
        self.match_id = match_id
        self.played = played


def record_key(read: ImportedGame) -> str:
    """The fingerprint of an imported game (see the module's docstring): a digest of its
    game, configuration, start position, canonical moves and leavings, written in one
    normalised form (JSON, keys sorted) whatever the file it came from.

    >>> from rules.records import read_any_record
    >>> wxf = read_any_record('[Game "Chinese Chess"]\\n[Red "A"]\\n1. C2.5 H8+7 *')
    >>> iccs = read_any_record('[Game "Chinese Chess"]\\n[Format "ICCS"]\\n'
    ...                        '1. h2-e2 {a comment} h9-g7')
    >>> record_key(wxf) == record_key(iccs), record_key(wxf)[:3], len(record_key(wxf))
    (True, 'r2:', 67)
    """
    v = read.variant
    filled = _filled(v, read.options)
    return _fingerprint(v, filled, _start_value(v, filled, read.start), read.moves,
                        [(left.after, left.seat, left.how) for left in read.leavings])


StartsSeen = dict[tuple[str, str, str], object]
"""The starts :func:`stored_key` worked out, by game, start text and options (JSON)."""


def stored_key(rec: MatchRecord, entries: Sequence[RecordEntry],
               starts: StartsSeen | None = None) -> str:
    """:func:`record_key` of match ``rec`` worked out from what is stored: its game,
    options and start, and its record ``entries`` (the moves, and each seat's leaving
    after the moves before it): of an import stored before fingerprints, or of a match
    played in the server (the same as its ``/history`` export's). Raises ValueError when
    its start does not read. ``starts``: the starts worked out before, kept for the
    next match (a server's matches share a few: reading each match's start, twice, was
    half the CPU time of ``tablero db fingerprints``)."""
    return texts_key(rec, [e.text for e in entries], starts)


def texts_key(rec: MatchRecord | UnkeyedGame, texts: Sequence[str],
              starts: StartsSeen | None = None) -> str:
    """:func:`stored_key` from the ``text`` of each entry alone (all it reads of them)
    and the match's game, options and start alone (all it reads of the match)."""
    moves: list[str] = []
    left: list[tuple[int, int, str]] = []
    for text in texts:
        if not text.startswith(SPECIAL_PREFIX):
            moves.append(text)
            continue
        how, _sep, seat = text[len(SPECIAL_PREFIX):].partition(" ")
        if seat.isdigit():  # "#resign 2"; an agreed draw ("#draw") is how it ended
            left.append((len(moves), int(seat), how))
    options = {k: tuple(o) if isinstance(o, list) else o for k, o in rec.options.items()}
    v = variant_of(rec.game)
    filled = _filled(v, options)
    starts = {} if starts is None else starts
    seen = (v.key, rec.start_text, json.dumps(filled, sort_keys=True, default=str))
    if seen not in starts:
        starts[seen] = _start_value(v, filled, v.from_text(rec.start_text))
    return _fingerprint(v, filled, starts[seen], moves, left)


def _filled(v: Variant, options: Mapping[str, object]) -> dict[str, object]:
    """``options`` of ``v``'s as a fingerprint holds them: checked, defaults filled in."""
    return v.check_options({k: o for k, o in options.items() if k in v.options})


def _start_value(v: Variant, options: Mapping[str, object], start: Position) -> object:
    """The start position as a fingerprint holds it: a value, not a text, so that no
    change to a game's position text format makes the same game another.

    Every start a match has today is the game's own for its configuration (an import
    from another start is refused; a match starts at its game's start; a continued
    import at its record's): None when it is today's rules' start for ``options``, else
    ``["rules", version]``, the start of the older rules version it is
    (``Variant.start_recorded``). The two are compared as this code writes both (a
    stored start is read first), so whatever the format, the same start is the same
    value; a position's rules version, which its text does not hold, is not compared
    (nor was it by version 1). Only a start that is neither (none can be stored today)
    is held by its text as this code writes it: were one ever stored, a change to that
    text format must bump :data:`KEY_VERSION`.

    >>> import rules
    >>> v = rules.variant("alquerque-grande")
    >>> _start_value(v, {"players": 4, "mode": "teams"}, v.start(players=4, mode="teams"))
    >>> _start_value(v, {"players": 4, "mode": "teams"}, v.start(players=4, mode="fast"))[0]
    'text'
    """
    text = start.to_text()
    try:
        if text == v.start(**options).to_text():
            return None
        for version in v.recorded_versions:
            if text == v.start_recorded(version, **options).to_text():
                return ["rules", version]
    except (ValueError, TypeError):  # options no start of the game's takes
        pass
    return ["text", text]


def _fingerprint(v: Variant, filled: Mapping[str, object], start: object,
                 moves: Sequence[str], left: Sequence[tuple[int, int, str]]) -> str:
    """The fingerprint of a game of ``v`` with options ``filled`` (:func:`_filled`),
    from ``start`` (:func:`_start_value`)."""
    played = {"game": v.key,
              "options": {k: list(o) if isinstance(o, tuple) else o
                          for k, o in filled.items()},
              "start": start, "moves": list(moves),
              "left": [list(x) for x in left]}
    text = json.dumps(played, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)
    return f"r{KEY_VERSION}:" + hashlib.sha256(text.encode()).hexdigest()


def too_large(size: int) -> ImportRefused:
    """The refusal of a record of ``size`` bytes (an adapter says it before downloading a
    large attachment)."""
    return ImportRefused(_("the record is too large ({size} KB): at most {limit} KB are read",
                           size=-(-size // 1024), limit=MAX_RECORD_BYTES // 1024))


def record_text(data: bytes | str) -> str:
    """The text of an uploaded or pasted record, checked: not larger than
    :data:`MAX_RECORD_BYTES`, UTF-8 (a byte order mark is dropped), no character that
    text cannot hold."""
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > MAX_RECORD_BYTES:
        raise too_large(size)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ImportRefused(_("the record is not UTF-8 text (byte {n} is not): save it "
                                  "as UTF-8 and import it again", n=e.start + 1)) from None
    else:
        text = data
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise ImportRefused(_("the record is empty"))
    return check_characters(text, _("record"))


def imported_clock(tags: Mapping[str, str]) -> ClockState:
    """The terms a record's Tablero tags give (``rules.records.MATCH_TAGS``, what an
    export of a match writes): its time control, a claim, weekends off; without them an
    import's own (one day a move, no claim, weekends on). A value that does not read is
    refused by its tag's name.

    >>> imported_clock({"TableroClock": "3d+1d/10d", "TableroClaim": "yes"}).claim
    True
    >>> imported_clock({"TableroWeekends": "sometimes"})
    Traceback (most recent call last):
    ...
    service.importer.ImportRefused: the record's tag TableroWeekends is off or on, not 'sometimes'
    """
    control = None
    if "TableroClock" in tags:
        try:
            control = parse_time_control(tags["TableroClock"].strip())
        except TimeControlError as e:
            raise ImportRefused(_("the record's tag {tag} is not a time control: {error}",
                                  tag="TableroClock", error=e.message)) from None
    return ClockState(control=control, claim=_said(tags, "TableroClaim", "yes", "no"),
                      weekends=_said(tags, "TableroWeekends", "off", "on"))


def _said(tags: Mapping[str, str], tag: str, yes: str, no: str) -> bool:
    """Whether ``tag`` says ``yes`` (not given: ``no``); any other value is refused."""
    value = tags.get(tag, no).strip().lower()
    if value not in (yes, no):
        raise ImportRefused(_("the record's tag {tag} is {yes} or {no}, not {value}",
                              tag=tag, yes=yes, no=no, value=repr(value[:20])))
    return value == yes


@dataclass(frozen=True, slots=True)
class ImportedMatch:
    """What an import stored: the match (its number for ``/history``, the replay and
    ``/analysis``), the players' names by seat as the record gives them, and its moves."""

    match: MatchView
    players: Mapping[int, str]
    moves: int


class ImportStore(MatchStore, ImportedPlayerStore, Protocol):
    """What an import writes and reads: the match, and the server's imports."""


class Importer:
    """The import use-case: read, check, store, count in the explorer."""

    def __init__(self, repository: ImportStore, clock: Clock, explorer: Explorer,
                 names: ImportedNames, view: Callable[[MatchRecord], MatchView]) -> None:
        self.repository = repository
        self.clock = clock
        self.explorer = explorer
        self.names = names
        self._view = view
        self._keying = Writes()

    def imported_name(self, user: int) -> str:
        """The name of imported player ``user`` as his record gave it ("" when it gave
        none, or for anybody else): known once a match or move of his was read."""
        return self.names(user)

    async def import_record(self, guild_id: int, channel_id: int, user: int,
                            data: bytes | str, game: str | None = None) -> ImportedMatch:
        """Import the record ``data`` (an uploaded file's bytes or pasted text) of
        ``game`` (None: the file says which) into ``guild_id`` for ``user``."""
        text = record_text(data)
        try:
            read = read_any_record(text, game.strip().lower() if game is not None else None)
        except RulesError as e:
            raise ImportRefused(_("the record cannot be imported: {error}",
                                  error=refusal_words(e))) from None
        clock = imported_clock(read.tags)
        key = record_key(read)
        await self._key_older_imports(guild_id)
        await self._key_played_games(guild_id)
        await self._not_imported(guild_id, key)
        now = self.clock.now()
        ids = await self.names.ids_of(read.players, read.start.seat_count)
        rec = dataclasses.replace(self._match_of(read, guild_id, channel_id, user, now, ids),
                                  import_key=key, clock=clock,
                                  days_per_move=clock.control.days_column
                                  if clock.control is not None else 1)
        try:
            stored = await self.repository.create_match(rec)
        except Conflict:  # the same game, imported at the same moment
            await self._not_imported(guild_id, key)
            raise
        entries = self._entries(read, stored, now)
        after = await self.repository.save(stored, self._ended(read, stored, len(entries)),
                                           append=entries)
        await self.explorer.index_match(after.id, imported=True)
        kept = {seat: imported_name(name) for seat, name in read.players.items()}
        return ImportedMatch(self._view(after), {s: n for s, n in kept.items() if n},
                             len(read.moves))

    async def _key_older_imports(self, guild_id: int) -> None:
        """Give ``guild_id``'s imports stored before fingerprints (``match:<id>``) their
        own, so that the same game imported again is recognised: done once, at the
        server's first import after the upgrade. A game the server holds twice already
        (imported twice before the check) keeps ``<fingerprint>#<id>`` on its second
        match: the first is the one named. One whose record cannot be read any more is
        left as it is (logged)."""
        for rec in await self.repository.unkeyed_imports(guild_id):
            was = rec.import_key or ""
            try:
                key = stored_key(rec, await self.repository.load_entries(rec.id))
            except (ValueError, ServiceError):
                log.warning("imported match %s: no fingerprint (its record does not read)",
                            rec.id)
                continue
            if not await self.repository.set_import_key(rec.id, was, key):
                await self.repository.set_import_key(rec.id, was, f"{key}#{rec.id}")

    async def fingerprint_games(self, progress: Callable[[int, int], None] | None = None
                                ) -> int:
        """``tablero db fingerprints``: :meth:`_key_played_games` for every server, ahead
        of their next import; how many matches were fingerprinted. ``progress(done,
        total)`` after each batch (done never above total: matches that end meanwhile
        are fingerprinted too, not counted in it)."""
        waiting = await self.repository.unkeyed_game_counts()
        total, done = sum(waiting.values()), 0

        def batch_done(size: int) -> None:
            nonlocal done
            done += size
            if progress is not None:
                progress(min(done, total), total)
        if progress is not None and total:
            progress(0, total)
        for guild_id in sorted(waiting):
            await self._key_played_games(guild_id, batch_done)
        return done

    async def _key_played_games(self, guild_id: int,
                                batch_done: Callable[[int], None] | None = None) -> None:
        """Give ``guild_id``'s played matches that ended without a fingerprint theirs
        (those that ended before fingerprints, or whose write as they ended was lost),
        :data:`KEY_BATCH` at a time (two reads, of the matches' columns a fingerprint
        needs and of their records' texts, and one write transaction of one statement:
        each a round trip to the database, not one per match; a start the matches share
        is read once): done once for the matches of before the upgrade, then for none
        (or the few a failure left). One whose record does not read is marked
        :data:`UNREADABLE` (logged), so that it is not read again. ``batch_done(n)``
        after each batch of ``n`` stored."""
        starts: StartsSeen = {}
        while batch := await self.repository.unkeyed_games(guild_id, KEY_BATCH):
            keys: dict[int, str] = {}
            records = await self.repository.load_texts_of({r.id: r.ply for r in batch})
            for rec in batch:
                try:
                    keys[rec.id] = texts_key(rec, records[rec.id], starts)
                except (ValueError, ServiceError):
                    log.warning("match %s: no fingerprint (its record does not read)",
                                rec.id)
                    keys[rec.id] = f"{UNREADABLE}{rec.id}"
            await self.repository.set_game_keys(keys)
            if batch_done is not None:
                batch_done(len(keys))

    async def game_follows(self, event: Event) -> None:
        """A subscriber: a played match that ended, finished or aborted with a move
        played, gets its game's fingerprint from the record its end hands over (no read),
        so that its export is not imported in its server: in the background, as the
        explorer counts it (off the move's reply; its transaction stays the move's only
        one). A failure, or a restart first, only leaves it to the server's next import
        (:meth:`_key_played_games`)."""
        if not isinstance(event, MatchEnded) or event.record is None:
            return
        rec, entries = event.record.rec, event.record.entries
        if rec.import_key is not None or not rec.ply \
                or rec.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED):
            return
        self._keying.start(self._key_ended(rec, entries))

    async def _key_ended(self, rec: MatchRecord, entries: Sequence[RecordEntry]) -> None:
        try:
            await self.repository.set_game_keys({rec.id: stored_key(rec, entries)})
        except Exception:  # the match has ended all the same
            log.exception("match %s: its fingerprint was not stored", rec.id)

    def keying(self) -> set[asyncio.Task[None]]:
        """The fingerprints of ended matches being written (what a shutdown waits for)."""
        return self._keying.under_way()

    async def fingerprints_idle(self) -> None:
        """Wait until every ended match announced so far is fingerprinted (tests, the
        console)."""
        await self._keying.idle()

    async def _not_imported(self, guild_id: int, key: str) -> None:
        """Refuse the game of fingerprint ``key`` when ``guild_id`` holds it already,
        imported or played."""
        held = await self.repository.game_match(guild_id, key)
        if held is not None:
            match_id, imported = held
            raise AlreadyImported(match_id, played=not imported)

    @staticmethod
    def _seats(read: ImportedGame, ids: Mapping[int, int]) -> tuple[SeatRecord, ...]:
        teams = read.start.teams
        return tuple(SeatRecord(ids[s], s,
                                next((i for i, t in enumerate(teams) if s in t), None))
                     for s in range(read.start.seat_count))

    def _match_of(self, read: ImportedGame, guild_id: int, channel_id: int, user: int,
                  now: datetime, ids: Mapping[int, int]) -> MatchRecord:
        v, start = read.variant, read.start
        return MatchRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, thread_id=None, game=v.key,
            ladder=ladder_key(v.key, start.seat_count), rules_version=v.rules_version,
            options={k: list(o) if isinstance(o, tuple) else o
                     for k, o in read.options.items()},
            start_text=start.to_text(), seat_count=start.seat_count,
            status=MatchStatus.FINISHED, challenger_id=user, seats=self._seats(read, ids),
            seat_pref=None, seating="chosen", ply=0, position_text=start.to_text(),
            to_move=tuple(sorted(start.to_move)), last_move=None, days_per_move=1,
            rated=False, deadline=None, remind_at=None, draw_offer=None,
            result=None, broken=None, created_at=now, updated_at=now)

    def _entries(self, read: ImportedGame, rec: MatchRecord, now: datetime
                 ) -> list[RecordEntry]:
        """The record's moves as entries, each seat that left where it left (``#resign
        2``, ``#timeout 3``, ``#skip 1``: the entries ``Endings.leave`` writes, so the
        match replays as the record played it), and an agreed draw, as a finished
        match's record says them."""
        v = read.variant
        p = read.start
        entries: list[RecordEntry] = []
        leavings = list(read.leavings)
        for ply in range(len(read.moves) + 1):
            while leavings and leavings[0].after == ply:
                left = leavings.pop(0)
                entries.append(RecordEntry(len(entries), left.seat,
                                           f"{SPECIAL_PREFIX}{left.how} {left.seat}",
                                           rec.user_at(left.seat), now))
                p = seat_leaves(v, p, left.seat, left.how)[0] or p
            if ply < len(read.moves):
                (seat,) = p.to_move
                text = read.moves[ply]
                entries.append(RecordEntry(len(entries), seat, text, rec.user_at(seat), now))
                p = p.play(v.parse_move(p, text))
        ended = read.outcome
        if ended is not None and ended.reason == "agreement":
            entries.append(RecordEntry(len(entries), None, f"{SPECIAL_PREFIX}draw", None, now))
        return entries

    @staticmethod
    def _ended(read: ImportedGame, rec: MatchRecord, plies: int) -> MatchRecord:
        end = read.end if read.end is not None else read.start
        ended = read.outcome
        result = None if ended is None else ResultRecord(
            tuple(sorted(ended.winners)), tuple(tuple(sorted(g)) for g in ended.ranking),
            ended.reason)
        out = end.out_seats() | {left.seat for left in read.leavings}
        seats = tuple(dataclasses.replace(s, out=s.seat in out) for s in rec.seats)
        users = {s.seat: s.user_id for s in rec.seats}
        # from the move after the leaving (the leavings before it are no moves)
        skipped = tuple((users[left.seat], left.after + 1) for left in read.leavings
                        if left.how == "skip")
        left_last = bool(read.leavings) and read.leavings[-1].after == len(read.moves)
        return dataclasses.replace(
            rec, seats=seats, clock=dataclasses.replace(rec.clock, skipped=skipped),
            ply=plies, position_text=end.to_text(), to_move=tuple(sorted(end.to_move)),
            last_move=read.moves[-1] if read.moves and not left_last else None,
            status=MatchStatus.FINISHED if ended is not None else MatchStatus.ABORTED,
            result=result)
