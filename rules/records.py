"""Reading game records (issue 44's import): the tags and move text of a record file, and
the game it holds replayed move by move by the rules, the first move that cannot be played
named.

The formats are each game's, read by :func:`parse_record`: a game whose ``record_format``
has a reader (:func:`register_reader`: Xiangqi's WXF and ICCS, Spanish draughts' PDN,
each beside its ``export_record``) reads it, and every game reads Tablero's own record
(what ``/history`` exports: ``[Game "querni"]``, ``[Rules]``, ``[Options]``,
``[Start]``, then ``1. c2-c3 2. {Red resigns} 3. ...``, each number one entry of the
match's record: a move, or in braces a seat leaving or an agreed draw). This module
holds what they share: the tag reader, the move text reader, the replay, and the result
tokens. :func:`read_any_record` finds the game of a file that does not say.

Writing them is each game's (``export_record``); what the writers share is here too: a
:class:`RecordExport` keeps what a record's export was written from, so that the export
of the record grown by a move is written on by that move alone (:func:`export_of`).

A record is untrusted text: every refusal is a :class:`RecordError` with its code (see
``rules.messages``), and nothing here reads more than :data:`MAX_PLIES` plies.

>>> import rules
>>> game = read_any_record('[Game "Chinese Chess"]\\n1. C2.5 H8+7 2. H2+3 *')
>>> game.variant.key, game.moves, game.outcome
('xiangqi', ('h3-e3', 'h10-g8', 'h1-g3'), None)
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core import (
    Detail,
    GameRecord,
    Outcome,
    Position,
    RulesError,
    Variant,
    detail,
    variant,
)

MAX_PLIES = 2000
"""The most plies a record may hold (a long Xiangqi game has a few hundred)."""

MATCH_TAGS = frozenset({"TableroClock", "TableroClaim", "TableroWeekends"})
"""Tablero's tags for a match's terms, which no format has a tag for (PGN's and PDN's
``TimeControl`` counts seconds and has no cap on a bank): the time control as
``/challenge`` takes it (``3d+1d/10d``), ``yes`` when a lapsed clock waits for a claim,
``off`` when no clock runs on weekends. Every export of a match writes them (the terms
that are not the default, and the clock), an import reads them back (``service.importer``
checks their values: the rules do not know time controls). The match's game options are
Tablero's ``Options`` tag (JSON), in every format."""

COMMON_TAGS = frozenset({
    "Event", "Site", "Date", "Round", "Result", "Annotator", "Time", "Termination",
    "PlyCount", "Opening", "Variation", "Source", "EventDate", "Mode", "Remark",
    "Author", "Game", "Format", "Rules", "Options", "Start", "Match", "FEN", "SetUp",
    "WhiteElo", "BlackElo", "RedElo", "WhiteTeam", "BlackTeam", "RedTeam", *MATCH_TAGS,
})
"""Tags every format may carry (PGN's and PDN's roster, and Tablero's own)."""


def tag_pair(name: str, value: object) -> str:
    """``[Name "value"]`` (a mapping's value as JSON), its backslashes and double quotes
    escaped as :func:`read_tags` reads them back.

    >>> print(tag_pair("Options", {"players": 4}))
    [Options "{\\"players\\": 4}"]
    """
    text = json.dumps(value, sort_keys=True) if isinstance(value, Mapping) else str(value)
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


RESULTS = {"1-0": (0,), "0-1": (1,), "2-0": (0,), "0-2": (1,), "1/2-1/2": (), "½-½": (),
           "1-1": (), "*": None}
"""Result tokens: the seats that won (empty: a draw; None: the game goes on)."""

_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+(?:"((?:[^"\\\n]|\\.)*)"|'
                  r"'([^'\n]*)')\s*\]")
_MOVE_NUMBER = re.compile(r"^\d+\.+$")
_NUMBER_PREFIX = re.compile(r"^(\d+)\.+(\S.*)$")
_NAG = re.compile(r"^\$\d+$")
_ANNOTATION = re.compile(r"[!?]+$")


class RecordError(RulesError):
    """A record file that cannot be read or whose game cannot be played as written."""


@dataclass(frozen=True, slots=True)
class RecordText:
    """A record file read but not yet played: its tags, each ply as written, the comments
    (after how many plies, text) and the result token at its end (None: none)."""

    tags: Mapping[str, str]
    plies: tuple[str, ...]
    comments: tuple[tuple[int, str], ...] = ()
    result: str | None = None


