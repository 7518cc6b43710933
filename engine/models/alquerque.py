"""Alquerque (BrainKing rules): stones and the steps each has left."""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar, cast

from engine.board import SearchBoard
from engine.levels import TOP, Level
from engine.models.base import GameModel, PathGameModel, Pieces, forward, register
from engine.zobrist import mover_key, piece_key
from rules import Outcome, Position
from rules.alquerque import ENEMY, STONES, AlquerquePosition, AlquerqueVariant
from rules.lattice import Move
from rules.lattice_moves import original_moves


class AlquerqueModel(PathGameModel):
    """Alquerque: stones, and the steps
    each stone has left before it stands on the far rank where it can no longer step;
    a side that runs out of steps loses, so spare tempo is worth material. Captures are
    compulsory (quiescence follows every forced capture chain)."""

    key = "alquerque"
    mobility_weight = 6
    captures_compulsory = True
    # b2-c3 gives a stone away (see level_changes), and an opening can all but decide
    # the game: with one opening a game, level 4 scored 54 % against level 3 over the
    # ladder's 100 games and 59-74 % over other seeds' (the same levels)
    paired_balanced_openings = True
    STONE: ClassVar[int] = 100
    SPARE: ClassVar[int] = 4

    def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
        by_rank = self._stone_values(position.variant.board_size[1])
        score = [0] * position.seat_count
        for (_, y), piece in pieces.items():
            seat = piece.seat
            score[seat] += by_rank[seat][y]
        return tuple(score)

    def board(self, position: Position[Any]) -> SearchBoard | None:
        """The search's board (:class:`AlquerqueBoard`) for this model's own evaluation."""
        if type(self) in (AlquerqueModel, AlquerqueTopModel, GrandeAlquerqueRulesModel) \
                and isinstance(position, AlquerquePosition):
            return AlquerqueBoard(position, self)
        return None

    @classmethod
    @functools.cache
    def _stone_values(cls, height: int) -> tuple[tuple[int, ...], ...]:
        """Per seat, per rank: a stone's worth with the steps it has left (tabled once
        per board height: the evaluation runs at every leaf)."""
        return tuple(tuple(cls._stone_worth(forward(seat, y, height), height)
                           for y in range(height))
                     for seat in (0, 1))

    @classmethod
    def _stone_worth(cls, advanced: int, height: int) -> int:
        """A stone's worth ``advanced`` ranks from its own edge: a stone, and the
        steps it has left."""
        return cls.STONE + cls.SPARE * (height - 1 - advanced)

    def for_level(self, level: Level) -> GameModel:
        """Level 8 judges stones by its own table (:class:`AlquerqueTopModel`).

        >>> from engine.levels import LEVELS
        >>> type(AlquerqueModel().for_level(LEVELS[8])).__name__
        'AlquerqueTopModel'
        >>> type(AlquerqueModel().for_level(LEVELS[7])).__name__
        'AlquerqueModel'
        """
        return _ALQUERQUE_TOP if level.number == TOP else self

    level_changes: ClassVar[Mapping[int, Mapping[str, Any]]] = {
        7: {"time_share": 0.125, "min_nodes": 6_000},
        8: {"time_share": 1.0, "min_nodes": 48_000}}
    """Level 8 searches eight times level 7's nodes, not twice.

    On the 5×5 board every first move goes to c3 and the reply must capture, so
    self-play with one random move per seat had five openings, and levels 7 and 8 search
    without noise or slips: the ladder's 100 games were ten games replayed. Level 7
    (6 000 nodes) and level 8 (12 000) played each opening the same way, so the seat
    decided every game (records: each opening won by the same seat whichever level held
    it; level 8 scored 48 %). Twice the nodes is one ply more (each ply about doubles
    the nodes here) and changed no result; from the seat that lost, level 8 with 24 000
    nodes won one of the five openings, with 48 000 two of four (depth 10 against 6).
    So level 8's floor is 48 000 nodes (about 1 s here on the rules' positions, 0.3-0.4 s
    of CPU on the game's own board; Alquerque's nodes are the cheapest), and level 7
    uses an eighth of the time budget instead of half, so that the same ratio holds
    when the time budget rather than the floors binds. Level 7 itself is unchanged
    where the ladder measures it: its 6 000-node floor binds.

    With varied openings of any quiet move, level 7 scored 51 % against level 6 and
    level 8 54 % against level 7; with balanced ones (:data:`engine.selfplay.OPENING_MARGIN`)
    every step passes (levels 1-7: 80, 67, 63, 61, 74, 68, 60 %; 8 against 7: 62 %),
    but level 8 scored only 96 % against random moves: each seat's first opening move
    was still any quiet move, and here it can give a stone away (``b2-c3``: the reply
    takes it); in one lost game level 8 judged itself about three stones down (-340)
    when the opening ended, and it ran out of moves later. So Alquerque's openings are
    balanced from the first move on and each is played from both seats
    (:attr:`paired_balanced_openings`), and the levels, unchanged, pass every step:
    levels 1-7 79, 65, 65, 66, 68, 70, 63 %, 8 against 7 61 %, 8 against random
    moves 100 %.

    >>> from engine.levels import LEVELS
    >>> AlquerqueModel().adapt_level(LEVELS[8]).min_nodes
    48000
    """


