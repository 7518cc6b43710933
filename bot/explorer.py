"""What the console and Discord show of the opening explorer (issue 44): its lines in words
and its picture (the position with the most played moves drawn as arrows)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass

from locales.i18n import Words, _, _n, command, decimal, joined, listing, render
from locales.terms import choice_title
from service import ExplorerMove, ExplorerView
from service.explorer import EXPLORER_PLIES, read_config

ARROWS = 5
"""How many of the most played moves the picture draws."""


def move_line(m: ExplorerMove) -> Words:
    """One next move: its games, its score for its player, and the average rating of
    those who played it."""
    said = _n("{move}: {count} game, its player won {wins}, drew {draws}, lost {losses} "
              "({score}%)",
              "{move}: {count} games, its player won {wins}, drew {draws}, lost {losses} "
              "({score}%)", m.games, move=m.display, count=m.games,
              score=decimal(100 * m.score, 0), wins=m.wins, draws=m.draws, losses=m.losses)
    if m.rating is None:
        return said
    return joined(said, _("· average rating {rating}", rating=decimal(m.rating)))


def rating_note(moves: Sequence[ExplorerMove]) -> Words | None:
    """What the "average rating" of ``moves``' lines is, said under them when one shows
    it: the number is the leaderboard's (openskill's ordinal, which starts at 0 and goes
    below it after early losses), not an Elo-like one a player would guess; None when no
    line shows one."""
    if all(m.rating is None for m in moves):
        return None
    return _("Average rating: of those who played the move in rated games, as {leaderboard} "
             "rates players (the skill estimate minus 3× its uncertainty: a new player "
             "starts at 0 and can go below it).", leaderboard=command("leaderboard"))


def game_words(config: str) -> Words:
    """An explorer configuration (``alquerque-grande players=4 mode=fast``) as the game
    menus name it, in the reader's words ("Alquerque grande · 4 Spieler · schnell"), not
    by its key."""
    key, options = config.split()[0], read_config(config)[2]
    return choice_title(key, options)


def where(view: ExplorerView) -> Words:
    """The line that led to what the explorer shows."""
    return (_("from the start") if not view.line
            else _("after {line}", line=" ".join(view.line)))


def title(view: ExplorerView) -> Words:
    """What the explorer shows: the game as its menu names it and the line that led
    there."""
    games = {"played": _("the server's own games"), "imported": _("imported games"),
             "all": _("all games")}[view.source]
    return _("Opening explorer, {game}, {where} ({games})", game=game_words(view.config),
             where=where(view), games=games)


def summary(view: ExplorerView) -> Words:
    """How many games went on from here, or that none did; of the imported games alone
    (``games:imported``), also that only finished ones count (an imported game that was
    not over, which may go on as a match, is not counted: ``service.explorer``)."""
    said = _summary(view)
    if view.source != "imported":
        return said
    return joined(_("Only finished imported games are counted: an imported game that "
                    "was not over is not."), said)


def _summary(view: ExplorerView) -> Words:
    if not view.moves and len(view.line) >= EXPLORER_PLIES:
        return _n("No game is counted from here: the explorer counts the first {count} "
                  "move of each game.", "No game is counted from here: the explorer counts "
                  "the first {count} moves of each game.", EXPLORER_PLIES,
                  count=EXPLORER_PLIES)
    if not view.moves:
        return _("No finished game of this server went on from here.")
    return _n("{count} game went on from here:", "{count} games went on from here:",
              view.games, count=view.games)


@dataclass(frozen=True, slots=True)
class ExplorerPicture:
    png: bytes
    alt_text: str


def picture(view: ExplorerView, locale: str) -> ExplorerPicture | None:
    """The position with the :data:`ARROWS` most played moves as arrows (thicker: played
    more), or None where the explorer follows lines (no common position) or without the
    renderer."""
    if view.position is None:
        return None
    try:
        draw_board = importlib.import_module("render").draw_board
    except (ImportError, AttributeError):
        return None
    shown = [m for m in view.moves if m.marks is not None][:ARROWS]
    most = max((m.games for m in shown), default=1)
    arrows = [(m.marks, m.games / most) for m in shown if m.marks is not None]
    drawn = draw_board(view.position, arrows=arrows, locale=locale)
    said = str(drawn.alt_text)
    if shown:
        said += " " + render(_("Arrows: the moves most played here, {moves}.",
                               moves=listing(f"{m.display} ({m.games})" for m in shown)),
                             locale)
    return ExplorerPicture(bytes(drawn.png), said[:1000])