LEAVING_WORDS = {"resign": "resigns", "timeout": "ran out of time", "skip": "is skipped"}
"""How a record says a seat left, after the seat's colour (``{Red resigns}``), by how it
left: resigned, ran out of time (``on_timeout:end``), or ran out of time and is skipped
for the rest of the game (``on_timeout:skip``). A file format: always English."""

LEAVING_REASONS = {"resign": "resignation", "timeout": "timeout", "skip": "timeout"}
"""The end reason a seat's leaving gives, by how it left (a skip is a lapsed clock)."""


def leaving_of(reason: str) -> str | None:
    """How a seat left (a key of :data:`LEAVING_WORDS`) for a two-seat end's ``reason``,
    or None when the reason is not a leaving.

    >>> leaving_of("timeout"), leaving_of("no-moves")
    ('timeout', None)
    """
    return next((how for how, said in LEAVING_REASONS.items() if said == reason), None)


DRAW_AGREED = "draw agreed"
"""How a record says the players agreed a draw (``{draw agreed}``)."""

SENTENCE_ENDS = ".!\u3002\uff01"
"""The marks a person may close a record's sentence with (``{Red resigns.}``): a full
stop or an exclamation mark, ASCII or full-width."""


def said_in(comment: str) -> str:
    """A ``{comment}``'s sentence as records compare it: the words of ``comment`` with
    single spaces, without one closing full stop or exclamation mark (case kept: the
    caller compares in lower case, and quotes a seat's name as written).

    >>> said_in(" Red  resigns. "), said_in("draw agreed!"), said_in("Red resigns..")
    ('Red resigns', 'draw agreed', 'Red resigns.')
    """
    words = " ".join(comment.split())
    if words[-1:] and words[-1] in SENTENCE_ENDS:
        words = words[:-1].rstrip()
    return words


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """A seat that left a game in its record: after how many moves, which, and how (a
    key of :data:`LEAVING_WORDS`)."""

    after: int
    seat: int
    how: str


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """A record's game, played by the rules: the variant, the start options, the start
    position, the moves in canonical notation, how it ended (None: it goes on, or the
    record does not say), the players' names by seat (as the tags give them) and the
    tags."""

    variant: Variant[Any, Any]
    options: Mapping[str, object]
    start: Position[Any]
    moves: tuple[str, ...]
    outcome: Outcome | None
    players: Mapping[int, str] = field(default_factory=dict)
    tags: Mapping[str, str] = field(default_factory=dict)
    end: Position[Any] | None = None
    leavings: tuple[SeatLeft, ...] = ()
    """The seats that left the game, in order, each after how many of ``moves``."""


MAX_TAG_SAID = 40
"""The most characters of an unknown tag's name a refusal repeats."""


def unknown_tag(name: str, known: Collection[str]) -> RecordError:
    """The refusal of tag ``name``, which the format does not have: it names the tag
    and the nearest of the format's ``known`` tags (the one spelt the same but for case,
    else up to three close ones), or, when none is near, says to take the tag out; never
    the whole list of tags (a format has over thirty).

    >>> unknown_tag("Whiteelo", {"White", "WhiteElo", "Event"}).message
    'the record has a tag this format does not have: Whiteelo (did you mean WhiteElo?)'
    >>> unknown_tag("Coach", {"White", "Event"}).params
    mappingproxy({'tag': 'Coach'})
    """
    by_key = {k.lower(): k for k in known}
    key = name.lower()
    if key in by_key:
        near = [by_key[key]]
    else:
        near = [by_key[k] for k in difflib.get_close_matches(key, sorted(by_key), n=3,
                                                             cutoff=0.7)]
    said = name if len(name) <= MAX_TAG_SAID else name[:MAX_TAG_SAID] + "…"
    if near:
        return RecordError(detail("record_unknown_tag_near", tag=said, tags=tuple(near)))
    return RecordError(detail("record_unknown_tag", tag=said))


