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
_LEFT: Final = {"resign": "resigned", "timeout": "ran out of time"}


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
            return (f"{FORFEIT_PREFIX}{leaver} {_LEFT[how]} before every player had moved; "
                    f"{winner} wins")
        return DOUBLE_FORFEIT
    if why is None:
        return f"aborted: {leaver} {_LEFT.get(how or '', _LEFT['timeout'])} before every " \
            "player had moved"
    return f"aborted: {why}"

