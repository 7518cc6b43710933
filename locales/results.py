"""How a match ended, in words: the result kind is decided once (:func:`result_kind`) and
every sentence about it is built here from that kind (:func:`result_sentence`), whatever
the medium: the line on a board image and its alt text, the console, the Discord result
post and the exported record. Sentences are lazy texts (``locales.i18n``) rendered for
their reader; the exported record renders them in English (a file format).

>>> result_kind(winners=(), ranking=((0, 1), (2,), (3,)))
<ResultKind.SHARED_FIRST: 'shared-first'>
>>> result_sentence("export", ResultKind.SHARED_FIRST, reason="no-moves",
...                 first="White and Turquoise").render("en-US")
'no single winner, first: White and Turquoise: opponent cannot move'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Literal

from locales.i18n import Text, Words, _, _n, capitalized
from locales.terms import reason as reason_words


class ResultKind(StrEnum):
    """What kind of end a match had."""

    WIN = "win"  # one seat or one team won
    SHARED_FIRST = "shared-first"  # no winner, but a ranking: several seats share first
    DRAW = "draw"  # everybody shares the only place
    ABORTED = "aborted"  # no ranking at all (a match abandoned before it counted)


def result_kind(winners: Sequence[int] | frozenset[int],
                ranking: Sequence[Sequence[int] | frozenset[int]]) -> ResultKind:
    """The kind of a result given in seats or users (``rules.Outcome`` or a stored one).

    >>> result_kind((1,), ((1,), (0,))), result_kind((), ((0, 1),)), result_kind((), ())
    (<ResultKind.WIN: 'win'>, <ResultKind.DRAW: 'draw'>, <ResultKind.ABORTED: 'aborted'>)
    """
    if winners:
        return ResultKind.WIN
    if len(ranking) > 1:
        return ResultKind.SHARED_FIRST
    if ranking:
        return ResultKind.DRAW
    return ResultKind.ABORTED


Medium = Literal["board", "console", "post", "export"]


def _board(kind: ResultKind, said: Words | None, winners: Words, count: int,
           first: Words) -> Text | Words:
    """The status line of a board image and its alt text."""
    if kind is ResultKind.WIN:
        if said is None:
            return _n("{winners} wins", "{winners} win", count, winners=winners)
        return _n("{winners} wins: {reason}", "{winners} win: {reason}", count,
                  winners=winners, reason=said)
    if kind is ResultKind.SHARED_FIRST:
        if said is None:
            return _("No single winner, first: {first}", first=first)
        return _("No single winner, first: {first}: {reason}", first=first, reason=said)
    if kind is ResultKind.DRAW:
        return _("Draw") if said is None else _("Draw: {reason}", reason=said)
    return capitalized(said) if said is not None else _("Aborted")


def _console(kind: ResultKind, said: Words, winners: Words, count: int,
             places: Words) -> Text | Words:
    """The console's lines about a match."""
    if kind is ResultKind.WIN:
        return _n("{winners} won ({reason})", "{winners} won ({reason})", count,
                  winners=winners, reason=said)
    if kind is ResultKind.SHARED_FIRST:
        return _("no single winner: {places} ({reason})", places=places, reason=said)
    if kind is ResultKind.DRAW:
        return _("draw ({reason})", reason=said)
    return said


def _post(kind: ResultKind, said: Words, winners: Words, count: int, places: Words,
          match: object, game: Words) -> Text:
    """The Discord post announcing the end of a match."""
    if kind is ResultKind.WIN:
        return _n("{winners} won match {match} ({game}) — {reason}.",
                  "{winners} won match {match} ({game}) — {reason}.", count,
                  winners=winners, match=match, game=game, reason=said)
    if kind is ResultKind.SHARED_FIRST:
        return _("Match {match} ({game}) ended with no single winner — {places} ({reason}).",
                 match=match, game=game, places=places, reason=said)
    if kind is ResultKind.DRAW:
        return _("Match {match} ({game}) is a **draw** ({reason}).", match=match, game=game,
                 reason=said)
    return _("Match {match} ({game}) ended: {reason}.", match=match, game=game, reason=said)


def _export(kind: ResultKind, said: Words, winners: Words, first: Words) -> Text | Words:
    """The ``[Result "..."]`` header of Tablero's exported record."""
    if kind is ResultKind.WIN:
        return _("{winners} won: {reason}", winners=winners, reason=said)
    if kind is ResultKind.SHARED_FIRST:
        return _("no single winner, first: {first}: {reason}", first=first, reason=said)
    if kind is ResultKind.DRAW:
        return _("draw: {reason}", reason=said)
    return said


def result_sentence(medium: Medium, kind: ResultKind, *, reason: Words, winners: Words = "",
                    winner_count: int = 1, first: Words = "", places: Words = "",
                    match: int | None = None, game: Words = "",
                    reason_is_text: bool = False) -> Text | Words:
    """The sentence saying how a match ended, for ``medium`` (lazy: render it).

    ``reason``: the outcome's reason key (put in words with ``locales.terms.reason``,
    unless ``reason_is_text``: words already); ``winners``: the winners as the medium
    names people (``'Black (bob)'``, a mention); ``first``: the seats sharing first
    place; ``places``: the whole ranking (``'1. alice; 2. bob'``); ``match`` and
    ``game``: for posts. Without a reason the board line ends after its first part
    (``'Draw'``).

    >>> result_sentence("board", ResultKind.WIN, reason="checkmate",
    ...                 winners="Red (alice)").render("en-US")
    'Red (alice) wins: checkmate'
    >>> result_sentence("board", ResultKind.ABORTED,
    ...                 reason="aborted: no move in time").render("en-US")
    'Aborted: no move in time'
    >>> result_sentence("board", ResultKind.DRAW, reason="").render("en-US")
    'Draw'
    """
    said: Words | None
    if reason_is_text or not isinstance(reason, str):
        said = reason
    else:
        said = reason_words(reason) if reason else None
    if medium == "board":
        return _board(kind, said, winners, winner_count, first)
    shown: Words = said if said is not None else ""
    if medium == "console":
        return _console(kind, shown, winners, winner_count, places)
    if medium == "post":
        return _post(kind, shown, winners, winner_count, places, match, game)
    return _export(kind, shown, winners, first)


def leaving_note(reason: str, who: Words) -> Text | None:
    """Who left a match the game then ranked itself (reasons ``resignation-ranked`` and
    ``timeout-ranked``: the leaver may even win on captures, RULES §2.4), said before the
    result; None for any other reason.

    >>> leaving_note("timeout-ranked", "bob").render("en-US")
    'bob ran out of time; the game is ranked on captures'
    >>> leaving_note("resignation", "bob") is None
    True
    """
    if not reason.endswith("-ranked"):
        return None
    if reason.startswith("resignation"):
        return _("{player} resigned; the game is ranked on captures", player=who)
    return _("{player} ran out of time; the game is ranked on captures", player=who)