def read_tags(text: str, known: frozenset[str]) -> tuple[dict[str, str], str]:
    """The tags at the head of ``text`` (``[Name "value"]``, or ``'value'``) and the move
    text after them. A tag outside ``known``, one given twice or one that is not a tag
    is refused (an unknown one by :func:`unknown_tag`)."""
    tags: dict[str, str] = {}
    rest = text
    while True:
        rest = rest.lstrip()
        if not rest.startswith("["):
            return tags, rest
        found = _TAG.match(rest)
        if found is None:
            first = rest.splitlines()[0][:60]
            raise RecordError(detail("record_tag_syntax", input=first))
        name = found[1]
        value = found[2] if found[2] is not None else found[3]
        if name not in known:
            raise unknown_tag(name, known)
        if name in tags:
            raise RecordError(detail("record_tag_twice", tag=name))
        tags[name] = value.replace('\\"', '"').replace("\\\\", "\\")
        rest = rest[found.end():]


def _strip_comments(text: str) -> tuple[str, list[tuple[int, str]]]:
    """``text`` with its ``{comments}``, ``; line comments`` and ``(variations)`` taken
    out (the main line is read), and the comments with their place (a character
    offset, replaced by a marker token)."""
    out: list[str] = []
    comments: list[tuple[int, str]] = []
    i, depth = 0, 0
    while i < len(text):
        c = text[i]
        if c == "{":
            end = text.find("}", i)
            if end < 0:
                raise RecordError(detail("record_unclosed", input=text[i:i + 30]))
            if depth == 0:
                comments.append((len(comments), text[i + 1:end].strip()))
                out.append(f" \x00{len(comments) - 1} ")
            i = end + 1
            continue
        if c == ";" and depth == 0:
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        if c == "(":
            depth += 1
        elif c == ")" and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(c)
        i += 1
    if depth:
        raise RecordError(detail("record_unclosed", input="("))
    return "".join(out), comments


def read_moves(movetext: str) -> tuple[list[str], list[tuple[int, str]], str | None]:
    """The plies of a standard move text (each a word: ``1. C2.5 H8+7 2. ...``), the
    comments after how many plies, and the result token that ends it."""
    stripped, notes = _strip_comments(movetext)
    plies: list[str] = []
    comments: list[tuple[int, str]] = []
    result: str | None = None
    for word in stripped.split():
        if result is not None:
            raise RecordError(detail("record_after_result", result=result, input=word))
        if word.startswith("\x00"):
            comments.append((len(plies), notes[int(word[1:])][1]))
            continue
        numbered = _NUMBER_PREFIX.match(word)  # "1.C2.5" written without a space
        if numbered is not None and not _MOVE_NUMBER.match(word):
            word = numbered[2]
        if _MOVE_NUMBER.match(word) or _NAG.match(word):
            continue
        if word in RESULTS:
            result = word
            continue
        plies.append(_ANNOTATION.sub("", word) or word)
        if len(plies) > MAX_PLIES:
            raise RecordError(detail("record_too_long", limit=MAX_PLIES))
    return plies, comments, result


def read_numbered_entries(movetext: str) -> list[tuple[int, str, bool]]:
    """The entries of Tablero's own move text, where each number starts one entry (a
    ply of the match's record) whose text may hold spaces (``1. c2-e4 r3-5 2. pass``):
    each as (its number, counted from 1 as the record writes them; its text; whether it
    is a ``{comment}``, which says what is not a move: ``{Red resigns}``, ``{White is
    skipped}``, ``{draw agreed}``). A number may touch its entry, as PGN allows
    (``1.c3-d4 2.{Turquoise resigns}``).

    >>> [text for _n, text, _c in read_numbered_entries("1.c3-d4 2.{Red resigns} 3. pass")]
    ['c3-d4', 'Red resigns', 'pass']
    """
    entries: list[tuple[int, str, bool]] = []
    # a number, then a dot not followed by a digit (no move of a Tablero record starts
    # with one): "1.c3-d4" was "'1.c3-d4' comes before the first move number"
    parts = re.split(r"(?:^|\s)\d+\.(?!\d)", movetext)
    if parts and parts[0].strip():
        raise RecordError(detail("record_text_before_moves", input=parts[0].strip()[:40]))
    for n, part in enumerate(parts[1:], start=1):
        said = part.strip()
        if said.startswith("{") and said.endswith("}") and said.count("{") == 1:
            entries.append((n, " ".join(said[1:-1].split()), True))
            continue
        if not said or "{" in said or "}" in said:
            raise RecordError(detail("record_ply_syntax", n=n, input=said[:40]))
        entries.append((n, " ".join(said.split()), False))
        if len(entries) > MAX_PLIES:
            raise RecordError(detail("record_too_long", limit=MAX_PLIES))
    return entries