class AlquerqueTopModel(AlquerqueModel):
    """Alquerque's level 8: a stone's worth by the ranks it has advanced, from a table
    (:attr:`WORTH`) fitted to games, where the shared judgement counts a stone and 4
    (here before: 10) a step it has left.

    Most games end with a side to move that has no move (81-88 of 100 between two
    level 8s), so what a stone is worth is the moves it can still make: a stone on its
    far rank can no longer step (it can only capture sideways), and one a rank short of
    it has one step forward left. The table is a logistic regression of the game's
    winner on the stones each side has per rank advanced (with and without their
    moves) over the quiet positions (no capture for either side) of games of level 8
    against itself (4 000 nodes a move, the self-play openings), scaled to 140 for a
    stone at home: over 383 games (8 657 positions) 140, 120-121, 103-105, 59-65 and 3-5
    (the table takes their middle; 4 a move); over 571 games (13 100) 140, 120, 102, 56
    and 1, each third of the games fitted alone the same within a few points. A stone
    on its far rank is worth almost nothing, one a rank short of it less than half a
    stone.

    Measured against the code before issue 39's (``bench/bench_versus.py``: paired
    openings, 100 ms of CPU time a move, no node floors; ``bench/results/``): a stone
    and 10 a step scored 59-62 % over the first 100 games in five runs and 62.0 % over
    200 (62 % on each 100), the table 65 % and 66 % over the first 100 and 64.0 % over
    200 (66 and 62), and 63.0 % (64 and 62) again once the best-reply search had
    landed: about four points more on the first 100 openings, none on the next 100.
    Not kept: mobility counted at 3 (with a
    stone and 10 a step) 63 %, at 4 with the table 64 % over the first 100; the table
    with each sideways step a stone could take along its rank counted 6 and mobility 3
    (the regression's next term; 13 % fewer nodes a second) 63.5 % over 200; the table
    with an exact verdict on races (every White stone above every Black one: nothing
    can meet again, and the side with more moves left wins; 5 000 for the winner)
    64.0 % over 200 (67 and 61: such races come within the search's sight anyway);
    every square its own worth, a stone beside an enemy, backed by its own or free to
    step forward: no better fit on games left out. Earlier: mobility counted twice as
    high (12) 57 %; a search a ply shallower for late quiet moves 42 points after 68
    games where the rest scored 45. Between two searches that make few mistakes the
    paired opening decides most pairs (70 of the 200 games' 100 pairs were split one
    game each, and 20-30 pairs of 100 change between two runs by timing alone). Level 7
    keeps the shared judgement, so the step between them grows: on the ladder level 8
    scores 73 % against it (66 % with a stone and 10 a step, 61 % with the shared
    judgement) and 99 % against random moves. The puzzle miner judges with level 8's
    model (:mod:`engine.puzzles`), so it mines by the table too.

    >>> AlquerqueTopModel._stone_values(5)[0]
    (140, 120, 105, 62, 5)
    >>> AlquerqueTopModel._stone_values(5)[1][0]  # Black's far rank is rank 1
    5
    """

    WORTH: ClassVar[tuple[int, ...]] = (140, 120, 105, 62, 5)
    """A stone's worth per rank advanced from its own edge, on the 5×5 board."""

    @classmethod
    def _stone_worth(cls, advanced: int, height: int) -> int:
        if height == len(cls.WORTH):
            return cls.WORTH[advanced]
        return super()._stone_worth(advanced, height)

    def for_level(self, level: Level) -> GameModel:
        return self


