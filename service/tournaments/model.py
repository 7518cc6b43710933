"""The values the tournament core works on: formats, games and results, and the typed
error. Pure data: no I/O, no clock.

Players are plain ints (user ids). In a game ``first`` sits in seat 0 and ``second`` in
seat 1 ("colours": seat 0 is white in chess terms); a bye is a game without ``second``.

>>> g = Game(1, first=10, second=20, result=Result.FIRST_WINS)
>>> g.points_of(10), g.points_of(20), g.opponent_of(20)
(1.0, 0.0, 10)
>>> Game(2, first=30, result=Result.BYE).points_of(30)
1.0
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from locales.i18n import Text, Words, _, command, option, render
from locales.terms import game_name

__all__ = [
    "MAX_SWISS_ROUNDS",
    "MIN_PLAYERS",
    "TIMEOUTS_TO_WITHDRAW",
    "Format",
    "Game",
    "Result",
    "TournamentError",
    "check_players",
    "check_seat_count",
    "parse_format",
    "timed_out_twice",
]

MIN_PLAYERS = 2
MAX_SWISS_ROUNDS = 30
TIMEOUTS_TO_WITHDRAW = 2
"""A player whose clock runs out this many times in one tournament is withdrawn."""


class TournamentError(ValueError):
    """A tournament request that cannot be met; ``value`` is the input that was refused.

    >>> e = TournamentError("a Swiss needs 1 to 30 rounds", 0)
    >>> isinstance(e, ValueError), e.value
    (True, 0)
    """

    def __init__(self, text: Words, value: object = None) -> None:
        english = render(text, "en-US")
        super().__init__(english)
        self.text = text  # for people, in any language
        self.message = english
        self.value = value


class Format(enum.Enum):
    """How a tournament pairs its players."""

    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"

    @property
    def label(self) -> str:
        return {"round-robin": "round robin", "double-round-robin": "double round robin",
                "swiss": "Swiss", "knockout": "knockout"}[self.value]


FORMAT_WORDS: dict[Format, Text] = {
    Format.ROUND_ROBIN: _("round robin"), Format.DOUBLE_ROUND_ROBIN: _("double round robin"),
    Format.SWISS: _("Swiss"), Format.KNOCKOUT: _("knockout")}


def format_words(fmt: Format) -> Text:
    """A format's name in words (``Format.label`` in English)."""
    return FORMAT_WORDS[fmt]


def one_line(name: str) -> str:
    """A tournament's name on one line: each run of whitespace (a newline, a tab, a line
    separator) one space, none at either end. A name is a title (an embed's, a post's
    first words, a page's heading, the standings picture's): a newline pasted into it
    meant a space, and would break each of those in two.

    >>> one_line(" Spring\\n\\tOpen\\u2028 2026 ")
    'Spring Open 2026'
    """
    return " ".join(name.split())


def tournament_title(name: str, game: str, game_label: str, fmt: Format) -> Words:
    """A tournament's name: the organiser's (on one line, :func:`one_line`, a name
    stored before it was folded too), or the default one (``'Xiangqi Swiss'``, stored in
    English) in the reader's words."""
    if name == f"{game_label} {fmt.label}":
        return _("{game} {format}", game=game_name(game, game_label), format=format_words(fmt))
    return one_line(name)


def parse_format(text: str) -> Format:
    """A format from what people type (``"rr"``, ``"double"``, ``"Swiss"``...).

    >>> parse_format("Double round robin"), parse_format("ko")
    (<Format.DOUBLE_ROUND_ROBIN: 'double-round-robin'>, <Format.KNOCKOUT: 'knockout'>)
    """
    if not isinstance(text, str):
        raise TournamentError(_("the format must be text"), text)
    key = " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
    aliases = {"round robin": Format.ROUND_ROBIN, "rr": Format.ROUND_ROBIN,
               "single round robin": Format.ROUND_ROBIN,
               "double round robin": Format.DOUBLE_ROUND_ROBIN,
               "double": Format.DOUBLE_ROUND_ROBIN, "drr": Format.DOUBLE_ROUND_ROBIN,
               "swiss": Format.SWISS, "knockout": Format.KNOCKOUT, "ko": Format.KNOCKOUT,
               "cup": Format.KNOCKOUT}
    try:
        return aliases[key]
    except KeyError:
        raise TournamentError(_(
            "there is no tournament format {format} (choose round robin, double round robin, "
            "Swiss or knockout)", format=repr(text[:40])), text) from None


def check_seat_count(seat_count: int, game_name: Words) -> None:
    """Tournaments pair two players a game. A four-player game (Alquerque grande with
    ``players=4``) is refused: in ``teams`` mode a result belongs to a pair of partners,
    so individual standings would score a partner's play, and a free-for-all rotation in
    groups of four only fits player counts that are multiples of four, with groups that
    never meet and places 1-4 that no tie-break here compares.

    >>> check_seat_count(4, "Alquerque grande")
    Traceback (most recent call last):
    ...
    service.tournaments.model.TournamentError: tournaments are for two-player games: \
Alquerque grande for 4 players cannot be paired fairly one against one (play it with \
/challenge, or choose it for 2 players)
    """
    if seat_count != 2:
        raise TournamentError(_(
            "tournaments are for two-player games: {game} for {count} players cannot be "
            "paired fairly one against one (play it with {challenge}, or choose it for 2 players)",
            game=game_name, count=seat_count, challenge=command("challenge")), seat_count)