def play_record(v: Variant[Any, Any], start: Position[Any], written: Sequence[str],
                read: Callable[[Position[Any], str], object] | None = None
                ) -> tuple[list[str], Position[Any]]:
    """The canonical moves of ``written`` played from ``start`` (each read by ``read``,
    default the game's forgiving ``parse_noted_move``) and the final position; the first
    that cannot be played is named with why, and a move after the game's end too."""
    p = start
    canonical: list[str] = []
    for n, text in enumerate(written, start=1):
        move, p = play_written(v, p, n, text, read)
        canonical.append(move)
    return canonical, p


def play_written(v: Variant[Any, Any], p: Position[Any], n: int, text: str,
                 read: Callable[[Position[Any], str], object] | None = None,
                 ended: Outcome | None = None) -> tuple[str, Position[Any]]:
    """Move ``n`` of a record, written ``text``, played from ``p`` (read by ``read``,
    default the game's forgiving ``parse_noted_move``): its canonical text and the
    position after it. Refused when it cannot be played, or when the game is over
    (``ended``: an end that left ``p`` as it was, a resignation of two seats)."""
    ended = ended or p.outcome()
    quoted = text[:60]  # a ply may be long: what is quoted back is not
    if ended is not None:
        raise RecordError(detail("record_after_end", n=n, move=quoted, ending=ended.reason))
    try:
        move = (read or v.parse_noted_move)(p, text)
    except RulesError as e:
        why = _why(e, detail("not_legal", move=quoted))
        raise RecordError(detail("record_illegal_move", n=n, move=quoted, reason=why)) from None
    return v.format_move(p, move), p.play(move)


def seat_leaves(v: Variant[Any, Any], p: Position[Any], seat: int, how: str
                ) -> tuple[Position[Any] | None, Outcome | None]:
    """``seat`` leaves the game at ``p``, ``how`` a key of :data:`LEAVING_WORDS` (the
    rules' ``skip_seat`` for a skip, else their ``resign``): the position the others
    play on from (None when the game ended with no new position: two seats) and the end
    when it ended, its reason as Tablero records it: ``resignation`` or ``timeout``, or
    ``resignation-ranked``/``timeout-ranked`` when the game then ranks the seats on its
    own terms (Alquerque grande ``fast``, where the leaver may lead; RULES §2.4), or the
    rules' own reason when the leaving left too few to go on (``last-player``). Raises
    the rules' error (a ``ValueError``) when the seat cannot leave.

    >>> import rules
    >>> v = rules.variant("alquerque-grande")
    >>> after, ended = seat_leaves(v, v.start(players=4, mode="fast"), 1, "timeout")
    >>> after is not None, ended.reason, sorted(ended.ranking[-1])
    (True, 'timeout-ranked', [0, 1, 2, 3])
    """
    left = v.skip_seat(p, seat) if how == "skip" else v.resign(p, seat)
    reason = LEAVING_REASONS[how]
    if isinstance(left, Outcome):
        return None, Outcome(left.winners, left.ranking, reason)
    ended = left.outcome()
    if ended is not None and ended.reason == "resignation":
        # the game calls any leaving "resignation"; a timeout stays a timeout, and where
        # the game ranked the seats the leaver may even win: never "opponent resigned"
        ranked = not (len(ended.ranking) == 2 and seat in ended.ranking[-1])
        ended = Outcome(ended.winners, ended.ranking, f"{reason}-ranked" if ranked else reason)
    return left, ended


def closing_words(v: Variant[Any, Any], outcome: Outcome | None) -> str | None:
    """What a two-seat game's record says in braces after its last move when the game
    ended outside the rules, in Tablero's own words: a resignation (``Black resigns``),
    a lapsed clock (``Red ran out of time``) or an agreed draw (``draw agreed``), so
    that a standard record (PDN, WXF) reads back to the same end; None for any other
    end (the moves and the result token say it).

    >>> import rules
    >>> closing_words(rules.variant("damas"), Outcome.win(1, seats=2, reason="timeout"))
    'White ran out of time'
    """
    if outcome is None:
        return None
    if outcome.reason == "agreement" and outcome.is_draw:
        return DRAW_AGREED
    how = leaving_of(outcome.reason)
    if how is None or len(outcome.winners) != 1:
        return None
    (winner,) = outcome.winners
    return f"{v.seat_name(1 - winner, 2)} {LEAVING_WORDS[how]}"


