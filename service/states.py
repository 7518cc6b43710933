"""Match states: the position of each match, replayed from its record and kept in memory.

The stored position text is a cache of the record, but some games keep their repetition
history outside the text (RULES §7), so the service keeps the position *object* in memory,
keyed by ``(match, ply)`` and checked against the stored text. A miss (a restart, another
process moved) replays the record once from the start options: that is also where a
corrupted record is caught (``MatchBroken``). A move therefore costs one parse and one
play, never a replay.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from datetime import datetime
from typing import Generic, TypeVar

import rules
from locales.i18n import _
from locales.rules_words import refusal_words
from rules import MoveMarks, Outcome, Position, RulesError, Variant
from rules.records import LEAVING_WORDS  # English, as records say it (``locales.terms`` translates)
from service.errors import InvalidOption, MatchBroken
from service.records import SPECIAL_PREFIX, MatchRecord, RecordEntry
from service.views import GameRecord, MatchView, PlyView, is_move

MAX_TEXT = 300  # longer command arguments are refused before any parsing


def variant_of(game: str) -> Variant:
    """The game called ``game``, or ``InvalidOption`` naming the games there are."""
    if not isinstance(game, str) or len(game) > MAX_TEXT:
        raise InvalidOption(_("that is not a game name"))
    try:
        return rules.variant(game)
    except ValueError:
        known = ", ".join(rules.VARIANTS) or "-"
        raise InvalidOption(_("there is no game called {game} (games: {known})",
                              game=repr(game.strip()), known=known)) from None


def ladders() -> list[str]:
    """Every leaderboard a server may have: each game's, and ``<game>-4`` where the game
    is played by four (its own board: a team's win is not a duel's).

    >>> ladders()
    ['alquerque', 'alquerque-grande', 'alquerque-grande-4', 'xiangqi', 'damas', 'querni']
    """
    found = []
    for key, v in rules.VARIANTS.items():
        found.append(key)
        if any(v.seat_count(**o) == 4 for o in v.option_sets()):
            found.append(f"{key}-4")
    return found


def ladder_of(text: str) -> str:
    """The leaderboard ``text`` names (case and spaces aside), or ``InvalidOption``
    naming the leaderboards there are (``xiangqi-4`` is none: nobody plays it by four).

    >>> ladder_of(" Alquerque-Grande-4 ")
    'alquerque-grande-4'
    >>> ladder_of("xiangqi-4")
    Traceback (most recent call last):
    ...
    service.errors.InvalidOption: there is no game called 'xiangqi-4' (games: alquerque, \
alquerque-grande, alquerque-grande-4, xiangqi, damas, querni)
    """
    key = text.strip().lower()
    known = ladders()
    if key not in known:
        raise InvalidOption(_("there is no game called {game} (games: {known})",
                              game=repr(text.strip()), known=", ".join(known)))
    return key


def parse_entry(v: Variant, p: Position, seat: int | None, text: str) -> object:
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


@dataclasses.dataclass(frozen=True, slots=True)
class MatchState:
    """A match's current position (the object, with its history) and the last move's
    marks, valid while the match is at ``ply`` with stored text ``text``."""

    ply: int
    text: str
    position: Position
    last_marks: MoveMarks | None
    moves: int | None = None  # moves as players count them (no setups, resignations)


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
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
class Replay:
    """A record replayed from the start."""

    position: Position
    entries: tuple[tuple[int, int | None, str, str], ...]  # ply, user, canonical, display
    last_marks: MoveMarks | None
    ended: Outcome | None  # a special entry that ended the game
    start: Position
    plies: tuple[PlyView, ...]
    moves: int = 0  # entries that were moves (not a setup, a resignation, a draw)

    def game_record(self, match: MatchView, rec: MatchRecord) -> GameRecord:
        """The record for replays; a Querni arrangement stays hidden (``move`` None, the
        position ``public_view``'s) until both are in."""
        plies = self.plies
        if self.position.in_setup:  # who handed in shows, never what he handed in
            plies = tuple(dataclasses.replace(x, canonical="setup", display="setup submitted",
                                              move=None, position=public_view(x.position))
                          for x in plies)
        return GameRecord(match, self.start.variant, rec.options, rec.start_text,
                          self.start, plies)


def public_view(p: Position) -> Position:
    """``p`` as anybody may see it: in a setup phase every seat's secret (a submitted
    Querni arrangement) hidden (``Position.view_for`` of each seat in turn); otherwise
    ``p`` itself."""
    if not p.in_setup:
        return p
    for seat in range(p.seat_count):
        p = p.view_for(seat)
    return p


def replay(rec: MatchRecord, entries: Sequence[RecordEntry], *, check: bool = True
           ) -> Replay:
    """Replay the record; raises MatchBroken saying where it fails. ``check`` False: the
    end is not compared with the stored position (a prefix of the record: a takeback)."""
    v = variant_of(rec.game)
    try:
        # the rules the match was recorded under (RULES §2.5: stored matches keep them)
        p = v.start_recorded(rec.rules_version,
                             **{k: _start_ready(o) for k, o in rec.options.items()})
    except (RulesError, ValueError, TypeError) as err:
        raise MatchBroken(_("match #{match} is broken: its options no longer start a game "
                            "({error})", match=rec.id, error=refusal_words(err))) from None
    if p.to_text() != rec.start_text:
        raise MatchBroken(_("match #{match} is broken: its options start a different "
                            "position than the stored one", match=rec.id))
    return _played_on(rec, v, Replay(p, (), None, None, p, ()), entries, check=check)


def extended(rec: MatchRecord, done: Replay, entries: Sequence[RecordEntry]) -> Replay:
    """``done`` (the replay of ``entries``' first ``len(done.entries)``, from ``rec``'s
    start) played on by the entries after them: what ``replay(rec, entries)`` gives,
    without playing the first ones again. Raises MatchBroken as ``replay``."""
    return _played_on(rec, variant_of(rec.game), done, entries, check=True)


def _played_on(rec: MatchRecord, v: Variant, done: Replay, entries: Sequence[RecordEntry],
               *, check: bool) -> Replay:
    p, marks, ended, moves = done.position, done.last_marks, done.ended, done.moves
    shown = list(done.entries)
    plies = list(done.plies)
    for i in range(len(shown), len(entries)):
        e = entries[i]
        if e.ply != i or ended is not None:
            raise MatchBroken(_("match #{match} is broken: entry {n} ({entry}) is out of "
                                "place in the record", match=rec.id, n=i + 1,
                                entry=repr(e.text)))
        step = apply_entry(rec, v, p, e)
        moves += is_move(p, step.move)
        shown.append((e.ply, e.user_id, step.canonical, step.display))
        plies.append(PlyView(e.ply, e.seat, e.user_id, step.canonical, step.display,
                             step.move, step.position if step.ended is None else p))
        if not step.keeps_marks:
            marks = step.marks
        if step.ended is not None:
            ended = step.ended
        else:
            p = step.position
    if check and p.to_text() != rec.position_text:
        raise MatchBroken(_("match #{match} is broken: replaying its {count} entries does "
                            "not give the stored position", match=rec.id,
                            count=len(entries)))
    return Replay(p, tuple(shown), marks, ended, done.start, tuple(plies), moves)


def apply_entry(rec: MatchRecord, v: Variant, p: Position, e: RecordEntry) -> Step:
    """One record entry applied to ``p`` (the position before it); raises MatchBroken
    saying which entry does not replay."""
    try:
        if e.text.startswith(SPECIAL_PREFIX):
            word, _sep, arg = e.text[1:].partition(" ")
            if word == "draw":
                return Step(p, e.text, "draw agreed", None, None,
                            Outcome.draw(seats=p.seat_count, reason="agreement"),
                            keeps_marks=True)
            if word not in ("resign", "timeout", "skip"):
                raise ValueError(f"unknown entry {word!r}")
            seat = int(arg)
            # a skip (issue 43): his time ran out, his turns are skipped from then on
            r = v.skip_seat(p, seat) if word == "skip" else v.resign(p, seat)
            name = v.seat_name(seat, p.seat_count)
            said = f"{name} {LEAVING_WORDS[word]}"
            if isinstance(r, Outcome):
                return Step(p, e.text, said, None, None, r)
            return Step(r, e.text, said, None, None, None)
        move = parse_entry(v, p, e.seat, e.text)
        return Step(p.play(move), v.format_move(p, move), v.display_move(p, move), move,
                    v.move_marks(p, move), None)
    except (RulesError, ValueError) as err:
        raise MatchBroken(_("match #{match} is broken: entry {n} ({entry}) does not "
                            "replay: {error}", match=rec.id, n=e.ply + 1, entry=repr(e.text),
                            error=refusal_words(err))) from None


def everyone_moved(rec: MatchRecord, entries: Sequence[RecordEntry]) -> bool:
    """Whether every seat has played a move of his own in ``entries`` (a set-up
    submission, a move the rules played for him such as Querni's forced pass, a
    resignation or a draw are not moves). A match that ends before that is aborted and
    unrated, so results nobody played for cannot farm a ladder. Replays only until the
    last seat has moved (a few plies); a record that does not replay counts as not.
    A seat whose own move a takeback undid (``ClockState.took_back``) has taken part:
    his lapse after it is a timeout (a claim), not an abort (issue 38). A seat out of
    the game before it moved (an imported record's ``{Turquoise is skipped}`` at his
    first turn, a seat the rules put out) is waited for no longer: it never moves
    again, and the match continued from that record is played out by the others."""
    waiting = set(range(rec.seat_count)) - set(rec.clock.took_back)
    if not waiting:
        return True
    if len(entries) < len(waiting):
        return False
    v = variant_of(rec.game)
    try:
        p = v.start_recorded(rec.rules_version,
                             **{k: _start_ready(o) for k, o in rec.options.items()})
    except (RulesError, ValueError, TypeError):
        return False
    for e in entries:
        if e.text.startswith(SPECIAL_PREFIX):
            word, _sep, arg = e.text[1:].partition(" ")
            if word in ("resign", "timeout", "skip") and arg.isdigit():
                r = v.skip_seat(p, int(arg)) if word == "skip" else v.resign(p, int(arg))
                if isinstance(r, Outcome):
                    return False
                p = r
                waiting -= p.out_seats()
                if not waiting:
                    return True
            continue
        try:
            move = parse_entry(v, p, e.seat, e.text)
        except (RulesError, ValueError):
            return False
        if not p.in_setup and e.seat is not None and move != p.forced_move():
            waiting.discard(e.seat)
        p = p.play(move)
        waiting -= p.out_seats()
        if not waiting:
            return True
    return False


def carried_forward(rec: MatchRecord, hit: MatchState,
                    entries: Sequence[RecordEntry]) -> MatchState | None:
    """``hit`` carried forward by the entries after it to ``rec``'s ply, or None when
    they do not lead to ``rec``'s stored position (a full replay then decides)."""
    v = variant_of(rec.game)
    p, marks, moves = hit.position, hit.last_marks, hit.moves
    try:
        for want, e in enumerate(entries, start=hit.ply):
            if e.ply != want or p.outcome() is not None:
                return None
            step = apply_entry(rec, v, p, e)
            if step.ended is not None:
                return None  # the game ended by agreement or resignation: replay it
            if moves is not None:
                moves += is_move(p, step.move)
            p = step.position
            if not step.keeps_marks:
                marks = step.marks
    except MatchBroken:
        return None
    if p.to_text() != rec.position_text:
        return None
    return MatchState(rec.ply, rec.position_text, p, marks, moves)


def forced_moves(rec: MatchRecord, p: Position, ply: int, when: datetime
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


class MatchStates:
    """The position cache (least recently used first out) over a record source."""

    def __init__(self, cache_size: int = 4096) -> None:
        self._cache: OrderedDict[int, MatchState] = OrderedDict()
        self._cache_size = cache_size

    def behind(self, rec: MatchRecord, within: int) -> MatchState | None:
        """The cached state of ``rec``'s match when it is at most ``within`` plies behind
        ``rec`` (another process moved): carry it forward instead of replaying."""
        hit = self._cache.get(rec.id)
        if hit is not None and hit.ply < rec.ply <= hit.ply + within:
            return hit
        return None

    def cached(self, rec: MatchRecord) -> MatchState | None:
        """The cached state of ``rec`` if it is still the stored one."""
        hit = self._cache.get(rec.id)
        if hit is not None and hit.ply == rec.ply and hit.text == rec.position_text:
            self._cache.move_to_end(rec.id)
            return hit
        return None

    def moves_at(self, match_id: int, ply: int) -> int | None:
        """Moves played (as players count them) when the match was at ``ply``, if the
        cache knows."""
        hit = self._cache.get(match_id)
        return hit.moves if hit is not None and hit.ply == ply else None

    def remember(self, match_id: int, state: MatchState) -> None:
        self._cache[match_id] = state
        self._cache.move_to_end(match_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def moved_on(self, match_id: int, from_ply: int, to_ply: int) -> None:
        """An entry that changes no position (an agreed draw) was appended."""
        hit = self._cache.get(match_id)
        if hit is not None and hit.ply == from_ply:
            self.remember(match_id, dataclasses.replace(hit, ply=to_ply))

    def replayed(self, rec: MatchRecord, done: Replay) -> MatchState:
        """Remember ``rec``'s state from its replay."""
        state = MatchState(rec.ply, rec.position_text, done.position, done.last_marks,
                           done.moves)
        self.remember(rec.id, state)
        return state


@dataclasses.dataclass(frozen=True, slots=True)
class StoredRecord:
    """A finished match's record as stored, handed out with ``MatchEnded`` so a replay
    can be drawn later without asking the service again: ``game_record()`` replays it
    (off the reply path: it is only done when someone draws the replay)."""

    match: MatchView
    rec: MatchRecord
    entries: tuple[RecordEntry, ...]

    def game_record(self) -> GameRecord:
        """The replayed record (``MatchService.record``); MatchBroken if it does not
        replay."""
        return replay(self.rec, self.entries).game_record(self.match, self.rec)


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` values kept by key, the least recently used first out, each
    valid for the version it was kept at (a match's stored version: another process's
    change is a new one; never a time). One mechanism for every such cache of the
    service and the web pages.

    >>> kept = Recent[int, str](1)
    >>> kept.keep(7, 3, "seven"), kept.get(7, 3), kept.get(7, 4)
    ('seven', 'seven', None)
    >>> _ = kept.keep(8, 1, "eight"); kept.get(7, 3) is None
    True
    """

    def __init__(self, size: int) -> None:
        self._kept: OrderedDict[K, tuple[Hashable, V]] = OrderedDict()
        self._size = size

    def get(self, key: K, version: Hashable) -> V | None:
        """The value kept for ``key`` at ``version``, else None."""
        hit = self._kept.get(key)
        if hit is None or hit[0] != version:
            return None
        self._kept.move_to_end(key)
        return hit[1]

    def latest(self, key: K) -> V | None:
        """The value kept for ``key`` at whatever version it was kept (None: none is):
        what a newer version may be made from, when it can tell the older one still
        holds (a record that only grew).

        >>> kept = Recent[int, str](2)
        >>> _ = kept.keep(7, 3, "seven"); kept.get(7, 4), kept.latest(7)
        (None, 'seven')
        """
        hit = self._kept.get(key)
        return None if hit is None else hit[1]

    def keep(self, key: K, version: Hashable, value: V) -> V:
        """Keep ``value`` for ``key`` at ``version`` (and hand it back)."""
        self._kept[key] = (version, value)
        self._kept.move_to_end(key)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return value


@dataclasses.dataclass(frozen=True, slots=True)
class Replayed:
    """A record as replayed at one version: what it started from (:func:`_start_of`),
    the entries replayed, the replay and the record made of it for that version's
    view."""

    start: tuple[object, ...]
    entries: tuple[RecordEntry, ...]
    done: Replay
    record: GameRecord


def _start_of(rec: MatchRecord) -> tuple[object, ...]:
    """What a match's replay starts from: its game, rules, options and start position."""
    return (rec.game, rec.rules_version, dict(rec.options), rec.start_text)


class Replays:
    """Replayed records kept in memory (least recently used first out), so the board at
    any ply of a match is a lookup after the first one (the replay stepper, issue 42): a
    finished match never changes. An entry is valid while the match's stored version is
    the one it was replayed at; a live match that moved on is played on from the replay
    kept, by its new entries only, when its record only grew (the same start, every
    entry replayed still there as it was; a draw offer or a pause adds none): a takeback,
    an undo or anything else replays it from the start."""

    def __init__(self, size: int = 64) -> None:
        self._kept = Recent[int, Replayed](size)

    def get(self, rec: MatchRecord) -> GameRecord | None:
        """The replayed record of ``rec`` if it was replayed at ``rec``'s version."""
        kept = self.kept(rec)
        return None if kept is None else kept.record

    def kept(self, rec: MatchRecord) -> Replayed | None:
        """``rec`` as replayed at its version (entries, replay and record), if kept."""
        return self._kept.get(rec.id, rec.version)

    def replayed(self, rec: MatchRecord, entries: Sequence[RecordEntry]) -> Replay:
        """``rec``'s record (``entries``, all of them) replayed: the replay kept of an
        earlier version played on by the entries after it when the record only grew
        since, else from the start. Raises MatchBroken as :func:`replay`."""
        kept = self._kept.latest(rec.id)
        if kept is not None and len(entries) >= len(kept.entries) \
                and kept.start == _start_of(rec) \
                and all(a is b or a == b for a, b in zip(kept.entries, entries, strict=False)):
            try:
                return extended(rec, kept.done, entries)
            except MatchBroken:
                pass  # replayed from the start, which says where it breaks
        return replay(rec, entries)

    def remember(self, rec: MatchRecord, entries: Sequence[RecordEntry], done: Replay,
                 record: GameRecord) -> Replayed:
        """Keep ``record``, made of ``done`` (``entries`` replayed), for ``rec``'s
        version (and to play on from when the match moves on)."""
        return self._kept.keep(rec.id, rec.version,
                               Replayed(_start_of(rec), tuple(entries), done, record))
