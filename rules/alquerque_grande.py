"""Alquerque grande (key ``alquerque-grande``): RULES.md §2, 7×7, 2 or 4 players.

Options: ``players`` 4 (default) or 2; ``mode`` (4 players only) ``teams`` (default,
White + Black against Turquoise + Red), ``fast`` or ``slow``; ``rules`` (2 players only)
``alquerque`` (default) or ``grande``.

Two players with ``rules="alquerque"`` play the original Alquerque rules (RULES §2.5) on
this board: those positions are :class:`rules.alquerque.AlquerquePosition` values on
:data:`BOARD` (the code of the ``alquerque`` game, with its position text of three fields,
7 ranks), and this variant hands their moves to that game. Everything below is the
author's own rule set (4 players, and 2 with ``rules="grande"``).

Rules versions (``AlquerqueGrande.rules_version``, stored with every match): ``"2"`` adds
the ``rules`` option; a match recorded under ``"1"`` with two players was played by the
author's rules, and ``start_recorded("1", players=2)`` starts it with ``rules="grande"``.

Stones step one point in
any direction along a line, or capture by jumping opponents' stones, as far as the
player likes: every prefix of a jump sequence is a legal move. The capture duty is
enforced by huffing: a step while a capture existed, or a sequence stopped while its stone
could still jump, costs the player a stone (:meth:`AlquerqueGrandePosition.last_removal`).

Seats: 4 players White 0 (south), Turquoise 1 (east), Black 2 (north), Red 3 (west);
2 players White 0, Black 1.

Outcome reasons: ``no-pieces`` (the loser, or the losing team, has no stones left; in
``fast``: a seat lost its last stone), ``no-moves`` (the seat to move could not move; in
``teams``: both members of the losing team are out and a stone of theirs is still on the
board), ``resignation`` (the last seat to go out resigned; in ``fast`` any resignation
ends the game), ``last-player`` (``slow``: one player is left, or none when the last ones
went out together), ``move-limit`` (the 50-round safeguard), ``both-teams-out`` (``teams``:
one move put the last members of both teams out, e.g. a capture of the last opposing stone
that is huffed and was the mover's last: a draw). A shared first place has no winners
(``fast`` and ``slow`` rankings).

Position text, one line of nine space-separated fields (the 2-player start)::

    BBBBBBB/BBBBBBB/BBBBBBB/BBB.WWW/WWWWWWW/WWWWWWW/WWWWWWW w -,- 0,0 - 0 - players=2 -

1. placement, rank 7 first, files a–g: ``W T B R`` (2 players ``W B``), ``.`` empty;
2. the seat whose turn it is, lowercase letter (after the end: the seat that would move
   next; with 2 players and ``no-moves`` the loser);
3. per seat, the no-return marker ``from>to`` (the seat's stone on ``to`` made the
   seat's last move, from ``from``) or ``-``;
4. per seat, the opponents' stones it has captured;
5. the seats that are out, in order of elimination: groups of letters joined by ``,``
   (seats that went out together share a group, e.g. ``T,BR``), then the seats whose
   turns are skipped as one last group of lowercase letters (``T,r``; ``fast`` has only
   that group), or ``-``;
6. moves in a row without capture or huff (the safeguard counter);
7. the point of the stone the last move huffed, or ``-``;
8. the options, ``players=4,mode=teams`` or ``players=2``;
9. ``-`` while the game goes on, else the outcome reason.

Skipping a seat (:meth:`AlquerqueGrandeVariant.skip_seat`, four players: the player is
gone, Board Game Arena's rule) is not in RULES.md; Tablero plays it so: the seat is out,
turn order skips it for the rest of the game and it ranks last (seats skipped together or
one after the other share the last place, below every seat that went out by the rules);
its stones stay on the board, where they block and where the others may capture them as
any opponent's stones (a team-mate may still not jump them). ``fast`` goes on without it
(its emptying no longer ends the game; the game ends when one seat is left,
``last-player``); ``slow`` keeps his stones instead of removing them; ``teams`` keep
their rules: the partner plays on, and the team wins or loses together.

>>> import rules
>>> v = rules.variant("alquerque-grande")
>>> p = v.start()
>>> sorted(v.format_move(p, m) for m in p.legal_moves())
['c3-d4', 'd3-d4']
>>> empty = "......."
>>> rows = [empty, empty, empty, "...B...", "...W...", empty, "......W"]
>>> p = v.from_text("/".join(rows) + " w -,- 0,0 - 0 - players=2 -")
>>> v.display_move(p, v.parse_move(p, "g1-f1"))
'g1-f1 (huff d3)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, NamedTuple

from rules.alquerque import (
    ALQUERQUE,
    STONES,
    AlquerquePosition,
    make_board,
    read_text,
    start_position,
)
from rules.core import (
    N_,
    BoardFacts,
    Detail,
    IllegalMoveError,
    MoveMarks,
    OptionError,
    Outcome,
    Piece,
    Point,
    Position,
    PositionError,
    SeatSkipError,
    Variant,
    detail,
    register,
)
from rules.lattice import (
    Explainer,
    Lattice,
    Move,
    MoveTable,
    parse_move,
    read_placement,
    write_placement,
)
from rules.lattice_moves import grande_moves

GRID = Lattice(7)
MODES = ("teams", "fast", "slow")
RULE_SETS = ("alquerque", "grande")
"""The ``rules`` option with two players: the original rules (§2.5) or the author's."""
RULES_VERSION = "2"
"""Version 2 (issue 18) adds ``rules``; version 1 played two players by the author's rules."""
LETTERS = {4: "WTBR", 2: "WB"}
SEAT_NAMES = {4: ("White", "Turquoise", "Black", "Red"), 2: ("White", "Black")}
TEAMS = (frozenset({0, 2}), frozenset({1, 3}))  # RULES §2.1: facing seats play together
ROUND_LIMIT = 50  # full rounds without capture or huff (RULES §2.4 safeguard)