def agreed_draw(p: Position[Any]) -> Outcome:
    """The draw the players still in agreed at ``p``: they share first place; whoever is
    out already (resigned, skipped, put out by the rules) shares the last."""
    out = p.out_seats()
    if not out:
        return Outcome.draw(seats=p.seat_count, reason="agreement")
    still_in = frozenset(range(p.seat_count)) - out
    return Outcome(winners=frozenset(), ranking=(still_in, frozenset(out)), reason="agreement")


def ending_of(v: Variant[Any, Any], end: Position[Any], result: str | None,
              comments: Sequence[tuple[int, str]], plies: int) -> Outcome | None:
    """How a standard record's game ended: by the rules (the final position), else as a
    comment after the last move says (``{Red resigns}``, ``{draw agreed}``, Tablero's
    own words), else as the result token says (two-seat games: reason ``recorded``)."""
    ruled = end.outcome()
    if ruled is not None:
        return ruled
    n = end.seat_count
    for after, text in comments:
        if after != plies:
            continue
        if said_in(text).lower() == DRAW_AGREED:
            return agreed_draw(end)
        said = _leaving_said(v, n, text)
        if said is not None and said[0] is not None and said[0] not in end.out_seats():
            _left, ended = seat_leaves(v, end, said[0], said[1])
            if ended is not None:
                return ended
    if result is None or RESULTS.get(result) is None or n != 2:
        return None
    winners = RESULTS[result]
    assert winners is not None
    if not winners:
        return Outcome.draw(seats=2, reason="recorded")
    won = frozenset(winners)
    return Outcome(won, (won, frozenset({1 - winners[0]})), "recorded")


def _leaving_said(v: Variant[Any, Any], seats: int, text: str
                  ) -> tuple[int | None, str] | None:
    """The seat and how it left, as ``text`` says it (``Red resigns``, any case and
    spacing, a closing full stop or not: :func:`said_in`; the seat None when the colour
    is none of the game's), or None when ``text`` does not say a seat left."""
    said = said_in(text).lower()
    for how, words in LEAVING_WORDS.items():
        if said.endswith(" " + words):
            name = said[:-len(words) - 1]
            found = (s for s in range(seats) if v.seat_name(s, seats).lower() == name)
            return next(found, None), how
    return None


def _tablero_entries(v: Variant[Any, Any], start: Position[Any],
                     entries: Sequence[tuple[int, str, bool]]
                     ) -> tuple[list[str], list[SeatLeft], Position[Any], Outcome | None]:
    """Tablero's record entries played from ``start`` as the match played them: each move
    by the rules, each seat that left by the rules' own ``resign`` or ``skip_seat``
    (:func:`seat_leaves`) where it left, an agreed draw at the end. The canonical moves,
    the seats that left, the last position and how the game ended (None: it goes on).
    The first entry that cannot be is named by its number, as the record writes it."""
    p = start
    moves: list[str] = []
    leavings: list[SeatLeft] = []
    ended: Outcome | None = None
    count = start.seat_count
    for n, text, comment in entries:
        if not comment:
            move, p = play_written(v, p, n, text, None, ended)
            moves.append(move)
            continue
        quoted = text[:60]  # a comment may be long: what is quoted back is not
        over = ended or p.outcome()
        if over is not None:
            raise RecordError(detail("record_leaving_refused", n=n, input=quoted, reason=detail(
                "game_over_because", ending=over.reason)))
        if said_in(text).lower() == DRAW_AGREED:
            ended = agreed_draw(p)
            continue
        said = _leaving_said(v, count, text)
        if said is None:
            raise RecordError(detail("record_unknown_entry", n=n, input=quoted,
                                     example=f"{v.seat_name(0, count)} {LEAVING_WORDS['resign']}"))
        seat, how = said
        if seat is None:
            raise RecordError(detail(
                "record_unknown_seat", n=n, input=quoted,
                name=" ".join(said_in(text).split()[:-len(LEAVING_WORDS[how].split())])[:30],
                seats=tuple(v.seat_name(s, count) for s in range(count))))
        if seat in p.out_seats():
            raise RecordError(detail("record_leaving_refused", n=n, input=quoted, reason=detail(
                "seat_already_out", seat=v.seat_name(seat, count))))
        try:
            after, ended = seat_leaves(v, p, seat, how)
        except RulesError as e:
            why = _why(e, detail("not_legal", move=quoted))
            raise RecordError(detail("record_leaving_refused", n=n, input=quoted,
                                     reason=why)) from None
        except ValueError:  # the rules' own refusal without a code: said as not legal
            raise RecordError(detail("record_leaving_refused", n=n, input=quoted,
                                     reason=detail("not_legal", move=quoted))) from None
        leavings.append(SeatLeft(len(moves), seat, how))
        p = after if after is not None else p
    return moves, leavings, p, ended or p.outcome()