def check_players(fmt: Format, count: int, rounds: int | None = None) -> None:
    """Refuse a start that cannot work: too few players, a Swiss without sensible rounds
    (none given: the option to give is named, as a new organiser does not know it).

    >>> check_players(Format.SWISS, 2)
    Traceback (most recent call last):
    ...
    service.tournaments.model.TournamentError: a Swiss is played over a number of rounds \
you choose: give the rounds option (1 to 30)
    """
    if count < MIN_PLAYERS:
        raise TournamentError(_("a tournament needs at least {low} players ({count} "
                                "registered)", low=MIN_PLAYERS, count=count), count)
    if fmt is Format.SWISS and rounds is None:
        raise TournamentError(_("a Swiss is played over a number of rounds you choose: give "
                                "the {rounds} option (1 to {high})", rounds=option("rounds"),
                                high=MAX_SWISS_ROUNDS), rounds)
    if fmt is Format.SWISS and (
            isinstance(rounds, bool) or not isinstance(rounds, int)
            or not 1 <= rounds <= MAX_SWISS_ROUNDS):
        raise TournamentError(_("a Swiss needs 1 to {high} rounds", high=MAX_SWISS_ROUNDS),
                              rounds)


class Result(enum.Enum):
    """How a tournament game ended, as the pairing and standings see it."""

    FIRST_WINS = "1-0"
    DRAW = "1/2-1/2"
    SECOND_WINS = "0-1"
    FIRST_WINS_FORFEIT = "+/-"   # the second player withdrew or never played
    SECOND_WINS_FORFEIT = "-/+"
    BOTH_FORFEIT = "-/-"         # both had withdrawn: nobody scores
    DRAW_UNPLAYED = "=/="        # a draw agreed before every player had moved: not played
    BYE = "bye"                  # a Swiss bye: one point, no opponent, no colour
    REST = "rest"                # a round robin round without an opponent: no point

    @property
    def played(self) -> bool:
        """Played over the board (a forfeit, bye or rest is not, nor a draw agreed before
        every player had moved: ``DRAW_UNPLAYED``)."""
        return self in (Result.FIRST_WINS, Result.DRAW, Result.SECOND_WINS)

    @property
    def drawn(self) -> bool:
        """Half a point each: a draw over the board, or one agreed before every player
        had moved (``DRAW_UNPLAYED``).

        An early agreed draw is scored as a draw (what both players agreed to) but is no
        game played over the board, as the Swiss rules count games (FIDE C.04: a game
        not played, like a forfeit or a bye, gives its players no colour): neither
        player gets a colour from it, the standings count it apart from the games played
        (W + D + L stays the games played; the tie-breaks weigh it against FIDE's virtual
        opponent, as every unplayed round), and a knockout replays it as any draw. The
        two players are still counted as having met (as after a forfeit): a Swiss does
        not pair them again while it can avoid it.

        >>> Result.DRAW_UNPLAYED.drawn, Result.DRAW_UNPLAYED.played, Result.DRAW.played
        (True, False, True)
        """
        return self in (Result.DRAW, Result.DRAW_UNPLAYED)

    @property
    def decisive(self) -> bool:
        return not self.drawn


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a tournament. ``result`` None: not finished yet. ``replay`` numbers
    the games of a knockout tie (0 first; a draw is replayed with colours swapped).
    ``timed_out``: the player whose clock ran out (he lost this game)."""

    round: int
    first: int
    second: int | None = None
    result: Result | None = None
    replay: int = 0
    timed_out: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def opponent_of(self, player: int) -> int | None:
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        raise TournamentError(f"player {player} is not in this game", player)

    def colour_of(self, player: int) -> int | None:
        """0 (first), 1 (second), or None when the game was not played over the board."""
        if self.result is not None and not self.result.played:
            return None
        if self.second is None:
            return None
        return 0 if player == self.first else 1 if player == self.second else None

    def points_of(self, player: int) -> float:
        """The points ``player`` scored here (0 while the game runs)."""
        r = self.result
        if r is None or player not in self.players:
            return 0.0
        if r is Result.BYE:
            return 1.0
        if r in (Result.REST, Result.BOTH_FORFEIT):
            return 0.0
        if r.drawn:
            return 0.5
        first_won = r in (Result.FIRST_WINS, Result.FIRST_WINS_FORFEIT)
        return 1.0 if first_won == (player == self.first) else 0.0

    def winner(self) -> int | None:
        """Who won (None: a draw, unfinished, a bye, a rest or a double forfeit)."""
        r = self.result
        if r in (Result.FIRST_WINS, Result.FIRST_WINS_FORFEIT):
            return self.first
        if r in (Result.SECOND_WINS, Result.SECOND_WINS_FORFEIT):
            return self.second
        return None


def timed_out_twice(games: Iterable[Game]) -> frozenset[int]:
    """The players whose clock ran out at least ``TIMEOUTS_TO_WITHDRAW`` times: they are
    withdrawn.

    >>> gs = [Game(1, 1, 2, Result.SECOND_WINS, timed_out=1),
    ...       Game(2, 3, 1, Result.FIRST_WINS, timed_out=1)]
    >>> sorted(timed_out_twice(gs))
    [1]
    """
    counts: dict[int, int] = {}
    for g in games:
        if g.timed_out is not None:
            counts[g.timed_out] = counts.get(g.timed_out, 0) + 1
    return frozenset(p for p, n in counts.items() if n >= TIMEOUTS_TO_WITHDRAW)