START4 = {
    0: "a1 b1 c1 d1 e1 f1 b2 c2 d2 e2 c3 d3",
    1: "g1 f2 g2 e3 f3 g3 e4 f4 g4 f5 g5 g6",
    2: "d5 e5 c6 d6 e6 f6 b7 c7 d7 e7 f7 g7",
    3: "a2 a3 b3 a4 b4 c4 a5 b5 c5 a6 b6 a7",
}
START2 = {
    0: " ".join(GRID.names[:21]) + " e4 f4 g4",
    1: " ".join(GRID.names[28:]) + " a4 b4 c4",
}


def _layout(points: Mapping[int, str]) -> tuple[int, ...]:
    cells = [0] * GRID.count
    for seat, names in points.items():
        for name in names.split():
            cells[GRID.index[name]] = seat + 1
    return tuple(cells)


def _teams(mode: str | None) -> tuple[frozenset[int], ...]:
    """The teams of a game in ``mode`` (see :attr:`rules.Position.teams`)."""
    return TEAMS if mode == "teams" else ()
BOARD = make_board("alquerque-grande", GRID, _layout(START2))
"""The original Alquerque rules on this board with the two-player start (RULES §2.5)."""


def _enemy_table(players: int, mode: str | None, seat: int) -> tuple[bool, ...]:
    """``table[cell value]``: whether ``seat`` may jump (and capture) that stone."""
    mates = next((team for team in _teams(mode) if seat in team), frozenset([seat]))
    return (False, *(other not in mates for other in range(players)))


ENEMY = {(players, mode, seat): _enemy_table(players, mode, seat)
         for players, mode in ((2, None), (4, "teams"), (4, "fast"), (4, "slow"))
         for seat in range(players)}

Marker = tuple[int, int] | None
"""A player's no-return marker: ``(from, to)`` of his last move, or None."""


class Analysis(NamedTuple):
    """The legal moves of the seat to move, and what huffing needs to know.

    ``table.moves`` maps each move to 1 when it is a capture that could go on (a stopped
    sequence, huffed) else 0; ``best`` maps each stone that can capture to the most stones
    one of its sequences takes.
    """

    table: MoveTable
    best: dict[int, int]


def _analyse(cells: list[int], seat: int, marker: Marker, enemy: Sequence[bool]) -> Analysis:
    came, stone = marker if marker else (-1, -1)
    moves, best = grande_moves(cells, seat, came, stone, enemy, GRID.jumps, GRID.steps,
                               GRID.step_moves)
    table = MoveTable(GRID, cells, enemy, GRID.jumps)
    table.adopt(moves, GRID.jumps)
    return Analysis(table, best)