Reader = Callable[[Variant[Any, Any], str], ImportedGame]
"""Reads a game's standard record file (its tags and moves) into the game it holds."""

_READERS: dict[str, Reader] = {}


def register_reader(record_format: str, reader: Reader) -> None:
    """Make ``reader`` read the records of the games whose ``record_format`` is
    ``record_format`` (a game module registers its own, beside its ``export_record``)."""
    _READERS[record_format] = reader


def parse_record(v: Variant[Any, Any], text: str) -> ImportedGame:
    """The game of a record file of ``v``: Tablero's own record when it names the game
    (``[Game "key"]``), else the game's standard format when it has a reader, else
    Tablero's own.

    >>> import rules
    >>> game = parse_record(rules.variant("alquerque"),
    ...                     '[Game "alquerque"]\\n\\n1. d2-c3 2. {White resigns}')
    >>> game.moves, game.outcome.reason
    (('d2-c3',), 'resignation')
    """
    if not isinstance(text, str):
        raise RecordError(detail("record_not_text"))
    names_it = re.search(r'\[\s*Game\s+"' + re.escape(v.key) + r'"\s*\]', text)
    reader = _READERS.get(v.record_format or "")
    if names_it or reader is None:
        return read_tablero_record(v, text)
    return reader(v, text)


_RESULT_TOKENS = frozenset({"1-0", "0-1", "2-0", "0-2", "1-1"})
"""Results as records write them ("1-0"), which look like a move between numbered squares
but tell nothing of the game: a chess PGN's result is not a Spanish draughts move."""


def _game_said(text: str) -> str | None:
    """The game a record says it is of, by its tags or its format's marks alone (a
    ``Game`` tag naming a known game, ``[Format "WXF"]``, a ``START{`` block, a PDN
    ``GameType`` tag); None when it does not say.

    >>> _game_said('[GameType "24"] 1. 9-13'), _game_said('[Game "Chinese Chess"]')
    ('damas', 'xiangqi')
    >>> _game_said("1. 9-13 24-20") is None
    True
    """
    named = re.search(r'\[\s*Game\s+"([^"\n]*)"\s*\]', text)
    key = named[1].strip().lower() if named else ""
    if key in ("chinese chess", "xiangqi") or re.search(r'\[\s*Format\s+"(WXF|ICCS)"', text) \
            or "START{" in text:
        return "xiangqi"
    if key:
        try:
            return variant(key).key
        except RulesError:
            return None
    if re.search(r'\[\s*GameType\s+"', text):
        return "damas"
    return None


def read_any_record(text: str, game: str | None = None) -> ImportedGame:
    """The game of a record file: of ``game`` when given, else of the game the file names
    (Tablero's ``[Game "key"]``), else by its format: WXF or ICCS (``[Game "Chinese
    Chess"]``, ``[Format "WXF"]``, a ``START{`` block) is Xiangqi, PDN (``[GameType
    "24"]``, numbered squares) Spanish draughts."""
    if not isinstance(text, str):
        raise RecordError(detail("record_not_text"))
    if game is not None:
        chosen = variant(game)
        said = _game_said(text)
        if said is not None and said != chosen.key:
            raise RecordError(detail("record_game_given", game=said, named_game=chosen.key))
        return parse_record(chosen, text)
    said = _game_said(text)
    if said is not None:
        return parse_record(variant(said), text)
    named = re.search(r'\[\s*Game\s+"([^"\n]*)"\s*\]', text)
    if named and named[1].strip():
        raise RecordError(detail("record_unknown_game", game=named[1]))
    if any(square_move not in _RESULT_TOKENS
            for square_move in re.findall(r"\b\d{1,2}[-x]\d{1,2}\b", text)):
        return parse_record(variant("damas"), text)
    raise RecordError(detail("record_which_game"))