GRANDE_TWO_SIDES_LEVELS: Mapping[int, Mapping[str, Any]] = {8: {"min_nodes": 24_000}}
"""Alquerque grande played by two sides (two players by either rule set, four in
``teams``): level 8 searches four times level 7's nodes (24 000, not the shared 12 000).
With twice level 7's nodes level 8 often finished the same iteration and played alike,
and the paired openings of the ladder decided the games: with two players 8 against 7
scored 59.0 % over 100 games by the original rules and 53.6 % after 56 of 100 by the
grande rules (stopped). In ``teams`` (8 against 7 never measured with 12 000) twice
the nodes finished a ply more than level 7 in 3 of 5 middlegame positions, four times
in all 5, as in the two-player game. 24 000 nodes took about 1.4-1.8 s here on the
rules' positions (0.25-0.5 s of CPU on the game's own boards since), within the 2-second
budget the top level has in play. With 24 000 nodes and paired openings
8 against 7 scored 70.0 % (original rules), 69.5 % (grande rules) and 69.0 % (``teams``)
over 100 games each (``bench/results/``)."""


class GrandeAlquerqueRulesModel(AlquerqueModel):
    """Alquerque grande with two players and the original rules (7×7): Alquerque's
    evaluation, with the shared levels but level 8, which searches four times level 7's
    nodes (:data:`GRANDE_TWO_SIDES_LEVELS`; the 5×5 board's eight times were not
    tried here: with four times level 8 goes a ply deeper than level 7 in most
    positions, and stays within the 2-second budget).

    >>> from engine.levels import LEVELS
    >>> GrandeAlquerqueRulesModel().adapt_level(LEVELS[8]).min_nodes
    24000
    """

    level_changes: ClassVar[Mapping[int, Mapping[str, Any]]] = GRANDE_TWO_SIDES_LEVELS

    def for_level(self, level: Level) -> GameModel:
        """Every level with the shared judgement (the top model's weights were measured
        on the 5×5 board only)."""
        return self


_MOVERS = (mover_key(frozenset([0])), mover_key(frozenset([1])))
_OUTCOMES = tuple(tuple(Outcome.win(seat ^ 1, seats=2, reason=reason) for seat in (0, 1))
                  for reason in ("no-pieces", "no-moves"))
"""Per whether the seat to move has stones left, per seat to move: it lost."""


class LatticeBoard(SearchBoard):
    """A board whose moves are the lattice's own values (:class:`rules.lattice.Move`: the
    points walked and the stones captured), as the rules hand them out: a capture's gain is
    100 a stone taken. The hooks both Alquerque boards share (the original rules'
    :class:`AlquerqueBoard` and grande's :class:`engine.models.grande_board.GrandeBoard`)."""

    def tactical_gains(self, moves: Sequence[Hashable]) -> list[int | None]:
        return [100 * len(c) if (c := cast(Move, m)[1]) else None for m in moves]

    def is_tactical(self, move: Hashable) -> bool:
        return bool(cast(Move, move)[1])

    def gain(self, move: Hashable) -> int:
        return 100 * len(cast(Move, move)[1])

    def rules_move(self, move: Hashable) -> Hashable:
        return move