@dataclass(frozen=True, slots=True)
class AlquerqueGrandePosition(Position[Move]):
    """A position of Alquerque grande.

    Besides the Position API (:meth:`captured_counts`, :meth:`out_seats`, :attr:`teams`,
    :attr:`mode`, :meth:`last_removal`): ``eliminated`` (seats out, in order of
    elimination, grouped), :attr:`markers`, ``quiet`` (the safeguard counter) and
    ``players``; ``mode`` is None with 2 players.
    """

    players: int
    mode: str | None = field()  # no default: `= field()` stops dataclass taking Position.mode
    cells: tuple[int, ...]
    """One value per point in rank-major order: 0 empty, else seat + 1."""
    turn: int
    marker: tuple[Marker, ...]
    captured: tuple[int, ...]
    """Per seat, how many opponents' stones it has captured (huffs count for nobody)."""
    eliminated: tuple[tuple[int, ...], ...]
    quiet: int
    huff: int
    """The point whose stone the last move huffed, -1 if none (see :meth:`last_removal`)."""
    end: str
    """'' while the game goes on, else the outcome reason."""
    skipped: frozenset[int] = frozenset()
    """The seats whose turns are skipped (:meth:`AlquerqueGrandeVariant.skip_seat`)."""
    _cache: list[Analysis] = field(default_factory=list, init=False, compare=False, repr=False)

    # ------------------------------------------------------------------ Position API
    @property
    def variant(self) -> AlquerqueGrandeVariant:
        return ALQUERQUE_GRANDE

    @property
    def seat_count(self) -> int:
        return self.players

    @property
    def to_move(self) -> frozenset[int]:
        return frozenset() if self.end else frozenset([self.turn])

    def legal_moves(self) -> Sequence[Move]:
        if self.end:
            return ()
        return tuple(self._analysis().table.moves)

    def play(self, move: Move) -> AlquerqueGrandePosition:
        analysis = self._analysis()
        if self.end or not _is_move_of(move, analysis.table):
            raise IllegalMoveError(detail("not_legal", move=repr(move)))
        seat = self.turn
        path, captured = move[0], move[1]
        start, end = path[0], path[-1]
        huff = self._huff(analysis, move)
        cells = list(self.cells)
        markers = list(self.marker)
        cells[start] = 0
        for c in captured:
            victim = cells[c] - 1
            cells[c] = 0
            if (m := markers[victim]) is not None and m[1] == c:
                markers[victim] = None
        cells[end] = seat + 1
        markers[seat] = (start, end)
        if huff >= 0:
            cells[huff] = 0
            if huff == end:
                markers[seat] = None
        captures = list(self.captured)
        captures[seat] += len(captured)
        quiet = 0 if captured or huff >= 0 else self.quiet + 1
        return _settle(self.players, self.mode, cells, markers, tuple(captures),
                       list(self.eliminated), quiet, huff, seat + 1, moved=True,
                       skipped=self.skipped)

    def outcome(self) -> Outcome | None:
        if not self.end:
            return None
        return _outcome(self)

    def pieces(self) -> Mapping[Point, Piece]:
        points, stones = GRID.points, STONES
        return {points[i]: stones[v - 1] for i, v in enumerate(self.cells) if v}

    def to_text(self) -> str:
        letters = LETTERS[self.players]
        names = GRID.names
        markers = ",".join(f"{names[m[0]]}>{names[m[1]]}" if m else "-" for m in self.marker)
        groups = ["".join(letters[s] for s in g) for g in self.eliminated]
        if self.skipped:
            groups.append("".join(letters[s] for s in sorted(self.skipped)).lower())
        out = ",".join(groups) or "-"
        options = f"players={self.players}" + (f",mode={self.mode}" if self.mode else "")
        return " ".join((
            write_placement(GRID, self.cells, letters), letters[self.turn].lower(), markers,
            ",".join(map(str, self.captured)), out, str(self.quiet),
            names[self.huff] if self.huff >= 0 else "-", options, self.end or "-"))

    # ------------------------------------------------------------------ extras
    def captured_counts(self) -> tuple[int, ...]:
        """Per seat, the opponents' stones it has captured (huffs count for nobody)."""
        return self.captured

    def out_seats(self) -> frozenset[int]:
        """The seats that are out (4 players: ``teams`` and ``slow``, and skipped seats)."""
        return frozenset(s for group in self.eliminated for s in group) | self.skipped

    def skipped_seats(self) -> frozenset[int]:
        """The seats whose turns are skipped, their player gone (4 players)."""
        return self.skipped

    @property
    def teams(self) -> tuple[frozenset[int], ...]:
        return _teams(self.mode)

    @property
    def rule_set(self) -> str | None:
        """With two players, the author's rules are one of two rule sets (``rules=grande``;
        the default is the original Alquerque rules, RULES §2.5)."""
        if self.players != 2:
            return None
        return "the grande rules (steps in any direction, huffing)"

    def last_removal(self) -> tuple[Point, ...]:
        """Where the stone huffed by the last move stood, if it huffed one."""
        return (GRID.points[self.huff],) if self.huff >= 0 else ()

    @property
    def markers(self) -> tuple[tuple[Point, Point] | None, ...]:
        """Per seat, the no-return marker ``(from, to)``: that seat's stone on ``to`` may
        not step back to ``from`` in the seat's next turn."""
        return tuple((GRID.points[m[0]], GRID.points[m[1]]) if m else None
                     for m in self.marker)

    def stones(self, seat: int) -> int:
        """How many stones ``seat`` has on the board."""
        return self.cells.count(seat + 1)

    def huff_of(self, move: Move) -> Point | None:
        """The point of the stone ``move`` (legal here) would huff, if any."""
        analysis = self._analysis()
        if self.end or not _is_move_of(move, analysis.table):
            raise IllegalMoveError(detail("not_legal", move=repr(move)))
        huff = self._huff(analysis, move)
        return GRID.points[huff] if huff >= 0 else None

    def _huff(self, analysis: Analysis, move: Move) -> int:
        """The point huffed by ``move`` (legal here), -1 if none (RULES §2.3 rule 5)."""
        path, captured = move[0], move[1]
        if captured:  # a stopped sequence costs the capturing stone
            return path[-1] if analysis.table.moves[move] else -1
        best = analysis.best
        if not best:
            return -1
        if path[0] in best:  # the stepping stone could have captured: it goes
            return path[-1]
        return min(best, key=lambda s: (-best[s], s))

    def _analysis(self) -> Analysis:
        if not self._cache:
            self._cache.append(_analyse(list(self.cells), self.turn, self.marker[self.turn],
                                        ENEMY[self.players, self.mode, self.turn]))
        return self._cache[0]


