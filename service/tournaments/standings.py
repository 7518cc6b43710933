"""Standings with tie-breaks, from the games alone.

* points: a win 1, a draw 1/2, a Swiss bye 1, a forfeit win 1; a round robin rest 0;
* round robin: Sonneborn-Berger (the final points of each opponent beaten, plus half
  those of each opponent drawn), then the number of wins;
* Swiss: Buchholz (the opponents' final points), median Buchholz (the same without the
  highest and the lowest, with at least three opponents), then the number of wins;
* knockout: the round reached, then points.

A round not played over the board (a bye, a forfeit won or lost, a draw agreed before
every player had moved: ``Result.drawn``) counts in Buchholz and
Sonneborn-Berger as a game against FIDE's virtual opponent (the Swiss rules' tie-break
treatment of unplayed rounds): its score is the player's points before that round, plus
what the player did not score in it, plus a draw in every later round played so far. So a
bye is worth a draw's Buchholz, not the player's own total (a bye in the round being
played adds nothing yet). The Wins tie-break counts wins over the board or by forfeit
(not byes). Players level on everything share a place; the table shows byes, forfeits
and unplayed draws apart from the games played, so W + D + L is the games played.

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

from service.tournaments.model import Format, Game, Result

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
    """One line of the standings; ``place`` is shared by players level on everything.
    ``played`` games were played over the board (``wins + draws + losses``); the rounds
    not played there are ``byes`` (a Swiss bye: 1 point), ``forfeits_won`` (1 point),
    ``forfeits_lost`` (none) and ``draws_unplayed`` (a draw agreed before every player
    had moved: 1/2), so every round a player was paired in is counted once.
    """

    place: int
    player: int
    points: float
    played: int
    wins: int
    draws: int
    losses: int
    tiebreaks: tuple[float, ...]
    withdrawn: bool = False
    byes: int = 0
    forfeits_won: int = 0
    forfeits_lost: int = 0
    draws_unplayed: int = 0


def standings(players: Sequence[int], games: Iterable[Game], fmt: Format,
              withdrawn: Iterable[int] = ()) -> list[StandingRow]:
    """The standings of ``players`` (seeding order breaks nothing: level players share
    a place, listed in seeding order) over the finished ``games``."""
    done = [g for g in games if g.result is not None]
    points = {p: 0.0 for p in players}
    counts = {p: dict.fromkeys(("played", "wins", "draws", "losses", "byes", "won",
                                "lost", "agreed"), 0) for p in players}
    reached = dict.fromkeys(players, 0)
    for g in done:
        for p in g.players:
            if p not in points:
                continue
            points[p] += g.points_of(p)
            reached[p] = max(reached[p], g.round)
            count, r = counts[p], g.result
            if r is Result.REST:
                continue
            if r is Result.BYE:
                count["byes"] += 1
            elif r is Result.DRAW_UNPLAYED:
                count["agreed"] += 1
            elif r is not None and not r.played:  # a forfeit, won or lost (or both lost)
                count["won" if g.winner() == p else "lost"] += 1
            else:
                count["played"] += 1
                count["wins" if g.winner() == p else "draws" if r is Result.DRAW
                      else "losses"] += 1
    gone = set(withdrawn)
    last_round = max((g.round for g in done), default=0)

    def before(p: int, round_: int) -> float:
        return sum(g.points_of(p) for g in done if g.round < round_ and p in g.players)

    def contributions(p: int) -> list[tuple[float, float]]:
        """(opponent's points, my points from that game) per round of ``p``. A round not
        played over the board is played against FIDE's virtual opponent: my points
        before it, plus what I did not score in it, plus a draw in every later round."""
        out = []
        for g in done:
            if p not in g.players or g.result is Result.REST:
                continue
            opp = g.opponent_of(p)
            mine = g.points_of(p)
            if g.result is not None and g.result.played and opp is not None:
                out.append((points.get(opp, 0.0), mine))
            else:
                virtual = before(p, g.round) + (1.0 - mine) + 0.5 * (last_round - g.round)
                out.append((virtual, mine))
        return out

    breaks: dict[int, tuple[float, ...]] = {}
    for p in players:
        c = contributions(p)
        wins = float(counts[p]["wins"] + counts[p]["won"])  # over the board or by forfeit
        if fmt in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
            sb = sum(opp * mine for opp, mine in c)
            breaks[p] = (sb, wins)
        elif fmt is Format.SWISS:
            opp_points = sorted(opp for opp, _score in c)
            buchholz = sum(opp_points)
            median = sum(opp_points[1:-1]) if len(opp_points) >= 3 else 0.0
            breaks[p] = (buchholz, median, wins)
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
        n = counts[p]
        rows.append(StandingRow(place, p, points[p], n["played"], n["wins"], n["draws"],
                                n["losses"], breaks[p], p in gone, n["byes"], n["won"],
                                n["lost"], n["agreed"]))
    return rows