class AlquerqueBoard(LatticeBoard):
    """The original Alquerque rules for the search (:mod:`engine.board`), on either
    board: the points (0 empty, 1 White, 2 Black) and the no-return memory as lists,
    each move's change made and unmade in place, the key and the stones' worth per seat
    followed move by move. The moves are the rules' own values, generated by the rules'
    generator (:func:`rules.lattice_moves.original_moves`), in their order; the game
    ends, as there, when the seat to move has no move.

    >>> import rules
    >>> p = rules.variant("alquerque").start()
    >>> board = AlquerqueBoard(p, AlquerqueModel())
    >>> list(board.moves()) == list(p.legal_moves())
    True
    """

    def __init__(self, position: AlquerquePosition, model: AlquerqueModel) -> None:
        self.rules_board = position.board
        self.cells = list(position.cells)
        self.memory = list(position.memory)
        self.turn = position.turn
        points = position.board.grid.points
        by_rank = model._stone_values(position.variant.board_size[1])
        self._worth = tuple(tuple(by_rank[seat][y] for _, y in points) for seat in (0, 1))
        self._zobrist = tuple(tuple(piece_key(point, seat, STONES[seat].kind)
                                    for point in points) for seat in (0, 1))
        self.score = [0, 0]
        key = _MOVERS[self.turn]
        for i, value in enumerate(self.cells):
            if value:
                self.score[value - 1] += self._worth[value - 1][i]
                key ^= self._zobrist[value - 1][i]
        self._key = key
        self._legal: Sequence[Move] | None = None
        # per move made: the points it changed with their values and memories before,
        # and the key, score and moves before
        self._undo: list[tuple[list[tuple[int, int, int]], int, tuple[int, int],
                               Sequence[Move] | None]] = []

    def moves(self) -> Sequence[Move]:
        legal = self._legal
        if legal is None:
            board, turn = self.rules_board, self.turn
            grid = board.grid
            legal = self._legal = list(original_moves(
                self.cells, self.memory, turn, ENEMY[turn], board.first_jumps[turn],
                grid.jumps, board.steps[turn], grid.step_moves))
        return legal

    def make(self, move: Hashable) -> None:
        m = cast(Move, move)
        cells, memory = self.cells, self.memory
        path, captured = m[0], m[1]
        start, end = path[0], path[-1]
        turn = self.turn
        other = turn ^ 1
        changed = [(start, cells[start], memory[start])]
        changed += [(c, cells[c], memory[c]) for c in captured]
        changed.append((end, cells[end], memory[end]))
        self._undo.append((changed, self._key, (self.score[0], self.score[1]), self._legal))
        piece = cells[start]
        mine, theirs = self._zobrist[turn], self._zobrist[other]
        key = self._key ^ _MOVERS[0] ^ _MOVERS[1] ^ mine[start] ^ mine[end]
        self.score[turn] += self._worth[turn][end] - self._worth[turn][start]
        cells[start] = 0
        memory[start] = -1
        for c in captured:
            key ^= theirs[c]
            self.score[other] -= self._worth[other][c]
            cells[c] = 0
            memory[c] = -1
        cells[end] = piece
        memory[end] = start
        self.turn = other
        self._key = key
        self._legal = None

    def unmake(self) -> None:
        changed, self._key, score, self._legal = self._undo.pop()
        cells, memory = self.cells, self.memory
        for i, value, remembered in reversed(changed):
            cells[i] = value
            memory[i] = remembered
        self.score = [score[0], score[1]]
        self.turn ^= 1

    def rewind(self) -> None:
        while self._undo:
            self.unmake()

    def outcome(self) -> Outcome | None:
        # as :meth:`rules.alquerque.AlquerquePosition.outcome`
        if self.moves():
            return None
        turn = self.turn
        return _OUTCOMES[1 if (turn + 1) in self.cells else 0][turn]

    def mover(self) -> int:
        return self.turn

    def key(self) -> int:
        return self._key

    def in_check(self) -> bool:
        return False

    def evaluate(self) -> tuple[int, ...]:
        return self.score[0], self.score[1]



_ALQUERQUE = AlquerqueModel()
_ALQUERQUE_TOP = AlquerqueTopModel()
_GRANDE_ALQUERQUE = GrandeAlquerqueRulesModel()


@register(AlquerqueVariant, AlquerquePosition)
def _choose(position: Position[Any] | None) -> GameModel:
    """Alquerque's rules on their own 5×5 board, or on Alquerque grande's 7×7 (two
    players, ``rules=alquerque``: :class:`GrandeAlquerqueRulesModel`'s levels)."""
    if position is None or position.variant.board_size == AlquerqueVariant.board_size:
        return _ALQUERQUE
    return _GRANDE_ALQUERQUE