def _is_move_of(move: object, table: MoveTable) -> bool:
    try:
        return isinstance(move, tuple) and move in table.moves
    except TypeError:  # unhashable junk is no move
        return False


def _next_active(seat: int, players: int, out: set[int] | frozenset[int]) -> int:
    for k in range(players):
        s = (seat + k) % players
        if s not in out:
            return s
    return seat % players


def _settle(players: int, mode: str | None, cells: list[int], markers: list[Marker],
            captures: tuple[int, ...], eliminated: list[tuple[int, ...]], quiet: int,
            huff: int, candidate: int, *, moved: bool,
            cause: str = "no-moves", skipped: frozenset[int] = frozenset()
            ) -> AlquerqueGrandePosition:
    """The position after a move (or a resignation): seats emptied go out, endings are
    judged, the safeguard is checked after a move, then seats are examined in turn order
    from ``candidate`` until one can move (RULES §2.3 rule 6 and the fine points)."""

    def build(turn: int, end: str, analysis: Analysis | None = None) -> AlquerqueGrandePosition:
        p = AlquerqueGrandePosition(players, mode, tuple(cells), turn, tuple(markers), captures,
                           tuple(eliminated), quiet, huff, end, skipped)
        if analysis:
            p._cache.append(analysis)
        return p

    out = {s for g in eliminated for s in g} | skipped
    candidate %= players
    emptied = tuple(s for s in range(players) if s not in out and (s + 1) not in cells)
    if emptied:
        if mode is None or mode == "fast":
            return build(_next_active(candidate, players, out), "no-pieces")
        eliminated.append(emptied)
        out.update(emptied)
        if (reason := _decided(mode, cells, out, "no-pieces")) is not None:
            return build(_next_active(candidate, players, out), reason)
    active = 2 if mode is None else players - len(out)  # ``fast``: out only when skipped
    if moved and quiet >= ROUND_LIMIT * active:
        return build(_next_active(candidate, players, out), "move-limit")
    seat = _next_active(candidate, players, out)
    while True:
        analysis = _analyse(cells, seat, markers[seat], ENEMY[players, mode, seat])
        if analysis.table.moves:
            return build(seat, "", analysis)
        if mode is None or mode == "fast":
            return build(seat, "no-moves")
        if mode == "slow":
            cells[:] = [0 if v == seat + 1 else v for v in cells]
            markers[seat] = None
        eliminated.append((seat,))
        out.add(seat)
        if (reason := _decided(mode, cells, out, cause)) is not None:
            return build(_next_active(seat, players, out), reason)
        seat = _next_active(seat + 1, players, out)


def _decided(mode: str, cells: list[int], out: set[int], cause: str) -> str | None:
    """The end reason when the 4-player game is over after seats went out, else None."""
    if mode == "slow":
        return "last-player" if len(out) >= 3 else None
    beaten = [team for team in TEAMS if all(s in out for s in team)]
    if not beaten:
        return None
    if len(beaten) == 2:
        return "both-teams-out"
    if any(v and (v - 1) in team for team in beaten for v in cells):
        return "resignation" if cause == "resignation" else "no-moves"
    return "no-pieces"


def _groups(keys: Mapping[int, tuple[int, ...]]) -> list[frozenset[int]]:
    """Seats grouped by equal keys, larger keys first."""
    ordered = sorted(set(keys.values()), reverse=True)
    return [frozenset(s for s, k in keys.items() if k == key) for key in ordered]


def _ranked(groups: Sequence[frozenset[int]], reason: str) -> Outcome:
    """A ranking whose first place wins only when one seat holds it."""
    groups = tuple(g for g in groups if g)
    winners = groups[0] if len(groups[0]) == 1 else frozenset()
    return Outcome(winners, groups, reason)