def players_of(v: Variant[Any, Any], seats: int, tags: Mapping[str, str]
               ) -> dict[int, str]:
    """The players' names by seat from the tags named after the seats (``Red``,
    ``White``...); unknown names (``?``) left out."""
    found = {}
    for seat in range(seats):
        name = tags.get(v.seat_name(seat, seats), "").strip()
        if name and name != "?":
            found[seat] = name
    return found


def options_of(v: Variant[Any, Any], tags: Mapping[str, str],
               rules_version: str | None = None) -> tuple[dict[str, object], Position[Any]]:
    """The game options of a record's ``Options`` tag (JSON; none: the defaults) and
    the start they give under ``rules_version`` (the game's current rules when None): a
    tag that does not read, or options the game does not have, are refused."""
    written = tags.get("Options", "")[:60]
    try:
        raw = json.loads(tags.get("Options", "{}") or "{}")
    except ValueError:
        raise RecordError(detail("record_options_syntax", input=written)) from None
    if not isinstance(raw, dict):
        raise RecordError(detail("record_options_syntax", input=written))
    options = {str(k): tuple(o) if isinstance(o, list) else o for k, o in raw.items()}
    try:
        return options, v.start_recorded(rules_version or v.rules_version, **options)
    except RulesError as e:
        why = _why(e, detail("record_options_syntax", input=written))
        raise RecordError(detail("record_options", reason=why)) from None
    except (TypeError, ValueError):
        raise RecordError(detail("record_options_syntax", input=written)) from None


def start_of(v: Variant[Any, Any], tags: Mapping[str, str], start: Position[Any]
             ) -> Position[Any]:
    """The start of a standard record: ``start``, the game's with the record's options;
    a ``FEN`` tag must name it (a record from another position cannot become a match: the
    match would not replay)."""
    fen = tags.get("FEN", "").strip()
    if fen:
        try:
            given = v.from_text(fen)
        except RulesError as e:
            why = _why(e, detail("record_custom_start"))
            raise RecordError(detail("record_start_text", reason=why)) from None
        if given.to_text() != start.to_text():
            raise RecordError(detail("record_custom_start"))
    return start


def read_standard_record(v: Variant[Any, Any], text: str, tags: Mapping[str, str],
                         movetext: str,
                         read: Callable[[Position[Any], str], object] | None = None
                         ) -> ImportedGame:
    """A standard record's game (WXF, ICCS, PDN), once its tags are read: played from the
    start, ended as the rules, a closing comment or the result token (else the
    ``Result`` tag) say."""
    options, start = options_of(v, tags)
    start = start_of(v, tags, start)
    plies, comments, result = read_moves(movetext)
    if not plies:
        raise RecordError(detail("record_no_moves"))
    moves, end = play_record(v, start, plies, read)
    token = result if result is not None else tags.get("Result", "").strip() or None
    ended = ending_of(v, end, token, comments, len(moves))
    left: tuple[SeatLeft, ...] = ()
    how = leaving_of(ended.reason) if ended is not None else None
    if ended is not None and how is not None and end.outcome() is None \
            and len(ended.winners) == 1:  # a closing {Black resigns}
        (loser,) = set(range(end.seat_count)) - ended.winners
        left = (SeatLeft(len(moves), loser, how),)
    return ImportedGame(v, options, start, tuple(moves), ended,
                        players_of(v, start.seat_count, tags), dict(tags), end, left)


def read_tablero_record(v: Variant[Any, Any], text: str) -> ImportedGame:
    """Tablero's own record of a game of ``v`` (what ``/history`` exports)."""
    counts = {v.seat_count(**o) for o in v.option_sets()}
    seat_tags = {v.seat_name(s, n) for n in counts for s in range(n)}
    tags, movetext = read_tags(text, COMMON_TAGS | seat_tags)
    named = tags.get("Game", "").strip().lower()
    if named != v.key:
        raise RecordError(detail("record_other_game", found=named or "?", game=v.key))
    options, start = options_of(v, tags, tags.get("Rules", v.rules_version))
    if "Start" in tags and tags["Start"].strip() != start.to_text():
        raise RecordError(detail("record_custom_start"))
    entries = read_numbered_entries(movetext)
    if all(comment for _n, _text, comment in entries):
        raise RecordError(detail("record_no_moves"))
    if start.in_setup:
        raise RecordError(detail("record_secret_setup", game=v.key))
    moves, leavings, end, ended = _tablero_entries(v, start, entries)
    return ImportedGame(v, options, start, tuple(moves), ended,
                        players_of(v, start.seat_count, tags), tags, end, tuple(leavings))


