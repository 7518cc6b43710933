"""Imported games as the adapters name them where a person picks one (issue 44):
``/continue``'s suggestions in Discord, the list the console's ``/continue`` gives when
no game is named.

A game is named by its match number, its game, its players (the record's names, or a
seat's name where the record gave none), its moves and the day it was imported:
``1 · Xiangqi · Liu Dianzhong – Liu Dahua · 20 moves · 2026-11-30``. The players are the
part a record chooses, so they are the part cut to fit: each name to
:data:`MAX_PLAYER` characters, then the last names left out (an ellipsis in their
place) until the label fits (Discord's choice names hold 100 characters); the number,
the game, the moves and the day always show. A record's names are kept already cleaned
(``imported_seats.imported_name``: no mention, no direction override, single spaces).
"""

from __future__ import annotations

from locales.i18n import _n, render
from locales.terms import game_name, seat_colour
from service.challenges import ContinuableGame

MAX_PLAYER = 24
"""The most characters of one player's name in a label."""
ELLIPSIS = "…"
SEPARATOR = " – "


def _cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, an ellipsis marking a cut.

    >>> _cut("Liu Dianzhong", 8), _cut("Liu", 8), _cut("Liu", 0)
    ('Liu Dia…', 'Liu', '')
    """
    if len(text) <= limit:
        return text
    return text[:limit - 1].rstrip() + ELLIPSIS if limit > 1 else ""


def players(game: ContinuableGame, locale: str, room: int) -> str:
    """The players by seat in at most ``room`` characters, "Liu Dianzhong – Liu Dahua";
    a seat whose player the record did not name by the seat's name in ``locale``. Each
    name is cut to :data:`MAX_PLAYER` characters; the names that do not fit after
    those that do are left out (an ellipsis says so)."""
    names = [_cut(s.player or render(seat_colour(s.name), locale), MAX_PLAYER)
             for s in game.match.seats]
    for count in range(len(names), 0, -1):
        shown = SEPARATOR.join(names[:count] + ([ELLIPSIS] if count < len(names) else []))
        if len(shown) <= room:
            return shown
    return _cut(names[0], room) if names else ""


def import_label(game: ContinuableGame, locale: str, limit: int = 100,
                 number: str | None = None) -> str:
    """``game`` named in ``locale`` in at most ``limit`` characters (see the module);
    ``number``: its match number as the reader types it (the console's ``#1``)."""
    m = game.match
    day = game.imported_at.date().isoformat() if game.imported_at is not None else "-"

    def said(names: str) -> str:
        # TRANSLATORS: an imported game in /continue's suggestions: its match number, its
        # game, its players, its moves and the day it was imported (2026-11-30)
        return render(_n("{match} · {game} · {players} · {count} move · {date}",
                         "{match} · {game} · {players} · {count} moves · {date}",
                         m.moves_played, match=number or m.id, game=game_name(m.game, m.game_name),
                         players=names, count=m.moves_played, date=day), locale)

    room = limit - len(said(""))
    return said(players(game, locale, max(room, 0)))[:limit]