def _outcome(p: AlquerqueGrandePosition) -> Outcome:
    seats = range(p.players)
    reason = p.end
    if p.mode is None:
        if reason == "move-limit":
            return Outcome.draw(seats=2, reason=reason)
        loser = p.turn if reason == "no-moves" else (0 if p.stones(0) == 0 else 1)
        return Outcome.win(1 - loser, seats=2, reason=reason)
    playing = [s for s in seats if s not in p.skipped]  # skipped seats rank last
    if p.mode == "fast":
        return _ranked([*_groups({s: (p.captured[s], p.stones(s)) for s in playing}),
                        p.skipped], reason)
    if p.mode == "slow":
        if reason == "move-limit":
            return _ranked([*_groups({s: (p.stones(s),) for s in playing}), p.skipped],
                           reason)
        alive = frozenset(seats) - p.out_seats()
        return _ranked([alive, *reversed([frozenset(g) for g in p.eliminated]), p.skipped],
                       reason)
    if reason == "move-limit":
        return Outcome.draw(seats=4, reason=reason)
    beaten = [team for team in TEAMS if all(s in p.out_seats() for s in team)]
    if len(beaten) != 1:  # both teams went out with the same move
        return Outcome.draw(seats=4, reason=reason)
    return Outcome.win(next(t for t in TEAMS if t not in beaten), seats=4, reason=reason)


def _own(position: Position) -> AlquerqueGrandePosition:
    if not isinstance(position, AlquerqueGrandePosition):
        raise TypeError("not an Alquerque grande position")
    return position


def _number(token: str, refusal: Detail, text: str) -> int:
    """``token`` as a whole number; else PositionError saying ``refusal``."""
    if not (token.isascii() and token.isdigit()) or str(int(token)) != token:
        raise PositionError(refusal, text=text)
    return int(token)


