"""How a match ended, in words: the result kind is decided once (:func:`result_kind`) and
every sentence about it is built here from that kind (:func:`result_sentence`), whatever
the medium: the line on a board image and its alt text, the console, the Discord result
post and the exported record.

>>> result_kind(winners=(), ranking=((0, 1), (2,), (3,)))
<ResultKind.SHARED_FIRST: 'shared-first'>
>>> result_sentence("export", ResultKind.SHARED_FIRST, reason="no-moves",
...                 first="White and Turquoise")
'no single winner, first: White and Turquoise: opponent cannot move'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Literal

from rules.core import reason_text


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

RESULT_SENTENCES: dict[str, dict[ResultKind, str]] = {
    # The status line of a board image and its alt text.
    "board": {
        ResultKind.WIN: "{winners} {wins}: {reason}",
        ResultKind.SHARED_FIRST: "No single winner, first: {first}: {reason}",
        ResultKind.DRAW: "Draw: {reason}",
        ResultKind.ABORTED: "{Reason}",
    },
    # The console's lines about a match.
    "console": {
        ResultKind.WIN: "{winners} won ({reason})",
        ResultKind.SHARED_FIRST: "no single winner: {places} ({reason})",
        ResultKind.DRAW: "draw ({reason})",
        ResultKind.ABORTED: "{reason}",
    },
    # The Discord post announcing the end of a match.
    "post": {
        ResultKind.WIN: "{winners} won match {match} ({game}) — {reason}.",
        ResultKind.SHARED_FIRST: "Match {match} ({game}) ended with no single winner — "
                                 "{places} ({reason}).",
        ResultKind.DRAW: "Match {match} ({game}) is a **draw** ({reason}).",
        ResultKind.ABORTED: "Match {match} ({game}) ended: {reason}.",
    },
    # The ``[Result "..."]`` header of Tablero's exported record.
    "export": {
        ResultKind.WIN: "{winners} won: {reason}",
        ResultKind.SHARED_FIRST: "no single winner, first: {first}: {reason}",
        ResultKind.DRAW: "draw: {reason}",
        ResultKind.ABORTED: "{reason}",
    },
}
"""The English catalogue: one template per medium and kind."""


def result_sentence(medium: Medium, kind: ResultKind, *, reason: str, winners: str = "",
                    winner_count: int = 1, first: str = "", places: str = "",
                    match: int | None = None, game: str = "",
                    reason_is_text: bool = False) -> str:
    """The sentence saying how a match ended, for ``medium``.

    ``reason``: the outcome's reason key (put in words with ``rules.core.reason_text``,
    unless ``reason_is_text``); ``winners``: the winners as the medium names people
    (``'Black (bob)'``, a mention); ``first``: the seats sharing first place;
    ``places``: the whole ranking (``'1. alice; 2. bob'``); ``match`` and ``game``: for
    posts. Without a reason the board line ends after its first part (``'Draw'``).

    >>> result_sentence("board", ResultKind.WIN, reason="checkmate", winners="Red (alice)")
    'Red (alice) wins: checkmate'
    >>> result_sentence("board", ResultKind.ABORTED, reason="aborted: no move in time")
    'Aborted: no move in time'
    """
    said = reason if reason_is_text else reason_text(reason)
    text = RESULT_SENTENCES[medium][kind].format(
        winners=winners, wins="wins" if winner_count == 1 else "win", first=first,
        places=places, match=match, game=game, reason=said,
        Reason=said[:1].upper() + said[1:])
    return text.removesuffix(": ") if not said else text


def leaving_note(reason: str, who: str) -> str | None:
    """Who left a match the game then ranked itself (reasons ``resignation-ranked`` and
    ``timeout-ranked``: the leaver may even win on captures, RULES §2.4), said before the
    result; None for any other reason.

    >>> leaving_note("timeout-ranked", "bob")
    'bob ran out of time; the game is ranked on captures'
    >>> leaving_note("resignation", "bob") is None
    True
    """
    if not reason.endswith("-ranked"):
        return None
    left = "resigned" if reason.startswith("resignation") else "ran out of time"
    return f"{who} {left}; the game is ranked on captures"