def _why(error: RulesError, otherwise: Detail) -> Detail:
    """What ``error`` says, as a detail to nest in a record's refusal (``otherwise`` for
    an error without a code)."""
    return Detail(error.code, error.params) if error.code else otherwise


# --------------------------------------------------------------------------- writing

@dataclass(frozen=True, slots=True)
class RecordWriter:
    """How a game's standard format writes a record (a :class:`RecordExport`), in three
    pure steps: ``start`` reads the record's start text into its position; ``move``
    writes one stored move (any notation the game reads) played at a position, giving
    the move as the format writes it and the position after it; ``text`` writes the whole
    file of a record from its moves so written, its start position and its last one."""

    start: Callable[[str], Position[Any]]
    move: Callable[[Position[Any], str], tuple[str, Position[Any]]]
    text: Callable[[GameRecord, Sequence[str], Position[Any], Position[Any]], str]

    def export(self, record: GameRecord) -> RecordExport:
        """``record`` written whole. Raises RulesError on a move that does not play."""
        first = self.start(record.start)
        return RecordExport(self, GameRecord(record.start, ()), first, (), first,
                            "").extended(record)


@dataclass(frozen=True, slots=True)
class RecordExport:
    """A record written in its game's standard format (``text``), with what writing it
    on needs: the record it is of, its start position, each of its moves as the format
    writes it and the position after the last. A value: :meth:`extended` hands back a
    new one."""

    writer: RecordWriter
    record: GameRecord
    start: Position[Any]
    written: tuple[str, ...]
    end: Position[Any]
    text: str

    def extended(self, record: GameRecord) -> RecordExport:
        """``record`` written: when it is this one's record grown (the same start, this
        one's moves first), its new moves alone are written, from the position kept;
        anything else (a move taken back, another start) is written whole. Its headers
        and end (players, outcome, tags) are ``record``'s either way, and so is the text,
        byte for byte what :meth:`RecordWriter.export` writes of it.

        >>> import rules
        >>> v = rules.variant("damas")
        >>> first = export_of(v, GameRecord(v.start().to_text(), ("11-15",)))
        >>> grown = first.extended(GameRecord(v.start().to_text(), ("11-15", "22-18")))
        >>> grown.written, grown.text.splitlines()[-1]
        (('11-15', '22-18'), '1. 11-15 22-18 *')
        """
        kept = len(self.record.moves)
        if record.start != self.record.start or record.moves[:kept] != self.record.moves:
            return self.writer.export(record)
        written, p = list(self.written), self.end
        for text in record.moves[kept:]:
            said, p = self.writer.move(p, text)
            written.append(said)
        done = tuple(written)
        return RecordExport(self.writer, record, self.start, done, p,
                            self.writer.text(record, done, self.start, p))


_WRITERS: dict[str, RecordWriter] = {}


def register_writer(record_format: str, writer: RecordWriter) -> None:
    """Make ``writer`` write the records of the games whose ``record_format`` is
    ``record_format`` (a game module registers its own, which its ``export_record``
    writes with)."""
    _WRITERS[record_format] = writer


def export_of(v: Variant[Any, Any], record: GameRecord,
              earlier: RecordExport | None = None) -> RecordExport | None:
    """``record`` in ``v``'s standard format, the same text as ``v.export_record``:
    written on from ``earlier`` (an export of the same game's record as it was before:
    :meth:`RecordExport.extended`) where given; None for a game without a format. A
    format without a registered writer (a game that writes its records itself) is
    written whole by ``v.export_record`` each time."""
    if v.record_format is None:
        return None
    writer = _WRITERS.get(v.record_format)
    if writer is None:
        writer = RecordWriter(v.from_text, lambda p, text: (text, p),
                              lambda r, _written, _start, _end: v.export_record(r) or "")
    elif earlier is not None and earlier.writer is writer:
        return earlier.extended(record)
    return writer.export(record)
