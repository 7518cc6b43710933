"""Standings as plain text rows: what the image (``render.table.draw_table``), an embed
and the CSV export show, computed once here.

    >>> from service.tournaments.model import Game, Result
    >>> from service.tournaments.standings import standings
    >>> rows = standings([1, 2], [Game(1, 1, 2, Result.DRAW)], Format.ROUND_ROBIN)
    >>> t = standings_table(rows, Format.ROUND_ROBIN, {1: "alice", 2: "bob"},
    ...                     title="Club round robin", subtitle="Xiangqi")
    >>> t.shown("en-US").headers
    ('#', 'Player', 'Pts', 'Games', 'W', 'D', 'L', 'Bye', 'F+', 'F-', 'F=', 'SB', 'Wins')
    >>> t.shown("en-US").rows[0]
    ('1', 'alice', '0.5', '1', '0', '1', '0', '0', '0', '0', '0', '0.25', '0')
    >>> print(standings_csv(rows, Format.ROUND_ROBIN, {1: "=cmd()", 2: "bob"}), end="")
    place,player,player_id,points,games,wins,draws,losses,byes,forfeits_won,forfeits_lost,draws_unplayed,SB,Wins,withdrawn
    1,'=cmd(),1,0.5,1,0,1,0,0,0,0,0,0.25,0,no
    1,bob,2,0.5,1,0,1,0,0,0,0,0,0.25,0,no
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from locales.i18n import Text, Words, _, render
from service.tournaments.model import Format
from service.tournaments.standings import StandingRow, tiebreak_names

__all__ = ["StandingsTable", "format_number", "standings_csv", "standings_table"]


def format_number(x: float) -> str:
    """``2.0`` -> ``2``, ``2.5`` -> ``2.5``, ``2.75`` -> ``2.75`` (scores are exact
    quarters at most, so nothing is rounded away).

    >>> format_number(3.0), format_number(0.5), format_number(1.75)
    ('3', '0.5', '1.75')
    """
    if x == int(x):
        return str(int(x))
    return f"{x:.2f}".rstrip("0")


@dataclass(frozen=True, slots=True)
class ShownTable:
    """A table in one language, as plain text (``render.table.draw_table`` takes exactly
    these fields)."""

    title: str
    subtitle: str
    headers: tuple[str, ...]
    align: str
    rows: tuple[tuple[str, ...], ...]
    top_rows: tuple[int, ...]
    faded_rows: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """Everything the drawing needs, in words not yet in any language (:meth:`shown`
    renders it for a reader)."""

    title: Words
    subtitle: Words
    headers: tuple[Words, ...]
    align: str
    rows: tuple[tuple[Words, ...], ...]
    top_rows: tuple[int, ...]
    faded_rows: tuple[int, ...]
    players: tuple[int, ...] = ()
    """The player of each row (empty in a table stored before they were kept)."""

    def shown(self, locale: str) -> ShownTable:
        """The table in ``locale``."""
        return ShownTable(render(self.title, locale), render(self.subtitle, locale),
                          tuple(render(h, locale) for h in self.headers), self.align,
                          tuple(tuple(render(c, locale) for c in r) for r in self.rows),
                          self.top_rows, self.faded_rows)

    def renamed(self, names: Callable[[int], str]) -> StandingsTable:
        """The table with the players ``names`` knows named (a name learnt since it was
        made: it named them in neutral words); the others as they were."""
        rows = list(self.rows)
        for i, player in enumerate(self.players[:len(rows)]):
            name = names(player)
            if name:
                rows[i] = (rows[i][0], _player_cell(name, i in self.faded_rows),
                           *rows[i][2:])
        return dataclasses.replace(self, rows=tuple(rows))


TIEBREAKS: dict[str, Text] = {"SB": _("SB"), "Wins": _("Wins"), "Buchholz": _("Buchholz"),
                              "Median": _("Median"), "Round": _("Round")}
"""The tie-break columns' headers (``tiebreak_names``) in words."""


def _player_cell(name: Words, withdrawn: bool) -> Words:
    return _("{player} (withdrawn)", player=name) if withdrawn else name


def numbered(names: Mapping[int, str], rows: Sequence[StandingRow] = ()) -> dict[int, Words]:
    """Each player's name; one whose name is not known here (a mention does not render
    in a picture) "Player 3", by his place in ``names`` (the tournament's players in
    their order), never his id: the standings' and the web's pairings'."""
    order = dict.fromkeys([*names, *(r.player for r in rows)])
    # TRANSLATORS: a tournament player whose name is not known, by his number in the
    # tournament's list of players
    return {p: names.get(p) or _("Player {number}", number=i + 1)
            for i, p in enumerate(order)}


def standings_table(rows: Sequence[StandingRow], fmt: Format, names: Mapping[int, str],
                    *, title: Words, subtitle: Words = "") -> StandingsTable:
    """The standings as text rows; the players in first place are the top rows (once
    any game has counted), withdrawn players are faded and marked."""
    # TRANSLATORS: standings column headers: player, points, games played, won, drawn,
    # lost (short: they head narrow columns)
    headers: tuple[Words, ...] = (
        "#", _("Player"), _("Pts"), _("Games"), _("W"), _("D"), _("L"),
        # TRANSLATORS: standings column headers for rounds not played over the board:
        # byes (a point without a game), won by forfeit, lost by forfeit, drawn by an
        # agreement made before every player had moved (short)
        _("Bye"), _("F+"), _("F-"), _("F="),
        *(TIEBREAKS.get(n, n) for n in tiebreak_names(fmt)))
    out: list[tuple[Words, ...]] = []
    shown = numbered(names, rows)
    for r in rows:
        out.append((str(r.place), _player_cell(shown[r.player], r.withdrawn),
                    format_number(r.points), str(r.played),
                    str(r.wins), str(r.draws), str(r.losses), str(r.byes),
                    str(r.forfeits_won), str(r.forfeits_lost), str(r.draws_unplayed),
                    *(format_number(b) for b in r.tiebreaks)))
    started = any(r.points or r.played for r in rows)
    top = tuple(i for i, r in enumerate(rows) if r.place == 1 and started)
    faded = tuple(i for i, r in enumerate(rows) if r.withdrawn)
    return StandingsTable(title, subtitle, headers, "rl" + "r" * (len(headers) - 2),
                          tuple(out), top, faded, tuple(r.player for r in rows))


def _cell(text: str) -> str:
    """A spreadsheet must not run a name as a formula: a leading ``= + - @`` (or a tab
    or carriage return) gets a ``'`` in front (OWASP's advice for CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def standings_csv(rows: Sequence[StandingRow], fmt: Format, names: Mapping[int, str]
                  ) -> str:
    """The standings as CSV (RFC 4180, comma-separated, a header line): one line a
    player, numbers as numbers, the player's id beside his name (empty when it is not
    known: the file is in no reader's language, and the id names him for a program)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["place", "player", "player_id", "points", "games", "wins", "draws",
                "losses", "byes", "forfeits_won", "forfeits_lost", "draws_unplayed",
                *tiebreak_names(fmt),
                "withdrawn"])
    for r in rows:
        w.writerow([r.place, _cell(names.get(r.player, "")), r.player,
                    format_number(r.points), r.played, r.wins, r.draws, r.losses, r.byes,
                    r.forfeits_won, r.forfeits_lost, r.draws_unplayed,
                    *(format_number(b) for b in r.tiebreaks),
                    "yes" if r.withdrawn else "no"])
    return buf.getvalue()
