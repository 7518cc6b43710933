"""Standings with tie-breaks, from the games alone.

* points: a win 1, a draw 1/2, a Swiss bye 1, a forfeit win 1; a round robin rest 0;
* round robin: Sonneborn-Berger (the final points of each opponent beaten, plus half
  those of each opponent drawn), then the number of wins;
* Swiss: Buchholz (the opponents' final points), median Buchholz (the same without the
  highest and the lowest, with at least three opponents), then the number of wins;
* knockout: the round reached, then points.

A round not played over the board (a bye, a forfeit) counts in Buchholz and
Sonneborn-Berger as a game against a "dummy" opponent with the player's own points, as
FIDE's tie-break regulations do, so a bye neither helps nor hurts. Wins are wins over the
board or by forfeit (not byes). Players level on everything share a place.

    >>> games = [Game(1, 1, 2, Result.FIRST_WINS), Game(1, 3, 4, Result.DRAW),
    ...          Game(2, 4, 1, Result.DRAW), Game(2, 2, 3, Result.SECOND_WINS)]
    >>> rows = standings([1, 2, 3, 4], games, Format.SWISS)
    >>> [(r.place, r.player, r.points, r.tiebreaks) for r in rows]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(1, 1, 1.5, (1.0, 0.0, 1.0)), (1, 3, 1.5, (1.0, 0.0, 1.0)),
     (3, 4, 1.0, (3.0, 0.0, 0.0)), (4, 2, 0.0, (3.0, 0.0, 0.0))]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.service.tournaments.model import Format, Game, Result

__all__ = ["StandingRow", "standings", "tiebreak_names"]


def tiebreak_names(fmt: Format) -> tuple[str, ...]:
    """The tie-break columns of a format, in the order they break ties."""
    if fmt in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
        return ("SB", "Wins")
    if fmt is Format.SWISS:
        return ("Buchholz", "Median", "Wins")
    return ("Round",)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings; ``place`` is shared by players level on everything."""

    place: int
    player: int
    points: float
    played: int
    wins: int
    draws: int
    losses: int
    tiebreaks: tuple[float, ...]
    withdrawn: bool = False


def standings(players: Sequence[int], games: Iterable[Game], fmt: Format,
              withdrawn: Iterable[int] = ()) -> list[StandingRow]:
    """The standings of ``players`` (seeding order breaks nothing: level players share
    a place, listed in seeding order) over the finished ``games``."""
    done = [g for g in games if g.result is not None]
    points = {p: 0.0 for p in players}
    played = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    draws = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    reached = dict.fromkeys(players, 0)
    for g in done:
        for p in g.players:
            if p not in points:
                continue
            points[p] += g.points_of(p)
            reached[p] = max(reached[p], g.round)
            if g.second is None:
                continue
            r = g.result
            if r is not None and r.played:
                played[p] += 1
            if g.winner() == p:
                wins[p] += 1
            elif r is Result.DRAW:
                draws[p] += 1
            elif r is not Result.REST:
                losses[p] += 1
    gone = set(withdrawn)

    def contributions(p: int) -> list[tuple[float, float]]:
        """(opponent's points, my points from that game) per round of ``p``."""
        out = []
        for g in done:
            if p not in g.players or g.result is Result.REST:
                continue
            opp = g.opponent_of(p)
            if g.result is not None and g.result.played and opp is not None:
                out.append((points.get(opp, 0.0), g.points_of(p)))
            else:
                out.append((points[p], g.points_of(p)))
        return out

    breaks: dict[int, tuple[float, ...]] = {}
    for p in players:
        c = contributions(p)
        if fmt in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
            sb = sum(opp * mine for opp, mine in c)
            breaks[p] = (sb, float(wins[p]))
        elif fmt is Format.SWISS:
            opp_points = sorted(opp for opp, _score in c)
            buchholz = sum(opp_points)
            median = sum(opp_points[1:-1]) if len(opp_points) >= 3 else 0.0
            breaks[p] = (buchholz, median, float(wins[p]))
        else:
            breaks[p] = (float(reached[p]),)

    def key(p: int) -> tuple[float, ...]:
        if fmt is Format.KNOCKOUT:
            return (-breaks[p][0], -points[p])
        return (-points[p], *(-b for b in breaks[p]))

    order = sorted(players, key=lambda p: (key(p), players.index(p)))
    rows: list[StandingRow] = []
    for i, p in enumerate(order):
        place = rows[-1].place if rows and key(order[i - 1]) == key(p) else i + 1
        rows.append(StandingRow(place, p, points[p], played[p], wins[p], draws[p],
                                losses[p], breaks[p], p in gone))
    return rows