class AlquerqueGrandeVariant(Variant["AlquerqueGrandePosition | AlquerquePosition", Move]):
    """Alquerque grande (RULES §2): 2 or 4 players, teams, huffing."""

    key: ClassVar[str] = "alquerque-grande"
    worth_unit: ClassVar[str] = "stone"
    removal_word: ClassVar[str] = "huffed"
    name: ClassVar[str] = N_("Alquerque grande")
    summary: ClassVar[str] = N_(
        "**Alquerque grande**, 7×7, for 2 or 4 players (4: two teams of facing players, or "
        "everyone for themselves in the `fast` and `slow` modes). Four players play the "
        "author's rules: steps along a line in any direction, jumps over opponents' "
        "stones, and the huff: a player who could capture and did not loses the "
        "capturing stone. A team loses when both partners are out of stones or moves. "
        "Two players play the original Alquerque rules on this board by default "
        "(`rules: alquerque`: forward and sideways steps only, compulsory captures, no "
        "huff), or the author's rules with `rules: grande`.\n"
        "Modes (4 players): `teams`: the facing players are partners; a team wins when "
        "the other team has no stone or no move left. `fast`: everyone for themselves; the "
        "game ends as soon as one player cannot move or has lost their last stone, and "
        "players are ranked by stones captured. `slow`: everyone for themselves; a player "
        "who cannot move is out and play goes on until one is left, the others ranked "
        "by when they went out.\n"
        "Moves: `d2-d3`, captures `b2xd4xf6`.")
    board_size: ClassVar[tuple[int, int]] = (7, 7)
    board_facts: ClassVar[BoardFacts] = BoardFacts("lines", "stone", 0.64, diagonals=True)
    options: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "players": (4, 2), "mode": MODES, "rules": RULE_SETS}
    example_options: ClassVar[tuple[Mapping[str, object], ...]] = (
        {"players": 2}, {"players": 2, "rules": "grande"}, {"players": 4, "mode": "teams"},
        {"players": 4, "mode": "fast"}, {"players": 4, "mode": "slow"})
    rules_version: ClassVar[str] = RULES_VERSION
    recorded_versions: ClassVar[tuple[str, ...]] = ("1", RULES_VERSION)

    def check_options(self, given: Mapping[str, object]) -> dict[str, object]:
        checked = super().check_options(given)
        if checked["players"] == 2:
            if "mode" in given:
                raise OptionError(detail("mode_needs_four", game=self.key))
            del checked["mode"]
        else:
            if "rules" in given:
                raise OptionError(detail("rules_needs_two", game=self.key))
            del checked["rules"]
        return checked

    def seat_count(self, **options: Any) -> int:
        return 2 if self.check_options(options)["players"] == 2 else 4

    def teams(self, **options: Any) -> tuple[frozenset[int], ...]:
        mode = self.check_options(options).get("mode")
        return _teams(mode if isinstance(mode, str) else None)

    def option_sets(self) -> tuple[dict[str, object], ...]:
        """Four players in each mode, then two players by each rule set (who have no
        mode)."""
        return (*({"players": 4, "mode": mode} for mode in MODES),
                *({"players": 2, "rules": rule_set} for rule_set in RULE_SETS))

    def start(self, **options: Any) -> AlquerqueGrandePosition | AlquerquePosition:
        """The 4-player start, or the 2-player one by the rules chosen (RULES §2.5 by
        default).

        >>> import rules
        >>> v = rules.variant("alquerque-grande")
        >>> type(v.start(players=2)).__name__, type(v.start(players=2, rules="grande")).__name__
        ('AlquerquePosition', 'AlquerqueGrandePosition')
        """
        checked = self.check_options(options)
        players = 2 if checked["players"] == 2 else 4
        if players == 2 and checked["rules"] == "alquerque":
            return start_position(BOARD)
        mode = str(checked["mode"]) if players == 4 else None
        cells = _layout(START4 if players == 4 else START2)
        p = AlquerqueGrandePosition(players, mode, cells, 0, (None,) * players, (0,) * players, (),
                           0, -1, "")
        return p

    def start_recorded(self, rules_version: str, **options: Any
                       ) -> AlquerqueGrandePosition | AlquerquePosition:
        """Version 1 had no ``rules`` option: its two-player matches keep ``grande``."""
        if rules_version not in self.recorded_versions:
            raise OptionError(detail("unknown_rules_version", game=self.key,
                                     version=str(rules_version),
                                     versions=tuple(self.recorded_versions)))
        if rules_version == "1":
            if "rules" in options:
                raise OptionError(detail("no_rules_option_in_v1", game=self.key))
            if options.get("players") == 2:
                options = {**options, "rules": "grande"}
        return self.start(**options)

    # ------------------------------------------------------------------ position text
    def from_text(self, text: str) -> AlquerqueGrandePosition | AlquerquePosition:
        """The author's rules' text (nine fields), or the three-field text of the
        original rules on this board (two players, ``rules=alquerque``)."""
        if not isinstance(text, str):
            raise PositionError(detail("position_not_text"), text=repr(text))
        fields = text.split()
        if len(fields) == 3:
            return read_text(BOARD, text)
        if len(fields) != 9:
            raise PositionError(detail("grande_fields"), text=text)
        placement, turn_s, markers_s, captures_s, out_s, quiet_s, huff_s, options_s, end_s = \
            fields
        if options_s == "players=2":
            players, mode = 2, None
        elif options_s in {f"players=4,mode={m}" for m in MODES}:
            players, mode = 4, options_s.rpartition("=")[2]
        else:
            raise PositionError(detail("grande_options_field", input=options_s), text=text)
        letters = LETTERS[players]
        names = SEAT_NAMES[players]
        cells = read_placement(GRID, placement, letters, text)
        if len(turn_s) != 1 or turn_s not in letters.lower():
            raise PositionError(detail("side_letter", input=turn_s,
                                       letters=tuple(f"'{c}'" for c in letters.lower())), text=text)
        turn = letters.lower().index(turn_s)
        marker_tokens = markers_s.split(",")
        if len(marker_tokens) != players:
            raise PositionError(detail("marker_count", count=players), text=text)
        markers: list[Marker] = []
        for seat, token in enumerate(marker_tokens):
            if token == "-":
                markers.append(None)
                continue
            came, _, now = token.partition(">")
            if came not in GRID.index or now not in GRID.index:
                raise PositionError(detail("not_a_marker", input=token), text=text)
            if cells[GRID.index[now]] != seat + 1:
                raise PositionError(detail("marker_not_seat", marker=token, point=now,
                                           seat=names[seat]), text=text)
            markers.append((GRID.index[came], GRID.index[now]))
        capture_tokens = captures_s.split(",")
        if len(capture_tokens) != players:
            raise PositionError(detail("capture_count_count", count=players), text=text)
        captures = tuple(_number(t, detail("capture_count_number", input=t), text)
                         for t in capture_tokens)
        most = 36 if players == 4 else 24
        if any(c > most for c in captures):
            raise PositionError(detail("capture_count_too_large"), text=text)
        eliminated: list[tuple[int, ...]] = []
        skipped: frozenset[int] = frozenset()
        if out_s != "-":
            groups = out_s.split(",")
            if players == 4 and groups[-1].islower():  # the skipped seats come last
                last = groups.pop()
                if any(ch not in letters.lower() for ch in last):
                    raise PositionError(detail("not_seat_letters", input=last), text=text)
                skipped = frozenset(letters.lower().index(ch) for ch in last)
                if len(skipped) != len(last):
                    raise PositionError(detail("seat_out_twice"), text=text)
            if groups and mode not in ("teams", "slow"):
                raise PositionError(detail("seats_out_mode"), text=text)
            for group in groups:
                if not group or any(ch not in letters for ch in group):
                    raise PositionError(detail("not_seat_letters", input=group), text=text)
                eliminated.append(tuple(sorted(letters.index(ch) for ch in group)))
            flat = [s for g in eliminated for s in g]
            if len(flat) != len(set(flat)) or skipped & set(flat):
                raise PositionError(detail("seat_out_twice"), text=text)
        quiet = _number(quiet_s, detail("counter_number", input=quiet_s), text)
        huff = -1
        if huff_s != "-":
            if huff_s not in GRID.index:
                raise PositionError(detail("not_a_point", input=huff_s), text=text)
            huff = GRID.index[huff_s]
            if cells[huff] or quiet:
                raise PositionError(detail("huff_point_field"), text=text)
        end = "" if end_s == "-" else end_s
        p = AlquerqueGrandePosition(players, mode, tuple(cells), turn, tuple(markers), captures,
                           tuple(eliminated), quiet, huff, end, skipped)
        problem = _inconsistency(p)
        if problem:
            raise PositionError(problem, text=text)
        return p

    # ------------------------------------------------------------------ moves
    def format_move(self, position: AlquerqueGrandePosition | AlquerquePosition,
                    move: Move) -> str:
        return GRID.move_text(move)

    def parse_move(self, position: AlquerqueGrandePosition | AlquerquePosition,
                   text: str) -> Move:
        if isinstance(position, AlquerquePosition):
            return ALQUERQUE.parse_move(position, text)
        p = _own(position)
        return parse_move(GRID, text, p._analysis().table, _Explainer(p), over=bool(p.end))

    def move_marks(self, position: AlquerqueGrandePosition | AlquerquePosition,
                   move: Move) -> MoveMarks:
        if isinstance(position, AlquerquePosition):
            return ALQUERQUE.move_marks(position, move)
        huff = _own(position).huff_of(move)
        return GRID.marks(move, (huff,) if huff else ())

    def display_move(self, position: AlquerqueGrandePosition | AlquerquePosition,
                     move: Move) -> str:
        """The canonical move plus its huff, e.g. ``d3-d4 (huff c3)``."""
        if isinstance(position, AlquerquePosition):
            return ALQUERQUE.display_move(position, move)
        huff = _own(position).huff_of(move)
        text = GRID.move_text(move)
        return f"{text} (huff {GRID.names[huff[1] * GRID.size + huff[0]]})" if huff else text

    def seat_name(self, seat: int, seat_count: int = 2) -> str:
        """White, Turquoise, Black, Red with 4 seats; White, Black with 2 (pass the seat
        count: seat 1 is Turquoise in a 4-player game)."""
        return SEAT_NAMES[2 if seat_count == 2 and seat < 2 else 4][seat]

    def resign(self, position: AlquerqueGrandePosition | AlquerquePosition, seat: int
               ) -> AlquerqueGrandePosition | AlquerquePosition | Outcome:
        """RULES §2.3 rule 7: resigning equals "cannot move" at that moment.

        Two players: the other wins (an Outcome). Four players: the position with
        ``seat`` out (``teams``: his stones stay; ``slow``: they are removed); its
        ``outcome()`` says whether that ended the game (``fast`` always ends).
        """
        if isinstance(position, AlquerquePosition):
            return ALQUERQUE.resign(position, seat)
        p = _own(position)
        if seat not in range(p.players):
            raise ValueError(f"no seat {seat} in this game")
        if p.end:
            raise ValueError("the game is over")
        if p.mode is None:
            return super().resign(p, seat)
        if seat in p.out_seats():
            raise ValueError(f"{SEAT_NAMES[4][seat]} is already out")
        if p.mode == "fast":
            return replace(p, end="resignation")
        cells = list(p.cells)
        markers = list(p.marker)
        if p.mode == "slow":
            cells = [0 if v == seat + 1 else v for v in cells]
            markers[seat] = None
        eliminated = [*p.eliminated, (seat,)]
        return _gone(p, seat, cells, markers, eliminated, p.skipped)

    def skip_seat(self, position: AlquerqueGrandePosition | AlquerquePosition, seat: int
                  ) -> AlquerqueGrandePosition | AlquerquePosition:
        """Four players: ``seat``'s turns are skipped for the rest of the game, his
        stones stay (they block; the others may capture them, a team-mate may not jump
        them) and he ranks last; ``teams`` keep their rules (the partner plays on, the
        team's result is both partners'). Two players cannot go on without one: a
        :class:`rules.core.SeatSkipError`, as for a seat that is out already, the end.

        >>> import rules
        >>> v = rules.variant("alquerque-grande")
        >>> p = v.skip_seat(v.start(players=4, mode="fast"), 1)
        >>> sorted(p.skipped_seats()), sorted(p.out_seats()), p.to_text().split()[4]
        ([1], [1], 't')
        >>> v.skip_seat(p, 1)
        Traceback (most recent call last):
        ...
        rules.core.SeatSkipError: Turquoise is out already
        """
        if isinstance(position, AlquerquePosition) or position.players != 4:
            return super().skip_seat(position, seat)
        p = _own(position)
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):
            raise SeatSkipError(detail("no_such_seat", number=repr(seat), game=self.key))
        if p.end:
            raise SeatSkipError(detail("game_over"))
        if seat in p.out_seats():
            raise SeatSkipError(detail("seat_already_out", seat=SEAT_NAMES[4][seat]))
        return _gone(p, seat, list(p.cells), list(p.marker), list(p.eliminated),
                     p.skipped | {seat})


