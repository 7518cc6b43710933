"""What a match that ends before every player has moved is called: the words stored as
its result's reason (in English, the record's words; ``locales.terms.reason`` puts them
in the reader's language), so every client says the same (a post, the console, the web
page, a board picture, ``/history`` and the exported record).

Outside tournaments such a match is *aborted*: void and unrated ("aborted: bob (Black)
resigned before every player had moved", "aborted: no move in time", "aborted: draw
agreed before every player had moved"). A tournament game ends just as unrated, but its
tournament scores it (``TournamentService._result_of``): whoever resigned or ran out of
time forfeits it, both players forfeit when neither moved in time, and an agreed draw is
a draw. Its words say what the tournament does, so the match and the standings agree
(F+ / F-, "+/-" in the pairings):

>>> early_end(None, tournament=True, leaver="bob (Black)", how="resign",
...           winner="alice (Red)")
'forfeit: bob (Black) resigned before every player had moved; alice (Red) wins'
>>> early_end(NO_MOVE_IN_TIME, tournament=False, leaver="bob (Black)", how="timeout")
'aborted: no move in time'
"""

from __future__ import annotations

from typing import Final

DRAW_AGREED_EARLY: Final = "draw agreed before every player had moved"
"""Why a match is aborted when a draw is agreed before every player moved (``Endings``);
in a tournament, all its words (the tournament scores a draw)."""

NO_MOVE_IN_TIME: Final = "no move in time"
"""Why a match is aborted when a clock ran out before every player moved (the sweep, a
claim on time)."""

DOUBLE_FORFEIT: Final = "double forfeit: no move in time; both players lose"
"""A tournament game in which neither player moved in time (both were to move: a
set-up both had to hand in): both forfeit it."""

FORFEIT_PREFIX: Final = "forfeit: "
ABORTED_PREFIX: Final = "aborted: "
_BEFORE: Final = " before every player had moved"
_LEFT: Final = {"resign": "resigned", "timeout": "ran out of time"}
_HOW: Final = {verb: how for how, verb in _LEFT.items()}


def early_end(why: str | None, *, tournament: bool, leaver: str | None = None,
              how: str | None = None, winner: str | None = None) -> str:
    """The reason stored for a match that ended before every player had moved.

    ``why``: ``DRAW_AGREED_EARLY``, ``NO_MOVE_IN_TIME``, or None when ``leaver`` left it
    (``how``: ``"resign"`` or ``"timeout"``); ``leaver`` and ``winner``: the seats as
    people know them, in English (``'bob (Black)'``); ``winner``: the other player of a
    two-player game. ``tournament``: the match is a tournament game."""
    if tournament:
        if why == DRAW_AGREED_EARLY:
            return DRAW_AGREED_EARLY
        if leaver is not None and winner is not None and how in _LEFT:
            return f"{FORFEIT_PREFIX}{leaver} {_LEFT[how]}{_BEFORE}; {winner} wins"
        return DOUBLE_FORFEIT
    if why is None:
        return f"{ABORTED_PREFIX}{leaver} {_LEFT.get(how or '', _LEFT['timeout'])}{_BEFORE}"
    return f"{ABORTED_PREFIX}{why}"


def left_words(reason: str) -> tuple[str, str] | None:
    """Who left a match that ended before every player had moved, as its stored words
    name him (``'bob (Black)'``), and how (``"resign"`` or ``"timeout"``), read from the
    words :func:`early_end` wrote; None when they name no one (``'aborted: no move in
    time'``, a draw, a double forfeit, words reworded since). Read by their shape, from
    the ends in, never searched for a word (a name may hold "resigned" or "Red"). The
    last resort of a match whose result did not keep who left (older databases: see
    ``TournamentService._leaver``).

    >>> left_words("aborted: Red resigned (Black) ran out of time before every player "
    ...            "had moved")
    ('Red resigned (Black)', 'timeout')
    >>> left_words("forfeit: Black resigned before every player had moved; Red wins")
    ('Black', 'resign')
    >>> left_words("aborted: no move in time") is None
    True
    """
    if reason.startswith(FORFEIT_PREFIX):
        body, ends, _winner = reason[len(FORFEIT_PREFIX):].partition(_BEFORE + "; ")
        if not ends:
            return None
    elif reason.startswith(ABORTED_PREFIX) and reason.endswith(_BEFORE):
        body = reason[len(ABORTED_PREFIX):-len(_BEFORE)]
    else:
        return None
    for verb, how in _HOW.items():
        who = body.removesuffix(" " + verb)
        if who != body and who:
            return who, how
    return None


def left_seat(who: str) -> str:
    """The seat's colour in a leaver's words (:func:`left_words`): the last parentheses
    of ``'bob (Black)'`` (a name may have parentheses of its own), or the words
    themselves when they are the colour alone (``'Black'``).

    >>> left_seat("Red (Red) (Black)"), left_seat("Black")
    ('Black', 'Black')
    """
    if who.endswith(")") and " (" in who:
        return who[who.rindex(" (") + 2:-1]
    return who
