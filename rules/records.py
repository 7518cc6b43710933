"""Reading game records (issue 44's import): the tags and move text of a record file, and
the game it holds replayed move by move by the rules, the first move that cannot be played
named.

The formats are each game's, read by :func:`parse_record`: a game whose ``record_format``
has a reader (:func:`register_reader`: Xiangqi's WXF and ICCS, Spanish draughts' PDN,
each beside its ``export_record``) reads it, and every game reads Tablero's own record
(what ``/history`` exports: ``[Game "querni"]``, ``[Rules]``, ``[Options]``,
``[Start]``, then ``1. c2-c3 2. ...``, each number one ply). This module
holds what they share: the tag reader, the move text reader, the replay, and the result
tokens. :func:`read_any_record` finds the game of a file that does not say.

A record is untrusted text: every refusal is a :class:`RecordError` with its code (see
``rules.messages``), and nothing here reads more than :data:`MAX_PLIES` plies.

>>> import rules
>>> game = read_any_record('[Game "Chinese Chess"]\\n1. C2.5 H8+7 2. H2+3 *')
>>> game.variant.key, game.moves, game.outcome
('xiangqi', ('h3-e3', 'h10-g8', 'h1-g3'), None)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core import (
    Detail,
    Outcome,
    Position,
    RulesError,
    Variant,
    detail,
    variant,
)

MAX_PLIES = 2000
"""The most plies a record may hold (a long Xiangqi game has a few hundred)."""

COMMON_TAGS = frozenset({
    "Event", "Site", "Date", "Round", "Result", "Annotator", "Time", "Termination",
    "PlyCount", "Opening", "Variation", "Source", "EventDate", "Mode", "Remark",
    "Author", "Game", "Format", "Rules", "Options", "Start", "Match", "FEN", "SetUp",
    "WhiteElo", "BlackElo", "RedElo", "WhiteTeam", "BlackTeam", "RedTeam",
})
"""Tags every format may carry (PGN's and PDN's roster, and Tablero's own)."""

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


def read_tags(text: str, known: frozenset[str]) -> tuple[dict[str, str], str]:
    """The tags at the head of ``text`` (``[Name "value"]``, or ``'value'``) and the move
    text after them. A tag outside ``known``, one given twice or one that is not a tag
    is refused."""
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
            raise RecordError(detail("record_unknown_tag", tag=name, tags=tuple(sorted(known))))
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


def read_numbered_plies(movetext: str) -> tuple[list[str], list[tuple[int, str]]]:
    """The plies of Tablero's own move text, where each number starts one ply whose text
    may hold spaces (``1. c2-e4 r3-5 2. pass``), and a ply that is a ``{comment}`` says
    how the game ended (``{Red resigns}``)."""
    plies: list[str] = []
    comments: list[tuple[int, str]] = []
    parts = re.split(r"(?:^|\s)\d+\.(?=\s|\{|$)", movetext)
    if parts and parts[0].strip():
        raise RecordError(detail("record_text_before_moves", input=parts[0].strip()[:40]))
    for part in parts[1:]:
        said = part.strip()
        if said.startswith("{") and said.endswith("}"):
            comments.append((len(plies), said[1:-1].strip()))
            continue
        if not said or "{" in said or "}" in said:
            raise RecordError(detail("record_ply_syntax", n=len(plies) + 1, input=said[:40]))
        plies.append(" ".join(said.split()))
        if len(plies) > MAX_PLIES:
            raise RecordError(detail("record_too_long", limit=MAX_PLIES))
    return plies, comments


def play_record(v: Variant[Any, Any], start: Position[Any], written: Sequence[str],
                read: Callable[[Position[Any], str], object] | None = None
                ) -> tuple[list[str], Position[Any]]:
    """The canonical moves of ``written`` played from ``start`` (each read by ``read``,
    default the game's forgiving ``parse_noted_move``) and the final position; the first
    that cannot be played is named with why, and a move after the game's end too."""
    reader = read or v.parse_noted_move
    p = start
    canonical: list[str] = []
    for n, text in enumerate(written, start=1):
        ended = p.outcome()
        if ended is not None:
            raise RecordError(detail("record_after_end", n=n, move=text, ending=ended.reason))
        try:
            move = reader(p, text)
        except RulesError as e:
            why = _why(e, detail("not_legal", move=text))
            raise RecordError(detail("record_illegal_move", n=n, move=text, reason=why)) from None
        canonical.append(v.format_move(p, move))
        p = p.play(move)
    return canonical, p


def ending_of(v: Variant[Any, Any], end: Position[Any], result: str | None,
              comments: Sequence[tuple[int, str]], plies: int) -> Outcome | None:
    """How the record's game ended: by the rules (the final position), else as a comment
    after the last move says (``{Red resigns}``, ``{draw agreed}``, Tablero's own
    words), else as the result token says (two-seat games: reason ``recorded``)."""
    ruled = end.outcome()
    if ruled is not None:
        return ruled
    n = end.seat_count
    for after, text in comments:
        if after != plies:
            continue
        said = text.lower()
        if said == "draw agreed":
            return Outcome.draw(seats=n, reason="agreement")
        for seat in range(n):
            name = v.seat_name(seat, n).lower()
            for verb, why in ((" resigns", "resignation"), (" ran out of time", "timeout")):
                if said == name + verb:
                    left = v.resign(end, seat)
                    if isinstance(left, Outcome):
                        return Outcome(left.winners, left.ranking, why)
    if result is None or RESULTS.get(result) is None or n != 2:
        return None
    winners = RESULTS[result]
    assert winners is not None
    if not winners:
        return Outcome.draw(seats=2, reason="recorded")
    won = frozenset(winners)
    return Outcome(won, (won, frozenset({1 - winners[0]})), "recorded")


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


def read_any_record(text: str, game: str | None = None) -> ImportedGame:
    """The game of a record file: of ``game`` when given, else of the game the file names
    (Tablero's ``[Game "key"]``), else by its format: WXF or ICCS (``[Game "Chinese
    Chess"]``, ``[Format "WXF"]``, a ``START{`` block) is Xiangqi, PDN (``[GameType
    "24"]``, numbered squares) Spanish draughts."""
    if not isinstance(text, str):
        raise RecordError(detail("record_not_text"))
    if game is not None:
        return parse_record(variant(game), text)
    named = re.search(r'\[\s*Game\s+"([^"\n]*)"\s*\]', text)
    key = named[1].strip().lower() if named else ""
    if key in ("chinese chess", "xiangqi") or re.search(r'\[\s*Format\s+"(WXF|ICCS)"', text) \
            or "START{" in text:
        return parse_record(variant("xiangqi"), text)
    if key:
        try:
            v = variant(key)
        except RulesError:
            said = named[1] if named else ""
            raise RecordError(detail("record_unknown_game", game=said)) from None
        return parse_record(v, text)
    if re.search(r'\[\s*GameType\s+"', text) or re.search(r"\b\d{1,2}[-x]\d{1,2}\b", text):
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


def start_of(v: Variant[Any, Any], tags: Mapping[str, str]) -> Position[Any]:
    """The start of a standard record: the game's start; a ``FEN`` tag must name it (a
    record from another position cannot become a match: the match would not replay)."""
    start: Position[Any] = v.start()
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
    start = start_of(v, tags)
    plies, comments, result = read_moves(movetext)
    if not plies:
        raise RecordError(detail("record_no_moves"))
    moves, end = play_record(v, start, plies, read)
    token = result if result is not None else tags.get("Result", "").strip() or None
    return ImportedGame(v, {}, start, tuple(moves),
                        ending_of(v, end, token, comments, len(moves)),
                        players_of(v, start.seat_count, tags), dict(tags), end)


def read_tablero_record(v: Variant[Any, Any], text: str) -> ImportedGame:
    """Tablero's own record of a game of ``v`` (what ``/history`` exports)."""
    import json

    counts = {v.seat_count(**o) for o in v.option_sets()}
    seat_tags = {v.seat_name(s, n) for n in counts for s in range(n)}
    tags, movetext = read_tags(text, COMMON_TAGS | seat_tags)
    named = tags.get("Game", "").strip().lower()
    if named != v.key:
        raise RecordError(detail("record_other_game", found=named or "?", game=v.key))
    written = tags.get("Options", "")[:60]
    try:
        raw = json.loads(tags.get("Options", "{}") or "{}")
    except ValueError:
        raise RecordError(detail("record_options_syntax", input=written)) from None
    if not isinstance(raw, dict):
        raise RecordError(detail("record_options_syntax", input=written))
    options = {str(k): tuple(o) if isinstance(o, list) else o for k, o in raw.items()}
    try:
        start = v.start_recorded(tags.get("Rules", v.rules_version), **options)
    except RulesError as e:
        why = _why(e, detail("record_options_syntax", input=tags.get("Options", "")[:60]))
        raise RecordError(detail("record_options", reason=why)) from None
    except (TypeError, ValueError):
        raise RecordError(detail("record_options_syntax", input=written)) from None
    if "Start" in tags and tags["Start"].strip() != start.to_text():
        raise RecordError(detail("record_custom_start"))
    plies, comments = read_numbered_plies(movetext)
    if not plies:
        raise RecordError(detail("record_no_moves"))
    if start.in_setup:
        raise RecordError(detail("record_secret_setup", game=v.key))
    moves, end = play_record(v, start, plies)
    return ImportedGame(v, options, start, tuple(moves),
                        ending_of(v, end, None, comments, len(moves)),
                        players_of(v, start.seat_count, tags), tags, end)


def _why(error: RulesError, otherwise: Detail) -> Detail:
    """What ``error`` says, as a detail to nest in a record's refusal (``otherwise`` for
    an error without a code)."""
    return Detail(error.code, error.params) if error.code else otherwise