def _gone(p: AlquerqueGrandePosition, seat: int, cells: list[int], markers: list[Marker],
          eliminated: list[tuple[int, ...]], skipped: frozenset[int]
          ) -> AlquerqueGrandePosition:
    """The four-player game after ``seat`` left (resigned, or his turns are skipped): the
    end when too few are left, else the turn goes on from him (RULES §2.3 rules 6, 7)."""
    out = {s for g in eliminated for s in g} | skipped
    reason = ("last-player" if len(out) >= 3 else None) if p.mode == "fast" \
        else _decided(str(p.mode), cells, out, "resignation")
    if reason is not None:
        return AlquerqueGrandePosition(4, p.mode, tuple(cells), _next_active(p.turn, 4, out),
                                       tuple(markers), p.captured, tuple(eliminated), p.quiet,
                                       p.huff, reason, skipped)
    candidate = p.turn + 1 if seat == p.turn else p.turn
    return _settle(4, p.mode, cells, markers, p.captured, eliminated, p.quiet, p.huff,
                   candidate, moved=False, skipped=skipped)


def _inconsistency(p: AlquerqueGrandePosition) -> Detail | None:
    """Why a position read from text cannot happen, or None."""
    names = SEAT_NAMES[p.players]
    stones = [p.stones(s) for s in range(p.players)]
    most = 12 if p.players == 4 else 24
    for s in range(p.players):
        if stones[s] > most:
            return detail("too_many_pieces", seat=names[s], count=most)
        if p.mode == "slow" and s in p.out_seats() and s not in p.skipped and stones[s]:
            return detail("out_stones_in_slow", seat=names[s])
    out = p.out_seats()
    active = 2 if p.mode is None else p.players - len(out)
    limit = ROUND_LIMIT * active
    reason = p.end
    playing = [stones[s] for s in range(p.players) if s not in p.skipped]
    if not reason:
        for s in range(p.players):
            if s not in p.out_seats() and not stones[s]:
                return detail("no_stones_not_out", seat=names[s])
        if p.turn in p.out_seats():
            return detail("out_seat_to_move", seat=names[p.turn])
        if p.mode is not None and _decided(p.mode, list(p.cells), set(out), "") is not None:
            return detail("end_field_missing")
        if not p.legal_moves():
            return detail("to_move_without_moves", seat=names[p.turn])
        return None
    allowed = {None: ("no-pieces", "no-moves", "move-limit"),
               "fast": ("no-pieces", "no-moves", "resignation", "move-limit", "last-player"),
               "teams": ("no-pieces", "no-moves", "resignation", "move-limit",
                         "both-teams-out"),
               "slow": ("last-player", "move-limit")}[p.mode]
    if reason not in allowed:
        return detail("not_an_ending", input=reason, endings=allowed)
    if reason == "move-limit":
        return None if p.quiet >= limit else detail("counter_below", limit=limit)
    if p.mode == "teams":
        if not any(all(s in p.out_seats() for s in team) for team in TEAMS):
            return detail("no_team_out")
    elif p.mode == "slow" or reason == "last-player":
        if len(p.out_seats()) < 3:
            return detail("players_left")
    elif reason == "no-pieces" and all(playing):
        return detail("every_seat_has_stones")
    elif reason == "no-moves":
        if not all(playing):
            return detail("ending_is_no_pieces")
        if _analyse(list(p.cells), p.turn, p.marker[p.turn],
                    ENEMY[p.players, p.mode, p.turn]).table.moves:
            return detail("could_still_move", seat=names[p.turn])
    return None


class _Explainer(Explainer):
    """Alquerque grande's reasons: whose stone, team-mates, the no-return marker."""

    piece = "stone"

    def __init__(self, position: AlquerqueGrandePosition) -> None:
        super().__init__(GRID, position.cells, position.turn + 1)
        self.position = position
        self.enemy = ENEMY[position.players, position.mode, position.turn]

    def not_yours(self, start: int, value: int) -> Detail:
        if not self.enemy[value]:
            return detail("team_mates_piece", point=GRID.names[start], piece=self.piece)
        return detail("others_piece", point=GRID.names[start], piece=self.piece,
                      seat=SEAT_NAMES[self.position.players][value - 1])

    def not_jumpable(self, over: int, value: int) -> Detail | None:
        if value == self.me:
            return detail("jumps_own_piece", point=GRID.names[over], piece=self.piece)
        if not self.enemy[value]:
            return detail("jumps_team_mate", point=GRID.names[over])
        return None

    def bad_step(self, start: int, end: int) -> Detail:
        marker = self.position.marker[self.position.turn]
        if marker and marker == (end, start):
            return detail("no_step_back", point=GRID.names[end])
        return super().bad_step(start, end)


ALQUERQUE_GRANDE = register(AlquerqueGrandeVariant())
